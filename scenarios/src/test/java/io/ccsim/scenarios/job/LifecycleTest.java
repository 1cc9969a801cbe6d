package io.ccsim.scenarios.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.scenarios.Outcome;
import io.ccsim.scenarios.ScenarioResult;
import io.ccsim.scenarios.ScenarioRunner;
import io.ccsim.scenarios.diagnosis.Category;
import io.ccsim.scenarios.format.ScenarioParser;
import io.ccsim.scenarios.format.Units;
import org.junit.jupiter.api.Test;

/** Communicator lifecycle (eager, lazy, split, abort, destroy), store collisions, ECC flips, timeout settings. */
class LifecycleTest {

    private static ScenarioResult run(String program, String faults, String settings) {
        String json = "{\"name\": \"l\", \"topology\": {\"name\": \"hgx-h100\"}, \"settings\": {" + settings + "},"
                + " \"job\": {\"world_size\": 8, \"program\": " + program + "}, \"faults\": " + faults + "}";
        return ScenarioRunner.run(ScenarioParser.parse(json, "lifecycle"), 3);
    }

    private static long count(ScenarioResult r, String kind) {
        return r.events().stream().filter(e -> e.kind().equals(kind)).count();
    }

    @Test
    void lazyInitHappensAtFirstUseOncePerCommunicatorAndEagerAtCreation() {
        ScenarioResult r = run("[{\"new_group\": {\"name\": \"tp\", \"block\": 4, \"eager\": true}},"
                + " {\"compute\": \"1ms\"},"
                + " {\"collective\": {\"op\": \"all_reduce\", \"count\": 64, \"group\": \"tp\"}},"
                + " {\"collective\": {\"op\": \"all_reduce\", \"count\": 64}},"
                + " {\"collective\": {\"op\": \"all_reduce\", \"count\": 64}}]", "[]", "");
        assertThat(r.outcome()).isEqualTo(Outcome.COMPLETED);
        // one world communicator and one tp communicator per rank
        assertThat(count(r, "INIT_DONE")).isEqualTo(16);
        // tp was created eagerly, before the compute step ended; world lazily after it
        assertThat(r.events()).filteredOn(e -> e.kind().equals("INIT_DONE") && e.text().contains("group tp"))
                .allSatisfy(e -> assertThat(e.timePs()).isLessThan(Units.ms(1)));
        assertThat(r.events()).filteredOn(e -> e.kind().equals("INIT_DONE") && e.text().contains("group world"))
                .allSatisfy(e -> assertThat(e.timePs()).isGreaterThan(Units.ms(1)));
    }

    @Test
    void splitCreatesTheSubCommunicatorFromTheParentWithoutTheStore() {
        ScenarioResult r = run("[{\"barrier\": \"world\"},"
                + " {\"new_group\": {\"name\": \"tp\", \"stride\": 2, \"split_from\": \"world\"}},"
                + " {\"collective\": {\"op\": \"all_gather\", \"count\": 64, \"group\": \"tp\"}}]", "[]", "");
        assertThat(r.outcome()).as(r.toText()).isEqualTo(Outcome.COMPLETED);
        assertThat(r.ranks()).allSatisfy(x -> assertThat(x.collectives()).isEqualTo(2));
    }

    @Test
    void abortedOrDestroyedGroupsFailOnUse() {
        ScenarioResult aborted = run("[{\"barrier\": \"world\"}, {\"abort\": \"world\"}, {\"barrier\": \"world\"}]", "[]", "");
        assertThat(aborted.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(aborted.ranks()).anySatisfy(x -> assertThat(x.detail()).contains("was aborted"));
        ScenarioResult destroyed = run("[{\"new_group\": {\"name\": \"dp\", \"ranks\": [0, 1, 2, 3, 4, 5, 6, 7]}},"
                + " {\"barrier\": \"dp\"}, {\"destroy\": \"dp\"}, {\"barrier\": \"dp\"}]", "[]", "");
        assertThat(destroyed.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(destroyed.ranks()).anySatisfy(x -> assertThat(x.detail()).contains("was destroyed"));
    }

    @Test
    void withoutAsyncErrorHandlingTheWatchdogOnlyLogsAndTheJobHangs() {
        String program = "[{\"barrier\": \"world\"},"
                + " {\"collective\": {\"op\": \"all_reduce\", \"count\": 64}, \"ranks\": [0, 1, 2, 3, 4, 5, 6]}]";
        ScenarioResult r = run(program, "[]", "\"async_error_handling\": 0, \"collective_timeout\": \"10s\"");
        assertThat(r.outcome()).isEqualTo(Outcome.HANG);
        assertThat(r.diagnosis(Category.TIMEOUT)).singleElement().satisfies(d -> assertThat(d.summary())
                .contains("Timeout(ms)=10000").contains("ran for 10").contains("milliseconds before timing out."));
        assertThat(r.diagnosis(Category.MISSING_RANK)).singleElement().satisfies(d -> assertThat(d.ranks()).containsExactly(7));
        ScenarioResult blocking = run(program, "[]", "\"async_error_handling\": 0, \"blocking_wait\": true, \"collective_timeout\": \"10s\"");
        assertThat(blocking.outcome()).isEqualTo(Outcome.ERROR);
    }

    @Test
    void anOutsideWriterOfAStoreKeyIsNamed() {
        // rank 0 publishes the unique id at once; the others come 1 ms later, after another job overwrote the key
        ScenarioResult r = run("[{\"sleep\": \"1ms\", \"ranks\": [1, 2, 3, 4, 5, 6, 7]}, {\"barrier\": \"world\"}]",
                "[{\"type\": \"store_key_collision\", \"key\": \"default_pg/0\", \"value\": \"10.9.9.9:29500#beef\", \"at\": \"500us\"}]",
                "\"store_timeout\": \"30s\"");
        assertThat(r.outcome()).as(r.toText()).isEqualTo(Outcome.ERROR);
        assertThat(r.diagnosis(Category.STALE_STORE_KEY)).as(r.toText()).singleElement()
                .satisfies(d -> assertThat(d.summary()).contains("default_pg/0").contains("outside writer"));
    }

    @Test
    void anEccFlipInGpuMemoryIsTracedToTheRankNotToALink() {
        ScenarioResult r = run("[{\"repeat\": {\"times\": 3, \"steps\": [{\"compute\": \"10ms\"},"
                + " {\"collective\": {\"op\": \"all_reduce\", \"bytes\": \"8MiB\", \"checksum\": true}}]}}]",
                "[{\"type\": \"bit_flip_gpu_memory\", \"rank\": 5, \"at\": \"15ms\"}]", "");
        assertThat(r.outcome()).isEqualTo(Outcome.CORRUPTED);
        assertThat(r.diagnosis(Category.DATA_CORRUPTION)).singleElement().satisfies(d -> {
            assertThat(d.ranks()).containsExactly(5);
            assertThat(d.links()).isEmpty();
            assertThat(d.summary()).contains("GPU memory");
        });
    }

    @Test
    void faultsCanBeTriggeredByAnIterationInsteadOfATime() {
        String program = "[{\"repeat\": {\"times\": 6, \"steps\": [{\"compute\": \"100ms\"},"
                + " {\"collective\": {\"op\": \"all_reduce\", \"bytes\": \"8MiB\"}}]}}]";
        ScenarioResult r = run(program, "[{\"type\": \"slow_gpu\", \"rank\": 4, \"factor\": 3, \"at_iteration\": 3}]", "");
        assertThat(r.outcome()).isEqualTo(Outcome.DEGRADED);
        // iterations 3, 4, 5 at 300 ms instead of 100 ms: mean step (3 x 100 + 3 x 300) / 6 = 200 ms = 2x the median
        assertThat(r.diagnosis(Category.SLOW_RANK)).singleElement().satisfies(d -> {
            assertThat(d.ranks()).containsExactly(4);
            assertThat(d.summary()).contains("2.00x slower");
        });
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> run(program,
                "[{\"type\": \"never_starts\", \"rank\": 4, \"at_iteration\": 3}]", ""))
                .hasMessageContaining("$.faults[0].at_iteration");
    }

    @Test
    void everyRunEndsAtTheHorizonAtTheLatest() {
        ScenarioResult r = run("[{\"repeat\": {\"times\": 1000, \"steps\": [{\"compute\": \"1s\"}, {\"barrier\": \"world\"}]}}]",
                "[]", "\"horizon\": \"30s\"");
        assertThat(r.horizonReached()).isTrue();
        assertThat(r.simTimePs()).isEqualTo(Units.s(30));
        assertThat(r.outcome()).isEqualTo(Outcome.HANG);
        assertThat(r.toText()).contains("(horizon reached)");
    }

    @Test
    void memoryPressureMakesALazyInitStall() {
        ScenarioResult r = run("[{\"compute\": \"10ms\"}, {\"barrier\": \"world\"}]",
                "[{\"type\": \"memory_pressure\", \"rank\": 2, \"bytes\": \"79.5GiB\", \"at\": \"1ms\"}]", "");
        assertThat(r.outcome()).isEqualTo(Outcome.HANG);
        assertThat(r.diagnosis(Category.INIT_OUT_OF_MEMORY)).singleElement()
                .satisfies(d -> assertThat(d.ranks()).containsExactly(2));
    }
}
