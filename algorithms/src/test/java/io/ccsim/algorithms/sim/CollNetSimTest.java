package io.ccsim.algorithms.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.perf.PerfRow;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.TopologyCatalog;
import org.junit.jupiter.api.Test;

/** CollNet plans on the simulated fabric: the SHARP switch actors sit on the rail's leaf, their flows cross the NICs. */
class CollNetSimTest {
    private static PerfRunner runner(int nodes, boolean sharp) {
        CalibrationProfile p = CalibrationProfile.builtin("h100");
        return new PerfRunner(TopologyCatalog.build("hgx-h100", BuildOptions.of(8, nodes).withSharp(sharp)), 8 * nodes, p,
                NcclEnv.empty(), 1);
    }

    private static PerfRow run(PerfRunner r, Algorithm a, long bytes, int channels) {
        return r.simulate(CollectiveOp.ALL_REDUCE, bytes / 4, DataType.FLOAT32, ReduceOp.SUM, 0, a, Protocol.SIMPLE, channels);
    }

    @Test
    void collNetMovesLessOverTheNicsThanTheRing() {
        PerfRunner r = runner(4, true);
        long bytes = 1L << 30;
        PerfRow ring = run(r, Algorithm.RING, bytes, 16);
        for (Algorithm a : new Algorithm[] {Algorithm.COLLNET_DIRECT, Algorithm.COLLNET_CHAIN}) {
            PerfRow c = run(r, a, bytes, 16);
            // per host a ring sends 2(n-1)/n x S over its 8 NICs, CollNet S (each head its 1/8 once up, once down):
            // faster than the ring, but never faster than 8 NDR NICs of 50 GB/s carrying S/8 each
            assertThat(c.timeUs()).as(a.ncclName()).isLessThan(ring.timeUs());
            assertThat(c.timeUs()).as(a.ncclName()).isGreaterThan(bytes / 8 / 50e9 * 1e6);
        }
    }

    @Test
    void allGatherAndReduceScatterCarryEachRailsBlocksOverItsNicOnce() {
        io.ccsim.topology.Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(8, 2).withSharp(true));
        long bytes = 16L << 20; // 1 MiB per rank
        long block = bytes / 16;
        RailRun ag = RailRun.run(t, java.util.Map.of(), CollectiveOp.ALL_GATHER, bytes, Algorithm.COLLNET_DIRECT);
        RailRun rs = RailRun.run(t, java.util.Map.of(), CollectiveOp.REDUCE_SCATTER, bytes, Algorithm.COLLNET_DIRECT);
        for (int nic = 0; nic < 8; nic++) {
            String cable = "n1.nic" + nic + "~leaf.r" + nic + ".0";
            // all-gather: a head sends its own block up once; the rail's leaf returns both hosts' blocks to it
            assertThat(ag.bytes(cable, false)).as(cable).isCloseTo(block, org.assertj.core.api.Assertions.within(1.0));
            assertThat(ag.bytes(cable, true)).as(cable).isCloseTo(2 * block, org.assertj.core.api.Assertions.within(1.0));
            // reduce-scatter: a head sends its host's partial sums of both hosts' blocks; it gets its own block's sum
            assertThat(rs.bytes(cable, false)).as(cable).isCloseTo(2 * block, org.assertj.core.api.Assertions.within(1.0));
            assertThat(rs.bytes(cable, true)).as(cable).isCloseTo(block, org.assertj.core.api.Assertions.within(1.0));
        }
        assertThat(ag.spineBytes()).isZero(); // each rail's two hosts share its leaf, which aggregates
        assertThat(rs.spineBytes()).isZero();
    }

    @Test
    void withFourNicsForEightGpusOnlyTheNicsGpusAreHeads() {
        io.ccsim.topology.Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(8, 2).withSharp(true).withNicsPerNode(4));
        long bytes = 64L << 20;
        RailRun r = RailRun.run(t, java.util.Map.of(), CollectiveOp.ALL_REDUCE, bytes, Algorithm.COLLNET_DIRECT);
        assertThat(r.graph.collNet().headLocals()).containsExactly(0, 2, 4, 6);
        for (int k = 0; k < 4; k++) {
            // head 2k owns a quarter of the buffer: it moves S/4 to its NIC and S/4 back; GPU 2k+1 never uses the NIC
            String head = "n0.gpu" + 2 * k + "~n0.pcie" + k;
            String other = "n0.gpu" + (2 * k + 1) + "~n0.pcie" + k;
            assertThat(r.bytes(head, false)).isCloseTo(bytes / 4.0, org.assertj.core.api.Assertions.within(1.0));
            assertThat(r.bytes(head, true)).isCloseTo(bytes / 4.0, org.assertj.core.api.Assertions.within(1.0));
            assertThat(r.bytes(other, false) + r.bytes(other, true)).isZero();
        }
        RailRun eight = RailRun.run(TopologyCatalog.build("hgx-h100", BuildOptions.of(8, 2).withSharp(true)), java.util.Map.of(),
                CollectiveOp.ALL_REDUCE, bytes, Algorithm.COLLNET_DIRECT);
        assertThat(r.timePs).isGreaterThan(eight.timePs); // half the NICs, each carrying twice the data
    }

    @Test
    void aFabricWithoutSharpIsRefusedWithTheReason() {
        PerfRunner r = runner(2, false);
        assertThatThrownBy(() -> run(r, Algorithm.COLLNET_DIRECT, 1 << 20, 2))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("CollNet needs SHARP-capable switches");
    }

    @Test
    void theLeafAggregatesARailUnderOneLeafTheSpineOneOverSeveral() {
        io.ccsim.topology.Topology small = TopologyCatalog.build("hgx-h100", BuildOptions.of(8, 4).withSharp(true));
        io.ccsim.algorithms.net.HostNics nics = new io.ccsim.algorithms.net.HostNics(small, io.ccsim.algorithms.net.NetPolicy.DEFAULT);
        int[] heads = new int[4];
        for (int k = 0; k < 4; k++) heads[k] = small.nodeIndex(small.gpus().get(8 * k + 5).id());
        assertThat(small.nodes().get(SharpSwitches.aggregator(small, nics, heads, 5)).id()).isEqualTo("leaf.r5.0");
        // 40 hosts at 1:1: 32 per leaf, so every rail has 2 leaves and a spine combines them
        io.ccsim.topology.Topology big = TopologyCatalog.build("hgx-h100", BuildOptions.of(1, 40).withSharp(true));
        nics = new io.ccsim.algorithms.net.HostNics(big, io.ccsim.algorithms.net.NetPolicy.DEFAULT);
        int[] all = new int[40];
        for (int k = 0; k < 40; k++) all[k] = big.nodeIndex(big.gpus().get(k).id());
        assertThat(big.nodes().get(SharpSwitches.aggregator(big, nics, all, 0)).id()).startsWith("spine.");
        PerfRunner r = new PerfRunner(big, 40, CalibrationProfile.builtin("h100"), NcclEnv.empty(), 1);
        assertThat(run(r, Algorithm.COLLNET_DIRECT, 1 << 24, 4).timeUs()).isPositive();
    }

    /**
     * 40 hosts of one GPU (two leaves a rail, a spine aggregates): what crosses the leaves' uplinks is one stream a
     * leaf where the leaf can combine or copy it, as SHARP's tree sends (SharpSwitches), and each head's own data where
     * it differs per host. Of S bytes: all-reduce S up and S down per leaf (4 S); all-gather the 40 windows up (S) and
     * every window down once per leaf (2 S); reduce-scatter the leaves' partial sums up (2 S) and each host's window
     * down (S). And the all-reduce takes what it takes on one leaf: its uplinks carry what a NIC does.
     */
    @Test
    void theSpineReceivesALeafsPartialSumAndSendsItOneResult() {
        io.ccsim.topology.Topology two = TopologyCatalog.build("hgx-h100", BuildOptions.of(1, 40).withSharp(true));
        long s = 40L * 4 * (1 << 18);   // a whole number of elements for every host's window
        RailRun ar = RailRun.run(two, java.util.Map.of(), CollectiveOp.ALL_REDUCE, s, Algorithm.COLLNET_DIRECT);
        RailRun ag = RailRun.run(two, java.util.Map.of(), CollectiveOp.ALL_GATHER, s, Algorithm.COLLNET_DIRECT);
        RailRun rs = RailRun.run(two, java.util.Map.of(), CollectiveOp.REDUCE_SCATTER, s, Algorithm.COLLNET_DIRECT);
        org.assertj.core.data.Offset<Double> byte1 = org.assertj.core.api.Assertions.within(1.0);
        assertThat(ar.spineBytes()).isCloseTo(4.0 * s, byte1);
        assertThat(ag.spineBytes()).isCloseTo(3.0 * s, byte1);
        assertThat(rs.spineBytes()).isCloseTo(3.0 * s, byte1);
        io.ccsim.topology.Topology one = TopologyCatalog.build("hgx-h100", BuildOptions.of(1, 32).withSharp(true));
        RailRun leaf = RailRun.run(one, java.util.Map.of(), CollectiveOp.ALL_REDUCE, s, Algorithm.COLLNET_DIRECT);
        assertThat(leaf.spineBytes()).isZero();
        assertThat((double) ar.timePs / leaf.timePs).isCloseTo(1.0, org.assertj.core.api.Assertions.within(0.02));
    }
}
