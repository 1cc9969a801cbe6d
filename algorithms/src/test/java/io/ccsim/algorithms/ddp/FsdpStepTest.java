package io.ccsim.algorithms.ddp;

import static io.ccsim.algorithms.ddp.Fixtures.MIB;
import static io.ccsim.algorithms.ddp.Fixtures.MS;
import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.algorithms.CollectiveOp;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Two FSDP units worked out by hand: module a (4 MiB, ready 2 ms into backward) then b (4 MiB, ready 1 ms); forward
 * 2 ms (1 ms each, split by bytes), backward 2 ms (b first: 1 ms each). All-gather of 4 MiB 0.5 ms, reduce-scatter
 * 0.3 ms; 2 ranks; copies free, no host cost. Times from the step's start.
 */
class FsdpStepTest {
    private static final StepProfile P = Fixtures.profile(2 * MS, 2 * MS,
            new Gradient("a.weight", 4 * MIB, 2 * MS), new Gradient("b.weight", 4 * MIB, MS));
    private static final CollectiveCosts COSTS = Fixtures.costs(Map.of(
            CollectiveOp.ALL_GATHER, Map.of(4 * MIB, 500_000_000L), CollectiveOp.REDUCE_SCATTER, Map.of(4 * MIB, 300_000_000L)));

    @Test
    void prefetchedGathersHideBehindComputeWhenTheyOverlap() {
        // gather a 0 -> 0.5; a's forward 0.5 -> 1.5 with b's gather 0.5 -> 1.0; b's forward 1.5 -> 2.5;
        // gather b 2.5 -> 3.0; b's backward 3.0 -> 4.0 with a's gather 3.0 -> 3.5; reduce-scatter b 4.0 -> 4.3;
        // a's backward 4.0 -> 5.0; reduce-scatter a 5.0 -> 5.3
        FsdpResult r = FsdpStep.simulate(P, 2, COSTS, Fixtures.plain(1.0));
        assertThat(r.forwardEndPs()).isEqualTo(2_500_000_000L);
        FsdpResult.Unit a = r.units().get(0);
        FsdpResult.Unit b = r.units().get(1);
        assertThat(a.module()).isEqualTo("a");
        assertThat(b.forwardGather().startPs()).isEqualTo(500_000_000L);
        assertThat(a.backwardGather().startPs()).isEqualTo(3 * MS);
        assertThat(b.reduceScatter().endPs()).isEqualTo(4_300_000_000L);
        assertThat(r.iterationPs()).isEqualTo(5_300_000_000L);
        assertThat(r.exposedCommPs()).isEqualTo(1_300_000_000L);
    }

    @Test
    void withoutOverlapEveryCollectiveAddsItsTime() {
        FsdpResult r = FsdpStep.simulate(P, 2, COSTS, Fixtures.plain(0.0));
        assertThat(r.iterationPs()).isEqualTo(6_600_000_000L);         // 2 + 2 + 2 x (0.5 + 0.5 + 0.3)
        assertThat(r.commPs()).isEqualTo(2_600_000_000L);
    }

    @Test
    void aUnitIsPaddedToWholeElementsPerRankAndConsecutiveParametersOfAModuleShareIt() {
        StepProfile p = Fixtures.profile(MS, MS, new Gradient("l.weight", 40, MS), new Gradient("l.bias", 8, MS));
        CollectiveCosts costs = Fixtures.costs(Map.of(CollectiveOp.ALL_GATHER, Map.of(60L, 1L), CollectiveOp.REDUCE_SCATTER, Map.of(60L, 1L)));
        FsdpResult r = FsdpStep.simulate(p, 5, costs, Fixtures.plain(1.0));   // 48 B -> 3 floats x 5 ranks = 60 B
        assertThat(r.units()).singleElement().satisfies(u -> {
            assertThat(u.tensors()).isEqualTo(2);
            assertThat(u.bytes()).isEqualTo(60);
        });
    }
}
