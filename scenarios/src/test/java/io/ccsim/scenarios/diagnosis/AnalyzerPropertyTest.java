package io.ccsim.scenarios.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.scenarios.Outcome;
import io.ccsim.scenarios.ScenarioResult;
import io.ccsim.scenarios.ScenarioRunner;
import io.ccsim.scenarios.cluster.CollectiveStats;
import io.ccsim.scenarios.format.ScenarioParser;
import io.ccsim.scenarios.job.ScenarioSimulation;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The analyzer finds a culprit placed at a random rank or link (drawn from the test's seed), not
 * only the catalog's.
 */
class AnalyzerPropertyTest {

    private static ScenarioResult run(String json, long seed) {
        return ScenarioRunner.run(ScenarioParser.parse(json, "property-test"), seed);
    }

    private static String job(String topology, int nodes, int world, String program, String faults) {
        return "{\"name\": \"p\", \"topology\": {\"name\": \"" + topology + "\", \"nodes\": " + nodes + "},"
                + " \"settings\": {\"collective_timeout\": \"30s\"},"
                + " \"job\": {\"world_size\": " + world + ", \"eager_init\": true, \"program\": " + program + "},"
                + " \"faults\": " + faults + "}";
    }

    private static final String TRAIN = "[{\"repeat\": {\"times\": 3, \"steps\": [{\"compute\": \"20ms\"},"
            + " {\"collective\": {\"op\": \"all_reduce\", \"bytes\": \"64MiB\"}}]}}]";

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void missingRankIsNamed(long seed) {
        int culprit = new SplittableRandom(seed).nextInt(16);
        ScenarioResult r = run(job("hgx-h100", 2, 16, TRAIN, "[{\"type\": \"never_starts\", \"rank\": " + culprit + "}]"), seed);
        // without rank 0 there is no TCPStore server: the others' store waits time out (an error), else they hang
        assertThat(r.outcome()).as(r.toText()).isEqualTo(culprit == 0 ? Outcome.ERROR : Outcome.HANG);
        assertThat(r.diagnosis(Category.MISSING_RANK)).as(r.toText())
                .anySatisfy(d -> assertThat(d.ranks()).containsExactly(culprit));
    }

    @ParameterizedTest
    @ValueSource(longs = {11, 12, 13, 14, 15})
    void degradedNicLinkIsNamed(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int host = rnd.nextInt(4), nic = rnd.nextInt(8);
        String link = "n" + host + ".nic" + nic + "~leaf.r" + nic + ".0";
        ScenarioResult r = run(job("hgx-h100", 4, 32, TRAIN,
                "[{\"type\": \"link_degrade\", \"link\": \"" + link + "\", \"factor\": 0.05}]"), seed);
        assertThat(r.outcome()).as(r.toText()).isEqualTo(Outcome.DEGRADED);
        assertThat(r.diagnosis(Category.SLOW_LINK)).as(r.toText()).anySatisfy(d -> {
            assertThat(d.links()).containsExactly(link);
            // the ring hops crossing the rail-nic link enter or leave that host: their senders are on that host
            // (leaving) or on the host before it in the ring (entering), with 4 hosts: (host + 3) % 4
            assertThat(d.ranks()).isNotEmpty().allSatisfy(x -> assertThat(x / 8).isIn(host, (host + 3) % 4));
        });
    }

    @ParameterizedTest
    @ValueSource(longs = {16, 17, 18})
    void twoDegradedNicLinksAreBothNamedWithTheirGains(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int hostA = rnd.nextInt(4), nicA = rnd.nextInt(8);
        int hostB = (hostA + 1 + rnd.nextInt(3)) % 4, nicB = rnd.nextInt(8);
        String a = "n" + hostA + ".nic" + nicA + "~leaf.r" + nicA + ".0", b = "n" + hostB + ".nic" + nicB + "~leaf.r" + nicB + ".0";
        ScenarioResult r = run(job("hgx-h100", 4, 32, TRAIN, "[{\"type\": \"link_degrade\", \"link\": \"" + a + "\", \"factor\": 0.1},"
                + " {\"type\": \"link_degrade\", \"link\": \"" + b + "\", \"factor\": 0.1}]"), seed);
        assertThat(r.outcome()).as(r.toText()).isEqualTo(Outcome.DEGRADED);
        // every rail carries ring channels, so both cables are on the path: one finding names both, each with its gain
        assertThat(r.diagnosis(Category.SLOW_LINK)).as(r.toText()).singleElement().satisfies(d -> {
            assertThat(d.links()).containsExactlyInAnyOrder(a, b);
            assertThat(d.summary()).contains("fixing " + a + " alone: ", "fixing " + b + " alone: ", "fixing both: ");
        });
    }

    @ParameterizedTest
    @ValueSource(longs = {21, 22, 23, 24})
    void sizeMismatchCulpritIsNamed(long seed) {
        int culprit = new SplittableRandom(seed).nextInt(8);
        StringBuilder others = new StringBuilder("[");
        for (int i = 0; i < 8; i++) if (i != culprit) others.append(others.length() > 1 ? "," : "").append(i);
        others.append(']');
        String program = "[{\"compute\": \"1ms\"},"
                + " {\"collective\": {\"op\": \"all_reduce\", \"count\": 4096}, \"ranks\": " + others + "},"
                + " {\"collective\": {\"op\": \"all_reduce\", \"count\": 4000}, \"ranks\": [" + culprit + "]}]";
        ScenarioResult r = run(job("hgx-h100", 1, 8, program, "[]"), seed);
        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.diagnosis(Category.COLLECTIVE_MISMATCH)).as(r.toText())
                .anySatisfy(d -> assertThat(d.ranks()).containsExactly(culprit));
        assertThat(r.diagnosis(Category.TIMEOUT)).hasSize(1);
    }

    @ParameterizedTest
    @ValueSource(longs = {31, 32, 33, 34})
    void slowGpuIsNamed(long seed) {
        int culprit = new SplittableRandom(seed).nextInt(8);
        ScenarioResult r = run(job("hgx-h100", 1, 8, TRAIN,
                "[{\"type\": \"slow_gpu\", \"rank\": " + culprit + ", \"factor\": 1.8}]"), seed);
        assertThat(r.outcome()).isEqualTo(Outcome.DEGRADED);
        assertThat(r.diagnosis(Category.SLOW_RANK)).as(r.toText()).singleElement()
                .satisfies(d -> assertThat(d.ranks()).containsExactly(culprit));
    }

    @ParameterizedTest
    @ValueSource(longs = {41, 42, 43, 44, 45})
    void bitFlipEntryLinkIsNamed(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int gpu = rnd.nextInt(8), sw = rnd.nextInt(4);
        String link = "n0.gpu" + gpu + "~n0.nvs" + sw;
        String program = "[{\"compute\": \"10ms\"}, {\"collective\": {\"op\": \"all_reduce\", \"bytes\": \"512MiB\","
                + " \"checksum\": true}}]";
        // find the all-reduce's all-gather phase on the healthy system, then flip a bit inside it
        Trace healthy = ScenarioSimulation.run(ScenarioParser.parse(job("hgx-h100", 1, 8, program, "[]"), "t"), seed);
        CollectiveStats c = healthy.collectives().get(0);
        long mid = (c.startPs() + c.endPs()) / 2;
        long at = mid + (long) ((c.endPs() - mid) * (0.1 + 0.8 * rnd.nextDouble()));
        ScenarioResult r = run(job("hgx-h100", 1, 8, program,
                "[{\"type\": \"bit_flip_link\", \"link\": \"" + link + "\", \"at\": \"" + at + "ps\"}]"), seed);
        assertThat(r.outcome()).as(r.toText()).isEqualTo(Outcome.CORRUPTED);
        assertThat(r.diagnosis(Category.DATA_CORRUPTION)).as(r.toText()).singleElement()
                .satisfies(d -> assertThat(d.links()).contains(link));
    }

    @ParameterizedTest
    @ValueSource(longs = {51, 52, 53})
    void crashAndRestartAccountLostIterations(long seed) {
        int culprit = new SplittableRandom(seed).nextInt(8);
        int iteration = 4 + new SplittableRandom(seed + 1).nextInt(6); // 4..9
        String program = "[{\"repeat\": {\"times\": 12, \"steps\": [{\"compute\": \"100ms\"},"
                + " {\"collective\": {\"op\": \"all_reduce\", \"bytes\": \"16MiB\"}},"
                + " {\"checkpoint\": {\"duration\": \"10ms\", \"every\": 4}}]}}]";
        String json = "{\"name\": \"p\", \"topology\": {\"name\": \"hgx-h100\"}, \"settings\": {\"max_restarts\": 1},"
                + " \"job\": {\"world_size\": 8, \"program\": " + program + "},"
                + " \"faults\": [{\"type\": \"rank_crash\", \"rank\": " + culprit + ", \"at_iteration\": " + iteration + "}]}";
        ScenarioResult r = run(json, seed);
        assertThat(r.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(r.attempts()).isEqualTo(2);
        assertThat(r.diagnosis(Category.RANK_CRASH)).singleElement().satisfies(d -> assertThat(d.ranks()).containsExactly(culprit));
        // checkpoints after iterations 3 and 7: resume at (last checkpoint + 1); lost = iteration - resume + 1
        int resume = iteration >= 8 ? 8 : 4;
        assertThat(r.diagnosis(Category.ELASTIC_RESTART)).singleElement().satisfies(d -> assertThat(d.summary())
                .contains("resuming at iteration " + resume).contains((iteration - resume + 1) + " iteration(s)"));
    }

    @ParameterizedTest
    @ValueSource(longs = {61, 62, 63, 64, 65})
    void staleScalableInitKeyIsTracedToTheLateRoot(long seed) {
        int late = 1 + new SplittableRandom(seed).nextInt(3);
        String program = "[{\"collective\": {\"op\": \"all_reduce\", \"count\": 1, \"comm\": \"a\"}},"
                + " {\"sleep\": \"3s\", \"ranks\": [" + late + "]},"
                + " {\"collective\": {\"op\": \"all_reduce\", \"count\": 1, \"comm\": \"b\"}}]";
        String json = "{\"name\": \"p\", \"topology\": {\"name\": \"hgx-h100\", \"gpus_per_node\": 4},"
                + " \"settings\": {\"ranks_per_root\": 1, \"scalable_init_keys\": \"unscoped\"},"
                + " \"job\": {\"world_size\": 4, \"program\": " + program + "}}";
        ScenarioResult r = run(json, seed);
        assertThat(r.outcome()).as(r.toText()).isEqualTo(Outcome.ERROR);
        java.util.List<Integer> early = new java.util.ArrayList<>(java.util.List.of(0, 1, 2, 3));
        early.remove(Integer.valueOf(late));
        assertThat(r.diagnosis(Category.STALE_STORE_KEY)).as(r.toText()).singleElement().satisfies(d -> {
            assertThat(d.ranks()).containsAll(early).contains(late);
            assertThat(d.summary()).contains("UniqueNCCLID:" + late).contains("communicator init #1");
        });
        // the root after the late one reaches it through the stale id: its connects are refused
        assertThat(r.diagnosis(Category.BOOTSTRAP_STALL)).as(r.toText())
                .anySatisfy(d -> assertThat(d.ranks()).containsExactly((late + 1) % 4));
        // with the keys scoped per round the same skew is harmless
        ScenarioResult fixed = run(json.replace("\"unscoped\"", "\"scoped\""), seed);
        assertThat(fixed.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(fixed.diagnosis()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(longs = {71, 72, 73})
    void lazyInitOutOfMemoryNamesTheRank(long seed) {
        int culprit = new SplittableRandom(seed).nextInt(8);
        String program = "[{\"new_group\": {\"name\": \"g\", \"block\": 8}}, {\"compute\": \"10ms\"}, {\"barrier\": \"g\"}]";
        String json = "{\"name\": \"p\", \"topology\": {\"name\": \"hgx-h200\"},"
                + " \"job\": {\"world_size\": 8, \"eager_init\": true, \"program\": " + program + "},"
                + " \"faults\": [{\"type\": \"memory_pressure\", \"rank\": " + culprit + ", \"bytes\": \"140.2GiB\", \"at\": \"5ms\"}]}";
        ScenarioResult r = run(json, seed);
        assertThat(r.outcome()).isEqualTo(Outcome.HANG);
        assertThat(r.diagnosis(Category.INIT_OUT_OF_MEMORY)).as(r.toText()).singleElement()
                .satisfies(d -> assertThat(d.ranks()).containsExactly(culprit));
    }
}
