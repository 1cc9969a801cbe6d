package io.ccsim.scenarios.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.perf.PerfRow;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.scenarios.format.Settings;
import io.ccsim.scenarios.format.Units;
import io.ccsim.sim.Simulator;
import io.ccsim.sim.flow.FlowNetwork;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The SimExecutor adapter: timing, routes, bottleneck, IB stalls and failures, data, sub-communicators. */
class SimCollectiveEngineTest {
    private static final Settings ST = Settings.defaults();

    /** One engine on a fresh simulator over a topology; collects what the listener gets. */
    private static final class Rig {
        final Simulator sim = new Simulator(3);
        final SimHost host = new SimHost(sim);
        final Cluster cluster;
        final SimCollectiveEngine engine;
        final List<CollectiveStats> done = new ArrayList<>();
        final List<Long> errorsAt = new ArrayList<>();
        final List<String> errors = new ArrayList<>();

        Rig(int nodes) {
            cluster = new Cluster(TopologyCatalog.build("hgx-h100", BuildOptions.of(0, nodes)));
            engine = new SimCollectiveEngine(host, cluster, SimCollectiveEngine.profileFor(cluster.topology()), ST.nccl(),
                    ST.ibAckTimeoutPs(), ST.ibGiveUpPs(), 7);
        }

        SimCollective start(CollectiveOp op, long count, int[] gpus) {
            return (SimCollective) engine.start(new CollectiveEngine.Spec(op, count, DataType.BFLOAT16, "t#1", 99, 16),
                    gpus, gpus, new CollectiveEngine.Listener() {
                        @Override public void onRankDone(int r, long t) {}
                        @Override public void onAllDone(CollectiveStats s) { done.add(s); }
                        @Override public void onNetworkError(int sender, String d) {
                            errorsAt.add(host.now());
                            errors.add(sender + ": " + d);
                        }
                    });
        }
    }

    private static int[] range(int from, int n, int stride) {
        int[] g = new int[n];
        for (int i = 0; i < n; i++) g[i] = from + i * stride;
        return g;
    }

    @Test
    void healthyTimeIsTheSimExecutorsTimeForTheTunersChoice() {
        Rig rig = new Rig(1);
        long count = 128L << 20; // 256 MiB of bfloat16
        SimCollective x = rig.start(CollectiveOp.ALL_REDUCE, count, range(0, 8, 1));
        for (int r = 7; r >= 0; r--) x.launch(r);
        rig.sim.run();
        CollectiveStats s = rig.done.get(0);
        // the same call through PerfRunner (tuner + planner + SimExecution, all launched at 0) with the same NCCL env;
        // scenario jobs do not run NVLS (SimCollectiveEngine#plan), so neither does the reference
        java.util.Map<String, String> env = new java.util.HashMap<>(ST.ncclEnv());
        env.putIfAbsent("NCCL_MAX_NCHANNELS", Integer.toString(ST.channels()));
        env.put("NCCL_NVLS_ENABLE", "0");
        PerfRunner perf = new PerfRunner(rig.cluster.topology(), 8, SimCollectiveEngine.profileFor(rig.cluster.topology()),
                io.ccsim.algorithms.tuner.NcclEnv.parse(env), 1);
        PerfRow row = perf.run(CollectiveOp.ALL_REDUCE, count * 2, DataType.BFLOAT16, ReduceOp.SUM, 0);
        assertThat(row.algo()).isNotEqualTo(io.ccsim.algorithms.Algorithm.NVLS);
        assertThat((double) s.durationPs()).isCloseTo(row.timeUs() * 1e6, offset(1.0));
        assertThat(s.healthyPs()).isEqualTo(s.durationPs());
        assertThat(s.bottleneckHealth()).isEqualTo(1.0);
        long sum = 0;
        for (long c : s.inputChecksums()) sum += c;
        for (long c : s.outputChecksums()) assertThat(c).isEqualTo(sum);
    }

    @Test
    void routesNameExactlyTheLinkGroupsWhoseCountersMoved() {
        Rig rig = new Rig(2);
        SimCollective x = rig.start(CollectiveOp.ALL_REDUCE, 16L << 20, range(0, 16, 1));
        for (int r = 0; r < 16; r++) x.launch(r);
        rig.sim.run();
        assertThat(rig.done).hasSize(1);
        FlowNetwork net = rig.engine.network();
        BitSet fwd = new BitSet(), rev = new BitSet();
        for (int g = 0; g < net.linkCount(); g++) {
            if (net.linkBytes(g, false) > 0) fwd.set(g);
            if (net.linkBytes(g, true) > 0) rev.set(g);
        }
        assertThat(x.routes().crossedForward()).isEqualTo(fwd);
        assertThat(x.routes().crossedReverse()).isEqualTo(rev);
        assertThat(fwd.cardinality()).isGreaterThan(16);
    }

    @Test
    void aDegradedPortIsTheBottleneckAndItsRingHopsAreNamed() {
        Rig rig = new Rig(1);
        rig.cluster.setFactor("n0.gpu4~n0.nvs0", 0.25);
        rig.engine.healthChanged();
        SimCollective x = rig.start(CollectiveOp.ALL_REDUCE, 128L << 20, range(0, 8, 1));
        for (int r = 0; r < 8; r++) x.launch(r);
        rig.sim.run();
        CollectiveStats s = rig.done.get(0);
        // a striped port is paced by its slowest lane: the whole gpu4 port runs at 1/4, so the bandwidth part
        // of the time is up to 4x longer (latency is not)
        assertThat((double) s.durationPs() / s.healthyPs()).isBetween(2.0, 4.0);
        assertThat(s.bottleneckLink()).isEqualTo("n0.gpu4~n0.nvs0");
        assertThat(s.bottleneckHealth()).isCloseTo(0.25, offset(1e-9));
        // ring 0..7 in order: the hops 3 -> 4 (into gpu4's port) and 4 -> 5 (out of it)
        assertThat(s.bottleneckSenders()).containsExactlyInAnyOrder(3, 4);
        assertThat(s.bottleneckReceivers()).containsExactlyInAnyOrder(4, 5);
    }

    @Test
    void anIbOutageStallsUntilTheNextRetransmissionOrFailsAfterTheRetries() {
        long ms = Units.ms(1);
        long healthy = 0, stalled = 0;
        for (long outage : new long[] {0, Units.s(2), Units.s(40)}) {
            Rig rig = new Rig(2);
            SimCollective x = rig.start(CollectiveOp.ALL_REDUCE, 1L << 29, range(0, 16, 1));
            for (int r = 0; r < 16; r++) x.launch(r);
            if (outage > 0) {
                rig.host.after(ms, () -> { rig.cluster.setDown("n1.nic2~leaf.r2.0", true); rig.engine.healthChanged(); });
                rig.host.after(ms + outage, () -> { rig.cluster.setDown("n1.nic2~leaf.r2.0", false); rig.engine.healthChanged(); });
            }
            rig.sim.run();
            if (outage == 0) {
                healthy = rig.done.get(0).durationPs();
                assertThat(healthy).isGreaterThan(ms);
            } else if (outage == Units.s(2)) {
                CollectiveStats s = rig.done.get(0);
                stalled = s.durationPs();
                assertThat(s.healthyPs()).isEqualTo(healthy);
                assertThat(rig.errors).isEmpty();
            } else {
                // a 40 s outage outlasts 1 + NCCL_IB_RETRY_CNT ACK timeouts: the sender's transport fails then
                assertThat(rig.done).isEmpty();
                assertThat(rig.errorsAt).containsExactly(ms + ST.ibGiveUpPs());
                assertThat(rig.errors.get(0)).contains("IBV_WC_RETRY_EXC_ERR").contains("n1.nic2~leaf.r2.0");
            }
        }
        // the 2 s outage: the channels crossing the link stand still from 1 ms until the first retransmission
        // after the link is back (1 ms + one ACK timeout, as 2 s < 4.3 s), then finish their remaining work
        assertThat(stalled).isGreaterThanOrEqualTo(ms + ST.ibAckTimeoutPs()).isLessThanOrEqualTo(ms + ST.ibAckTimeoutPs() + healthy);
    }

    @Test
    void aBitFlipInTheAllGatherPhaseCorruptsARunOfRanksStartingAfterTheFlippedHop() {
        Rig ok = new Rig(1);
        SimCollective x0 = ok.start(CollectiveOp.ALL_REDUCE, 128L << 20, range(0, 8, 1));
        for (int r = 0; r < 8; r++) x0.launch(r);
        ok.sim.run();
        long dur = ok.done.get(0).durationPs();
        long sum = 0;
        for (long c : ok.done.get(0).inputChecksums()) sum += c;

        Rig rig = new Rig(1);
        SimCollective x = rig.start(CollectiveOp.ALL_REDUCE, 128L << 20, range(0, 8, 1));
        for (int r = 0; r < 8; r++) x.launch(r);
        rig.host.after(dur * 9 / 10, () -> rig.engine.bitFlip(rig.cluster.groupIndexOfLink("n0.gpu5~n0.nvs2")));
        rig.sim.run();
        CollectiveStats bad = rig.done.get(0);
        List<Integer> wrong = new ArrayList<>();
        for (int i = 0; i < 8; i++) if (bad.outputChecksums()[i] != sum) wrong.add(i);
        assertThat(wrong).isNotEmpty().hasSizeLessThan(8);
        // a contiguous run in ring order whose first member receives over a hop crossing gpu5's port
        int first = -1;
        for (int i = 0; i < 8; i++) if (wrong.contains(i) && !wrong.contains((i + 7) % 8)) first = i;
        for (int i = 0; i < wrong.size(); i++) assertThat(wrong).contains((first + i) % 8);
        assertThat(bad.ringHopLinks().get(first)).contains("n0.gpu5~n0.nvs2");
    }

    @Test
    void aSubCommunicatorWithOneGpuPerNodeRunsOverTheRailOfItsGpus() {
        Rig rig = new Rig(4);
        int[] gpus = range(2, 4, 8); // local GPU 2 of each host: an expert-data-parallel group
        SimCollective x = rig.start(CollectiveOp.ALL_REDUCE, 8L << 20, gpus);
        for (int r = 0; r < 4; r++) x.launch(r);
        rig.sim.run();
        CollectiveStats s = rig.done.get(0);
        assertThat(s.ranks()).containsExactlyInAnyOrder(2, 10, 18, 26);
        assertThat(s.durationPs()).isPositive().isEqualTo(s.healthyPs());
        Topology t = rig.cluster.topology();
        FlowNetwork net = rig.engine.network();
        // traffic leaves each host through GPU 2's own NIC (rail 2) and no other NIC
        for (int h = 0; h < 4; h++) {
            for (int nic = 0; nic < 8; nic++) {
                int g = t.groupOf("n" + h + ".nic" + nic + "~leaf.r" + nic + ".0").index();
                double bytes = net.linkBytes(g, false) + net.linkBytes(g, true);
                if (nic == 2) assertThat(bytes).isPositive();
                else assertThat(bytes).isZero();
            }
        }
    }
}
