package io.ccsim.algorithms.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.plan.CollectiveCall;
import io.ccsim.algorithms.plan.CommLayout;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.PlanOptions;
import io.ccsim.algorithms.plan.Planners;
import org.junit.jupiter.api.Test;

/** Which channels stand for which: replicas have a representative of the same start phase, multiplicities sum up. */
class ChannelFoldingTest {

    private static Plan plan(Algorithm a, int channels) {
        CollectiveCall call = new CollectiveCall(CollectiveOp.ALL_REDUCE, 3 * 1024 * 1024 + 12345, DataType.FLOAT32, ReduceOp.SUM, 0,
                CommLayout.singleHost(4));
        return Planners.standard().plan(call, PlanOptions.of(a, Protocol.SIMPLE, channels));
    }

    /** Every replica's representative is an earlier simulated channel; the multiplicities count the channels. */
    private static void assertConsistent(ChannelFolding f, int nCh, int phases) {
        int sum = 0;
        for (int c = 0; c < nCh; c++) {
            int r = f.representative(c);
            assertThat(r).as("channel %d", c).isBetween(0, c);
            assertThat(f.simulated(r)).isTrue();
            assertThat(r % phases).as("phase of channel %d", c).isEqualTo(c % phases);
            assertThat(f.multiplicity(c) > 0).isEqualTo(f.simulated(c));
            sum += f.multiplicity(c);
        }
        assertThat(sum).isEqualTo(nCh);
    }

    @Test
    void ringChannelsOfOneRingFoldIntoFewRepresentatives() {
        ChannelFolding f = ChannelFolding.of(plan(Algorithm.RING, 8), 1);
        assertConsistent(f, 8, 1);
        assertThat(f.multiplicity(0)).isGreaterThan(1);
    }

    @Test
    void withStartPhasesOnlyChannelsOfOnePhaseFold() {
        ChannelFolding f = ChannelFolding.of(plan(Algorithm.RING, 16), 8);
        assertConsistent(f, 16, 8);
        for (int c = 0; c < 16; c++) assertThat(f.multiplicity(c)).as("channel %d", c).isLessThanOrEqualTo(2);
        // 8 channels in 8 phases: none folds
        ChannelFolding g = ChannelFolding.of(plan(Algorithm.RING, 8), 8);
        for (int c = 0; c < 8; c++) assertThat(g.multiplicity(c)).isEqualTo(1);
    }

    @Test
    void treeChannelsAndUnfoldedRunsSimulateEveryChannel() {
        ChannelFolding tree = ChannelFolding.of(plan(Algorithm.TREE, 8), 1);
        ChannelFolding none = ChannelFolding.none(8);
        for (int c = 0; c < 8; c++) {
            assertThat(tree.representative(c)).isEqualTo(c);
            assertThat(tree.multiplicity(c)).isEqualTo(1);
            assertThat(none.representative(c)).isEqualTo(c);
            assertThat(none.multiplicity(c)).isEqualTo(1);
        }
    }
}
