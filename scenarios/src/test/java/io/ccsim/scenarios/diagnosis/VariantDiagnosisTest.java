package io.ccsim.scenarios.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.scenarios.ScenarioResult;
import io.ccsim.scenarios.ScenarioRunner;
import io.ccsim.scenarios.format.Scenario;
import io.ccsim.scenarios.format.ScenarioParser;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Incidents outside the catalog (this package's test resources): two faulty cables, Tree jobs (a slow
 * cable, a bit flip), a rank that skips a collective of its subgroup, a GPU that hangs in one. Each file states its expected outcome and findings;
 * the tests add what the findings must say.
 */
class VariantDiagnosisTest {
    private static final String NIC1 = "n0.nic1~leaf.r1.0", NIC6 = "n1.nic6~leaf.r6.0";
    /** "N collective(s) took A instead of B": the actual and the healthy (all links nominal) time. */
    private static final Pattern TOOK = Pattern.compile("took (\\S+ \\S+) instead of (\\S+ \\S+)");

    private static String text(String name) {
        try (InputStream in = VariantDiagnosisTest.class.getResourceAsStream(name + ".json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ScenarioResult run(String json, String name) {
        Scenario s = ScenarioParser.parse(json, name + ".json");
        ScenarioResult r = ScenarioRunner.run(s, 1);
        assertThat(r.outcome()).as(r.toText()).isEqualTo(s.expect().outcome());
        for (Scenario.ExpectedDiagnosis e : s.expect().diagnoses()) {
            assertThat(r.diagnosis()).as("expected %s in%n%s", e, r.toText()).anyMatch(e::matches);
        }
        return r;
    }

    private static ScenarioResult run(String name) { return run(text(name), name); }

    @Test
    void twoEqualCablesAreBothNamedAndFixingEitherAloneGainsNothing() {
        ScenarioResult r = run("two-faulty-ib-cables");
        assertThat(r.diagnosis(Category.SLOW_LINK)).as(r.toText()).singleElement().satisfies(d -> {
            assertThat(d.links()).containsExactlyInAnyOrder(NIC1, NIC6);
            assertThat(d.summary()).contains("link " + NIC1 + " runs at 10% of its rate", "link " + NIC6 + " runs at 10% of its rate");
            Matcher m = TOOK.matcher(d.summary());
            assertThat(m.find()).isTrue();
            String actual = m.group(1), healthy = m.group(2);
            // each cable bounds the channels crossing it: healed alone, the other still paces the ring
            assertThat(d.summary()).contains(
                    "fixing " + NIC1 + " alone: " + actual + " -> ", "(gains nothing: " + NIC6 + " still bounds the ring)",
                    "fixing " + NIC6 + " alone: " + actual + " -> ", "(gains nothing: " + NIC1 + " still bounds the ring)",
                    "fixing both: " + actual + " -> " + healthy);
        });
    }

    @Test
    void ofTwoUnequalCablesTheWorseBoundsAndHealingTheOtherGainsNothing() {
        ScenarioResult r = run("two-faulty-ib-cables-unequal");
        assertThat(r.diagnosis(Category.SLOW_LINK)).as(r.toText()).singleElement().satisfies(d -> {
            // worst first
            assertThat(d.links()).containsExactly(NIC1, NIC6);
            Matcher m = TOOK.matcher(d.summary());
            assertThat(m.find()).isTrue();
            double actual = ms(m.group(1)), healthy = ms(m.group(2));
            Matcher alone = Pattern.compile("fixing " + Pattern.quote(NIC1) + " alone: \\S+ \\S+ -> (\\S+ \\S+) \\(").matcher(d.summary());
            assertThat(alone.find()).as(d.summary()).isTrue();
            // healing the 1/10 cable leaves the ring at the 1/2 cable's pace: faster than now, slower than healthy
            assertThat(ms(alone.group(1))).isLessThan(actual / 2).isGreaterThan(healthy * 1.2);
            assertThat(d.summary()).contains(NIC6 + " still slows it", "fixing " + NIC6 + " alone", "(gains nothing: " + NIC1
                    + " still bounds the ring)");
        });
    }

    /** A duration "27.344 ms" / "3.2 s" / "900 us" in ms. */
    private static double ms(String d) {
        String[] p = d.split(" ");
        double v = Double.parseDouble(p[0]);
        switch (p[1]) {
            case "s": return v * 1e3;
            case "ms": return v;
            case "us": case "µs": return v / 1e3;
            default: throw new IllegalArgumentException("unit of " + d);
        }
    }

    @Test
    void aTreeJobIsDescribedInTreeWords() {
        ScenarioResult r = run("tree-faulty-ib-cable");
        assertThat(r.diagnosis(Category.SLOW_LINK)).as(r.toText()).singleElement().satisfies(d -> {
            assertThat(d.summary()).contains("bottleneck of the tree", "tree edge(s) rank ").doesNotContain("ring");
            assertThat(d.ranks()).isNotEmpty();
        });
    }

    @Test
    void aTreeJobsCorruptionIsLocatedApproximatelyAndSaysSo() {
        ScenarioResult r = run("tree-nvlink-bit-flip");
        assertThat(r.diagnosis(Category.DATA_CORRUPTION)).as(r.toText()).singleElement().satisfies(d -> assertThat(d.summary())
                .contains("checksums of a Tree plan are modelled along communicator order", "only approximately")
                .doesNotContain("ring"));
    }

    @Test
    void onlyTheRingIsDescribedAsARing() {
        for (Algorithm a : Algorithm.values()) {
            AlgorithmWords w = AlgorithmWords.of(a.ncclName());
            if (a == Algorithm.RING) assertThat(w.connections()).isEqualTo("ring hop(s)");
            else assertThat(w.toString()).as(a.ncclName()).doesNotContainIgnoringCase("ring");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {6, 1})
    void ranksWaitingOnASkippedSubgroupCollectiveAreNotMissing(int skipper) {
        String json = text("subgroup-skipped-collective").replace("\"ranks\": {\"6\": 1}", "\"ranks\": {\"" + skipper + "\": 1}")
                .replace("\"ranks\": [6]", "\"ranks\": [" + skipper + "]");
        ScenarioResult r = run(json, "subgroup-skipped-collective");
        int part = skipper / 4 * 4;
        List<Integer> waiting = new java.util.ArrayList<>(List.of(part, part + 1, part + 2, part + 3));
        waiting.remove(Integer.valueOf(skipper));
        // the root cause first: the skipper did not join its dp collective
        Diagnosis first = r.diagnosis().get(0);
        assertThat(first.category()).as(r.toText()).isEqualTo(Category.MISSING_RANK);
        assertThat(first.ranks()).containsExactly(skipper);
        assertThat(first.summary()).contains("on group dp", "went on without it to collective #1", "on group world",
                "Ranks " + RankRanges.format(waiting) + " wait in it", "blocked, not missing");
        // the others of its part wait for it: no finding calls them missing
        for (Diagnosis d : r.diagnosis(Category.MISSING_RANK)) assertThat(d.ranks()).as(r.toText()).doesNotContainAnyElementsOf(waiting);
    }

    @Test
    void ranksWaitingOnAHungGpuAreNotMissing() {
        ScenarioResult r = run("subgroup-gpu-hang");
        // the hung GPU is the root cause and comes first; ranks 4, 5, 7 wait in dp#1 behind it, 0-3 in world#1
        assertThat(r.diagnosis().get(0).category()).as(r.toText()).isEqualTo(Category.GPU_HANG);
        assertThat(r.diagnosis(Category.MISSING_RANK)).as(r.toText()).isEmpty();
        assertThat(r.diagnosis(Category.TIMEOUT)).singleElement().satisfies(d -> assertThat(d.ranks()).contains(0, 4, 5, 7));
    }
}
