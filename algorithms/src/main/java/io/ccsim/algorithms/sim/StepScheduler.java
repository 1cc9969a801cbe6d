package io.ccsim.algorithms.sim;

import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.Primitive;
import io.ccsim.algorithms.plan.StepCursor;
import io.ccsim.sim.Simulator;
import io.ccsim.sim.flow.FlowListener;
import io.ccsim.sim.flow.FlowNetwork;
import java.util.function.IntConsumer;

/**
 * Walks every started worker through its steps in simulated time: starts a (sub-)transfer when its inputs are there
 * and its send slots free, runs it as flows on the connections' paths (or as a local wait), and moves on when it
 * ends. Reports each worker that finishes its last step to {@code workerDone} (with the worker id), on the
 * simulator's thread.
 */
final class StepScheduler {
    /*
     * A worker's step (sub-transfer j of k) may start when
     *   - every connection it receives from holds its input: the step's slots arrived (k = 1), or j + 1 units
     *     arrived beyond those of the receiver's finished steps (k > 1), and
     *   - for j = 0, every connection it sends on has the step's slots free, their credit back.
     * It starts at the latest of those times, plus the step's overhead for j = 0 (once per step). Slot credits stay
     * per step: reserved when the first sub-transfer starts, freed after the last.
     *
     * A sending step (bytes > 0) commits at once and starts its flows with a latency phase ending at that start time,
     * without a wake event or a second evaluation: waiting changes nothing, since its inputs only accumulate, and the
     * flows' latency events take the place, in time and order, of the wake event. A step that sends nothing commits
     * at once too, for the same reason, its end scheduled at its start time plus its local time
     * (StepCosts#localTimePs); only a step that sends zero bytes waits for its start time (a wake event) and
     * re-evaluates.
     *
     * The sends of a step that is one operation over several peers move as one flow over the union of their paths
     * (OneFlowPaths says why): a switch's multicast (MULTIMEM_FORWARD: the same bytes into every destination) and a
     * scatter (a step with parts: the step's bytes, every part, through the rank's ports). When it ends, every send
     * connection's data lands.
     *
     * When a flow ends, its unit (with the step's slots on the last unit) lands at the receiver one hop latency
     * later; when a step ends, the receive slots it consumed are freed and their credit lands at the sender one hop
     * latency later. Each of these events tries to start the worker on the other end.
     */
    private static final Primitive[] PRIMS = Primitive.values();

    private final Simulator sim;
    private final FlowNetwork net;
    private final Plan plan;
    private final StepCosts costs;
    private final Workers workers;
    private final Connections conns;
    private final ConnectionPaths paths;
    private final ChannelFolding folding;
    private final RankFolding ranks;
    /** whether actors fold: connections are then the quotient's ({@link RankFolding#connection}) */
    private final boolean folded;
    /** folded: each worker's last quotient connections, by real connection */
    private final QuotientMemo quotientMemo;
    /** the paths of one-flow steps; null for a plan without switch actors, which has none */
    private final OneFlowPaths oneFlowPaths;
    private final IntConsumer workerDone;
    private final int elemBytes;
    private final StepCursor cursor;
    /** the step being loaded: per bound send connection, the real sends it carries (more than 1 where folded peers merge) */
    private final int[] sendsPerConn;
    /** the one listener of every flow: the flow's key is its connection (no object per connection) */
    private final FlowListener flowDone = f -> onFlowDone(f.key());
    private final Runnable[] localDone;
    private final Runnable[] wake;
    private long stepsExecuted;
    private long flowsStarted;

    /** Schedules {@code workers}, whose step counts are set (a worker with none never runs and gets no actions). */
    StepScheduler(Simulator sim, FlowNetwork net, Plan plan, StepCosts costs, Workers workers, Connections conns,
                  ConnectionPaths paths, ChannelFolding folding, RankFolding ranks, IntConsumer workerDone) {
        this.sim = sim;
        this.net = net;
        this.plan = plan;
        this.costs = costs;
        this.workers = workers;
        this.conns = conns;
        this.paths = paths;
        this.folding = folding;
        this.ranks = ranks;
        this.folded = ranks.folds();
        this.quotientMemo = folded ? new QuotientMemo(ranks, workers.count()) : null;
        this.oneFlowPaths = plan.nActors() > plan.nRanks() ? new OneFlowPaths(conns, net, workers.count()) : null;
        this.workerDone = workerDone;
        this.elemBytes = plan.call().dtype().bytes();
        this.cursor = new StepCursor(plan.maxPeers());
        this.sendsPerConn = new int[Math.max(StepCursor.MAX_PEERS, plan.maxPeers())];
        int nw = workers.count();
        localDone = new Runnable[nw];
        wake = new Runnable[nw];
        for (int w = 0; w < nw; w++) {
            if (workers.stepCount(w) == 0) continue; // never runs (a replica's or a folded worker): no actions
            final int ww = w;
            localDone[w] = () -> onStepDone(ww);
            wake[w] = () -> onWake(ww);
        }
    }

    /** Steps started so far, over all workers and the replica channels they stand for. */
    long stepsExecuted() { return stepsExecuted; }

    /** Flows started so far (a flow of a representative channel stands for all its replicas). */
    long flowsStarted() { return flowsStarted; }

    /** Worker {@code w}'s channel starts now: it loads and tries its first step, if it has any. */
    void start(int w) {
        workers.setFlag(w, Workers.F_STARTED);
        if (workers.stepCount(w) > 0) {
            load(w);
            tryStart(w);
        }
    }

    private void load(int w) {
        int lane = workers.lane(w);
        int ch = workers.channel(w);
        int rank = workers.rank(w);
        plan.step(rank, ch, lane, workers.stepIndex(w), cursor);
        long bytes = (long) cursor.count() * elemBytes;
        int nr = cursor.nRecv();
        int ns = cursor.nSend();
        // folded: equivalent peers share one quotient connection, bound once
        int boundRecv = bindConnections(w, ch, rank, nr, true);
        int boundSend = bindConnections(w, ch, rank, ns, false);
        workers.loadStep(w, cursor.prim().ordinal(), cursor.slots(), bytes, costs.units(bytes), boundRecv, boundSend);
        boolean free = cursor.prim().isSwitch() || cursor.memory();
        if (costs.cta() != null && !free) workers.setPsPerByte(w, costs.psPerByte(cursor.prim(), nr, ns));
        if (cursor.continued() || free) workers.setFlag(w, Workers.F_CONTINUED);
        else workers.clearFlag(w, Workers.F_CONTINUED);
        if (cursor.memory()) workers.setFlag(w, Workers.F_MEMORY);
        else workers.clearFlag(w, Workers.F_MEMORY);
        if (ns > 1 && (cursor.hasParts() || cursor.prim().isMulticast())) {
            if (oneFlowPaths == null) {
                throw new IllegalStateException(plan + ": a multicast or scatter without switch actors");
            }
            oneFlowPaths.bind(workers, w, boundSend, sendsPerConn, cursor.hasParts());
            workers.setFlag(w, Workers.F_ONE_FLOW);
        } else {
            workers.clearFlag(w, Workers.F_ONE_FLOW);
        }
    }

    /*
     * A worker mostly talks to the same peers step after step (ring: always), so the last lookup is reused: for the
     * first connection by its peer (kept in the worker's block), for the others by the connection's key.
     */
    /**
     * Binds worker {@code w} as receiver ({@code receiving}) or sender of the {@code n} connections of the cursor's
     * step; returns how many distinct connections it bound (fewer than n only when folded peers share one).
     */
    private int bindConnections(int w, int ch, int rank, int n, boolean receiving) {
        int conn = receiving ? cursor.recvConn() : cursor.sendConn();
        int cch = plan.connectionChannel(ch, conn);
        int tagBase = conn * plan.nActors(); // the first-peer cache tells connection 1 of a peer from its connection 0
        int m = 0;
        for (int i = 0; i < n; i++) {
            int peer = receiving ? cursor.recvPeer(i) : cursor.sendPeer(i);
            int from = receiving ? peer : rank;
            int to = receiving ? rank : peer;
            int k = workers.conn(w, m, receiving);
            boolean cached = m == 0 ? workers.firstPeer(w, receiving) == tagBase + peer : conns.is(k, cch, from, to);
            if (!cached) {
                // folded: the quotient connection that carries this real one, to the peer's class representative
                k = !folded ? conns.find(cch, from, to) : quotientMemo.connection(w, conn, receiving, peer, cch, from, to);
                paths.ensure(conns, k);
            }
            if (folded) {
                int j = boundBefore(w, m, receiving, k);
                if (j >= 0) {
                    if (!receiving) sendsPerConn[j]++;
                    continue;
                }
            }
            if (!receiving) sendsPerConn[m] = 1;
            if (!cached) workers.setConn(w, m, receiving, k, tagBase + peer);
            if (receiving) conns.setReceiver(k, w);
            else conns.setSender(k, w);
            m++;
        }
        return m;
    }

    /** Which of worker {@code w}'s first {@code m} bound connections (of that direction) is {@code k}; −1 if none. */
    private int boundBefore(int w, int m, boolean receiving, int k) {
        for (int j = 0; j < m; j++) {
            if (workers.conn(w, j, receiving) == k) return j;
        }
        return -1;
    }

    private void tryStart(int w) {
        int flags = workers.flags(w);
        if ((flags & (Workers.F_BUSY | Workers.F_STARTED | Workers.F_WAKE)) != Workers.F_STARTED || !workers.hasStepsLeft(w)) return;
        int s = workers.slots(w);
        int nr = workers.nRecv(w);
        int ns = workers.nSend(w);
        int j = workers.sub(w);
        long now = sim.now();
        long ready = readyAt(w, s, nr, ns, j, now);
        if (ready == Connections.NO_WAKE) return; // the sender's completion or the receiver's step end calls again
        // a continued step (the rest of one NCCL call) and a switch's step pay no overhead of their own
        boolean payOverhead = j == 0 && (flags & (Workers.F_OVERHEAD_PAID | Workers.F_CONTINUED)) == 0;
        long startAt = ready + (payOverhead ? costs.overheadPs(ns > 0) : 0);
        long bytes = workers.bytes(w);
        // a step that sends commits now with its flows deferred; one that sends nothing commits now with its end
        // scheduled from its start (a zero-byte send waits, its flows carry no latency phase to defer)
        if (startAt > now && ns > 0 && bytes == 0) {
            workers.setFlags(w, (flags & ~Workers.F_OVERHEAD_PAID) | (j == 0 ? Workers.F_OVERHEAD_PAID : 0) | Workers.F_WAKE);
            sim.scheduleAt(startAt, wake[w]);
            return;
        }
        workers.setFlags(w, (flags & ~Workers.F_OVERHEAD_PAID) | Workers.F_BUSY);
        long delay = startAt - now; // > 0 only for deferred flows and local steps
        if (delay > 0) workers.setStepStartPs(w, startAt);
        if (j == 0) {
            int ch = workers.channel(w);
            stepsExecuted += (long) folding.multiplicity(ch) * ranks.classSize(ch, workers.rank(w));
            for (int i = 0; i < nr; i++) conns.take(workers.recvConn(w, i), s);
            for (int i = 0; i < ns; i++) conns.reserve(workers.sendConn(w, i), s);
        }
        Primitive prim = PRIMS[workers.primitive(w)];
        long sub = costs.subTransferBytes(bytes, workers.units(w), j);
        if (ns > 0) {
            long wire = costs.protocol().wireBytes(sub);
            // a switch forwards, and a memory serves a peer's load, at what the links carry: no thread block, no
            // per-channel limit
            boolean free = prim.isSwitch() || (flags & Workers.F_MEMORY) != 0;
            double cap = free ? Double.POSITIVE_INFINITY : costs.sendRateCap(prim, workers.psPerByte(w), workers.laneShare(w));
            if ((flags & Workers.F_ONE_FLOW) != 0) {
                workers.setPending(w, 1);
                flowsStarted++;
                net.startRecycled(oneFlowPaths.path(w), wire, delay, cap, flowDone, workers.sendConn(w, 0));
            } else {
                workers.setPending(w, ns);
                for (int i = 0; i < ns; i++) {
                    int k = workers.sendConn(w, i);
                    flowsStarted++;
                    net.startRecycled(conns.path(k), wire, delay, cap, flowDone, k);
                }
            }
        } else if ((flags & Workers.F_MEMORY) != 0) {
            sim.schedule(delay, localDone[w]); // a peer's store landed: nothing for this rank's SMs to do
        } else {
            sim.schedule(delay + costs.localTimePs(prim, sub, workers.psPerByte(w), workers.laneShare(w)), localDone[w]);
        }
    }

    /**
     * When every input of worker {@code w}'s current sub-transfer {@code j} is there and, for j = 0, its send slots
     * are free: {@code now} or later, or {@link Connections#NO_WAKE} if one of them was not even sent or freed.
     */
    private long readyAt(int w, int s, int nr, int ns, int j, long now) {
        long ready = now;
        boolean whole = workers.units(w) == 1;
        long need = whole ? s : j + 1;
        for (int i = 0; i < nr; i++) {
            long t = conns.recvReadyAt(workers.recvConn(w, i), whole, need, now);
            if (t == Connections.NO_WAKE) return t;
            if (t > ready) ready = t;
        }
        if (j == 0) {
            for (int i = 0; i < ns; i++) {
                long t = conns.creditReadyAt(workers.sendConn(w, i), s, now);
                if (t == Connections.NO_WAKE) return t;
                if (t > ready) ready = t;
            }
        }
        return ready;
    }

    private void onWake(int w) {
        workers.clearFlag(w, Workers.F_WAKE);
        tryStart(w);
    }

    private void onFlowDone(int k) {
        int w = conns.sender(k);
        int s = workers.sub(w) == workers.units(w) - 1 ? workers.slots(w) : 0;
        // the data (and its flag) become visible to the receiver one hop latency later; the step's
        // slots count as arrived with its last sub-transfer
        if ((workers.flags(w) & Workers.F_ONE_FLOW) != 0) {
            for (int i = 0, ns = workers.nSend(w); i < ns; i++) arrived(workers.sendConn(w, i), s);
        } else {
            arrived(k, s);
        }
        if (workers.flowEnded(w)) onStepDone(w);
    }

    /** Connection {@code k}'s data, with {@code s} slots, lands now (plus its hop latency); its receiver may start. */
    private void arrived(int k, int s) {
        conns.arrive(k, sim.now(), s);
        int rw = conns.receiver(k);
        if (rw >= 0) tryStart(rw);
    }

    /** Worker {@code w}'s current sub-transfer is done; after the last one, its step is. */
    private void onStepDone(int w) {
        if (workers.advanceSub(w)) {
            workers.clearFlag(w, Workers.F_BUSY);
            tryStart(w);
            return;
        }
        int s = workers.slots(w);
        int nr = workers.nRecv(w);
        for (int i = 0; i < nr; i++) {
            int k = workers.recvConn(w, i);
            // the consumed slots' credit travels back to the sender
            conns.consume(k, workers.units(w), s, sim.now());
            int sw = conns.sender(k);
            if (sw >= 0 && sw != w) tryStart(sw);
        }
        workers.clearFlag(w, Workers.F_BUSY);
        if (workers.advanceStep(w)) {
            workerDone.accept(w);
            return;
        }
        load(w);
        tryStart(w);
    }
}
