package io.ccsim.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.scenarios.format.Scenario;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every catalog scenario reproduces its incident: the expected outcome and diagnosis. */
class CatalogTest {

    static List<String> names() { return ScenarioCatalog.names(); }

    @ParameterizedTest(name = "{0}")
    @MethodSource("names")
    void reproducesItsIncident(String name) {
        Scenario s = ScenarioCatalog.load(name);
        ScenarioResult r = ScenarioRunner.run(s, 1);
        assertThat(s.expect()).as("catalog scenarios state their expectation").isNotNull();
        assertThat(r.outcome()).as(r.toText()).isEqualTo(s.expect().outcome());
        for (Scenario.ExpectedDiagnosis e : s.expect().diagnoses()) {
            assertThat(r.diagnosis()).as("expected %s in%n%s", e, r.toText()).anyMatch(e::matches);
        }
        if (s.expect().diagnoses().isEmpty()) {
            assertThat(r.diagnosis()).as(r.toText()).isEmpty();
        }
        assertThat(r.horizonReached()).as("every catalog run ends by itself").isFalse();
    }

    @Test
    void indexListsExactlyTheCatalogFiles() throws IOException {
        List<String> files;
        try (Stream<Path> st = Files.list(Path.of("catalog"))) {
            files = st.map(p -> p.getFileName().toString()).filter(f -> f.endsWith(".json"))
                    .map(f -> f.substring(0, f.length() - 5)).sorted().collect(Collectors.toList());
        }
        assertThat(ScenarioCatalog.names()).containsExactlyInAnyOrderElementsOf(files);
        for (String n : files) assertThat(ScenarioCatalog.load(n).name()).isEqualTo(n);
    }

    @Test
    void listGivesDescriptionsAndExpectedOutcomes() {
        assertThat(ScenarioCatalog.list()).allSatisfy(e -> {
            assertThat(e.description()).isNotBlank();
            assertThat(e.expected()).isNotNull();
        });
    }
}
