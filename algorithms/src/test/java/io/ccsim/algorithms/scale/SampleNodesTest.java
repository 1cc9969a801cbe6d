package io.ccsim.algorithms.scale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SampleNodesTest {
    private static final int HGX = 8;
    private static final int LEAF = 32;

    /**
     * 12,500 HGX nodes: a ring samples the largest powers of two up to 1,024 ranks (64 and 128 nodes), a tree the target shifted right up to 256 ranks (12,500 >> 10 and >> 9: 12 and 24),
     * CollNet one host past a leaf (33).
     */
    @Test
    void defaultsForALargeTarget() {
        assertThat(SampleNodes.defaults(ScalingLaw.RING, 12_500, HGX, LEAF)).containsExactly(64, 128);
        assertThat(SampleNodes.defaults(ScalingLaw.TREE, 12_500, HGX, LEAF)).containsExactly(24, 48);
        assertThat(SampleNodes.defaults(ScalingLaw.SWITCH_LEVELS, 12_500, HGX, LEAF)).containsExactly(33);
        // across leaves the samples do not depend on the ranks per node
        assertThat(SampleNodes.defaults(ScalingLaw.TREE, 12_500, 1, LEAF)).containsExactly(24, 48);
        assertThat(SampleNodes.defaults(ScalingLaw.TREE, 128, HGX, LEAF)).containsExactly(32, 64);
    }

    /** The samples stay below the target: the two largest powers of two under it (rings). */
    @Test
    void defaultsForSmallTargetsStayBelowThem() {
        assertThat(SampleNodes.defaults(ScalingLaw.RING, 16, HGX, LEAF)).containsExactly(4, 8);
        assertThat(SampleNodes.defaults(ScalingLaw.RING, 17, HGX, LEAF)).containsExactly(8, 16);
        assertThat(SampleNodes.defaults(ScalingLaw.RING, 5, HGX, LEAF)).containsExactly(2, 4);
        assertThat(SampleNodes.defaults(ScalingLaw.SWITCH_LEVELS, 20, HGX, LEAF)).containsExactly(2);
    }

    @Test
    void targetsTooSmallForTheirSamplesAreRefused() {
        assertThatThrownBy(() -> SampleNodes.defaults(ScalingLaw.RING, 4, HGX, LEAF))
                .hasMessage("4 nodes are too few to extrapolate RING; valid: 5 nodes or more");
        assertThatThrownBy(() -> SampleNodes.defaults(ScalingLaw.SWITCH_LEVELS, 2, HGX, LEAF))
                .hasMessage("2 nodes are too few to extrapolate SWITCH_LEVELS; valid: 3 nodes or more");
        // a tree needs its sample beyond a leaf at half the target or less: 66 nodes (33 = 66 >> 1)
        assertThatThrownBy(() -> SampleNodes.defaults(ScalingLaw.TREE, 65, HGX, LEAF))
                .hasMessage("65 nodes are too few to extrapolate TREE: it needs a sample beyond one leaf (32 hosts) at half"
                        + " the target or less; valid: 66 nodes or more, or --sim-mode folded");
        assertThatThrownBy(() -> SampleNodes.defaults(ScalingLaw.TREE, 24, HGX, LEAF)).hasMessageStartingWith("24 nodes");
        assertThat(SampleNodes.defaults(ScalingLaw.TREE, 66, HGX, LEAF)).containsExactly(16, 33);
    }

    @Test
    void givenSamplesAreCheckedAgainstTheLawAndTheTarget() {
        assertThat(SampleNodes.given(ScalingLaw.TREE, new int[] {40, 8, 16}, 100, LEAF)).containsExactly(8, 16, 40);
        assertThatThrownBy(() -> SampleNodes.given(ScalingLaw.TREE, new int[] {8, 16}, 100, LEAF))
                .hasMessage("TREE needs its largest sample beyond one leaf (33 nodes or more), got [8, 16]");
        assertThatThrownBy(() -> SampleNodes.given(ScalingLaw.RING, new int[] {8, 100}, 100, LEAF))
                .hasMessage("sample of 100 nodes: valid are 2 to 99 (below the target's 100 nodes)");
        assertThatThrownBy(() -> SampleNodes.given(ScalingLaw.RING, new int[] {8, 8}, 100, LEAF))
                .hasMessage("sample of 8 nodes given twice");
        assertThatThrownBy(() -> SampleNodes.given(ScalingLaw.TREE, new int[] {40, 50}, 100, LEAF))
                .hasMessage("TREE needs two or more sample node counts with different tree depths ceil(log2 nodes), got [40, 50]");
        assertThatThrownBy(() -> SampleNodes.given(ScalingLaw.RING, new int[] {8}, 100, LEAF))
                .hasMessageContaining("RING needs two or more sample node counts");
        assertThatThrownBy(() -> SampleNodes.given(ScalingLaw.SWITCH_LEVELS, new int[] {8}, 100, LEAF))
                .hasMessage("sample of 8 nodes: SWITCH_LEVELS needs samples beyond one leaf, 33 nodes or more (32 hosts per"
                        + " leaf), as the target");
        assertThat(SampleNodes.given(ScalingLaw.SWITCH_LEVELS, new int[] {40}, 100, LEAF)).containsExactly(40);
        assertThatThrownBy(() -> SampleNodes.given(ScalingLaw.SWITCH_LEVELS, new int[0], 100, LEAF))
                .hasMessage("no sample node count given");
    }

    /**
     * A chain on 12,500 HGX nodes with a train of 1,024 units (1 GiB over 16 channels): trains of 32 units on 16 to
     * 128 nodes and of 64 on 32 to 128 (every chain 4 trains long or more, at most 1,024 ranks).
     */
    @Test
    void aChainSamplesTwoShorterTrains() {
        assertThat(SampleNodes.chain(12_500, HGX, 1_024)).containsExactly(
                chain(16, 32), chain(32, 32), chain(64, 32), chain(128, 32), chain(32, 64), chain(64, 64), chain(128, 64));
        // a short train runs itself: 4 units, 4 node counts up to 128
        assertThat(SampleNodes.chain(12_500, HGX, 4)).containsExactly(chain(16, 4), chain(32, 4), chain(64, 4), chain(128, 4));
        // 256 nodes is the least target for trains of 32 and 64 units (16 to 128 nodes up to half the target); 200
        // nodes would cap the samples at 64 nodes, and shorter trains do not stand in for long ones: refused
        assertThat(SampleNodes.chain(256, HGX, 1_024)).hasSize(7);
        assertThatThrownBy(() -> SampleNodes.chain(200, HGX, 1_024)).hasMessageContaining("200 nodes are too few to"
                + " extrapolate CHAIN").hasMessageContaining("4 trains of 32 units long (16 nodes or more at 8 ranks a"
                + " node); valid: 256 nodes or more, or --sim-mode folded");
        // a train of one unit: samples of 2 to 16 nodes, so 32 nodes or more
        assertThat(SampleNodes.chain(32, HGX, 1)).containsExactly(chain(2, 1), chain(4, 1), chain(8, 1), chain(16, 1));
        assertThatThrownBy(() -> SampleNodes.chain(20, HGX, 1)).hasMessageContaining("valid: 32 nodes or more");
    }

    /** The user's node counts run both trains; each chain must be two trains long. */
    @Test
    void aChainTakesTheUsersNodes() {
        assertThat(SampleNodes.chainGiven(new int[] {64, 16, 32, 128}, 12_500, HGX, 1_024)).containsExactly(
                chain(16, 32), chain(32, 32), chain(64, 32), chain(128, 32), chain(16, 64), chain(32, 64), chain(64, 64),
                chain(128, 64));
        assertThatThrownBy(() -> SampleNodes.chainGiven(new int[] {8, 16, 32, 64}, 12_500, HGX, 1_024))
                .hasMessageContaining("sample of 8 nodes: its chain of 64 ranks is shorter than two trains of 64 units;"
                        + " valid: 16 nodes or more");
        assertThatThrownBy(() -> SampleNodes.chainGiven(new int[] {16, 32}, 12_500, HGX, 1_024))
                .hasMessageContaining("four or more");
    }

    private static SampleNodes.ChainSample chain(int nodes, long units) {
        return new SampleNodes.ChainSample(nodes, units);
    }

    /**
     * A train no shorter than its chain: nodes 2, 4 and 8 (each chain at most half the shortest train, up to half the
     * target) at every train, by train then nodes; fewer where the train is short or the target small.
     */
    @Test
    void aTrainSamplesTheFewestNodes() {
        assertThat(SampleNodes.train(12_500, HGX, new long[] {16_384, 32_768})).containsExactly(
                new SampleNodes.ChainSample(2, 16_384), new SampleNodes.ChainSample(4, 16_384),
                new SampleNodes.ChainSample(8, 16_384), new SampleNodes.ChainSample(2, 32_768),
                new SampleNodes.ChainSample(4, 32_768), new SampleNodes.ChainSample(8, 32_768));
        // 64 units: chains of 16 and 32 ranks (2 and 4 nodes) are half the train or less, 8 nodes' 64 ranks are not
        assertThat(SampleNodes.train(100, HGX, new long[] {64})).extracting(SampleNodes.ChainSample::nodes)
                .containsExactly(2, 4);
        assertThat(SampleNodes.train(9, HGX, new long[] {1_024})).extracting(SampleNodes.ChainSample::nodes)
                .containsExactly(2, 4);
        assertThatThrownBy(() -> SampleNodes.train(100, HGX, new long[] {63})).isInstanceOf(NotExtrapolatedException.class)
                .hasMessageContaining("100 nodes of 8 ranks are too few to extrapolate TRAIN")
                .hasMessageContaining("its shortest sample train (63 units)");
        assertThatThrownBy(() -> SampleNodes.train(7, HGX, new long[] {1_024})).isInstanceOf(NotExtrapolatedException.class);
    }

    /** The user's train samples: two or more counts below the target whose chains are at most half the shortest train. */
    @Test
    void aTrainTakesTheUsersNodes() {
        assertThat(SampleNodes.trainGiven(new int[] {6, 3}, 100, HGX, new long[] {1_024, 2_048})).containsExactly(
                new SampleNodes.ChainSample(3, 1_024), new SampleNodes.ChainSample(6, 1_024),
                new SampleNodes.ChainSample(3, 2_048), new SampleNodes.ChainSample(6, 2_048));
        assertThatThrownBy(() -> SampleNodes.trainGiven(new int[] {2, 65}, 100, HGX, new long[] {1_024}))
                .hasMessage("sample of 65 nodes: its chain of 520 ranks is longer than half its train of 1024 units;"
                        + " valid: 64 nodes or fewer");
        assertThatThrownBy(() -> SampleNodes.trainGiven(new int[] {4}, 100, HGX, new long[] {1_024}))
                .hasMessageContaining("TRAIN needs two or more sample node counts");
    }
}
