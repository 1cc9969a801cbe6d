package io.ccsim.algorithms.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.ccsim.algorithms.net.HcaSelector;
import io.ccsim.algorithms.net.NetPolicy;
import io.ccsim.algorithms.net.PathType;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import org.junit.jupiter.api.Test;

/** Rings and channels across hosts as NCCL's ring search builds them ({@link RailRings}, {@link CommGraph}). */
class RailRingsTest {
    private static final NetPolicy NO_PXN = new NetPolicy(false, 2, HcaSelector.ALL, PathType.PXB);

    private static int[] host(CommGraph g, int[] ring, int h) {
        int ppn = g.gpusPerNode();
        int[] out = new int[ppn];
        for (int j = 0; j < ppn; j++) out[j] = ring[h * ppn + j] - h * ppn;
        return out;
    }

    @Test
    void withANicPerGpuChannelCEntersAtGpuCAndDescendsOnEveryHost() {
        CommGraph g = CommGraph.of(TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 3)), 24);
        int[][] rings = g.ringOrders(g.nChannels());
        for (int c = 0; c < g.nChannels(); c++) {
            int e = c % 8;
            int[] expected = new int[8];
            for (int s = 0; s < 8; s++) expected[s] = Math.floorMod(e - s, 8); // c, c-1, ..., c+1
            for (int h = 0; h < 3; h++) assertThat(host(g, rings[c], h)).as("channel %d host %d", c, h).containsExactly(expected);
        }
        assertThat(g.rails().alternating()).isFalse();
    }

    @Test
    void eightNdrNicsGiveSixteenChannelsAtFiftyGbPerSecondTotalPerNic() {
        CommGraph g = CommGraph.of(TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 4)), 32);
        // search: 8 NICs x 1 channel at 48 GB/s, each GPU's NVLink (18 x 20.6 = 370.8) carrying 7 of them (a channel
        // leaves its entry GPU's NVLink in and its exit's out); no duplication (48 < 50 and 8 > 4), Postset x2
        CommGraph.NetSearch search = CommGraph.NetSearch.of(new CommGraph.Nics(8 * 50.0, 8), 8, false, 18 * CommGraph.SM90_NVLINK_BW_GBS);
        assertThat(search).isEqualTo(new CommGraph.NetSearch(8, 48, 48, 8, 16));
        assertThat(g.nChannels()).isEqualTo(16);
        assertThat(g.interBwGBs()).isCloseTo(8 * 50.0 / 16, within(1e-9));
        assertThat(g.intraBwGBs()).isCloseTo(18 * CommGraph.SM90_NVLINK_BW_GBS / 16, within(1e-9));
    }

    @Test
    void fourNicsForEightGpusEnterAtTheNicsLocalGpuAndCloseWithoutPxn() {
        Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 2).withNicsPerNode(4));
        CommGraph g = CommGraph.of(t, 16);
        // search: 4 x 48 -> duplicated to 8 x 24 (4 channels are not > 4) -> Postset 16; half the network per channel
        assertThat(g.nChannels()).isEqualTo(16);
        assertThat(g.interBwGBs()).isCloseTo(4 * 50.0 / 16, within(1e-9));
        assertThat(g.intraBwGBs()).isCloseTo(g.interBwGBs(), within(1e-9));
        int[] nics = g.rails().channelNics();
        assertThat(nics).hasSize(4);
        int[][] rings = g.ringOrders(16);
        for (int c = 0; c < 16; c++) {
            int k = c % 4;
            assertThat(nics[k]).isEqualTo(t.nodeIndex("n0.nic" + k));
            // NET k -> GPU 2k -> 2k-1 -> ... -> 2k+1 -> NET k: the exit GPU shares NIC k
            int[] order = host(g, rings[c], 1);
            assertThat(order[0]).isEqualTo(2 * k);
            assertThat(order[7]).isEqualTo(2 * k + 1);
        }
        // the tuner reads the same graph: 16 channels x 12.5 GB/s of network (NCCL: 8 search channels x 24)
        io.ccsim.algorithms.tuner.TuneInput in = g.tuneInput(io.ccsim.algorithms.CollectiveOp.ALL_REDUCE, 1L << 30);
        assertThat(in.maxChannels()).isEqualTo(16);
        assertThat(in.interBwGBs() * in.maxChannels()).isCloseTo(4 * 50.0, within(1e-9));
        assertThat(in.intraBwGBs()).isCloseTo(in.interBwGBs(), within(1e-9));
        // without PXN nothing changes: the ring closes on its own NIC at PIX
        assertThat(CommGraph.of(t, 16, NO_PXN).ringOrders(16)).isDeepEqualTo(rings);
    }

    @Test
    void fewerNicsGiveFewerChannels() {
        Topology one = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 2).withNicsPerNode(1));
        Topology two = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 2).withNicsPerNode(2));
        // 1 NIC: 1 x 48 -> 2 x 24 -> 4; 2 NICs: 2 x 48 -> 4 x 24 -> 8
        assertThat(CommGraph.of(one, 16).nChannels()).isEqualTo(4);
        assertThat(CommGraph.of(two, 16).nChannels()).isEqualTo(8);
        assertThat(CommGraph.of(one, 16).interBwGBs()).isCloseTo(50.0 / 4, within(1e-9));
    }

    @Test
    void withoutPxnOddHostsSwapChannelPairsSoNeighboursMeetOnOneRail() {
        CommGraph g = CommGraph.of(TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 2)), 16, NO_PXN);
        assertThat(g.rails().alternating()).isTrue();
        int[][] rings = g.ringOrders(g.nChannels());
        // pair (0, 1): ring 0 = NET0 -> 0 7 6 ... 1 -> NET1, ring 1 = NET1 -> 1 2 ... 7 0 -> NET0
        assertThat(host(g, rings[0], 0)).containsExactly(0, 7, 6, 5, 4, 3, 2, 1);
        assertThat(host(g, rings[0], 1)).containsExactly(1, 2, 3, 4, 5, 6, 7, 0);
        assertThat(host(g, rings[1], 0)).containsExactly(1, 2, 3, 4, 5, 6, 7, 0);
        assertThat(host(g, rings[1], 1)).containsExactly(0, 7, 6, 5, 4, 3, 2, 1);
        for (int c = 0; c < g.nChannels(); c++) {
            // host 0 leaves by GPU x, host 1 enters at GPU x: the same rail
            assertThat(host(g, rings[c], 1)[0]).isEqualTo(host(g, rings[c], 0)[7]);
            assertThat(host(g, rings[c], 0)[0]).isEqualTo(host(g, rings[c], 1)[7]);
        }
        // NCCL_CROSS_NIC=0 keeps the PXN-shaped rings: the exit GPU reaches the entry NIC over PCIe
        NetPolicy cross0 = new NetPolicy(false, 0, HcaSelector.ALL, PathType.PXB);
        assertThat(CommGraph.of(TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 2)), 16, cross0).rails().alternating()).isFalse();
    }

    @Test
    void ibHcaLeavesOutNicsAndTheirGpusUseTheNearestOne() {
        Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 2));
        NetPolicy even = new NetPolicy(true, 2, HcaSelector.parse("=mlx5_0,mlx5_2,mlx5_4,mlx5_6"), PathType.PXB);
        CommGraph g = CommGraph.of(t, 16, even);
        // GPUs 2k+1 fall back to NIC 2k on their switch: 4 NICs, as with a 4-NIC board
        assertThat(g.rails().channelNics()).containsExactly(t.nodeIndex("n0.nic0"), t.nodeIndex("n0.nic2"),
                t.nodeIndex("n0.nic4"), t.nodeIndex("n0.nic6"));
        assertThat(g.nChannels()).isEqualTo(16);
        assertThat(g.interBwGBs()).isCloseTo(4 * 50.0 / 16, within(1e-9));
        NetPolicy none = new NetPolicy(true, 2, HcaSelector.parse("^mlx5"), PathType.PXB);
        assertThatThrownBy(() -> CommGraph.of(t, 16, none))
                .hasMessage("NCCL_IB_HCA=\"^mlx5\" selects none of the NICs of topology hgx-h100-2n; its NICs are named mlx5_0, mlx5_1, ... on every host");
    }

    @Test
    void oneHostKeepsRanksInOrder() {
        CommGraph g = CommGraph.of(TopologyCatalog.build("hgx-h200"), 8);
        for (int[] ring : g.ringOrders(4)) assertThat(ring).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    }

    /**
     * A GB200 NVL72 rack's 72 NICs (NCCL 2.28.9's search, run on that topology): the GPU's NVLink (18 x 40.1 = 721.8
     * GB/s) fits 15 channels at 48 and 16 at 45.1, so the search finds 16 channels on the NICs of GPUs 0-15, not
     * duplicated (45.1 < 50), doubled by Postset to 32: channels c and c + 16 enter by the same NIC, and the network
     * per channel is 16 NICs' worth, 16 x 50 / 32 = 25 GB/s.
     */
    @Test
    void aGb200RackRingsUseTheNicsOfItsFirstSixteenGpusTwoChannelsEach() {
        Topology t = TopologyCatalog.build("gb200-nvl72", BuildOptions.of(0, 3));
        CommGraph g = CommGraph.of(t, 216);
        assertThat(CommGraph.NetSearch.of(new CommGraph.Nics(72 * 50.0, 72), 72, true, 18 * CommGraph.SM100_NVLINK_BW_GBS))
                .isEqualTo(new CommGraph.NetSearch(16, 45.1, 45.1, 16, 32));
        assertThat(g.nChannels()).isEqualTo(32);
        assertThat(g.interBwGBs()).isCloseTo(16 * 50.0 / 32, within(1e-9));
        int[] nics = g.rails().channelNics();
        assertThat(nics).hasSize(16);
        for (int j = 0; j < 16; j++) assertThat(nics[j]).as("channel %d", j).isEqualTo(t.nodeIndex("n0.nic" + j));
        int[][] rings = g.ringOrders(32);
        for (int c = 0; c < 16; c++) assertThat(rings[c + 16]).as("channel %d", c + 16).containsExactly(rings[c]);
    }

    /**
     * With 800 Gb/s NICs on 8 x H100 each NIC could carry two channels at 48 GB/s, but 16 channels would put 14 on
     * each GPU's NVLink (672 of 370.8 GB/s). At 48 the NVLink fits 8 (7 x 48 = 336); at 45 it would fit 9, which the
     * 8 NICs do not carry alike, so 8: the search keeps 8 at 48, 16 channels after Postset, 8 x 100 / 16 each.
     */
    @Test
    void fasterNicsDoNotAddChannelsBeyondWhatTheNvlinkCarries() {
        CommGraph.NetSearch s = CommGraph.NetSearch.of(new CommGraph.Nics(8 * 100.0, 8), 8, false, 18 * CommGraph.SM90_NVLINK_BW_GBS);
        assertThat(s).isEqualTo(new CommGraph.NetSearch(8, 48, 48, 8, 16));
        // without NVLink between the GPUs nothing bounds the search but the NICs: 16 at 48, Postset 32
        assertThat(CommGraph.NetSearch.of(new CommGraph.Nics(8 * 100.0, 8), 8, false, 0))
                .isEqualTo(new CommGraph.NetSearch(16, 48, 48, 8, 32));
    }

    /**
     * NVLS across nodes: pass 2 raises bwInter up to 2 x bwIntra, as far as the NIC allows. An NVL72 rack's 32 heads
     * fit 20 GB/s each on the NVLink (33 x 20 = 660 of 721.8), so bwInter 40; 8 x H100's 8 heads 40 (9 x 40 = 360 of
     * 370.8), so bwInter 48, the NIC's limit.
     */
    @Test
    void nvlsAcrossNodesRaisesBwInterToTwiceBwIntraAsFarAsTheNicAllows() {
        var gb = CommGraph.of(TopologyCatalog.build("gb200-nvl72", BuildOptions.of(0, 3)), 216).nvls();
        assertThat(gb.heads()).isEqualTo(32);
        assertThat(gb.bwIntraGBs()).isEqualTo(20);
        assertThat(gb.bwInterGBs()).isEqualTo(40);
        var h = CommGraph.of(TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 3)), 24).nvls();
        assertThat(h.heads()).isEqualTo(8);
        assertThat(h.bwIntraGBs()).isEqualTo(40);
        assertThat(h.bwInterGBs()).isEqualTo(48);
    }

    /**
     * One head per NIC, the NIC's first GPU, with speeds from the inter-node ladder below the NIC's: 4 NICs for 8 H100
     * give heads 0, 2, 4, 6 at bwIntra 48 (5 x 48 <= 370.8; the intra-node ladder would give 60) and bwInter 48, as
     * NCCL 2.28.9's search finds on that board; one NIC leaves no NVLS graph.
     */
    @Test
    void nvlsAcrossNodesTakesOneHeadPerNic() {
        var four = CommGraph.of(TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 2).withNicsPerNode(4)), 16).nvls();
        assertThat(four.heads()).isEqualTo(4);
        assertThat(four.headLocals()).containsExactly(0, 2, 4, 6);
        assertThat(four.bwIntraGBs()).isEqualTo(48);
        assertThat(four.bwInterGBs()).isEqualTo(48);
        var one = CommGraph.of(TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 2).withNicsPerNode(1)), 16).nvls();
        assertThat(one.available()).isFalse();
        assertThat(one.refusal()).hasValueSatisfying(r -> assertThat(r).contains("at least 2 heads (one per NIC)"));
        var single = CommGraph.of(TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 1)), 8).nvls();
        assertThat(single.headLocals()).as("one node: the first heads GPUs").isNull();
        assertThat(single.heads()).isEqualTo(8);
    }
}
