package io.ccsim.algorithms.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.LinkHealth;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Rings across hosts stay on their rail, as NCCL's search and PXN keep them (RailRings, NcclPaths): on a
 * rail-optimized fat-tree no byte crosses a spine, so a degraded spine link costs nothing while a degraded rail
 * cable does.
 */
class RailAlignedRingTest {
    private static final long MIB = 1L << 20;

    private static Topology hgx(int nodes) { return TopologyCatalog.build("hgx-h100", BuildOptions.of(0, nodes)); }

    @Test
    void ringsOnTwoAndSixteenHostsPutNoTrafficOnSpines() {
        for (int nodes : new int[] {2, 16}) {
            RailRun r = RailRun.allReduce(hgx(nodes), Map.of(), nodes == 2 ? 64 * MIB : 16 * MIB, Algorithm.RING);
            assertThat(r.spineBytes()).as("%d hosts", nodes).isZero();
            // every host sends 2(n-1)/n of the buffer over its rails, all of it over NIC-to-leaf cables
            double perHost = 2.0 * (r.graph.nRanks() - 1) / r.graph.nRanks() * (nodes == 2 ? 64 * MIB : 16 * MIB) / 8;
            assertThat(r.railBytes()).as("%d hosts", nodes).isGreaterThan(0.9 * nodes * perHost);
        }
    }

    @Test
    void treesAcrossHostsPutNoTrafficOnSpinesEither() {
        RailRun r = RailRun.allReduce(hgx(4), Map.of(), 64 * MIB, Algorithm.TREE);
        assertThat(r.spineBytes()).isZero();
        assertThat(r.railBytes()).isPositive();
    }

    @Test
    void aDegradedSpineLinkNoLongerSlowsTheRingButADegradedRailCableDoes() {
        Topology healthy = hgx(2);
        long base = RailRun.allReduce(healthy, Map.of(), 64 * MIB, Algorithm.RING).timePs;
        Topology spine = healthy;
        for (int rail = 0; rail < 8; rail++) spine = spine.withLinkHealth("leaf.r" + rail + ".0~spine.0", LinkHealth.degraded(0.1));
        assertThat(RailRun.allReduce(spine, Map.of(), 64 * MIB, Algorithm.RING).timePs).isEqualTo(base);
        Topology cable = healthy.withLinkHealth("n0.nic3~leaf.r3.0", LinkHealth.degraded(0.1));
        assertThat(RailRun.allReduce(cable, Map.of(), 64 * MIB, Algorithm.RING).timePs).isGreaterThan(base * 3 / 2);
    }

    @Test
    void crossNicOneLeavesByTheExitGpusOwnNicAndCrossesSpines() {
        RailRun r = RailRun.allReduce(hgx(2), Map.of("NCCL_CROSS_NIC", "1"), 16 * MIB, Algorithm.RING);
        assertThat(r.spineBytes()).isPositive();
    }

    @Test
    void pxnSendsTheExitGpusDataOverNvlinkThroughTheEntryGpu() {
        RailRun pxn = RailRun.allReduce(hgx(2), Map.of(), 64 * MIB, Algorithm.RING);
        RailRun direct = RailRun.allReduce(hgx(2), Map.of("NCCL_PXN_DISABLE", "1"), 64 * MIB, Algorithm.RING);
        assertThat(pxn.spineBytes()).isZero();
        assertThat(direct.spineBytes()).isZero();
        // the paths: channel 0 leaves host 0 from GPU 1; with PXN through GPU 0's NVLink ports and NIC 0, without
        // it by GPU 1's own NIC 1 (host 1 enters that channel at GPU 1: odd hosts swap the ring pairs)
        io.ccsim.algorithms.sim.NcclPaths withPxn = new NcclPaths(pxn.topo, false, pxn.fabric.netPolicy());
        int g1 = pxn.topo.nodeIndex("n0.gpu1");
        assertThat(withPxn.route(g1, pxn.topo.nodeIndex("n1.gpu0"), 0, true).linkIds())
                .startsWith("n0.gpu1.nvl", "n0.gpu0.nvl", "n0.gpu0~n0.pcie0", "n0.nic0~n0.pcie0", "n0.nic0~leaf.r0.0");
        NcclPaths noPxn = new NcclPaths(direct.topo, false, direct.fabric.netPolicy());
        assertThat(noPxn.route(g1, direct.topo.nodeIndex("n1.gpu1"), 0, true).linkIds())
                .startsWith("n0.gpu1~n0.pcie0", "n0.nic1~n0.pcie0", "n0.nic1~leaf.r1.0");
        // the proxy GPUs' NVLink carries every byte that leaves a host once more: out of the exit GPU, into the proxy
        double netOut = pxn.bytes(id -> id.contains("~leaf.")) / 2; // each cable's bytes, one direction each way
        assertThat(pxn.nvlinkBytes() - direct.nvlinkBytes()).isCloseTo(2 * netOut, within(1e-6 * netOut));
        // the NIC of GPU 1 carries nothing out with PXN (rings leave by their entry GPU's NIC, NIC 0 for GPU 1's data)
        assertThat(pxn.bytes("n0.gpu1.nvl", false)).isGreaterThan(direct.bytes("n0.gpu1.nvl", false));
        // both are bound by the same NICs: within a few percent
        assertThat((double) pxn.timePs).isCloseTo(direct.timePs, within(0.05 * direct.timePs));
    }

    @Test
    void withoutPxnAnOddHostCountChangesRailOnTheLastHop() {
        RailRun r = RailRun.allReduce(hgx(3), Map.of("NCCL_PXN_DISABLE", "1"), 16 * MIB, Algorithm.RING);
        assertThat(r.spineBytes()).isPositive();
        assertThat(RailRun.allReduce(hgx(3), Map.of(), 16 * MIB, Algorithm.RING).spineBytes()).isZero();
    }

    @Test
    void fourNicsForEightGpusHalveTheNetworkBandwidth() {
        Topology four = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 2).withNicsPerNode(4));
        RailRun shared = RailRun.allReduce(four, Map.of(), 256 * MIB, Algorithm.RING);
        RailRun own = RailRun.allReduce(hgx(2), Map.of(), 256 * MIB, Algorithm.RING);
        assertThat(shared.spineBytes()).isZero();
        // no PXN: the exit GPU 2k+1 shares NIC k with the entry GPU 2k, so NVLink carries the ring's hops only
        RailRun ownNoPxn = RailRun.allReduce(hgx(2), Map.of("NCCL_PXN_DISABLE", "1"), 256 * MIB, Algorithm.RING);
        assertThat(shared.nvlinkBytes()).isCloseTo(ownNoPxn.nvlinkBytes(), within(1e-6 * ownNoPxn.nvlinkBytes()));
        // the NICs bound both: 4 x 50 GB/s against 8 x 50 GB/s
        double ratio = (double) shared.timePs / own.timePs;
        assertThat(ratio).isBetween(1.6, 2.1);
    }
}
