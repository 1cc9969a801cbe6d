package io.ccsim.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.graph.CommGraph;
import io.ccsim.algorithms.plan.CollectiveCall;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.PlanOptions;
import io.ccsim.algorithms.plan.Planners;
import io.ccsim.algorithms.sim.FoldingReads;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FoldingReadsCheckTest {
    private static Plan ring(Topology t, long bytes) {
        CommGraph g = CommGraph.of(t, t.gpus().size(), NcclEnv.parse(Map.of()).net());
        return Planners.standard().plan(new CollectiveCall(CollectiveOp.ALL_REDUCE, bytes, DataType.FLOAT32, ReduceOp.SUM, 0,
                g.layout()), PlanOptions.of(Algorithm.RING, Protocol.LL, g.nChannels()));
    }

    @Test
    void aFoldingThatWouldReadTooManyStepsIsRefusedWithTheReadsTheLimitAndTheNodesThatFit() {
        Plan p = ring(TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 4)), (1L << 26) + 4);   // unequal chunks
        long reads = FoldingReads.of(p);
        long limit = reads / 4;   // a quarter of its reads: about half the nodes (reads grow with their square)
        Throwable t = catchThrowable(() -> PerfSizes.checkFoldingReads("perf all_reduce at 67108868 B (Ring/LL x16)", p,
                reads, 4, limit));
        assertThat(t).isInstanceOf(UserException.class);
        assertThat(t.getMessage()).isEqualTo(String.format(java.util.Locale.ROOT, "perf all_reduce at 67108868 B (Ring/LL x16):"
                + " folding its 32 ranks would read %.1e plan steps, more than the %.1e a run may (about 0 s), as no two of"
                + " them are known to run the same steps, and ranks whose steps differ are each simulated after that;"
                + " valid here: about --nodes <= 2, another size (a ring's ranks fold where its chunks are all equal)",
                (double) reads, (double) limit));
    }

    @Test
    void aRingWhoseRanksAreKnownAlikePassesEvenOnAScaleTheUnkeyedOneIsRefusedAt() {
        Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 4));
        long unkeyed = FoldingReads.of(ring(t, (1L << 26) + 4));
        Plan keyed = ring(t, 1L << 26);
        assertThatCode(() -> PerfSizes.checkFoldingReads("x", keyed, FoldingReads.of(keyed), 4, unkeyed / 4))
                .doesNotThrowAnyException();
        assertThatCode(() -> PerfSizes.checkFoldingReads("x", keyed, 4)).doesNotThrowAnyException();
    }
}
