package io.ccsim.algorithms.sim;

import static org.assertj.core.api.Assertions.assertThat;

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
import io.ccsim.algorithms.plan.UnsupportedAlgorithmException;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.sim.Simulator;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Link;
import io.ccsim.topology.LinkHealth;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Symmetry folding is exact: simulating one worker per class of equivalent workers gives, to the picosecond, the end
 * time of simulating every worker, on healthy and on faulty clusters, for every algorithm; and it folds where the
 * cluster is symmetric.
 */
class RankFoldingTest {
    private static final CalibrationProfile H100 = CalibrationProfile.builtin("h100");

    record Run(long endPs, long flows, int simulated, int total) { }

    /** {@code op} of {@code bytes} on every GPU of {@code topo} with {@code algo}/{@code proto}, NCCL's graph. */
    static Run run(Topology topo, CollectiveOp op, long bytes, Algorithm algo, Protocol proto, SimExecution.Folding fold) {
        NcclEnv env = NcclEnv.parse(Map.of());
        CommGraph g = CommGraph.of(topo, topo.gpus().size(), env.net());
        CollectiveCall call = new CollectiveCall(op, bytes / 4, DataType.FLOAT32, ReduceOp.SUM, 0, g.layout());
        PlanOptions opts = PlanOptions.of(algo, proto, g.nChannels());
        if (algo == Algorithm.RING) opts = opts.withRingOrders(g.ringOrders(g.nChannels()));
        if (algo == Algorithm.NVLS_TREE && g.nvls().headLocals() != null) opts = opts.withNetHeads(g.nvls().headLocals());
        Plan plan = Planners.standard().plan(call, opts);
        Simulator sim = new Simulator(1);
        Fabric f = new Fabric(sim, topo, H100, false);
        f.setNetPolicy(env.net());
        SimExecution x = new SimExecutor(sim, f).start(plan, g.gpuOfRank(), t -> { }, fold);
        x.launchAll();
        sim.run();
        assertThat(x.isDone()).as("%s %s %s completes", op, algo, proto).isTrue();
        for (int r = 0; r < plan.nRanks(); r++) assertThat(x.rankDoneTimePs(r)).isPositive();
        return new Run(x.endTimePs() - x.startTimePs(), x.flowsStarted(), x.simulatedWorkers(), x.workerCount());
    }

    private static void assertSame(Topology t, CollectiveOp op, long bytes, Algorithm a, Protocol p, List<Run> folded) {
        Run ranks;
        try {
            ranks = run(t, op, bytes, a, p, SimExecution.Folding.RANKS);
        } catch (UnsupportedAlgorithmException e) {
            return; // an algorithm the layout does not support (NCCL would not build it either)
        }
        Run all = run(t, op, bytes, a, p, SimExecution.Folding.NONE);
        assertThat(ranks.endPs()).as("%s %s %s/%s %d B", t.name(), op, a, p, bytes).isEqualTo(all.endPs());
        folded.add(ranks);
    }

    /**
     * NVLSTree across NVL72 domains: 32 heads of 72 GPUs (the others scatter and gather only), switch actors that talk
     * to 72 GPUs, and sub-chunks that do not split evenly; the keys and the per-worker lookups of the folded run give
     * the unfolded time.
     */
    @Test
    void nvlsTreeAcrossNvl72DomainsFoldsWithTheUnfoldedTime() {
        Topology t = TopologyCatalog.build("gb200-nvl72", BuildOptions.of(0, 2));
        List<Run> folded = new ArrayList<>();
        assertSame(t, CollectiveOp.ALL_REDUCE, 100_003L * 4, Algorithm.NVLS_TREE, Protocol.SIMPLE, folded);
        assertSame(t, CollectiveOp.ALL_REDUCE, 1L << 24, Algorithm.NVLS_TREE, Protocol.SIMPLE, folded);
        assertThat(folded).hasSize(2);
        assertThat(folded.get(1).simulated()).isLessThan(folded.get(1).total() / 2);
    }

    /**
     * NVLSTree's heads of one node fold where a loop's parts are equal (the scatter and gather take every head at once,
     * and a folded scatter's merged connections weigh once on the sender's ports); a size whose last loop splits
     * unevenly keeps the heads apart. Both give the unfolded time.
     */
    @Test
    void nvlsTreeHeadsFoldWhereTheirPartsAreEqual() {
        Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 4));
        List<Run> folded = new ArrayList<>();
        assertSame(t, CollectiveOp.ALL_REDUCE, 64L << 20, Algorithm.NVLS_TREE, Protocol.SIMPLE, folded);
        assertSame(t, CollectiveOp.ALL_REDUCE, (64L << 20) + 4 * 12_345, Algorithm.NVLS_TREE, Protocol.SIMPLE, folded);
        assertThat(folded.get(0).simulated()).as("heads folded").isLessThanOrEqualTo(folded.get(0).total() / 64);
        assertThat(folded.get(1).simulated()).as("uneven parts: heads apart").isGreaterThan(folded.get(1).total() / 64);
        // 4 NICs for 8 GPUs: one head per NIC (GPUs 0, 2, 4, 6), the others scatter and gather only
        Topology four = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 4).withNicsPerNode(4));
        assertSame(four, CollectiveOp.ALL_REDUCE, 64L << 20, Algorithm.NVLS_TREE, Protocol.SIMPLE, folded);
        assertSame(four, CollectiveOp.ALL_REDUCE, (64L << 20) + 4 * 12_345, Algorithm.NVLS_TREE, Protocol.SIMPLE, folded);
        assertThat(folded).hasSize(4);
    }

    /**
     * All-to-all: every rank's connections to the ranks of another host cross its NIC, so a quotient connection carries
     * the weight of its class on each hop; on 3 and 6 hosts (not a power of two: the hosts fold unevenly) the folded
     * time is the unfolded one.
     */
    @Test
    void allToAllFoldsWithTheUnfoldedTime() {
        List<Run> folded = new ArrayList<>();
        for (int nodes : new int[] {3, 6}) {
            Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, nodes));
            assertSame(t, CollectiveOp.ALL_TO_ALL, 1L << 24, Algorithm.P2P, Protocol.SIMPLE, folded);
        }
        assertThat(folded).hasSize(2);
        assertThat(folded).allSatisfy(r -> assertThat(r.simulated()).isLessThan(r.total()));
    }

    /**
     * A ring broadcast is a chain: telling the ranks of 256 one-GPU hosts apart takes more than 64 rounds. With a work
     * budget that allows the least rounds (64), the refinement stops unsettled and nothing folds: every worker is
     * simulated and the time is the settled folding's and the full simulation's.
     */
    @Test
    void aChainWhoseRefinementOutrunsItsBudgetIsSimulatedWhole() {
        Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(1, 256));
        NcclEnv env = NcclEnv.parse(Map.of());
        CommGraph g = CommGraph.of(t, t.gpus().size(), env.net());
        Plan plan = Planners.standard().plan(new CollectiveCall(CollectiveOp.BROADCAST, 1 << 22, DataType.FLOAT32,
                ReduceOp.SUM, 0, g.layout()), PlanOptions.of(Algorithm.RING, Protocol.SIMPLE, g.nChannels())
                .withRingOrders(g.ringOrders(g.nChannels())));
        long[] ends = new long[3];
        SimExecution[] xs = new SimExecution[3];
        SimExecution.Folding[] folds = {SimExecution.Folding.RANKS, SimExecution.Folding.RANKS, SimExecution.Folding.NONE};
        long[] work = {RankRefinement.MAX_WORK, 1, RankRefinement.MAX_WORK};
        for (int i = 0; i < 3; i++) {
            Simulator sim = new Simulator(1);
            Fabric f = new Fabric(sim, t, H100, false);
            f.setNetPolicy(env.net());
            xs[i] = new SimExecution(sim, f, plan, g.gpuOfRank(), x -> { }, folds[i], work[i]);
            xs[i].launchAll();
            sim.run();
            assertThat(xs[i].isDone()).isTrue();
            ends[i] = xs[i].endTimePs() - xs[i].startTimePs();
        }
        assertThat(xs[0].foldingUnsettledRounds()).isZero();
        assertThat(xs[1].foldingUnsettledRounds()).isEqualTo(RankRefinement.MIN_ROUNDS);
        assertThat(xs[1].simulatedWorkers()).isEqualTo(xs[0].simulatedWorkers()); // a chain folds no rank anyway
        assertThat(ends[1]).isEqualTo(ends[0]).isEqualTo(ends[2]);
    }

    @Test
    void theFoldingStopsOnTheRunsStopRequest() {
        // a stop asked before the execution is built ends the folding (seconds at thousands of GPUs), not the first event
        Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 16));
        NcclEnv env = NcclEnv.parse(Map.of());
        CommGraph g = CommGraph.of(t, t.gpus().size(), env.net());
        Plan plan = Planners.standard().plan(new CollectiveCall(CollectiveOp.ALL_REDUCE, 1 << 20, DataType.FLOAT32, ReduceOp.SUM, 0,
                g.layout()), PlanOptions.of(Algorithm.TREE, Protocol.SIMPLE, g.nChannels()));
        for (SimExecution.Folding fold : SimExecution.Folding.values()) {
            Simulator sim = new Simulator(1);
            io.ccsim.sim.RunControl control = new io.ccsim.sim.RunControl();
            sim.setRunControl(control);
            control.requestStop("SIGINT");
            Fabric f = new Fabric(sim, t, H100, false);
            SimExecutor ex = new SimExecutor(sim, f);
            if (fold == SimExecution.Folding.RANKS) {
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> ex.start(plan, g.gpuOfRank(), x -> { }, fold))
                        .isInstanceOf(io.ccsim.sim.RunStoppedException.class);
            } else {
                ex.start(plan, g.gpuOfRank(), x -> { }, fold); // nothing to refine: the simulation's first poll stops it
            }
        }
    }

    @Test
    void aRailRingOnSymmetricNodesFoldsToOneNodeWithTheSameTime() {
        Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 4));
        Run ranks = run(t, CollectiveOp.ALL_REDUCE, 1L << 26, Algorithm.RING, Protocol.SIMPLE, SimExecution.Folding.RANKS);
        Run all = run(t, CollectiveOp.ALL_REDUCE, 1L << 26, Algorithm.RING, Protocol.SIMPLE, SimExecution.Folding.NONE);
        assertThat(ranks.endPs()).isEqualTo(all.endPs());
        // 4 equivalent nodes: a quarter of the workers of the channels simulated, a quarter of their flows
        assertThat(ranks.simulated() * 4).isLessThanOrEqualTo(all.simulated());
        assertThat(ranks.flows() * 4).isLessThanOrEqualTo(all.flows());
    }

    @Test
    void everyAlgorithmAndOpGivesTheUnfoldedTimeOnTwoAndFourNodes() {
        List<Run> folded = new ArrayList<>();
        for (int nodes : new int[] {2, 4}) {
            Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, nodes));
            for (Protocol p : Protocol.values()) {
                assertSame(t, CollectiveOp.ALL_REDUCE, 1L << 22, Algorithm.RING, p, folded);
                assertSame(t, CollectiveOp.ALL_REDUCE, 1L << 22, Algorithm.TREE, p, folded);
                assertSame(t, CollectiveOp.ALL_GATHER, 1L << 22, Algorithm.RING, p, folded);
                assertSame(t, CollectiveOp.REDUCE_SCATTER, 1L << 22, Algorithm.RING, p, folded);
                assertSame(t, CollectiveOp.BROADCAST, 1L << 22, Algorithm.RING, p, folded);
            }
            assertSame(t, CollectiveOp.ALL_REDUCE, 1L << 24, Algorithm.NVLS_TREE, Protocol.SIMPLE, folded);
        }
        assertThat(folded.stream().filter(r -> r.simulated() < r.total()).count()).as("some runs fold").isPositive();
    }

    /**
     * NCCL's double binary tree sets every host of a channel apart, but channel c's chain starts at local GPU c mod 8
     * (rotating the hosts' GPUs and rails maps channel c onto c + 1) and, for an even host count, tree 1 is tree 0
     * mirrored: each worker has 15 equivalents in the other channels (7 for an odd count, where tree 1 is tree 0
     * shifted). Up to 32 hosts every rail is one leaf switch; the end times are the unfolded ones to the picosecond.
     */
    @Test
    void treeChannelsFoldAcrossChannelsWithTheUnfoldedTime() {
        for (int nodes : new int[] {2, 3, 4, 5, 6, 8, 16, 32}) {
            Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, nodes));
            for (Protocol p : Protocol.values()) {
                if (nodes == 32 && p != Protocol.SIMPLE) continue; // the unfolded run takes a second per protocol
                Run ranks = run(t, CollectiveOp.ALL_REDUCE, 1L << 22, Algorithm.TREE, p, SimExecution.Folding.RANKS);
                Run all = run(t, CollectiveOp.ALL_REDUCE, 1L << 22, Algorithm.TREE, p, SimExecution.Folding.NONE);
                assertThat(ranks.endPs()).as("%d hosts Tree/%s", nodes, p).isEqualTo(all.endPs());
                assertThat(ranks.simulated() * (nodes % 2 == 0 ? 16 : 8)).as("%d hosts Tree/%s workers", nodes, p)
                        .isEqualTo(all.simulated());
            }
        }
    }

    /**
     * Sizes whose channels carry different element counts fold less (a channel with more elements is its own), and
     * beyond one leaf group ECMP collisions on the spine cables set channels apart; the times stay the unfolded ones.
     */
    @Test
    void unevenChannelsAndSpineCrossingsGiveTheUnfoldedTime() {
        List<Run> folded = new ArrayList<>();
        for (int nodes : new int[] {4, 6}) {
            Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, nodes));
            for (long bytes : new long[] {3_158_072L, (1L << 22) + 4}) {
                assertSame(t, CollectiveOp.ALL_REDUCE, bytes, Algorithm.TREE, Protocol.LL128, folded);
                assertSame(t, CollectiveOp.ALL_REDUCE, bytes, Algorithm.RING, Protocol.SIMPLE, folded);
                assertSame(t, CollectiveOp.ALL_GATHER, bytes, Algorithm.RING, Protocol.LL, folded);
            }
        }
        Topology twoLeaves = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 64));
        assertSame(twoLeaves, CollectiveOp.ALL_REDUCE, 1L << 21, Algorithm.TREE, Protocol.SIMPLE, folded);
        assertThat(folded).hasSize(13);
    }

    /** A rail-aligned ring's channels are rotations of each other: on 8 hosts one host's 8 workers stand for all. */
    @Test
    void railRingChannelsFoldIntoOneHost() {
        Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 8));
        for (CollectiveOp op : new CollectiveOp[] {CollectiveOp.ALL_REDUCE, CollectiveOp.REDUCE_SCATTER}) {
            Run ranks = run(t, op, 1L << 22, Algorithm.RING, Protocol.LL128, SimExecution.Folding.RANKS);
            Run all = run(t, op, 1L << 22, Algorithm.RING, Protocol.LL128, SimExecution.Folding.NONE);
            assertThat(ranks.endPs()).as("%s", op).isEqualTo(all.endPs());
            assertThat(ranks.simulated()).as("%s workers", op).isEqualTo(8);
        }
    }

    /** Back-to-back calls (perf -n): a folded rank's end launches its next call at its representative's time. */
    @Test
    void backToBackCallsGiveTheUnfoldedTime() {
        Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 4));
        for (String algo : new String[] {"Ring", "Tree"}) {
            double[] us = new double[2];
            long[] workers = new long[2];
            SimExecution.Folding[] modes = {SimExecution.Folding.RANKS, SimExecution.Folding.NONE};
            for (int i = 0; i < 2; i++) {
                io.ccsim.algorithms.perf.PerfRunner r = new io.ccsim.algorithms.perf.PerfRunner(t, 32, H100,
                        NcclEnv.parse(Map.of("NCCL_ALGO", algo)), 0);
                r.setFolding(modes[i]);
                us[i] = r.run(CollectiveOp.ALL_REDUCE, 1L << 24, DataType.FLOAT32, ReduceOp.SUM, 0, 5).timeUs();
                workers[i] = r.lastSimulatedWorkers();
            }
            assertThat(us[0]).as(algo + " mean of 5 back-to-back calls").isEqualTo(us[1]);
            if (algo.equals("Ring")) assertThat(workers[0] * 4).isLessThanOrEqualTo(workers[1]);
        }
    }

    @Test
    void nvlsInsideOneNodeGivesTheUnfoldedTime() {
        List<Run> folded = new ArrayList<>();
        Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(8, 1));
        for (CollectiveOp op : new CollectiveOp[] {CollectiveOp.ALL_REDUCE, CollectiveOp.ALL_GATHER, CollectiveOp.REDUCE_SCATTER}) {
            assertSame(t, op, 1L << 24, Algorithm.NVLS, Protocol.SIMPLE, folded);
        }
        assertThat(folded).hasSize(3);
    }

    /** Random healthy and faulty clusters: each degraded link breaks symmetry, the times stay the unfolded ones. */
    @Test
    void randomFaultyClustersGiveTheUnfoldedTime() {
        SplittableRandom rnd = new SplittableRandom(20261126);
        List<Run> folded = new ArrayList<>();
        for (int trial = 0; trial < 6; trial++) {
            int nodes = 2 + rnd.nextInt(3);
            Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, nodes));
            List<Link> links = t.links();
            int faults = rnd.nextInt(3);
            for (int f = 0; f < faults; f++) {
                Link l = links.get(rnd.nextInt(links.size()));
                t = t.withLinkHealth(l.id(), LinkHealth.degraded(0.1 + 0.5 * rnd.nextDouble()));
            }
            long bytes = (1L << (16 + rnd.nextInt(8))) * (rnd.nextBoolean() ? 1 : 3);
            Algorithm a = rnd.nextBoolean() ? Algorithm.RING : Algorithm.TREE;
            Protocol p = Protocol.values()[rnd.nextInt(3)];
            assertSame(t, CollectiveOp.ALL_REDUCE, bytes, a, p, folded);
        }
        assertThat(folded).hasSize(6);
    }

    /**
     * Beyond one leaf a replica channel's hops between leaves take other spines than its representative's (ECMP by
     * channel): with one of those uplinks at a tenth of its rate, the folded run must still give the unfolded time. The
     * uplink chosen is one that slows the unfolded run, so the check can fail.
     */
    @Test
    void aSlowSpineLinkThatOnlyAReplicaCrossesGivesTheUnfoldedTime() {
        Topology healthy = TopologyCatalog.build("hgx-h100", BuildOptions.of(1, 40)); // 40 hosts: two leaves on the rail
        long base = run(healthy, CollectiveOp.ALL_REDUCE, 1L << 24, Algorithm.RING, Protocol.SIMPLE, SimExecution.Folding.NONE).endPs();
        Topology slow = null;
        for (Link l : healthy.links()) {
            if (!l.id().startsWith("leaf.r0.0~spine.")) continue;
            Topology t = healthy.withLinkHealth(l.id(), LinkHealth.degraded(0.1));
            if (run(t, CollectiveOp.ALL_REDUCE, 1L << 24, Algorithm.RING, Protocol.SIMPLE, SimExecution.Folding.NONE).endPs() > base) {
                slow = t;
                break;
            }
        }
        assertThat(slow).as("an uplink of leaf.r0.0 that the ring crosses").isNotNull();
        long all = run(slow, CollectiveOp.ALL_REDUCE, 1L << 24, Algorithm.RING, Protocol.SIMPLE, SimExecution.Folding.NONE).endPs();
        for (SimExecution.Folding f : new SimExecution.Folding[] {SimExecution.Folding.CHANNELS, SimExecution.Folding.RANKS}) {
            assertThat(run(slow, CollectiveOp.ALL_REDUCE, 1L << 24, Algorithm.RING, Protocol.SIMPLE, f).endPs()).as("%s", f)
                    .isEqualTo(all);
        }
        // the healthy cluster still folds its replica channels
        Run folded = run(healthy, CollectiveOp.ALL_REDUCE, 1L << 24, Algorithm.RING, Protocol.SIMPLE, SimExecution.Folding.CHANNELS);
        assertThat(folded.simulated()).isLessThan(folded.total());
        assertThat(folded.endPs()).isEqualTo(base);
    }
}
