package io.ccsim.algorithms.sim;

import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.SwitchKind;
import io.ccsim.algorithms.profile.SimCosts;
import io.ccsim.algorithms.profile.SimProtocolCosts;
import io.ccsim.sim.Simulator;
import java.util.Arrays;
import java.util.List;

/**
 * One plan being executed on the simulated fabric. Times are ps of simulated time.
 *
 * <h2>Model</h2>
 * Every (rank, channel, lane) is a <em>worker</em> that walks its steps in order, one at a time, as
 * an NCCL thread block walks its primitive calls slice by slice. Every connection (channel, from, to)
 * has {@link Protocol#NCCL_STEPS} slots in the receiver's memory. A step may start only when
 * <ul>
 *   <li>its rank's kernel has started (launch + the family's launch latency),</li>
 *   <li>every connection it receives from holds {@code slots} slots of arrived data, and</li>
 *   <li>every connection it sends on has {@code slots} free slots whose credit has come back.</li>
 * </ul>
 * A sending step is a flow per send connection on the connection's route: a latency phase of the
 * step overhead (flag, fence), then the wire bytes (LL: 8 B per 4 B of data, LL128: 128 B per 120 B)
 * at a max-min fair rate capped by the per-channel throughput (and by the reduction throughput for
 * reducing steps). The sender moves on when its flows end; the data becomes visible to the receiver
 * one hop latency later (per the route's link class), and the credit of a consumed slot comes back to
 * the sender one hop latency after the receiver's step ends. So latency is paid per slice but overlaps
 * across the 8 slots in flight, as NCCL's pipelining does. A receive-only step (recv, recvReduceCopy,
 * local copy or reduce) takes its overhead ({@link SimProtocolCosts#recvOnlyStepOverheadNs}) plus its
 * bytes at the copy or reduction throughput.
 *
 * <p>A step of B bytes moves as ceil(B / pipelineBytes) sub-transfers, one after another, and a
 * receiving step may work on its sub-transfer j once sub-transfer j has arrived on every connection it
 * receives from (cut-through forwarding); slot credits stay per step and the overhead is paid once per
 * step. With the profile's {@code sim.cta} costs for the protocol, a step's rate follows from the memory
 * streams its primitive touches instead of the per-channel limit.
 *
 * <p>All costs come from the profile's {@code sim} section ({@link SimCosts}), per algorithm family
 * ({@link SimCosts.Family#of}) and protocol, plus the shared reduce/copy throughput and link
 * efficiencies; the Tuner's NCCL constants are never read here.
 *
 * <h2>Lanes sharing one thread block</h2>
 * A plan with lanes runs them at once in one thread block per channel. Where more than one lane of a
 * (rank, channel) has steps, lane l gets the fraction {@code share[l]} of the block
 * ({@link SimProtocolCosts#laneShares()}; none = 1 each): its steps run at share[l] of the rate they
 * would have with the whole block (the sending rate cap times the share, a receive-only step's time
 * divided by it).
 *
 * <p>A rank that never launches never sends or frees slots, so its peers stall on their connections:
 * the simulation quiesces with the execution unfinished, which callers report as a hang
 * ({@link #blockedWorkers()} says who waits for whom).
 */
public final class SimExecution {
    /** Receives completion events, on the simulator's thread, at simulated times. */
    public interface Listener {
        /** Rank {@code rank} finished all its steps at {@code timePs}. */
        default void onRankDone(int rank, long timePs) {}

        /** Every rank finished at {@code timePs}. */
        void onAllDone(long timePs);
    }

    /*
     * NCCL's tree all-reduce shares its block between lanes (runTreeSplit, NVIDIA/nccl src/device/all_reduce.h): a
     * non-root rank's block is split 70/30 (LL, LL128) or 60/40 (Simple) between reduce-up and broadcast-down, where
     * the root runs one recvReduceCopySend on the whole block (its broadcast lane has no steps, so its lane 0 keeps
     * share 1). ccsim's own kernels run one block per (channel, lane), so their profile sets no shares.
     *
     * Parts: StepCosts (what a step costs, from the profile), ChannelFolding (which channels are simulated),
     * Connections (slots and credits) with ConnectionPaths (their flow-network paths), Workers (the packed worker
     * state), StepScheduler (the steps in simulated time) and HangDiagnosis (what unfinished workers wait for). This
     * class launches ranks, starts their channels (with the channel skew) and counts finished ranks.
     */
    private final Simulator sim;
    private final Plan plan;
    private final Listener listener;
    private final int nRanks;
    private final int nActors;
    private final int nCh;
    private final int nLanes;
    private final StepCosts costs;
    private final ChannelFolding folding;
    private final RankFolding ranks;
    private final Connections conns;
    private final Workers workers;
    private final StepScheduler scheduler;

    private final boolean[] rankLaunched;
    private final int[] rankWorkersLeft;
    private int ranksLeft;
    private final long[] rankDoneAt;
    private long firstLaunchPs = -1;
    private long endPs = -1;

    SimExecution(Simulator sim, Fabric fabric, Plan plan, int[] gpuOfRank, Listener listener) {
        this(sim, fabric, plan, gpuOfRank, listener, Folding.CHANNELS);
    }

    /**
     * How much of an execution is simulated: every worker ({@code NONE}, the reference), one channel per set of replica
     * channels ({@code CHANNELS}, {@link ChannelFolding}), and further one actor per class of equivalent actors
     * ({@code RANKS}, {@link RankFolding}: exact only when every rank launches at once).
     */
    public enum Folding { NONE, CHANNELS, RANKS }

    /** The name of the set-up phase that routes the connections for the rank folding, as the run's checkpoints report it. */
    public static final String ROUTING = "routing";
    /** The name of the set-up phase that folds the ranks, as the run's checkpoints report it. */
    public static final String FOLDING = "folding";
    /** The name of the set-up phase that refines the ranks' classes, as the run's checkpoints report it. */
    public static final String REFINING = "refining";

    /** {@code foldReplicas = false} simulates every channel (tests compare it with the folded run). */
    SimExecution(Simulator sim, Fabric fabric, Plan plan, int[] gpuOfRank, Listener listener, boolean foldReplicas) {
        this(sim, fabric, plan, gpuOfRank, listener, foldReplicas ? Folding.CHANNELS : Folding.NONE);
    }

    SimExecution(Simulator sim, Fabric fabric, Plan plan, int[] gpuOfRank, Listener listener, Folding fold) {
        this(sim, fabric, plan, gpuOfRank, listener, fold, RankRefinement.MAX_WORK);
    }

    /** {@code refineWork}: the entity updates after which the rank folding's refinement stops unsettled (tests). */
    SimExecution(Simulator sim, Fabric fabric, Plan plan, int[] gpuOfRank, Listener listener, Folding fold, long refineWork) {
        this.sim = sim;
        this.plan = plan;
        this.listener = listener;
        this.nRanks = plan.nRanks();
        this.nActors = plan.nActors();
        this.nCh = plan.nChannels();
        this.nLanes = plan.nLanes();
        if (gpuOfRank.length != nRanks) {
            throw new IllegalArgumentException("gpuOfRank has " + gpuOfRank.length + " entries for " + nRanks + " ranks");
        }
        this.costs = StepCosts.of(fabric.profile(), plan);
        int[] nodes = actorNodes(fabric, plan, gpuOfRank);
        this.folding = fold != Folding.NONE ? ChannelFolding.of(plan, costs.skewPhases()).separatedByHealth(plan, fabric, nodes)
                : ChannelFolding.none(nCh);
        ConnectionPaths paths = new ConnectionPaths(fabric, plan, nodes, costs, folding);
        io.ccsim.sim.RunControl control = sim.runControl();
        this.ranks = fold == Folding.RANKS ? RankFolding.of(plan, folding, costs.skewPhases(), paths, fabric.network(),
                f -> { if (control != null) control.checkpoint(ROUTING, f); },
                f -> { if (control != null) control.checkpoint(FOLDING, f); },
                f -> { if (control != null) control.checkpoint(REFINING, f); }, refineWork)
                : RankFolding.identity(nActors, nCh);
        if (ranks.folds()) {
            this.conns = new Connections(ranks.quotient(), fabric.network(), folding, nCh);
        } else {
            ConnIndex index = new ConnIndex();
            plan.forEachConnection((ch, from, to) -> index.add(ch, from, to));
            this.conns = new Connections(index);
        }
        this.workers = new Workers(nActors, nCh, nLanes, plan.maxPeers());
        this.rankLaunched = new boolean[nActors];
        this.rankWorkersLeft = new int[nActors];
        this.rankDoneAt = new long[nRanks];
        Arrays.fill(rankDoneAt, -1);
        this.ranksLeft = nRanks;
        for (int r = 0; r < nActors; r++) {
            for (int c = 0; c < nCh; c++) initWorkers(r, c);
        }
        this.scheduler = new StepScheduler(sim, fabric.network(), plan, costs, workers, conns, paths, folding, ranks,
                this::workerDone);
    }

    /**
     * Sets the step counts (a replica channel's workers and a folded actor's have none) and lane shares of (rank,
     * channel)'s workers; counts the rank's workers with steps, whose representatives report their end.
     */
    private void initWorkers(int r, int c) {
        for (int l = 0; l < nLanes; l++) {
            int w = workers.id(r, c, l);
            int steps = folding.simulated(c) ? plan.stepCount(r, c, l) : 0;
            workers.setStepCount(w, ranks.simulated(c, r) ? steps : 0);
            if (steps > 0) rankWorkersLeft[r]++;
        }
        if (costs.hasLaneShares() && busyLanes(plan, r, c) > 1) {
            for (int l = 0; l < nLanes; l++) {
                if (plan.stepCount(r, c, l) > 0) workers.setLaneShare(workers.id(r, c, l), costs.laneShare(l, nLanes));
            }
        }
    }

    /** How many lanes of (rank, channel) have steps (those share the channel's thread block). */
    private static int busyLanes(Plan plan, int rank, int ch) {
        int n = 0;
        for (int l = 0; l < plan.nLanes(); l++) {
            if (plan.stepCount(rank, ch, l) > 0) n++;
        }
        return n;
    }

    /** The plan being executed. */
    public Plan plan() { return plan; }

    /** How many channels channel {@code c} stands for (0 if it is a replica simulated by another). */
    public int channelMultiplicity(int c) { return folding.multiplicity(c); }

    /** Workers (actor, channel) simulated; with folding fewer than {@link #workerCount}. */
    public int simulatedWorkers() {
        int n = 0;
        for (int c = 0; c < nCh; c++) {
            if (!folding.simulated(c)) continue;
            for (int a = 0; a < nActors; a++) if (ranks.simulated(c, a)) n++;
        }
        return n;
    }

    /** Connections simulated: the quotient's where actors fold, else every connection of the plan. */
    public int simulatedConnections() { return conns.count(); }

    /** Workers (actor, channel) of the plan. */
    public int workerCount() { return nActors * nCh; }

    /**
     * The rounds after which the rank folding's refinement stopped unsettled (a chain: every worker simulated, exact),
     * or 0 if it settled or did not run.
     */
    public int foldingUnsettledRounds() { return ranks.unsettledRounds(); }

    /**
     * Rank {@code rank}'s kernel is launched now; its workers start after the protocol's launch latency.
     *
     * @throws IllegalArgumentException if {@code rank} is not in [0, nRanks)
     * @throws IllegalStateException    if the rank was launched before
     */
    public void launch(int rank) {
        if (rank < 0 || rank >= nRanks) throw new IllegalArgumentException("rank " + rank + " not in [0, " + nRanks + ")");
        if (rankLaunched[rank]) throw new IllegalStateException("rank " + rank + " launched twice");
        rankLaunched[rank] = true;
        if (firstLaunchPs < 0) {
            firstLaunchPs = sim.now();
            startSwitches();
        }
        sim.schedule(costs.launchPs(), () -> startRank(rank));
    }

    /** Launches every rank now. */
    public void launchAll() {
        for (int r = 0; r < nRanks; r++) launch(r);
    }

    private void startRank(int rank) {
        if (rankWorkersLeft[rank] == 0) {
            rankFinished(rank);
            return;
        }
        long skew = costs.channelSkewPs();
        if (skew == 0) {
            startChannels(rank, 0, 1);
            return;
        }
        // channel c's block starts (c mod SKEW_PHASES) skews late (SimCosts.channelSkewNs)
        startChannels(rank, 0, SimCosts.SKEW_PHASES);
        for (int ph = 1; ph < Math.min(nCh, SimCosts.SKEW_PHASES); ph++) {
            final int phase = ph;
            sim.schedule(phase * skew, () -> startChannels(rank, phase, SimCosts.SKEW_PHASES));
        }
    }

    /** Starts rank {@code rank}'s workers of the channels c with c mod {@code phases} = {@code phase}. */
    private void startChannels(int rank, int phase, int phases) {
        for (int c = phase; c < nCh; c += phases) {
            for (int l = 0; l < nLanes; l++) scheduler.start(workers.id(rank, c, l));
        }
    }

    /** The switch actors (hardware: no launch, no thread block) are ready from the first launch on. */
    private void startSwitches() {
        for (int a = nRanks; a < nActors; a++) {
            rankLaunched[a] = true;
            for (int c = 0; c < nCh; c++) {
                for (int l = 0; l < nLanes; l++) scheduler.start(workers.id(a, c, l));
            }
        }
    }

    /** Worker {@code w} finished: so did the workers it stands for (of its lane, in its class's units). */
    private void workerDone(int w) {
        int rank = workers.rank(w);
        if (!ranks.folds()) {
            if (--rankWorkersLeft[rank] == 0 && rank < nRanks) rankFinished(rank);
            return;
        }
        for (int u : ranks.members(workers.channel(w), rank)) {
            int m = u % nActors;
            if (--rankWorkersLeft[m] == 0 && m < nRanks) rankFinished(m);
        }
    }

    /**
     * The topology node of every actor: rank r's GPU; for an NVLink switch actor an NVSwitch with multicast of its
     * host (where the GPUs of that host's first rank reach it over their NVLink port groups); for a network switch
     * actor the SHARP switch that aggregates its rail's heads ({@link SharpSwitches}).
     */
    private static int[] actorNodes(Fabric fabric, Plan plan, int[] gpuOfRank) {
        if (plan.nActors() == plan.nRanks()) return gpuOfRank;
        int[] nodes = Arrays.copyOf(gpuOfRank, plan.nActors());
        int[][] byHost = plan.call().layout().ranksByHost();
        io.ccsim.algorithms.net.HostNics nics = null;
        for (int a = plan.nRanks(); a < plan.nActors(); a++) {
            if (plan.switchKind(a) == SwitchKind.NVLINK) {
                nodes[a] = fabric.nvlsSwitchOf(gpuOfRank[byHost[plan.switchHost(a)][0]]);
                continue;
            }
            if (nics == null) nics = new io.ccsim.algorithms.net.HostNics(fabric.topology(), fabric.netPolicy());
            int rail = plan.switchRail(a);
            int[] heads = new int[byHost.length];
            for (int k = 0; k < heads.length; k++) heads[k] = gpuOfRank[byHost[k][rail]];
            nodes[a] = SharpSwitches.aggregator(fabric.topology(), nics, heads, rail);
        }
        return nodes;
    }

    private void rankFinished(int rank) {
        rankDoneAt[rank] = sim.now();
        listener.onRankDone(rank, sim.now());
        if (--ranksLeft == 0) {
            endPs = sim.now();
            listener.onAllDone(endPs);
        }
    }

    /** Whether rank {@code r} has finished all its steps. */
    public boolean isRankDone(int r) { return rankDoneAt[r] >= 0; }

    /** Whether every rank has finished. */
    public boolean isDone() { return ranksLeft == 0; }

    /** Time the first rank launched, ps (−1 before). */
    public long startTimePs() { return firstLaunchPs; }

    /** Time the last rank finished, ps (−1 until done). */
    public long endTimePs() { return endPs; }

    /** When rank {@code r} finished, ps (−1 until done). */
    public long rankDoneTimePs(int r) { return rankDoneAt[r]; }

    /** Steps (slices) started so far, over all workers and the replica channels they stand for. */
    public long stepsExecuted() { return scheduler.stepsExecuted(); }

    /** Flows simulated so far (a flow of a representative channel stands for all its replicas). */
    public long flowsStarted() { return scheduler.flowsStarted(); }

    /**
     * What an unfinished worker waits for.
     *
     * @param rank           its rank
     * @param channel        its channel
     * @param lane           its lane (0 for plans of one lane)
     * @param step           index of its current step
     * @param stepCount      its steps
     * @param primitive      the current step's primitive (its enum name)
     * @param waitingForRank the rank it waits for, −1 if none
     * @param reason         what it waits for, in words
     */
    public record Blocked(int rank, int channel, int lane, int step, int stepCount, String primitive,
                          int waitingForRank, String reason) {
        @Override
        public String toString() {
            return "rank " + rank + " channel " + channel + (lane > 0 ? " lane " + lane : "") + " step " + step + "/" + stepCount
                    + " " + primitive + ": " + reason + (waitingForRank >= 0 ? " rank " + waitingForRank : "");
        }
    }

    /** The unfinished workers and what each waits for (for hang diagnosis), in (rank, channel, lane) order. */
    public List<Blocked> blockedWorkers() {
        return HangDiagnosis.blocked(workers, conns, rankLaunched, sim.now());
    }
}
