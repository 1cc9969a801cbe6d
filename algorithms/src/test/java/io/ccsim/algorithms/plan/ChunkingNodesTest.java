package io.ccsim.algorithms.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import org.junit.jupiter.api.Test;

/** A plan of few nodes with another node count for the tree chunk rules chunks as a plan of that many nodes does. */
class ChunkingNodesTest {
    private static final Planners PLANNERS = Planners.standard();

    /** Elements of the first step of rank 0, channel 0, lane 0: the first chunk. */
    private static int firstChunk(int nodes, Algorithm a, Protocol p, long count, int chunkingNodes) {
        CollectiveCall call = new CollectiveCall(CollectiveOp.ALL_REDUCE, count, DataType.FLOAT32, ReduceOp.SUM, 0,
                CommLayout.uniform(nodes, 8));
        Plan plan = PLANNERS.plan(call, PlanOptions.of(a, p, 16).withChunkingNodes(chunkingNodes));
        StepCursor c = new StepCursor();
        plan.step(0, 0, 0, 0, c);
        return c.count;
    }

    /**
     * Tree LL128, 1 GiB of floats on 16 channels (64 MiB each): NCCL's shrink (halve while bytes / chunk &lt; (1 + log2
     * nodes + 0.1 × 8) × 64 / 8) leaves the chunk whole on 4 nodes (threshold 30.4) and halves it on 12,500 (118.4).
     * A 4-node plan told 12,500 nodes chunks as the 12,500-node plan.
     */
    @Test
    void treeChunksFollowTheGivenNodeCount() {
        long count = 1L << 28;
        int own = firstChunk(4, Algorithm.TREE, Protocol.LL128, count, 0);
        int target = firstChunk(12_500, Algorithm.TREE, Protocol.LL128, count, 0);
        assertThat(target).isLessThan(own);
        assertThat(firstChunk(4, Algorithm.TREE, Protocol.LL128, count, 12_500)).isEqualTo(target);
        assertThat(firstChunk(4, Algorithm.TREE, Protocol.LL128, count, 4)).isEqualTo(own);
    }

    /** A ring's chunk does not depend on the nodes: the option changes nothing there. */
    @Test
    void ringsIgnoreIt() {
        long count = 1L << 24;
        assertThat(firstChunk(4, Algorithm.RING, Protocol.SIMPLE, count, 12_500))
                .isEqualTo(firstChunk(4, Algorithm.RING, Protocol.SIMPLE, count, 0));
    }

    @Test
    void aNegativeCountIsRefusedAndTheOptionIsPartOfEquality() {
        assertThatThrownBy(() -> PlanOptions.of(Algorithm.TREE, Protocol.SIMPLE, 2).withChunkingNodes(-1))
                .hasMessageContaining("chunkingNodes must be >= 1, or 0 for the communicator's own, got -1");
        PlanOptions a = PlanOptions.of(Algorithm.TREE, Protocol.SIMPLE, 2);
        assertThat(a.withChunkingNodes(8)).isNotEqualTo(a).isEqualTo(a.withChunkingNodes(8));
        assertThat(a.withChunkingNodes(8).withBufferBytes(1 << 20).chunkingNodes()).isEqualTo(8);
    }
}
