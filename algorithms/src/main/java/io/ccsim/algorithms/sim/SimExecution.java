package io.ccsim.algorithms.sim;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.CtaCosts;
import io.ccsim.algorithms.profile.LinkClass;
import io.ccsim.algorithms.profile.SimCosts;
import io.ccsim.algorithms.profile.SimProtocolCosts;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.Primitive;
import io.ccsim.algorithms.plan.StepCursor;
import io.ccsim.sim.Sharing;
import io.ccsim.sim.Simulator;
import io.ccsim.sim.Time;
import io.ccsim.sim.flow.Flow;
import io.ccsim.sim.flow.FlowListener;
import io.ccsim.sim.flow.FlowNetwork;
import io.ccsim.topology.Route;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One plan being executed on the simulated fabric.
 *
 * <h2>Model</h2>
 * Every (rank, channel, lane) is a <em>worker</em> that walks its steps in order, one at a time, as
 * an NCCL thread block walks its primitive calls slice by slice. Every connection (channel, from, to)
 * has {@link Protocol#NCCL_STEPS} slots in the receiver's memory. A step may start only when
 * <ul>
 *   <li>its rank's kernel has started (launch + the protocol's base latency, NCCL's baseLat),</li>
 *   <li>every connection it receives from holds {@code slots} slots of arrived data, and</li>
 *   <li>every connection it sends on has {@code slots} free slots whose credit has come back.</li>
 * </ul>
 * A sending step is a flow per send connection on the connection's route: a latency phase of the
 * protocol's per-step overhead (flag, fence), then the wire bytes (LL: 8 B per 4 B of data, LL128:
 * 128 B per 120 B) at a max-min fair rate capped by the protocol's per-channel throughput (and by the
 * reduction throughput for reducing steps). The sender moves on when its flows end; the data becomes
 * visible to the receiver one hop latency later (NCCL's hwLat for the route's link class), and the
 * credit of a consumed slot comes back to the sender one hop latency after the receiver's step ends.
 * So latency is paid per slice but overlaps across the 8 slots in flight, as NCCL's pipelining does.
 *
 * <h2>Forwarding unit (cut-through)</h2>
 * NCCL does not forward a slice store-and-forward: the next rank polls the flags of the data as it
 * lands and forwards it in much smaller pieces (LL/LL128 per line, Simple per sub-slice of the
 * step). Measured, a ring broadcast of 16 MiB Ring/Simple on H200 costs 63.3 µs at n = 2 and 70.1 µs at
 * n = 4 (calibration/nccl-h200): about 3 µs per extra hop, where store-and-forward of 512 KiB slices
 * would add ~60 µs. So a step of B bytes moves as k = ceil(B / pipelineBytes) sub-transfers (the
 * protocol's {@code sim.*.pipeline_bytes}), one after another, and a receiving step may work on its
 * sub-transfer j once sub-transfer j has arrived on every connection it receives from. Slot credits
 * stay per step: reserved when the step's first sub-transfer starts, freed after its last; the step
 * overhead is paid once per step (latency phase of the first sub-transfer). With B ≤ pipelineBytes,
 * k = 1 and the step is one transfer as before (large-scale runs with small slices pay nothing).
 * A connection's sending and receiving steps correspond one to one with equal byte counts (every
 * planner produces them so), hence equal k on both ends.
 *
 * <p>All costs come from the profile's {@code sim} section ({@link SimCosts}), per algorithm family
 * (ring, tree, p2p, and chain for ring broadcast/reduce: {@link SimCosts.Family#of}) and protocol: launch latency, step overhead, hop latency per link class, per-channel
 * limit, forwarding unit; plus the shared reduce/copy throughput and link efficiencies. The Tuner's
 * NCCL constants are never read here.
 * A receive-only step (recv, recvReduceCopy, local copy/reduce) takes the step overhead (or the protocol's
 * {@code recv_step_overhead_ns} where set: {@link SimProtocolCosts#recvOnlyStepOverheadNs}) plus its bytes
 * at the copy or reduction throughput.
 *
 * <h2>Lanes sharing one thread block</h2>
 * A plan with lanes runs them at once in one thread block per channel. Where more than one lane of a
 * (rank, channel) has steps, lane l gets the fraction {@code share[l]} of the block
 * ({@link SimProtocolCosts#laneShares()}, JSON {@code lane_shares}; none = 1 each): its steps run at share[l]
 * of the rate they would have with the whole block — the sending rate cap (stream rate under {@code sim.cta},
 * else the per-channel or reduction limit) times the share, a receive-only step's time divided by it. NCCL's
 * tree all-reduce does this (runTreeSplit, NVIDIA/nccl src/device/all_reduce.h): a non-root rank's block is
 * split 70/30 (LL, LL128) or 60/40 (Simple) between reduce-up and broadcast-down, where the root runs one
 * recvReduceCopySend on the whole block (its broadcast lane here has no steps, so its lane 0 keeps share 1).
 * ccsim's own kernels run one block per (channel, lane), so their profile sets no shares.
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

    private static final int MAXP = StepCursor.MAX_PEERS;

    private final Simulator sim;
    private final FlowNetwork net;
    private final Plan plan;
    private final Listener listener;
    private final int nRanks;
    private final int nCh;
    private final int nLanes;
    private final int elemBytes;
    private final Protocol proto;
    private final long startLatencyPs;
    /** sim.channel_skew_ns in ps: channel c starts (c mod SKEW_PHASES) times this after its rank (0: together). */
    private final long channelSkewPs;
    private final long stepOverheadPs;
    /** the overhead of a step that sends nothing (receive-only or local), ps ({@link SimProtocolCosts#recvOnlyStepOverheadNs}) */
    private final long recvStepOverheadPs;
    private final double channelCapBps;
    /** per rank r: [r] sends to several peers, [nRanks + r] receives from several (multiPeerRanks); null without a multi-peer loss for the protocol */
    private final boolean[] multiPeer;
    /** per rank: the flow-network link its sending blocks share ({@link CtaCosts#limitsGpuSend}); null without that limit */
    private final int[] gpuSendLink;
    private final double reduceCapBps;
    private final double copyBps;
    private final long pipelineBytes;
    /** Thread-block stream costs of this protocol ({@code sim.cta}), or null: per-channel limit model. */
    private final CtaCosts cta;
    /** The cta model's multiplier of every cost for this call's thread blocks per GPU (its channels). */
    private final double loadFactor;
    /** The cta model's src/dst multiplier for this call's working set per GPU (L2 fit or not). */
    private final double bufferFactor;

    // connections (struct of arrays)
    private final ConnIndex connIndex;
    private final int[][] connRoute;
    private final FlowNetwork.Path[] connPath;
    private final int[] connFrom;
    private final int[] connTo;
    // per connection k, one block of conns: queue ARRIVALS holds its data arrivals in flight, queue CREDITS its credit
    // returns, and its counters are what a flow's completion and a step's start read of it: SENDER and RECEIVER (the
    // workers sending and receiving on it, -1: none yet), LATENCY (its hop latency, ps), SLOTS_ARRIVED (slots whose
    // data reached the receiver), SLOTS_TAKEN (slots the receiver started consuming), UNITS_ARRIVED (sub-transfers
    // whose data reached it), UNITS_BASE (sub-transfers of the receiver's finished steps), SLOTS_SENT (slots reserved by
    // the sender) and CREDIT_BACK (slots freed by the receiver whose credit reached the sender)
    private static final int ARRIVALS = 0, CREDITS = 1;
    private static final int SENDER = 0, RECEIVER = 1, LATENCY = 2, SLOTS_ARRIVED = 3, SLOTS_TAKEN = 4, UNITS_ARRIVED = 5,
            UNITS_BASE = 6, SLOTS_SENT = 7, CREDIT_BACK = 8, CONN_COUNTERS = 9;
    /** the one listener of every flow: the flow's key is its connection (no object per connection) */
    private final FlowListener flowDone = f -> onFlowDone(f.key());

    // workers, w = (rank * nCh + ch) * nLanes + lane: everything a step's start, its flows' ends and its end read
    // of a worker is in one block of WI ints (64 B), where one array per field cost a miss per field touched in
    // simulations whose 10^4 workers run in turn (the 1,024-GPU ring), and a block per type (ints, longs,
    // doubles, connections) still cost four or five
    private static final int WI = 16; // ints per worker in wi
    private static final int STEP_IDX = 0, STEP_COUNT = 1, FLAGS = 2, PRIM = 3, NRECV = 4, NSEND = 5, SLOTS = 6,
            SUB = 7, UNITS = 8, PENDING = 9, BYTES_LO = 10, BYTES_HI = 11, RECV0 = 12, SEND0 = 13, RECV_PEER0 = 14,
            SEND_PEER0 = 15;
    // SUB: index of the sub-transfer in progress or next; UNITS: sub-transfers of the current step (k); BYTES_HI,
    // BYTES_LO: data bytes of the current step; RECV0, SEND0: its first receive and send connections (the others in
    // curRecvConn, curSendConn), with the peers they were looked up for (-1: none yet)
    private static final int F_BUSY = 1, F_STARTED = 2, F_OVERHEAD_PAID = 4, F_WAKE = 8; // FLAGS bits (F_WAKE: a wake-up pending)
    private final int[] wi;
    /** per worker: when its deferred flows leave their latency phase (diagnostics: "starting its step" until then), ps */
    private final long[] stepStart;
    private static final int WD = 2; // doubles per worker in wd
    // PS_PER_BYTE: thread-block cost of the current step, ps per data byte (cta model); LANE_SHARE: fraction
    // of the block the worker's lane runs on (1: the whole block)
    private static final int PS_PER_BYTE = 0, LANE_SHARE = 1;
    private final double[] wd;
    /** per worker, MAXP entries: its current step's receive and send connections beyond the first (index 0 unused) */
    private final int[] curRecvConn;
    private final int[] curSendConn;
    private final Runnable[] localDone;

    private final boolean[] rankLaunched;
    private final int[] rankWorkersLeft;
    private int ranksLeft;
    private final long[] rankDoneAt;
    private long firstLaunchPs = -1;
    private long endPs = -1;
    private long stepsExecuted;
    private long flowsStarted;
    private final StepCursor cursor = new StepCursor();
    private static final long NO_WAKE = Long.MIN_VALUE;
    /** per connection k: block k, its queues and counters (above) */
    private final TimedQueues conns;
    private final Runnable[] wake;
    private final RouteCache routes;
    private final Fabric fabric;
    private final int[] gpuOfRank;
    private final double[] hopLatencyUs;
    private final int[] repOf;
    private final int[] multiplicity;
    private static final Primitive[] PRIMS = Primitive.values();

    SimExecution(Simulator sim, Fabric fabric, Plan plan, int[] gpuOfRank, Listener listener) {
        this(sim, fabric, plan, gpuOfRank, listener, true);
    }

    /** {@code foldReplicas = false} simulates every channel (tests compare it with the folded run). */
    SimExecution(Simulator sim, Fabric fabric, Plan plan, int[] gpuOfRank, Listener listener, boolean foldReplicas) {
        this.sim = sim;
        this.net = fabric.network();
        this.plan = plan;
        this.listener = listener;
        this.nRanks = plan.nRanks();
        this.nCh = plan.nChannels();
        this.nLanes = plan.nLanes();
        if (gpuOfRank.length != nRanks) {
            throw new IllegalArgumentException("gpuOfRank has " + gpuOfRank.length + " entries for " + nRanks + " ranks");
        }
        this.elemBytes = plan.call().dtype().bytes();
        this.proto = plan.options().protocol();
        CalibrationProfile prof = fabric.profile();
        Algorithm algo = plan.options().algorithm();
        SimCosts.Family family = SimCosts.Family.of(algo, plan.call().op());
        SimProtocolCosts pc = prof.sim().get(family, proto);
        this.startLatencyPs = Time.us(pc.launchLatencyUs());
        this.channelSkewPs = Math.round(prof.sim().channelSkewNs() * 1000.0);
        this.stepOverheadPs = Time.ns(pc.stepOverheadNs());
        this.recvStepOverheadPs = Time.ns(pc.recvOnlyStepOverheadNs());
        this.channelCapBps = pc.maxChannelBwGbps() * 1e9;
        this.pipelineBytes = pc.pipelineBytes();
        double eff = proto.dataEfficiency();
        this.reduceCapBps = Math.min(channelCapBps, prof.reduceBwGbps() * 1e9 / eff);
        this.copyBps = prof.copyBwGbps() * 1e9;
        this.cta = prof.sim().ctaOf(proto);
        long workingSet = (plan.call().inputCount() + plan.call().outputCount()) * (long) elemBytes;
        this.bufferFactor = cta == null ? 1.0 : cta.bufferFactor(workingSet);
        this.loadFactor = cta == null ? 1.0 : cta.loadFactor(nCh);

        // connections
        ConnIndex ci = new ConnIndex();
        plan.forEachConnection((ch, from, to) -> ci.add(ch, from, to));
        this.connIndex = ci;
        int nc = ci.size();
        connRoute = new int[nc][];
        connPath = new FlowNetwork.Path[nc];
        // a connection has at most NCCL_STEPS slots in flight (more only with sub-transfers): 4 entries hold a Simple
        // ring's two-slot steps, and the queues grow for LL's one-slot steps
        conns = new TimedQueues(nc, 2, CONN_COUNTERS, 4);
        connFrom = new int[nc];
        connTo = new int[nc];
        for (int k = 0; k < nc; k++) {
            conns.setCounter(k, SENDER, -1);
            conns.setCounter(k, RECEIVER, -1);
        }
        this.routes = new RouteCache(fabric, fabric.p2pDisabled());
        this.fabric = fabric;
        this.gpuOfRank = gpuOfRank.clone();
        this.hopLatencyUs = new double[LinkClass.values().length];
        for (LinkClass lc : LinkClass.values()) {
            hopLatencyUs[lc.ordinal()] = pc.hopLatencyUs(lc);
        }
        for (int k = 0; k < nc; k++) {
            connFrom[k] = ci.from(k);
            connTo[k] = ci.to(k);
        }
        // the tree and point-to-point plans, whose ranks talk to several peers by design (where it was measured);
        // ring plans are left out: their ranks have one peer each way per channel, and the channels' different
        // ring orders (multi-node rings) spread load by design, which the ring fits were made without
        boolean byDesign = algo == Algorithm.TREE || algo == Algorithm.P2P;
        this.multiPeer = byDesign && prof.sim().multiPeerEfficiency(proto) < 1 ? multiPeerRanks(plan) : null;
        this.gpuSendLink = cta != null && cta.limitsGpuSend() ? gpuSendLinks(fabric, plan, gpuOfRank, cta) : null;
        this.repOf = foldReplicas ? channelReplicas(plan, channelSkewPs > 0 ? SimCosts.SKEW_PHASES : 1) : identity(nCh);
        this.multiplicity = new int[nCh];
        for (int c = 0; c < nCh; c++) multiplicity[repOf[c]]++;

        int nw = nRanks * nCh * nLanes;
        wi = new int[nw * WI];
        stepStart = new long[nw];
        wd = new double[nw * WD];
        curRecvConn = new int[nw * MAXP];
        curSendConn = new int[nw * MAXP];
        // -1: no connection looked up yet (load's reuse of the last lookup then always misses, and ensures it)
        Arrays.fill(curRecvConn, -1);
        Arrays.fill(curSendConn, -1);
        for (int w = 0; w < nw; w++) {
            wi[w * WI + RECV0] = -1;
            wi[w * WI + SEND0] = -1;
            wi[w * WI + RECV_PEER0] = -1;
            wi[w * WI + SEND_PEER0] = -1;
        }
        localDone = new Runnable[nw];
        wake = new Runnable[nw];
        rankLaunched = new boolean[nRanks];
        rankWorkersLeft = new int[nRanks];
        rankDoneAt = new long[nRanks];
        Arrays.fill(rankDoneAt, -1);
        ranksLeft = nRanks;
        for (int r = 0; r < nRanks; r++) {
            for (int c = 0; c < nCh; c++) {
                for (int l = 0; l < nLanes; l++) {
                    int w = (r * nCh + c) * nLanes + l;
                    // a replica channel is simulated by its representative (flows with a multiplicity)
                    wi[w * WI + STEP_COUNT] = repOf[c] == c ? plan.stepCount(r, c, l) : 0;
                    if (wi[w * WI + STEP_COUNT] > 0) rankWorkersLeft[r]++;
                    wd[w * WD + LANE_SHARE] = 1.0;
                    final int ww = w;
                    localDone[w] = () -> onStepDone(ww);
                    wake[w] = () -> onWake(ww);
                }
                if (!pc.laneShares().isEmpty() && busyLanes(plan, r, c) > 1) {
                    if (nLanes > pc.laneShares().size()) {
                        throw new IllegalArgumentException("sim." + family.jsonName() + "." + proto.ncclName() + ".lane_shares lists "
                                + pc.laneShares().size() + " lanes, but the " + algo.ncclName() + " plan has " + nLanes);
                    }
                    for (int l = 0; l < nLanes; l++) {
                        if (plan.stepCount(r, c, l) > 0) wd[((r * nCh + c) * nLanes + l) * WD + LANE_SHARE] = pc.laneShare(l);
                    }
                }
            }
        }
    }

    /**
     * Per rank r: whether r sends to more than one peer (index r) and whether it receives from more than one
     * (index nRanks + r) in its plan (all-to-all at n > 2, a middle rank of a tree's chain; a ring, a chain and
     * a send/recv ring have one of each).
     */
    private static boolean[] multiPeerRanks(Plan plan) {
        int n = plan.nRanks();
        int[] firstPeer = new int[2 * n];
        boolean[] multi = new boolean[2 * n];
        Arrays.fill(firstPeer, -1);
        plan.forEachConnection((ch, from, to) -> {
            if (from == to) return;
            note(firstPeer, multi, from, to);
            note(firstPeer, multi, n + to, from);
        });
        return multi;
    }

    private static void note(int[] firstPeer, boolean[] multi, int i, int peer) {
        if (firstPeer[i] < 0) firstPeer[i] = peer;
        else if (firstPeer[i] != peer) multi[i] = true;
    }

    /**
     * Per rank, a new flow-network link of {@link CtaCosts#gpuSendBytesPerSec} for the rank's sending blocks: this
     * call's own, so that its capacity follows its blocks.
     */
    private static int[] gpuSendLinks(Fabric fabric, Plan plan, int[] gpuOfRank, CtaCosts cta) {
        int[] links = new int[plan.nRanks()];
        for (int r = 0; r < links.length; r++) {
            links[r] = fabric.network().addLink(fabric.topology().nodes().get(gpuOfRank[r]).id() + ".cta-send",
                    cta.gpuSendBytesPerSec(sendingBlocks(plan, r)), Sharing.FULL_DUPLEX);
        }
        return links;
    }

    /**
     * The thread blocks that send on {@code rank}: per channel with work on the rank, its lanes with a step that sends,
     * at least one ({@link CtaCosts#limitsGpuSend}). A lane's steps are read until the first that sends, so a ring
     * costs one step per lane; only a receive-only lane (a tree's leaf going down, its root going up) is read through.
     */
    static int sendingBlocks(Plan plan, int rank) {
        StepCursor cur = new StepCursor();
        int blocks = 0;
        for (int c = 0; c < plan.nChannels(); c++) {
            int sending = 0;
            boolean busy = false;
            for (int l = 0; l < plan.nLanes(); l++) {
                int n = plan.stepCount(rank, c, l);
                if (n > 0) busy = true;
                for (int i = 0; i < n; i++) {
                    plan.step(rank, c, l, i, cur);
                    if (cur.nSend() > 0) {
                        sending++;
                        break;
                    }
                }
            }
            if (busy) blocks += Math.max(1, sending);
        }
        return blocks;
    }

    /** How many lanes of (rank, channel) have steps (those share the channel's thread block). */
    private static int busyLanes(Plan plan, int rank, int ch) {
        int n = 0;
        for (int l = 0; l < plan.nLanes(); l++) {
            if (plan.stepCount(rank, ch, l) > 0) n++;
        }
        return n;
    }

    /**
     * Channels that are exact replicas of an earlier one: a ring channel with the same ring order and the
     * same step sequence (same counts and slices) as channel r behaves identically by symmetry, so only r
     * is simulated, its flows standing for all of them ({@link FlowNetwork#start} with a multiplicity) and
     * using r's routes. NCCL's ring channels are duplicated this way (search.cc duplicates the graph's
     * channels), so on an NVSwitch board all channels of a ring fold into one or two. With a channel skew only
     * channels of the same start phase (c mod {@code phases}) are replicas.
     */
    private static int[] channelReplicas(Plan plan, int phases) {
        int nCh = plan.nChannels();
        int[] rep = new int[nCh];
        for (int c = 0; c < nCh; c++) rep[c] = c;
        if (plan.options().algorithm() != Algorithm.RING || plan.nLanes() != 1 || nCh == 1) return rep;
        int last = plan.nRanks() - 1;
        long[] sig = new long[nCh];
        StepCursor cur = new StepCursor();
        for (int c = 0; c < nCh; c++) sig[c] = 31 * signature(plan, 0, c, cur) + signature(plan, last, c, cur);
        for (int c = 1; c < nCh; c++) {
            int[] ring = plan.options().ringOrder(c);
            for (int r = 0; r < c; r++) {
                if (rep[r] != r || sig[r] != sig[c] || r % phases != c % phases) continue;
                if (plan.stepCount(0, r, 0) != plan.stepCount(0, c, 0) || plan.stepCount(last, r, 0) != plan.stepCount(last, c, 0)) continue;
                if (!Arrays.equals(ring, plan.options().ringOrder(r))) continue;
                rep[c] = r;
                break;
            }
        }
        return rep;
    }

    private static int[] identity(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) r[i] = i;
        return r;
    }

    private static long signature(Plan plan, int rank, int ch, StepCursor cur) {
        long h = 1125899906842597L;
        int n = plan.stepCount(rank, ch, 0);
        for (int i = 0; i < n; i++) {
            plan.step(rank, ch, 0, i, cur);
            h = 31 * h + cur.prim().ordinal();
            for (int p = 0; p < cur.nRecv(); p++) h = 31 * h + cur.recvPeer(p);
            h = 31 * h + 7919;
            for (int p = 0; p < cur.nSend(); p++) h = 31 * h + cur.sendPeer(p);
            h = 31 * h + cur.count();
            h = 31 * h + cur.slots();
        }
        return h;
    }

    private void ensureConn(int k) {
        if (connRoute[k] != null) return;
        Route r = routes.route(gpuOfRank[connFrom[k]], gpuOfRank[connTo[k]], connIndex.channel(k));
        int[] hops = r.hops();
        if (r.length() > 0 && fabric.routeClass(r) == LinkClass.NVLINK) {
            // per-GPU constraints on NVLink sends, appended in one copy: what the sender's SMs can store beside its
            // other blocks (CtaCosts#limitsGpuSend; a network send is the NIC's, not the SMs'), and a GPU talking to
            // several peers at once getting a fraction of its NVLink capacity (SimCosts#multiPeerEfficiency)
            int send = gpuSendLink != null ? gpuSendLink[connFrom[k]] : -1;
            int out = multiPeer != null && multiPeer[connFrom[k]] ? fabric.multiPeerLink(gpuOfRank[connFrom[k]], proto) : -1;
            int in = multiPeer != null && multiPeer[nRanks + connTo[k]] ? fabric.multiPeerLink(gpuOfRank[connTo[k]], proto) : -1;
            int extra = (send >= 0 ? 1 : 0) + (out >= 0 ? 1 : 0) + (in >= 0 ? 1 : 0);
            if (extra > 0) {
                int i = hops.length;
                hops = Arrays.copyOf(hops, i + extra);
                if (send >= 0) hops[i++] = FlowNetwork.hop(send, false);
                if (out >= 0) hops[i++] = FlowNetwork.hop(out, false);
                if (in >= 0) hops[i] = FlowNetwork.hop(in, true);
            }
        }
        connRoute[k] = hops;
        connPath[k] = net.path(hops, multiplicity[connIndex.channel(k)]);
        conns.setCounter(k, LATENCY, Time.us(hopLatencyUs[fabric.routeClass(r).ordinal()]));
    }

    /** The plan being executed. */
    public Plan plan() { return plan; }

    /** How many channels channel {@code c} stands for (0 if it is a replica simulated by another). */
    public int channelMultiplicity(int c) { return multiplicity[c]; }

    /** Rank {@code rank}'s kernel is launched now; its workers start after the protocol's base latency. */
    public void launch(int rank) {
        if (rank < 0 || rank >= nRanks) throw new IllegalArgumentException("rank " + rank + " not in [0, " + nRanks + ")");
        if (rankLaunched[rank]) throw new IllegalStateException("rank " + rank + " launched twice");
        rankLaunched[rank] = true;
        if (firstLaunchPs < 0) firstLaunchPs = sim.now();
        sim.schedule(startLatencyPs, () -> startRank(rank));
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
        if (channelSkewPs == 0) {
            startChannels(rank, 0, 1);
            return;
        }
        // channel c's block starts (c mod SKEW_PHASES) skews late (SimCosts.channelSkewNs)
        startChannels(rank, 0, SimCosts.SKEW_PHASES);
        for (int ph = 1; ph < Math.min(nCh, SimCosts.SKEW_PHASES); ph++) {
            final int phase = ph;
            sim.schedule(phase * channelSkewPs, () -> startChannels(rank, phase, SimCosts.SKEW_PHASES));
        }
    }

    /** Starts rank {@code rank}'s workers of the channels c with c mod {@code phases} = {@code phase}. */
    private void startChannels(int rank, int phase, int phases) {
        int base = rank * nCh * nLanes;
        for (int c = phase; c < nCh; c += phases) {
            for (int l = 0; l < nLanes; l++) {
                int w = base + c * nLanes + l;
                wi[w * WI + FLAGS] |= F_STARTED;
                if (wi[w * WI + STEP_COUNT] > 0) {
                    load(w);
                    tryStart(w);
                }
            }
        }
    }

    private void load(int w) {
        int lane = w % nLanes;
        int rc = w / nLanes;
        int ch = rc % nCh;
        int rank = rc / nCh;
        plan.step(rank, ch, lane, wi[w * WI + STEP_IDX], cursor);
        wi[w * WI + PRIM] = cursor.prim().ordinal();
        wi[w * WI + SLOTS] = cursor.slots();
        long bytes = (long) cursor.count() * elemBytes;
        wi[w * WI + BYTES_LO] = (int) bytes;
        wi[w * WI + BYTES_HI] = (int) (bytes >>> 32);
        wi[w * WI + SUB] = 0;
        wi[w * WI + UNITS] = bytes <= pipelineBytes ? 1 : (int) Math.min(Integer.MAX_VALUE, (bytes + pipelineBytes - 1) / pipelineBytes);
        int nr = cursor.nRecv();
        int ns = cursor.nSend();
        wi[w * WI + NRECV] = nr;
        wi[w * WI + NSEND] = ns;
        if (cta != null) {
            Primitive prim = cursor.prim();
            wd[w * WD + PS_PER_BYTE] = cta.psPerByte(nr, prim.readsInput(), prim.writesOutput(), ns, reduces(prim), bufferFactor) * loadFactor;
        }
        bindConnections(w, ch, rank, nr, true);
        bindConnections(w, ch, rank, ns, false);
    }

    /**
     * Finds the {@code n} connections worker {@code w} (rank {@code rank}, channel {@code ch}) receives from
     * ({@code receiving}) or sends on in the step the cursor holds, and makes w their receiver or sender. A worker mostly
     * talks to the same peers step after step (ring: always), so the last lookup is reused: for the first connection
     * by its peer (kept in the worker's block), for the others by the connection's key.
     */
    private void bindConnections(int w, int ch, int rank, int n, boolean receiving) {
        int b = w * WI;
        int first = receiving ? RECV0 : SEND0;
        int firstPeer = receiving ? RECV_PEER0 : SEND_PEER0;
        int[] more = receiving ? curRecvConn : curSendConn;
        for (int i = 0; i < n; i++) {
            int peer = receiving ? cursor.recvPeer(i) : cursor.sendPeer(i);
            int from = receiving ? peer : rank;
            int to = receiving ? rank : peer;
            int k;
            if (i == 0) {
                k = wi[b + first];
                if (wi[b + firstPeer] != peer) {
                    k = connIndex.find(ch, from, to);
                    ensureConn(k);
                    wi[b + first] = k;
                    wi[b + firstPeer] = peer;
                }
            } else {
                k = more[w * MAXP + i];
                if (!connIndex.is(k, ch, from, to)) {
                    k = connIndex.find(ch, from, to);
                    ensureConn(k);
                }
                more[w * MAXP + i] = k;
            }
            conns.setCounter(k, receiving ? RECEIVER : SENDER, w);
        }
    }

    /** Connection i (0 .. NRECV − 1) worker w's current step receives from. */
    private int recvConn(int w, int i) {
        return i == 0 ? wi[w * WI + RECV0] : curRecvConn[w * MAXP + i];
    }

    /** Connection i (0 .. NSEND − 1) worker w's current step sends on. */
    private int sendConn(int w, int i) {
        return i == 0 ? wi[w * WI + SEND0] : curSendConn[w * MAXP + i];
    }

    /** Data bytes of worker w's current step. */
    private long stepBytes(int w) {
        return (long) wi[w * WI + BYTES_HI] << 32 | (wi[w * WI + BYTES_LO] & 0xffffffffL);
    }

    private void tryStart(int w) {
        int b = w * WI;
        int flags = wi[b + FLAGS];
        if ((flags & (F_BUSY | F_STARTED | F_WAKE)) != F_STARTED || wi[b + STEP_IDX] >= wi[b + STEP_COUNT]) return;
        int s = wi[b + SLOTS];
        int nr = wi[b + NRECV];
        int ns = wi[b + NSEND];
        int j = wi[b + SUB];
        long now = sim.now();
        long ready = now; // when every input of this (sub-)transfer is present
        for (int i = 0; i < nr; i++) {
            long t = recvReadyAt(w, recvConn(w, i), now);
            if (t == NO_WAKE) return; // not even sent yet: the sender's completion will call again
            if (t > ready) ready = t;
        }
        if (j == 0) {
            for (int i = 0; i < ns; i++) {
                long t = creditReadyAt(sendConn(w, i), s, now);
                if (t == NO_WAKE) return; // the receiver's step end will call again
                if (t > ready) ready = t;
            }
        }
        // the step's overhead (flag, fence) runs once its inputs are there
        long startAt = ready + (j == 0 && (flags & F_OVERHEAD_PAID) == 0 ? (ns == 0 ? recvStepOverheadPs : stepOverheadPs) : 0);
        // A step that sends bytes commits now and starts its flows with a latency phase ending at startAt
        // (no wake event, no second evaluation): waiting changes nothing, since its inputs only accumulate,
        // and the flows' latency events take the place, in time and order, of the wake event.
        long bytes = stepBytes(w);
        boolean deferFlows = ns > 0 && bytes > 0;
        if (startAt > now && !deferFlows) {
            wi[b + FLAGS] = (flags & ~F_OVERHEAD_PAID) | (j == 0 ? F_OVERHEAD_PAID : 0) | F_WAKE;
            sim.scheduleAt(startAt, wake[w]);
            return;
        }
        wi[b + FLAGS] = (flags & ~F_OVERHEAD_PAID) | F_BUSY;
        long delay = startAt - now; // > 0 only for deferred flows
        if (delay > 0) stepStart[w] = startAt;
        if (j == 0) {
            stepsExecuted += multiplicity[(w / nLanes) % nCh];
            for (int i = 0; i < nr; i++) conns.addCounter(recvConn(w, i), SLOTS_TAKEN, s);
            for (int i = 0; i < ns; i++) conns.addCounter(sendConn(w, i), SLOTS_SENT, s);
        }
        Primitive prim = PRIMS[wi[b + PRIM]];
        // sub-transfer j of k: pipelineBytes each, the last one takes the rest
        long sub = wi[b + UNITS] == 1 ? bytes : j < wi[b + UNITS] - 1 ? pipelineBytes : bytes - (long) j * pipelineBytes;
        if (ns > 0) {
            long wire = proto.wireBytes(sub);
            // cta model: the block's data rate 1/psPerByte, as wire bytes; else the family's per-channel limit
            double cap = (cta != null ? Math.min(channelCapBps, 1e12 / wd[w * WD + PS_PER_BYTE] / proto.dataEfficiency())
                    : reduces(prim) ? reduceCapBps : channelCapBps) * wd[w * WD + LANE_SHARE];
            wi[b + PENDING] = ns;
            for (int i = 0; i < ns; i++) {
                int k = sendConn(w, i);
                flowsStarted++;
                net.startRecycled(connPath[k], wire, delay, cap, flowDone, k);
            }
        } else {
            long t;
            if (cta != null) {
                t = (long) Math.ceil(sub * wd[w * WD + PS_PER_BYTE] / wd[w * WD + LANE_SHARE]);
            } else {
                double rate = (reduces(prim) ? reduceCapBps * proto.dataEfficiency() : copyBps) * wd[w * WD + LANE_SHARE];
                t = sub == 0 ? 0 : (long) Math.ceil(sub / rate * 1e12);
            }
            sim.schedule(t, localDone[w]);
        }
    }

    /**
     * When worker {@code w}'s current sub-transfer may read connection {@code k} ({@link #NO_WAKE} if
     * what it needs was not even sent): a step of one transfer needs its slots arrived; sub-transfer j
     * of a split step needs sub-transfer j arrived. Arrivals due by {@code now} are absorbed first.
     */
    private long recvReadyAt(int w, int k, long now) {
        TimedQueues qs = conns;
        while (qs.size(k, ARRIVALS) > 0 && qs.time(k, ARRIVALS, 0) <= now) {
            qs.addCounter(k, SLOTS_ARRIVED, qs.pop(k, ARRIVALS));
            qs.addCounter(k, UNITS_ARRIVED, 1);
        }
        boolean whole = wi[w * WI + UNITS] == 1;
        long have = whole ? qs.counter(k, SLOTS_ARRIVED) - qs.counter(k, SLOTS_TAKEN)
                : qs.counter(k, UNITS_ARRIVED) - qs.counter(k, UNITS_BASE);
        long need = whole ? wi[w * WI + SLOTS] : wi[w * WI + SUB] + 1;
        if (have >= need) return now;
        for (int i = 0, n = qs.size(k, ARRIVALS); i < n; i++) {
            have += whole ? qs.slots(k, ARRIVALS, i) : 1;
            if (have >= need) return qs.time(k, ARRIVALS, i);
        }
        return NO_WAKE;
    }

    /** When {@code s} slots of connection {@code k} are free at its sender, credits due by {@code now} absorbed. */
    private long creditReadyAt(int k, int s, long now) {
        TimedQueues qs = conns;
        while (qs.size(k, CREDITS) > 0 && qs.time(k, CREDITS, 0) <= now) qs.addCounter(k, CREDIT_BACK, qs.pop(k, CREDITS));
        long free = Protocol.NCCL_STEPS - (qs.counter(k, SLOTS_SENT) - qs.counter(k, CREDIT_BACK));
        if (free >= s) return now;
        for (int i = 0, n = qs.size(k, CREDITS); i < n; i++) {
            free += qs.slots(k, CREDITS, i);
            if (free >= s) return qs.time(k, CREDITS, i);
        }
        return NO_WAKE;
    }

    /** Diagnostics: whether what worker w waits for on k was at least sent (no state changes). */
    private boolean eventuallyArrives(int w, int k) {
        TimedQueues qs = conns;
        boolean whole = wi[w * WI + UNITS] == 1;
        long have = whole ? qs.counter(k, SLOTS_ARRIVED) - qs.counter(k, SLOTS_TAKEN)
                : qs.counter(k, UNITS_ARRIVED) - qs.counter(k, UNITS_BASE);
        for (int i = 0; i < qs.size(k, ARRIVALS); i++) have += whole ? qs.slots(k, ARRIVALS, i) : 1;
        return have >= (whole ? wi[w * WI + SLOTS] : wi[w * WI + SUB] + 1);
    }

    /** Diagnostics: whether s slots of k are free once the credits in flight land (no state changes). */
    private boolean eventuallyFree(int k, int s) {
        TimedQueues qs = conns;
        long free = Protocol.NCCL_STEPS - (qs.counter(k, SLOTS_SENT) - qs.counter(k, CREDIT_BACK));
        for (int i = 0; i < qs.size(k, CREDITS); i++) free += qs.slots(k, CREDITS, i);
        return free >= s;
    }

    private void onWake(int w) {
        wi[w * WI + FLAGS] &= ~F_WAKE;
        tryStart(w);
    }

    private static boolean reduces(Primitive p) {
        switch (p) {
            case RECV_REDUCE_SEND:
            case RECV_REDUCE_COPY:
            case RECV_REDUCE_COPY_SEND:
            case LOCAL_REDUCE: return true;
            default: return false;
        }
    }

    private void onFlowDone(int k) {
        int w = (int) conns.counter(k, SENDER);
        int s = wi[w * WI + SUB] == wi[w * WI + UNITS] - 1 ? wi[w * WI + SLOTS] : 0;
        // the data (and its flag) become visible to the receiver one hop latency later; the step's
        // slots count as arrived with its last sub-transfer
        conns.push(k, ARRIVALS, sim.now() + conns.counter(k, LATENCY), s);
        int rw = (int) conns.counter(k, RECEIVER);
        if (rw >= 0) tryStart(rw);
        if (--wi[w * WI + PENDING] == 0) onStepDone(w);
    }

    /** Worker {@code w}'s current sub-transfer is done; after the last one, its step is. */
    private void onStepDone(int w) {
        if (++wi[w * WI + SUB] < wi[w * WI + UNITS]) {
            wi[w * WI + FLAGS] &= ~F_BUSY;
            tryStart(w);
            return;
        }
        int s = wi[w * WI + SLOTS];
        int nr = wi[w * WI + NRECV];
        for (int i = 0; i < nr; i++) {
            int k = recvConn(w, i);
            conns.addCounter(k, UNITS_BASE, wi[w * WI + UNITS]);
            // the consumed slots' credit travels back to the sender
            conns.push(k, CREDITS, sim.now() + conns.counter(k, LATENCY), s);
            int sw = (int) conns.counter(k, SENDER);
            if (sw >= 0 && sw != w) tryStart(sw);
        }
        wi[w * WI + FLAGS] &= ~F_BUSY;
        if (++wi[w * WI + STEP_IDX] >= wi[w * WI + STEP_COUNT]) {
            int rank = w / nLanes / nCh;
            if (--rankWorkersLeft[rank] == 0) rankFinished(rank);
            return;
        }
        load(w);
        tryStart(w);
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
    public long stepsExecuted() { return stepsExecuted; }

    /** Flows simulated so far (a flow of a representative channel stands for all its replicas). */
    public long flowsStarted() { return flowsStarted; }

    /** What an unfinished worker waits for. */
    public record Blocked(int rank, int channel, int lane, int step, int stepCount, String primitive,
                          int waitingForRank, String reason) {
        @Override
        public String toString() {
            return "rank " + rank + " channel " + channel + (lane > 0 ? " lane " + lane : "") + " step " + step + "/" + stepCount
                    + " " + primitive + ": " + reason + (waitingForRank >= 0 ? " rank " + waitingForRank : "");
        }
    }

    /** The unfinished workers and what each waits for (for hang diagnosis). */
    public List<Blocked> blockedWorkers() {
        List<Blocked> out = new ArrayList<>();
        for (int w = 0; w < localDone.length; w++) {
            if (wi[w * WI + STEP_IDX] >= wi[w * WI + STEP_COUNT]) continue; // done, or a replica channel
            int lane = w % nLanes;
            int ch = (w / nLanes) % nCh;
            int rank = w / nLanes / nCh;
            String prim = PRIMS[wi[w * WI + PRIM]].name();
            if (!rankLaunched[rank]) {
                out.add(new Blocked(rank, ch, lane, wi[w * WI + STEP_IDX], wi[w * WI + STEP_COUNT], prim, -1, "kernel never launched"));
                continue;
            }
            int flags = wi[w * WI + FLAGS];
            if ((flags & F_STARTED) == 0) {
                out.add(new Blocked(rank, ch, lane, wi[w * WI + STEP_IDX], wi[w * WI + STEP_COUNT], prim, -1, "kernel starting"));
                continue;
            }
            if ((flags & F_WAKE) != 0 || ((flags & F_BUSY) != 0 && stepStart[w] > sim.now())) {
                out.add(new Blocked(rank, ch, lane, wi[w * WI + STEP_IDX], wi[w * WI + STEP_COUNT], prim, -1, "starting its step"));
                continue;
            }
            if ((flags & F_BUSY) != 0) {
                out.add(new Blocked(rank, ch, lane, wi[w * WI + STEP_IDX], wi[w * WI + STEP_COUNT], prim, -1, "transfer in progress (stalled link?)"));
                continue;
            }
            int s = wi[w * WI + SLOTS];
            String reason = "runnable";
            int peer = -1;
            for (int i = 0; i < wi[w * WI + NRECV] && peer < 0; i++) {
                int k = recvConn(w, i);
                if (!eventuallyArrives(w, k)) {
                    peer = connFrom[k];
                    reason = "waiting for data from";
                }
            }
            for (int i = 0; i < wi[w * WI + NSEND] && peer < 0 && wi[w * WI + SUB] == 0; i++) {
                int k = sendConn(w, i);
                if (!eventuallyFree(k, s)) {
                    peer = connTo[k];
                    reason = "waiting for free slots at";
                }
            }
            out.add(new Blocked(rank, ch, lane, wi[w * WI + STEP_IDX], wi[w * WI + STEP_COUNT], prim, peer, reason));
        }
        return out;
    }
}
