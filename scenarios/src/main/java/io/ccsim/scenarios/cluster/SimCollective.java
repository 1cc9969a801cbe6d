package io.ccsim.scenarios.cluster;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.sim.SimExecution;
import io.ccsim.scenarios.format.Units;
import java.util.ArrayList;
import io.ccsim.topology.Link;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One collective call on the SimExecutor: tuned and planned when created ({@link SimCollectiveEngine#plan}),
 * run as its ranks launch, stalled and failed by the IB transport's rule, corrupted by bit flips on the
 * links it crosses, and reported as {@link CollectiveStats} when every rank is done. An aborted or
 * failed collective reports nothing more; its flows are not cancelled.
 */
final class SimCollective implements CollectiveEngine.Execution, SimExecution.Listener {
    private final SimCollectiveEngine engine;
    private final CollectiveEngine.Spec spec;
    private final int[] global;
    private final CollectiveEngine.Listener listener;
    private final int n;
    private final boolean[] launched;
    private int launchedCount;
    private boolean finished, aborted;
    private long startPs = -1;
    private long healthChangesAtStart;
    private boolean unhealthySeen;
    private long stallStartPs = -1;
    private long giveUpHandle = -1;
    private int[] nodes;
    private Plan plan;
    private SimExecution x;
    private ConnectionRoutes routes;
    private final List<long[]> flips = new ArrayList<>(); // {step, sender ring position, channel}

    /**
     * @param gpu    topology GPU index of each comm rank
     * @param global global rank of each comm rank
     */
    SimCollective(SimCollectiveEngine engine, CollectiveEngine.Spec spec, int[] gpu, int[] global,
                  CollectiveEngine.Listener listener) {
        this.engine = engine;
        this.spec = spec;
        this.global = global;
        this.listener = listener;
        this.n = gpu.length;
        this.launched = new boolean[n];
        if (n > 1) prepare(gpu);
    }

    private void prepare(int[] gpu) {
        nodes = new int[n];
        for (int r = 0; r < n; r++) nodes[r] = engine.cluster.topology().nodeIndex(engine.cluster.gpuId(gpu[r]));
        SimCollectiveEngine.Planned p = engine.plan(spec, nodes);
        plan = p.plan();
        x = engine.executor.start(plan, nodes, this);
        routes = new ConnectionRoutes(engine.routes, plan, nodes, p.rings(), x::channelMultiplicity);
    }

    /** Where the plan's connections go (null for a single rank). */
    ConnectionRoutes routes() { return routes; }

    @Override
    public void launch(int r) {
        if (aborted || launched[r]) return;
        launched[r] = true;
        if (++launchedCount == n) {
            startPs = engine.host.now();
            healthChangesAtStart = engine.healthChanges();
            unhealthySeen = !crossedGroupsHealthy();
        }
        if (n == 1) {
            finished = true;
            listener.onRankDone(0, engine.host.now());
            listener.onAllDone(stats(engine.host.now()));
            return;
        }
        if (launchedCount == 1) {
            engine.running.add(this);
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
        engine.running.remove(this);
    }

    private void cancelGiveUp() {
        if (giveUpHandle >= 0) engine.host.cancel(giveUpHandle);
        giveUpHandle = -1;
    }

    /** Since when the collective is stalled by a dead link it crosses, ps (-1: not stalled). */
    long stallStartPs() { return stallStartPs; }

    /** Whether a connection crosses link group {@code g}. */
    boolean crosses(int g) { return routes != null && routes.crossed().get(g); }

    private boolean crossedGroupsHealthy() {
        if (routes == null) return true;
        BitSet crossed = routes.crossed();
        for (int g = crossed.nextSetBit(0); g >= 0; g = crossed.nextSetBit(g + 1)) {
            if (engine.cluster.groupCapacity(g) < engine.cluster.groupNominal(g)) return false;
        }
        return true;
    }

    /** Stalled while a group its connections cross has no capacity in the flow network. */
    void updateStall() {
        if (finished || aborted) return;
        if (!crossedGroupsHealthy()) unhealthySeen = true;
        boolean stalled = false;
        BitSet crossed = routes.crossed();
        for (int g = crossed.nextSetBit(0); g >= 0 && !stalled; g = crossed.nextSetBit(g + 1)) {
            stalled = engine.flowCapacity(g) == 0.0;
        }
        if (stalled && stallStartPs < 0) {
            stallStartPs = engine.host.now();
            giveUpHandle = engine.host.after(engine.ibGiveUpPs, this::giveUp);
        } else if (!stalled && stallStartPs >= 0) {
            stallStartPs = -1;
            cancelGiveUp();
        }
    }

    private void giveUp() {
        giveUpHandle = -1;
        if (finished || aborted) return;
        aborted = true;
        engine.running.remove(this);
        // the first stalled connection's sender sees the completion error
        for (ConnectionRoutes.Conn k : routes.conns()) {
            for (int g : k.groups()) {
                if (engine.flowCapacity(g) == 0.0) {
                    listener.onNetworkError(global[k.from()], "NET/IB : Got completion from peer (rank " + global[k.to()]
                            + ") with status=12 (IBV_WC_RETRY_EXC_ERR) opcode=0 len=0 vendor err 129 on link "
                            + engine.cluster.worstMember(g) + " after " + Units.formatDuration(engine.ibGiveUpPs) + " of retries");
                    return;
                }
            }
        }
    }

    /** A bit flips now in the data crossing link group {@code groupIndex}, at the ring step the plan has reached. */
    void flip(int groupIndex) {
        if (finished || aborted || x == null || launchedCount < n || !routes.crossed().get(groupIndex)) return;
        double f = Math.min(1.0, x.stepsExecuted() / (double) Math.max(1, plan.totalSteps()));
        int steps = 2 * (n - 1);
        long step = Math.min(steps - 1, (long) Math.floor(f * steps));
        int[] site = routes.firstCrossing(groupIndex);
        if (site != null) flips.add(new long[] {step, site[0], site[1]});
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
        engine.running.remove(this);
        listener.onAllDone(stats(timePs));
    }

    private CollectiveStats stats(long now) {
        List<List<String>> hopLinks = new ArrayList<>();
        List<CollectiveStats.SlowLink> slow = List.of();
        long[] in = null, out = null;
        int[] order = global.clone();
        long healthy = 0;
        if (n > 1) {
            boolean healthyRun = !unhealthySeen && engine.healthChanges() == healthChangesAtStart;
            healthy = healthyRun ? now - startPs : engine.healthy.duration(plan, nodes);
            slow = slowLinks(now - startPs > healthy);
            int chan = flips.isEmpty() ? 0 : (int) flips.get(0)[2];
            int[] ring = routes.ring(chan);
            for (int p = 0; p < n; p++) order[p] = global[ring[p]];
            hopLinks = routes.hopLinks(chan, engine.cluster.topology());
            if (spec.op() == CollectiveOp.ALL_REDUCE) {
                // checksums are modelled for all-reduce (the sum of outputs is the sum of inputs)
                List<long[]> onChannel = new ArrayList<>();
                for (long[] fl : flips) if (fl[2] == chan) onChannel.add(fl);
                long[][] data = RingData.checksums(order, spec.dataSeed(), onChannel);
                in = data[0];
                out = data[1];
            }
        }
        CollectiveStats.SlowLink worst = slow.isEmpty() ? null : slow.get(0);
        String algorithm = plan == null ? null : plan.options().algorithm().ncclName();
        return new CollectiveStats(spec.seqLabel(), spec.op().cliName(), spec.bytes(), order, startPs, now,
                healthy, worst == null ? null : worst.link(), worst == null ? 1.0 : worst.health(),
                worst == null ? List.of() : worst.senders(), worst == null ? List.of() : worst.receivers(), in, out, hopLinks,
                algorithm, slow);
    }

    /**
     * Every crossed link group below its nominal rate, worst first (ties in group order), with the hops
     * crossing it. When there are several and the collective was slowed ({@code slowed}), each one's
     * duration healed alone is re-simulated with the others at their rates now; not when one of the
     * others is down (the re-run would stall).
     */
    private List<CollectiveStats.SlowLink> slowLinks(boolean slowed) {
        Cluster cl = engine.cluster;
        List<Integer> groups = new ArrayList<>();
        BitSet crossed = routes.crossed();
        for (int g = crossed.nextSetBit(0); g >= 0; g = crossed.nextSetBit(g + 1)) {
            if (health(g) < 1.0) groups.add(g);
        }
        groups.sort((a, b) -> Double.compare(health(a), health(b)));
        boolean anyDown = false;
        for (int g : groups) anyDown |= health(g) == 0.0;
        boolean whatIf = slowed && groups.size() > 1 && !anyDown;
        List<CollectiveStats.SlowLink> out = new ArrayList<>();
        for (int g : groups) {
            List<Integer> senders = new ArrayList<>(), receivers = new ArrayList<>();
            routes.hopsCrossing(g, global, senders, receivers);
            long healedAlone = -1;
            if (whatIf) {
                Map<String, Double> others = new HashMap<>();
                for (int o : groups) {
                    if (o == g) continue;
                    for (Link l : cl.topology().fabric().get(o).members()) {
                        double f = cl.healthOf(l.id());
                        if (f < 1.0) others.put(l.id(), f);
                    }
                }
                healedAlone = engine.healthy.durationWith(plan, nodes, others);
            }
            out.add(new CollectiveStats.SlowLink(cl.worstMember(g), health(g), senders, receivers, healedAlone));
        }
        return out;
    }

    /** A group's capacity now over its nominal capacity (0 if down or of no capacity). */
    private double health(int g) {
        double nom = engine.cluster.groupNominal(g);
        return nom == 0 ? 0 : engine.cluster.groupCapacity(g) / nom;
    }
}
