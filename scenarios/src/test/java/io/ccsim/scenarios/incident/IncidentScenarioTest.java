package io.ccsim.scenarios.incident;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ccsim.scenarios.ScenarioResult;
import io.ccsim.scenarios.ScenarioRunner;
import io.ccsim.scenarios.diagnosis.Diagnosis;
import io.ccsim.scenarios.format.ScenarioParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The scenario written for a real incident reproduces it: running it names the same culprit, and for the mismatch and
 * the sleeping rank the same category. A skip on two ranks reads as a mismatch in the simulation (its ranks block at #8,
 * so no later call shows the shifted sequence), and a failed init is reproduced as a rank that never starts.
 */
class IncidentScenarioTest {

    @ParameterizedTest
    @CsvSource({"skip, false", "mismatch, true", "sleep, true", "ifname, false"})
    void runningTheScenarioNamesTheSameCulprit(String folder, boolean sameCategory) throws Exception {
        IncidentReport r = Real.report(folder, IncidentTrace.Expectation.NONE);
        Diagnosis real = r.diagnosis().get(0);
        String json = IncidentScenario.write(r, "incident-" + folder);
        ScenarioResult run = ScenarioRunner.run(ScenarioParser.parse(json, "incident-" + folder + ".json"), 1);
        assertThat(run.diagnosis()).isNotEmpty();
        assertThat(run.diagnosis().get(0).ranks()).first().isEqualTo(real.ranks().get(0));
        if (sameCategory) assertThat(run.diagnosis().get(0).category()).isEqualTo(real.category());
    }

    @Test
    void theHealthyJobRunsClean() throws Exception {
        IncidentReport r = Real.report("healthy", IncidentTrace.Expectation.NONE);
        ScenarioResult run = ScenarioRunner.run(ScenarioParser.parse(IncidentScenario.write(r, "healthy"), "healthy.json"), 1);
        assertThat(run.diagnosis()).isEmpty();
    }

    @Test
    void nccltestsAloneHaveNothingAScenarioReproduces() throws Exception {
        IncidentReport r = Real.report("nccl-tests", IncidentTrace.Expectation.NONE);
        assertThatThrownBy(() -> IncidentScenario.write(r, "x")).isInstanceOf(IncidentFormatException.class)
                .hasMessageStartingWith("--to-scenario: the incident has no flight-recorder entries");
    }
}
