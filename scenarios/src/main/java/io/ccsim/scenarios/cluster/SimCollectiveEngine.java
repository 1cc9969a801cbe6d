package io.ccsim.scenarios.cluster;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.graph.CommGraph;
import io.ccsim.algorithms.plan.CollectiveCall;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.PlanOptions;
import io.ccsim.algorithms.plan.Planners;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.sim.SimExecution;
import io.ccsim.algorithms.sim.SimExecutor;
import io.ccsim.algorithms.tuner.Candidate;
import io.ccsim.algorithms.tuner.NvlsGraph;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.algorithms.tuner.Tuner;
import io.ccsim.sim.Simulator;
import io.ccsim.topology.Link;
import io.ccsim.topology.LinkHealth;
import io.ccsim.topology.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The scenarios' collectives on the algorithms module's executor: every collective call is tuned by
 * the {@link Tuner} (NCCL's choice of algorithm, protocol and channels, from a {@link CommGraph} of the
 * communicator's GPUs), compiled by the {@link Planners} and run by a {@link SimExecution} on one
 * algorithms {@link io.ccsim.algorithms.sim.Fabric} bound to the scenario's {@link Simulator}, so that
 * concurrent collectives share links through the flow network's max-min fair rates. Each call is a
 * {@link SimCollective}; where its data goes is its {@link ConnectionRoutes}.
 *
 * <h2>Link health</h2>
 * The scenario's faults change the health in the scenarios {@link Cluster}; {@link #healthChanged()}
 * pushes every changed link to the algorithms fabric ({@code setLinkHealth}), whose flow network
 * re-solves the flows in flight. A dead link (capacity 0) stalls the flows crossing it. The IB
 * transport's rule is kept on top: an execution whose connections cross a dead link group is
 * <em>stalled</em> from that instant; when the link comes back, its traffic resumes only at the next
 * retransmission (the health is pushed at {@code stall + k × ACK timeout}, the first such instant
 * after the link is back; 4.096 us × 2^NCCL_IB_TIMEOUT), and if it is still stalled after
 * 1 + NCCL_IB_RETRY_CNT ACK timeouts the sender of the first stalled connection gets
 * IBV_WC_RETRY_EXC_ERR ({@link CollectiveEngine.Listener#onNetworkError}).
 *
 * <h2>Abort</h2>
 * {@link SimCollective#abort()} (ncclCommAbort, a hung GPU) and a transport failure only stop the callbacks:
 * the execution's flows are not cancelled and may keep moving (as kernels of a dead job keep
 * spinning until their process exits); nothing of it is reported afterwards.
 *
 * <h2>What the analyzer gets ({@link CollectiveStats})</h2>
 * Timing from the execution (start = last launch, end = all done); {@code healthyPs} = the duration
 * of the same plan alone on the nominal topology ({@link HealthyReference}: a fresh simulator and
 * fabric, cached per plan; equal to the actual duration when no link was unhealthy during the execution); the
 * bottleneck = the link group with the lowest capacity ÷ nominal capacity among those the plan's
 * connection routes ({@link NcclRoutes}) cross, with the ring hops crossing it; data via
 * {@link RingData} over the ring order of the channel that carried a flipped bit (channel 0 if none),
 * the flip placed at ring step ⌊f × 2(n−1)⌋ where f is the fraction of the plan's steps executed at
 * that instant, on the first hop (channel order, ring order) whose route crosses the flipped group.
 * Non-ring plans (tree) are checksummed over the communicator order with the same rule (the data path
 * of a tree is not modelled separately). Every stats array is indexed by position in that ring order,
 * {@link CollectiveStats#ranks()} giving the global rank at each position.
 */
public final class SimCollectiveEngine implements CollectiveEngine {
    /** A tuned and planned call: the plan and, per channel, the comm ranks in ring order. */
    record Planned(Plan plan, int[][] rings) {}

    final SimHost host;
    final Cluster cluster;
    final SimExecutor executor;
    final NcclRoutes routes;
    final HealthyReference healthy;
    final long ibGiveUpPs;
    /** Collectives launched and not finished, aborted or failed. */
    final List<SimCollective> running = new ArrayList<>();
    private final io.ccsim.algorithms.sim.Fabric net;
    private final NcclEnv env;
    private final Tuner tuner;
    private final Planners planners = Planners.standard();
    private final long ibAckTimeoutPs;
    private final Map<Integer, CommGraph> graphs = new HashMap<>();
    // health last pushed to the algorithms fabric, per link index
    private final double[] pushedFactor;
    private final boolean[] pushedDown;
    private final int[] resumeGeneration;
    private long healthChanges;

    /**
     * @param ibAckTimeoutPs the transport's retransmission timeout (4.096 us x 2^NCCL_IB_TIMEOUT), ps
     * @param ibGiveUpPs     how long a stalled transfer retries before failing, ps
     * @param seed           seed of the healthy reference simulations
     */
    public SimCollectiveEngine(SimHost host, Cluster cluster, CalibrationProfile profile, NcclEnv env, long ibAckTimeoutPs,
                        long ibGiveUpPs, long seed) {
        this.host = host;
        this.cluster = cluster;
        this.env = env;
        this.tuner = new Tuner(profile, env);
        this.net = new io.ccsim.algorithms.sim.Fabric(host.simulator(), cluster.topology(), profile);
        net.setP2pDisabled(env.p2pDisable());
        net.setNetPolicy(env.net());
        this.executor = new SimExecutor(host.simulator(), net);
        this.routes = new NcclRoutes(cluster.topology(), env.p2pDisable(), env.net());
        this.healthy = new HealthyReference(cluster.topology(), profile, env, seed, host.simulator().runControl());
        this.ibAckTimeoutPs = ibAckTimeoutPs;
        this.ibGiveUpPs = ibGiveUpPs;
        int nl = cluster.topology().links().size();
        this.pushedFactor = new double[nl];
        this.pushedDown = new boolean[nl];
        this.resumeGeneration = new int[nl];
        for (Link l : cluster.topology().links()) {
            int i = cluster.topology().linkIndex(l.id());
            pushedFactor[i] = l.health().degradeFactor();
            pushedDown[i] = l.health().down();
        }
    }

    /**
     * The calibration profile for a topology: the built-in one of its GPUs' model ({@code h100},
     * {@code h200}).
     *
     * @throws IllegalArgumentException naming the model and the built-in profiles when there is none
     */
    public static CalibrationProfile profileFor(Topology topo) {
        if (topo.gpus().isEmpty()) throw new IllegalArgumentException("topology " + topo.name() + " has no GPU");
        String model = topo.gpus().get(0).attr("model");
        String key = model == null ? "" : model.toLowerCase(java.util.Locale.ROOT);
        if (!CalibrationProfile.BUILTIN_NAMES.contains(key)) {
            throw new IllegalArgumentException("no built-in calibration profile for GPU model '" + model + "' of topology "
                    + topo.name() + "; built-in: " + String.join(", ", CalibrationProfile.BUILTIN_NAMES));
        }
        return CalibrationProfile.builtin(key);
    }

    @Override
    public Execution start(Spec spec, int[] gpuOfRank, int[] globalRankOf, Listener listener) {
        return new SimCollective(this, spec, gpuOfRank.clone(), globalRankOf.clone(), listener);
    }

    @Override
    public Execution startSymmetric(io.ccsim.scenarios.format.Step.SymmAlgo algo, long bytes, int[] gpuOfRank,
                                    java.util.function.LongConsumer done) {
        return new SymmetricAllReduce(this, algo, bytes, nodesOf(gpuOfRank), done);
    }

    @Override
    public boolean p2pReachable(int gpuA, int gpuB) {
        if (gpuA == gpuB) return true;
        if (env.p2pDisable()) return false;
        int[] n = nodesOf(new int[] {gpuA, gpuB});
        io.ccsim.topology.Route r = routes.route(n[0], n[1], 0, false);
        return r.length() > 0 && net.routeClass(r) == io.ccsim.algorithms.profile.LinkClass.NVLINK;
    }

    private int[] nodesOf(int[] gpus) {
        int[] nodes = new int[gpus.length];
        for (int i = 0; i < gpus.length; i++) nodes[i] = cluster.topology().nodeIndex(cluster.gpuId(gpus[i]));
        return nodes;
    }

    /** How many times link health changed so far (a collective that saw none ran on a healthy cluster). */
    long healthChanges() { return healthChanges; }

    /** The capacity of link group {@code g} in the flow network now, bytes/s (0 while it is dead). */
    double flowCapacity(int g) { return net.network().capacity(g); }

    /**
     * NCCL's choice for a call on GPU nodes {@code nodes} (the {@link Tuner} on a {@link CommGraph} of
     * those GPUs, the job's NCCL environment) and the plan the {@link Planners} make of it.
     */
    Planned plan(Spec spec, int[] nodes) {
        int n = nodes.length;
        CommGraph graph = graphFor(nodes);
        long count = callCount(spec.op(), spec.count(), n);
        CollectiveCall call = new CollectiveCall(spec.op(), count, spec.dtype(), ReduceOp.SUM, 0, graph.layout());
        // The scenario layer maps faults and link traffic onto rank-to-rank connections; switch actors (NVLS, CollNet)
        // are not part of that map yet, so scenario jobs run NCCL's choice among the other algorithms (scenarios/README.md).
        Candidate c = tuner.tune(graph.tuneInput(spec.op(), call.sizeBytes()).withNvls(NvlsGraph.none(
                "the scenario layer does not model NVLS yet")).withCollNet(io.ccsim.algorithms.tuner.CollNetGraph.none(
                "the scenario layer does not model CollNet yet"))).winner();
        PlanOptions opts = PlanOptions.of(c.algorithm(), c.protocol(), c.channels());
        if (c.protocol() == Protocol.SIMPLE && env.buffSizeBytes().isPresent()) opts = opts.withBufferBytes(env.buffSizeBytes().getAsLong());
        if (c.algorithm() == Algorithm.RING) opts = opts.withRingOrders(graph.ringOrders(c.channels()));
        if (c.algorithm() == Algorithm.P2P) opts = opts.withP2p(tuner.p2pSettings(graph.tuneInput(spec.op(), call.sizeBytes()), c.channels()));
        Plan plan = planners.plan(call, opts);
        int[][] rings = new int[plan.nChannels()][];
        for (int ch = 0; ch < rings.length; ch++) {
            int[] o = c.algorithm() == Algorithm.RING ? opts.ringOrder(ch) : null;
            if (o == null) {
                o = new int[n];
                for (int r = 0; r < n; r++) o[r] = r;
            }
            rings[ch] = o;
        }
        return new Planned(plan, rings);
    }

    @Override
    public void healthChanged() {
        healthChanges++;
        Topology topo = cluster.topology();
        long now = host.now();
        for (Link l : topo.links()) {
            int i = topo.linkIndex(l.id());
            double f = cluster.factorOf(i);
            boolean d = cluster.downOf(i);
            if (f == pushedFactor[i] && d == pushedDown[i]) continue;
            if (pushedDown[i] && !d) {
                // the link is back: stalled queue pairs resume at their next retransmission
                long stall = earliestStallCrossing(topo.groupOf(l.id()).index());
                if (stall >= 0) {
                    long periods = (now - stall + ibAckTimeoutPs - 1) / ibAckTimeoutPs;
                    long resume = stall + Math.max(1, periods) * ibAckTimeoutPs;
                    if (resume > now) {
                        int gen = ++resumeGeneration[i];
                        host.after(resume - now, () -> {
                            if (gen != resumeGeneration[i] || cluster.downOf(i)) return;
                            push(l, i);
                            updateStalls();
                        });
                        continue;
                    }
                }
            }
            resumeGeneration[i]++;
            push(l, i);
        }
        updateStalls();
    }

    private void push(Link l, int i) {
        pushedFactor[i] = cluster.factorOf(i);
        pushedDown[i] = cluster.downOf(i);
        LinkHealth h = l.health();
        net.setLinkHealth(l.id(), new LinkHealth(pushedFactor[i], pushedDown[i], h.flaps(), h.bitErrorRate()));
    }

    private long earliestStallCrossing(int group) {
        long best = -1;
        for (SimCollective e : running) {
            long stall = e.stallStartPs();
            if (stall >= 0 && e.crosses(group) && (best < 0 || stall < best)) best = stall;
        }
        return best;
    }

    private void updateStalls() {
        for (SimCollective e : new ArrayList<>(running)) e.updateStall();
    }

    @Override
    public void bitFlip(int groupIndex) {
        for (SimCollective e : running) e.flip(groupIndex);
    }

    private CommGraph graphFor(int[] gpuNodes) {
        int key = Arrays.hashCode(gpuNodes);
        CommGraph g = graphs.get(key);
        if (g == null || !Arrays.equals(g.gpuOfRank(), gpuNodes)) {
            g = CommGraph.of(cluster.topology(), gpuNodes, env.net());
            graphs.put(key, g);
        }
        return g;
    }

    /** The flow network the collectives run on (tests read its link counters). */
    io.ccsim.sim.flow.FlowNetwork network() { return net.network(); }

    /**
     * The plan's per-rank count ({@link CollectiveCall}) for a call whose tensor has {@code count}
     * elements per rank (the larger of input and output, as {@link CollectiveEngine.Spec} says):
     * reduce-scatter's and all-to-all's tensors hold n blocks.
     */
    static long callCount(CollectiveOp op, long count, int n) {
        switch (op) {
            case REDUCE_SCATTER:
            case ALL_TO_ALL: return Math.max(1, count / n);
            default: return count;
        }
    }
}
