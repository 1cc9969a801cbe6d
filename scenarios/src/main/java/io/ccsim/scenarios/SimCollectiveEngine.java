package io.ccsim.scenarios;

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
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.algorithms.tuner.Tuner;
import io.ccsim.sim.Simulator;
import io.ccsim.topology.Link;
import io.ccsim.topology.LinkHealth;
import io.ccsim.topology.Route;
import io.ccsim.topology.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The scenarios' collectives on the algorithms module's executor: every collective call is tuned by
 * the {@link Tuner} (NCCL's choice of algorithm, protocol and channels, from a {@link CommGraph} of the
 * communicator's GPUs), compiled by the {@link Planners} and run by a {@link SimExecution} on one
 * algorithms {@link io.ccsim.algorithms.sim.Fabric} bound to the scenario's {@link Simulator}, so that
 * concurrent collectives share links through the flow network's max-min fair rates.
 *
 * <h2>Link health</h2>
 * The scenario's faults change the health in the scenarios {@link Cluster}; {@link #healthChanged()}
 * pushes every changed link to the algorithms cluster ({@code setLinkHealth}), whose flow network
 * re-solves the flows in flight. A dead link (capacity 0) stalls the flows crossing it. The IB
 * transport's rule is kept on top: an execution whose connections cross a dead link group is
 * <em>stalled</em> from that instant; when the link comes back, its traffic resumes only at the next
 * retransmission (the health is pushed at {@code stall + k × ACK timeout}, the first such instant
 * after the link is back; 4.096 us × 2^NCCL_IB_TIMEOUT), and if it is still stalled after
 * 1 + NCCL_IB_RETRY_CNT ACK timeouts the sender of the first stalled connection gets
 * IBV_WC_RETRY_EXC_ERR ({@link CollectiveEngine.Listener#onNetworkError}).
 *
 * <h2>Abort</h2>
 * {@link Execution#abort()} (ncclCommAbort, a hung GPU) and a transport failure only stop the callbacks:
 * the execution's flows are not cancelled and may keep moving (as kernels of a dead job keep
 * spinning until their process exits); nothing of it is reported afterwards.
 *
 * <h2>What the analyzer gets ({@link CollectiveStats})</h2>
 * Timing from the execution (start = last launch, end = all done); {@code healthyPs} = the duration
 * of the same plan alone on the nominal topology (a fresh Simulator and cluster, cached per plan
 * signature; equal to the actual duration when no link was unhealthy during the execution); the
 * bottleneck = the link group with the lowest capacity ÷ nominal capacity among those the plan's
 * connection routes ({@link NcclRoutes}) cross, with the ring hops crossing it; data via
 * {@link RingData} over the ring order of the channel that carried a flipped bit (channel 0 if none),
 * the flip placed at ring step ⌊f × 2(n−1)⌋ where f is the fraction of the plan's steps executed at
 * that instant, on the first hop (channel order, ring order) whose route crosses the flipped group.
 * Non-ring plans (tree) are checksummed over the communicator order with the same rule (the data path
 * of a tree is not modelled separately). Every stats array is indexed by position in that ring order,
 * {@link CollectiveStats#ranks()} giving the global rank at each position.
 */
final class SimCollectiveEngine implements CollectiveEngine {
    private final SimHost host;
    private final Cluster cluster;
    private final io.ccsim.algorithms.sim.Fabric net;
    private final SimExecutor executor;
    private final CalibrationProfile profile;
    private final NcclEnv env;
    private final Tuner tuner;
    private final Planners planners = Planners.standard();
    private final NcclRoutes routes;
    private final long ibAckTimeoutPs;
    private final long ibGiveUpPs;
    private final long seed;
    private final List<Exec> running = new ArrayList<>();
    private final Map<String, Long> healthyCache = new HashMap<>();
    private final Map<Integer, CommGraph> graphs = new HashMap<>();
    // health last pushed to the algorithms cluster, per link index
    private final double[] pushedFactor;
    private final boolean[] pushedDown;
    private final int[] resumeGeneration;
    private long healthChanges;

    /**
     * @param ibAckTimeoutPs the transport's retransmission timeout (4.096 us x 2^NCCL_IB_TIMEOUT), ps
     * @param ibGiveUpPs     how long a stalled transfer retries before failing, ps
     * @param seed           seed of the healthy-cluster reference simulations
     */
    SimCollectiveEngine(SimHost host, Cluster cluster, CalibrationProfile profile, NcclEnv env, long ibAckTimeoutPs,
                        long ibGiveUpPs, long seed) {
        this.host = host;
        this.cluster = cluster;
        this.profile = profile;
        this.env = env;
        this.tuner = new Tuner(profile, env);
        this.net = new io.ccsim.algorithms.sim.Fabric(host.simulator(), cluster.topology(), profile);
        net.setP2pDisabled(env.p2pDisable());
        this.executor = new SimExecutor(host.simulator(), net);
        this.routes = new NcclRoutes(cluster.topology(), env.p2pDisable());
        this.ibAckTimeoutPs = ibAckTimeoutPs;
        this.ibGiveUpPs = ibGiveUpPs;
        this.seed = seed;
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
    static CalibrationProfile profileFor(Topology topo) {
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
        return new Exec(spec, gpuOfRank.clone(), globalRankOf.clone(), listener);
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
        for (Exec e : running) {
            if (e.stallStartPs >= 0 && e.crossed.get(group) && (best < 0 || e.stallStartPs < best)) best = e.stallStartPs;
        }
        return best;
    }

    private void updateStalls() {
        for (Exec e : new ArrayList<>(running)) e.updateStall();
    }

    @Override
    public void bitFlip(int groupIndex) {
        for (Exec e : running) e.flip(groupIndex);
    }

    private CommGraph graphFor(int[] gpuNodes) {
        int key = Arrays.hashCode(gpuNodes);
        CommGraph g = graphs.get(key);
        if (g == null || !Arrays.equals(g.gpuOfRank(), gpuNodes)) {
            g = CommGraph.of(cluster.topology(), gpuNodes);
            graphs.put(key, g);
        }
        return g;
    }

    /** The duration of {@code plan} alone on the nominal topology, ps (cached per plan and GPUs). */
    private long healthyDuration(Plan plan, int[] gpuNodes) {
        String key = plan + "|" + Arrays.toString(gpuNodes);
        Long cached = healthyCache.get(key);
        if (cached != null) return cached;
        Simulator sim = new Simulator(seed);
        io.ccsim.algorithms.sim.Fabric f = new io.ccsim.algorithms.sim.Fabric(sim, cluster.topology(), profile);
        f.setP2pDisabled(env.p2pDisable());
        SimExecution x = new SimExecutor(sim, f).start(plan, gpuNodes, t -> { });
        x.launchAll();
        sim.run();
        if (!x.isDone()) throw new IllegalStateException("the healthy reference run of " + plan + " did not complete: " + x.blockedWorkers());
        long d = x.endTimePs() - x.startTimePs();
        healthyCache.put(key, d);
        return d;
    }

    /** One connection of the plan: the data of channel {@code ch} from comm rank {@code from} to {@code to}. */
    private record Conn(int ch, int from, int to, int[] groups) {}

    /** The flow network the executions run on (tests read its link counters). */
    io.ccsim.sim.flow.FlowNetwork network() { return net.network(); }

    final class Exec implements Execution, SimExecution.Listener {
        final Spec spec;
        final int[] gpu;
        final int[] global;
        final Listener listener;
        final int n;
        final boolean[] launched;
        int launchedCount;
        boolean finished, aborted;
        long startPs = -1;
        long healthChangesAtStart;
        boolean unhealthySeen;
        long stallStartPs = -1;
        long giveUpHandle = -1;
        Plan plan;
        SimExecution x;
        int[][] rings;                 // per channel: comm ranks in ring order
        int[] routeChannel;            // per channel: the channel whose routes its data takes
        final List<Conn> conns = new ArrayList<>();
        final Map<Long, Conn> connOf = new HashMap<>();
        final BitSet crossed = new BitSet();
        final BitSet crossedForward = new BitSet();   // group index of hops crossed in their forward direction
        final BitSet crossedReverse = new BitSet();
        final List<long[]> flips = new ArrayList<>(); // {step, sender ring position, channel}

        Exec(Spec spec, int[] gpu, int[] global, Listener listener) {
            this.spec = spec;
            this.gpu = gpu;
            this.global = global;
            this.listener = listener;
            this.n = gpu.length;
            this.launched = new boolean[n];
            if (n > 1) prepare();
        }

        private void prepare() {
            int[] nodes = new int[n];
            for (int r = 0; r < n; r++) nodes[r] = cluster.topology().nodeIndex(cluster.gpuId(gpu[r]));
            CommGraph graph = graphFor(nodes);
            long count = callCount(spec.op(), spec.count(), n);
            CollectiveCall call = new CollectiveCall(spec.op(), count, spec.dtype(), ReduceOp.SUM, 0, graph.layout());
            Candidate c = tuner.tune(graph.tuneInput(spec.op(), call.sizeBytes())).winner();
            PlanOptions opts = PlanOptions.of(c.algorithm(), c.protocol(), c.channels());
            if (c.protocol() == Protocol.SIMPLE && env.buffSizeBytes().isPresent()) opts = opts.withBufferBytes(env.buffSizeBytes().getAsLong());
            if (c.algorithm() == Algorithm.RING) opts = opts.withRingOrders(graph.ringOrders(c.channels()));
            plan = planners.plan(call, opts);
            rings = new int[plan.nChannels()][];
            for (int ch = 0; ch < rings.length; ch++) {
                int[] o = c.algorithm() == Algorithm.RING ? opts.ringOrder(ch) : null;
                if (o == null) {
                    o = new int[n];
                    for (int r = 0; r < n; r++) o[r] = r;
                }
                rings[ch] = o;
            }
            x = executor.start(plan, nodes, this);
            // a replica channel is simulated by its representative, whose flows (and routes) stand for it
            int[] routeChannel = new int[rings.length];
            for (int ch = 0; ch < rings.length; ch++) {
                routeChannel[ch] = ch;
                if (x.channelMultiplicity(ch) > 0) continue;
                for (int r = 0; r < ch; r++) {
                    if (x.channelMultiplicity(r) > 0 && Arrays.equals(rings[r], rings[ch])) {
                        routeChannel[ch] = r;
                        break;
                    }
                }
            }
            this.routeChannel = routeChannel;
            plan.forEachConnection((ch, from, to) -> {
                Route rt = routes.route(nodes[from], nodes[to], routeChannel[ch]);
                int[] groups = NcclRoutes.groups(rt);
                Conn k = new Conn(ch, from, to, groups);
                conns.add(k);
                connOf.put(key(ch, from, to), k);
                for (int i = 0; i < rt.length(); i++) {
                    crossed.set(rt.groupAt(i));
                    (rt.reverseAt(i) ? crossedReverse : crossedForward).set(rt.groupAt(i));
                }
            });
        }

        private long key(int ch, int from, int to) { return ((long) ch << 42) | ((long) from << 21) | to; }

        @Override
        public void launch(int r) {
            if (aborted || launched[r]) return;
            launched[r] = true;
            if (++launchedCount == n) {
                startPs = host.now();
                healthChangesAtStart = healthChanges;
                unhealthySeen = !crossedGroupsHealthy();
            }
            if (n == 1) {
                finished = true;
                listener.onRankDone(0, host.now());
                listener.onAllDone(stats(host.now()));
                return;
            }
            if (launchedCount == 1) {
                running.add(this);
                updateStall();
            }
            x.launch(r);
        }

        @Override
        public boolean isRankDone(int r) { return finished || (x != null && x.isRankDone(r)); }

        @Override
        public void abort() {
            aborted = true;
            cancelGiveUp();
            running.remove(this);
        }

        private void cancelGiveUp() {
            if (giveUpHandle >= 0) host.cancel(giveUpHandle);
            giveUpHandle = -1;
        }

        private boolean crossedGroupsHealthy() {
            for (int g = crossed.nextSetBit(0); g >= 0; g = crossed.nextSetBit(g + 1)) {
                if (cluster.groupCapacity(g) < cluster.groupNominal(g)) return false;
            }
            return true;
        }

        /** Stalled while a group its connections cross has no capacity in the flow network. */
        void updateStall() {
            if (finished || aborted) return;
            if (!crossedGroupsHealthy()) unhealthySeen = true;
            boolean stalled = false;
            for (int g = crossed.nextSetBit(0); g >= 0 && !stalled; g = crossed.nextSetBit(g + 1)) {
                stalled = net.network().capacity(g) == 0.0;
            }
            if (stalled && stallStartPs < 0) {
                stallStartPs = host.now();
                giveUpHandle = host.after(ibGiveUpPs, this::giveUp);
            } else if (!stalled && stallStartPs >= 0) {
                stallStartPs = -1;
                cancelGiveUp();
            }
        }

        private void giveUp() {
            giveUpHandle = -1;
            if (finished || aborted) return;
            aborted = true;
            running.remove(this);
            // the first stalled connection's sender sees the completion error
            for (Conn k : conns) {
                for (int g : k.groups()) {
                    if (net.network().capacity(g) == 0.0) {
                        listener.onNetworkError(global[k.from()], "NET/IB : Got completion from peer (rank " + global[k.to()]
                                + ") with status=12 (IBV_WC_RETRY_EXC_ERR) opcode=0 len=0 vendor err 129 on link "
                                + cluster.worstMember(g) + " after " + Units.formatDuration(ibGiveUpPs) + " of retries");
                        return;
                    }
                }
            }
        }

        void flip(int groupIndex) {
            if (finished || aborted || x == null || launchedCount < n || !crossed.get(groupIndex)) return;
            double f = Math.min(1.0, x.stepsExecuted() / (double) Math.max(1, plan.totalSteps()));
            int steps = 2 * (n - 1);
            long step = Math.min(steps - 1, (long) Math.floor(f * steps));
            for (int ch = 0; ch < rings.length; ch++) {
                int[] ring = rings[ch];
                for (int p = 0; p < n; p++) {
                    Conn k = connOf.get(key(ch, ring[p], ring[(p + 1) % n]));
                    if (k == null) continue;
                    for (int g : k.groups()) {
                        if (g == groupIndex) {
                            flips.add(new long[] {step, p, ch});
                            return;
                        }
                    }
                }
            }
            // no ring hop crosses it (a tree connection does): corrupt what the first crossing connection's sender sends
            for (Conn k : conns) {
                for (int g : k.groups()) {
                    if (g == groupIndex) {
                        flips.add(new long[] {step, k.from(), 0});
                        return;
                    }
                }
            }
        }

        @Override
        public void onRankDone(int rank, long timePs) {
            if (aborted) return;
            listener.onRankDone(rank, timePs);
        }

        @Override
        public void onAllDone(long timePs) {
            if (aborted || finished) return;
            finished = true;
            cancelGiveUp();
            running.remove(this);
            listener.onAllDone(stats(timePs));
        }

        private CollectiveStats stats(long now) {
            String bottleneck = null;
            double health = 1.0;
            List<Integer> senders = new ArrayList<>();
            List<Integer> receivers = new ArrayList<>();
            List<List<String>> hopLinks = new ArrayList<>();
            long[] in = null, out = null;
            int[] order = global.clone();
            long healthy = 0;
            if (n > 1) {
                boolean healthyRun = !unhealthySeen && healthChanges == healthChangesAtStart;
                healthy = healthyRun ? now - startPs : healthyDuration(plan, nodesOf());
                int worst = -1;
                double worstH = 2;
                for (int g = crossed.nextSetBit(0); g >= 0; g = crossed.nextSetBit(g + 1)) {
                    double nom = cluster.groupNominal(g);
                    double h = nom == 0 ? 0 : cluster.groupCapacity(g) / nom;
                    if (h < worstH) {
                        worstH = h;
                        worst = g;
                    }
                }
                if (worst >= 0) {
                    bottleneck = cluster.worstMember(worst);
                    health = worstH;
                    Set<Long> seen = new LinkedHashSet<>();
                    for (Conn k : conns) {
                        for (int g : k.groups()) {
                            if (g == worst && seen.add(((long) k.from() << 32) | k.to())) {
                                senders.add(global[k.from()]);
                                receivers.add(global[k.to()]);
                                break;
                            }
                        }
                    }
                }
                int chan = flips.isEmpty() ? 0 : (int) flips.get(0)[2];
                int[] ring = rings[chan];
                for (int p = 0; p < n; p++) order[p] = global[ring[p]];
                for (int p = 0; p < n; p++) {
                    Route rt = routes.route(nodesOf()[ring[(p - 1 + n) % n]], nodesOf()[ring[p]], routeChannel[chan]);
                    hopLinks.add(NcclRoutes.memberLinks(cluster.topology(), NcclRoutes.groups(rt)));
                }
                if (spec.op() == CollectiveOp.ALL_REDUCE) {
                    // checksums are modelled for all-reduce (the sum of outputs is the sum of inputs)
                    List<long[]> onChannel = new ArrayList<>();
                    for (long[] fl : flips) if (fl[2] == chan) onChannel.add(fl);
                    long[][] data = RingData.checksums(order, spec.dataSeed(), onChannel);
                    in = data[0];
                    out = data[1];
                }
            }
            return new CollectiveStats(spec.seqLabel(), spec.op().cliName(), spec.bytes(), order, startPs, now,
                    healthy, bottleneck, health, senders, receivers, in, out, hopLinks);
        }

        private int[] nodesCache;

        private int[] nodesOf() {
            if (nodesCache == null) {
                nodesCache = new int[n];
                for (int r = 0; r < n; r++) nodesCache[r] = cluster.topology().nodeIndex(cluster.gpuId(gpu[r]));
            }
            return nodesCache;
        }
    }

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
