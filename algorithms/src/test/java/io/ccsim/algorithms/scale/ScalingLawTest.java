package io.ccsim.algorithms.scale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ScalingLawTest {

    @Test
    void eachAlgorithmHasItsLawOrAReason() {
        assertThat(ScalingLaw.of(Algorithm.RING, CollectiveOp.ALL_REDUCE)).contains(ScalingLaw.RING);
        assertThat(ScalingLaw.of(Algorithm.RING, CollectiveOp.ALL_GATHER)).contains(ScalingLaw.RING);
        assertThat(ScalingLaw.of(Algorithm.RING, CollectiveOp.BROADCAST)).contains(ScalingLaw.CHAIN);
        assertThat(ScalingLaw.of(Algorithm.RING, CollectiveOp.REDUCE)).contains(ScalingLaw.CHAIN);
        assertThat(ScalingLaw.of(Algorithm.TREE, CollectiveOp.ALL_REDUCE)).contains(ScalingLaw.TREE);
        assertThat(ScalingLaw.of(Algorithm.NVLS_TREE, CollectiveOp.ALL_REDUCE)).contains(ScalingLaw.TREE);
        assertThat(ScalingLaw.of(Algorithm.COLLNET_CHAIN, CollectiveOp.ALL_REDUCE)).contains(ScalingLaw.SWITCH_LEVELS);
        for (Algorithm a : new Algorithm[] {Algorithm.PAT, Algorithm.P2P, Algorithm.NVLS, Algorithm.SYM_AR_ONE_SHOT}) {
            assertThat(ScalingLaw.of(a, CollectiveOp.ALL_GATHER)).as(a.name()).isEqualTo(Optional.empty());
            assertThat(ScalingLaw.refusal(a, CollectiveOp.ALL_GATHER)).as(a.name()).isNotBlank();
        }
        assertThat(ScalingLaw.refusal(Algorithm.NVLS, CollectiveOp.ALL_REDUCE)).isEqualTo("NVLS runs inside one node only");
    }

    /** Rings grow with the nodes, trees with ceil(log2 nodes), CollNet not at all. */
    @Test
    void theRegressors() {
        assertThat(ScalingLaw.RING.x(12_500)).isEqualTo(12_500.0);
        int[] nodes = {1, 2, 3, 4, 5, 8, 9, 12_500};
        double[] depth = {0, 1, 2, 2, 3, 3, 4, 14};
        for (int i = 0; i < nodes.length; i++) assertThat(ScalingLaw.TREE.x(nodes[i])).as("" + nodes[i]).isEqualTo(depth[i]);
        assertThat(ScalingLaw.SWITCH_LEVELS.x(7)).isEqualTo(0.0);
        assertThat(ScalingLaw.TREE.regressors(12_500, 0)).containsExactly(1, 14);
        assertThat(ScalingLaw.SWITCH_LEVELS.regressors(7, 0)).containsExactly(1, 0);
    }

    /** A chain's row: (1, U, N, U ln(N/U)); 12,500 nodes and a train of 1,024 units: U ln(N/U) = 1,024 ln(12.207). */
    @Test
    void aChainReadsItsTrain() {
        double[] r = ScalingLaw.CHAIN.regressors(12_500, 1_024);
        assertThat(r[0]).isEqualTo(1.0);
        assertThat(r[1]).isEqualTo(1_024.0);
        assertThat(r[2]).isEqualTo(12_500.0);
        assertThat(r[3]).isCloseTo(1_024 * 2.502_010, org.assertj.core.data.Offset.offset(0.01));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ScalingLaw.CHAIN.regressors(8, 0))
                .hasMessageContaining("units >= 1");
    }

    /**
     * A ring all-reduce sample carries the target's bytes per step: 1 GiB of floats (268,435,456) on 100,000 ranks
     * and 16 channels is ceil(268,435,456 / 1,600,000) = 168 elements per step, rounded up to 4-float cells (168);
     * a 512-rank sample runs 168 × 512 × 16 = 1,376,256 elements. Other ops and laws keep the target's count.
     */
    @Test
    void aRingAllReduceSampleKeepsTheBytesPerStep() {
        assertThat(ScalingLaw.RING.sampleCount(CollectiveOp.ALL_REDUCE, 268_435_456L, 100_000, 512, 16, 4))
                .isEqualTo(168L * 512 * 16);
        // 1,000 floats on 64 ranks and 2 channels: 8 elements per step (ceil 7.8), one cell of 4 rounded up to 8
        assertThat(ScalingLaw.RING.sampleCount(CollectiveOp.ALL_REDUCE, 1_000, 64, 16, 2, 4)).isEqualTo(8L * 16 * 2);
        assertThat(ScalingLaw.RING.sampleCount(CollectiveOp.ALL_GATHER, 2_684, 100_000, 512, 16, 4)).isEqualTo(2_684L);
        assertThat(ScalingLaw.TREE.sampleCount(CollectiveOp.ALL_REDUCE, 268_435_456L, 100_000, 256, 16, 4))
                .isEqualTo(268_435_456L);
    }

    /**
     * The scale goals ask 2 %: every law but TREE states a bound within it, for every algorithm; TREE states its grid's
     * worst points, 6.8 % for NCCL's Tree (Tree/LL128 at 32 MiB on 1,024 HGX nodes; ExtrapolationGridTest.trees holds
     * 4 MiB on 600 nodes of 2 GPUs above 6 %) and 8.4 % for NVLSTree (32 MiB on 600 HGX nodes; the grid test holds
     * 8 MiB on 600 nodes of 2 GPUs above 7 %), so TREE is the one law beyond the goal ({@link ScalingLaw#withinGoal}),
     * whose sizes {@code --sim-mode auto} simulates at the target instead.
     */
    @Test
    void boundsAreWithinTwoPerCentButTheTrees() {
        for (ScalingLaw l : ScalingLaw.values()) {
            for (io.ccsim.algorithms.Algorithm a : io.ccsim.algorithms.Algorithm.values()) {
                if (l != ScalingLaw.TREE) {
                    assertThat(l.errorBoundPct(a)).as(l + " " + a).isEqualTo(l.errorBoundPct()).isBetween(0.0, 2.0);
                    assertThat(l.boundScope(a)).isEmpty();
                }
            }
            assertThat(l.withinGoal()).as(l.name()).isEqualTo(l != ScalingLaw.TREE);
        }
        assertThat(ScalingLaw.TREE.errorBoundPct()).isEqualTo(8.4);
        assertThat(ScalingLaw.TREE.errorBoundPct(io.ccsim.algorithms.Algorithm.TREE)).isEqualTo(6.8);
        assertThat(ScalingLaw.TREE.errorBoundPct(io.ccsim.algorithms.Algorithm.NVLS_TREE)).isEqualTo(8.4);
        assertThat(ScalingLaw.TREE.boundScope(io.ccsim.algorithms.Algorithm.NVLS_TREE)).isEqualTo(" for NVLSTree");
    }

    /** A train's row: (1, U, N), and only the chains read a train. */
    @Test
    void aTrainsRegressors() {
        assertThat(ScalingLaw.TRAIN.regressors(12_500, 131_072)).containsExactly(1, 131_072, 12_500);
        assertThatThrownBy(() -> ScalingLaw.TRAIN.regressors(12_500, 0)).hasMessageContaining("a train needs");
        assertThat(ScalingLaw.TRAIN.readsTrain()).isTrue();
        assertThat(ScalingLaw.CHAIN.readsTrain()).isTrue();
        assertThat(ScalingLaw.RING.readsTrain()).isFalse();
        assertThat(ScalingLaw.TRAIN.formula(new LawFit(new double[] {9.06, 0.5312, 7.5383}, 0),
                ScalingLaw.TRAIN.regressors(12_500, 131_072), 12_500))
                .isEqualTo("T = 9.060 + 0.5312 U + 7.5383 N, U = 131072 at 12,500 nodes");
    }
}
