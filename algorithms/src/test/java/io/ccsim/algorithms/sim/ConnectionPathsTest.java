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

/** The sending blocks that size a rank's send limit ({@link ConnectionPaths#sendingBlocks}). */
class ConnectionPathsTest {

    private static Plan plan(CollectiveOp op, Algorithm a, int n, int channels) {
        return Planners.standard().plan(new CollectiveCall(op, 1 << 20, DataType.FLOAT32, ReduceOp.SUM, 0, CommLayout.singleHost(n)),
                PlanOptions.of(a, Protocol.SIMPLE, channels));
    }

    @Test
    void sendingBlocksCountTheLanesThatSendPerChannel() {
        // a ring: one block per channel on every rank
        Plan ring = plan(CollectiveOp.ALL_REDUCE, Algorithm.RING, 4, 16);
        for (int r = 0; r < 4; r++) assertThat(ConnectionPaths.sendingBlocks(ring, r)).as("ring rank " + r).isEqualTo(16);
        // a 4-rank chain 0 - 1 - 2 - 3: the root reduces and sends down on one lane, the leaf sends up and only
        // receives coming down, the middle ranks send on both lanes
        Plan tree = plan(CollectiveOp.ALL_REDUCE, Algorithm.TREE, 4, 16);
        int[] perChannel = new int[4];
        for (int r = 0; r < 4; r++) perChannel[r] = ConnectionPaths.sendingBlocks(tree, r) / 16;
        assertThat(perChannel).containsExactlyInAnyOrder(1, 1, 2, 2);
        // a ring reduce's root never sends: its channels still count one block each
        Plan reduce = plan(CollectiveOp.REDUCE, Algorithm.RING, 4, 8);
        assertThat(ConnectionPaths.sendingBlocks(reduce, 0)).isEqualTo(8);
        // an all-to-all: one send lane per channel, which goes round the peers in turn (its receive and self-copy lanes
        // do not send)
        Plan a2a = Planners.standard().plan(new CollectiveCall(CollectiveOp.ALL_TO_ALL, 1 << 20, DataType.FLOAT32, ReduceOp.SUM, 0,
                CommLayout.singleHost(4)), PlanOptions.of(Algorithm.P2P, Protocol.SIMPLE, 4));
        assertThat(ConnectionPaths.sendingBlocks(a2a, 0)).isEqualTo(4);
    }
}
