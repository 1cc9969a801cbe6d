package io.ccsim.algorithms.sim;

import io.ccsim.algorithms.Protocol;
import io.ccsim.sim.flow.FlowNetwork;

/**
 * The connections of one execution, numbered densely as {@link ConnIndex} numbers them: who sends and receives on
 * each, its flow-network path and hop latency, and its slots and credits. Times are ps of simulated time.
 *
 * <p>A connection (channel, from, to) has {@link Protocol#NCCL_STEPS} slots in the receiver's memory. The sender
 * reserves a step's slots when the step starts ({@link #reserve}); the data of a finished flow lands one hop latency
 * later ({@link #arrive}); the receiver takes them when its step starts ({@link #take}) and frees them when its step
 * ends ({@link #consume}), and their credit reaches the sender one hop latency after that. A step of several
 * sub-transfers (a split step) is counted in units: its receiver may start on sub-transfer j once j + 1 units have
 * arrived beyond those of its finished steps.
 */
final class Connections {
    /*
     * Each connection k is block k of one TimedQueues: queue ARRIVALS holds its data arrivals in flight, queue
     * CREDITS its credit returns, both in time order since the hop latency is constant per connection; its counters
     * are what a flow's completion and a step's start read of it: SENDER and RECEIVER (workers, -1: none yet),
     * LATENCY (its hop latency, ps), SLOTS_ARRIVED (slots whose data reached the receiver), SLOTS_TAKEN (slots the
     * receiver started consuming), UNITS_ARRIVED (sub-transfers whose data reached it), UNITS_BASE (sub-transfers of
     * the receiver's finished steps), SLOTS_SENT (slots reserved by the sender) and CREDIT_BACK (slots freed by the
     * receiver whose credit reached the sender). Arrivals and credits due by "now" are absorbed into the counters
     * lazily, when a worker asks; one that lands later is found by scanning the queue, so a waiting worker is woken
     * once, at the time of the increment it needs.
     *
     * Free slots at the sender: NCCL_STEPS - (SLOTS_SENT - CREDIT_BACK). Slots ready at the receiver: SLOTS_ARRIVED -
     * SLOTS_TAKEN (whole steps), or UNITS_ARRIVED - UNITS_BASE (sub-transfers of a split step).
     */
    /** What {@link #recvReadyAt} and {@link #creditReadyAt} return when what is needed was not even sent. */
    static final long NO_WAKE = Long.MIN_VALUE;

    private static final int ARRIVALS = 0, CREDITS = 1;
    private static final int SENDER = 0, RECEIVER = 1, LATENCY = 2, SLOTS_ARRIVED = 3, SLOTS_TAKEN = 4, UNITS_ARRIVED = 5,
            UNITS_BASE = 6, SLOTS_SENT = 7, CREDIT_BACK = 8, CONN_COUNTERS = 9;

    /** the lookup by (channel, from, to); null for a folded execution's quotient connections */
    private final ConnIndex index;
    private final TimedQueues qs;
    private final FlowNetwork.Path[] path;
    private final int[] chan;
    private final int[] from;
    private final int[] to;

    /** The connections of {@code index}: no sender or receiver, no path, every slot free. */
    Connections(ConnIndex index) {
        this(index, index.size());
        for (int k = 0; k < chan.length; k++) {
            chan[k] = index.channel(k);
            from[k] = index.from(k);
            to[k] = index.to(k);
        }
    }

    /**
     * The quotient connections of a folded execution, numbered as {@code quotient} numbers them, routed on their
     * weighted hops; they are found by {@link QuotientConnections#of}, not by {@link #find}.
     */
    Connections(QuotientConnections quotient, FlowNetwork net, ChannelFolding folding, int nCh) {
        this(null, quotient.size());
        for (int k = 0; k < chan.length; k++) {
            chan[k] = quotient.channel(k);
            from[k] = quotient.from(k);
            to[k] = quotient.to(k);
            setRoute(k, net.path(quotient.hops(k), folding.multiplicity(chan[k] % nCh)), quotient.latencyPs(k));
        }
    }

    private Connections(ConnIndex index, int nc) {
        this.index = index;
        // a connection has at most NCCL_STEPS slots in flight (more only with sub-transfers): 4 entries hold a Simple
        // ring's two-slot steps, and the queues grow for LL's one-slot steps
        this.qs = new TimedQueues(nc, 2, CONN_COUNTERS, 4);
        this.path = new FlowNetwork.Path[nc];
        this.chan = new int[nc];
        this.from = new int[nc];
        this.to = new int[nc];
        for (int k = 0; k < nc; k++) {
            qs.setCounter(k, SENDER, -1);
            qs.setCounter(k, RECEIVER, -1);
        }
    }

    /** Number of connections. */
    int count() { return from.length; }

    /**
     * Index of (ch, from, to); not for quotient connections.
     *
     * @throws IllegalStateException if the plan did not declare it
     */
    int find(int ch, int f, int t) {
        if (index == null) throw new IllegalStateException("quotient connections are found by RankFolding#connection");
        return index.find(ch, f, t);
    }

    /** Whether {@code k} (any int; out of range is false) is (ch, from, to), without hashing; false for quotient ones. */
    boolean is(int k, int ch, int f, int t) { return index != null && index.is(k, ch, f, t); }

    int channel(int k) { return chan[k]; }

    /** Sending rank. */
    int from(int k) { return from[k]; }

    /** Receiving rank. */
    int to(int k) { return to[k]; }

    /** Whether {@link #setRoute} was called for {@code k}. */
    boolean routed(int k) { return path[k] != null; }

    /** Sets the path of {@code k}'s flows and its hop latency, ps (≥ 0). */
    void setRoute(int k, FlowNetwork.Path p, long latencyPs) {
        path[k] = p;
        qs.setCounter(k, LATENCY, latencyPs);
    }

    FlowNetwork.Path path(int k) { return path[k]; }

    /** The worker sending on {@code k}, −1 if none yet. */
    int sender(int k) { return (int) qs.counter(k, SENDER); }

    /** The worker receiving on {@code k}, −1 if none yet. */
    int receiver(int k) { return (int) qs.counter(k, RECEIVER); }

    void setSender(int k, int w) { qs.setCounter(k, SENDER, w); }

    void setReceiver(int k, int w) { qs.setCounter(k, RECEIVER, w); }

    /** The sender reserves {@code s} slots (its step starts). */
    void reserve(int k, int s) { qs.addCounter(k, SLOTS_SENT, s); }

    /** The receiver takes {@code s} arrived slots (its step starts). */
    void take(int k, int s) { qs.addCounter(k, SLOTS_TAKEN, s); }

    /** A flow ended at {@code nowPs}: one unit, with {@code s} slots (its step's last unit) or 0, lands a hop later. */
    void arrive(int k, long nowPs, int s) { qs.push(k, ARRIVALS, nowPs + qs.counter(k, LATENCY), s); }

    /** The receiver's step of {@code units} sub-transfers and {@code s} slots ended at {@code nowPs}: credit goes back. */
    void consume(int k, int units, int s, long nowPs) {
        qs.addCounter(k, UNITS_BASE, units);
        qs.push(k, CREDITS, nowPs + qs.counter(k, LATENCY), s);
    }

    /**
     * When the receiver may read {@code need} of what is on {@code k}: slots beyond those taken ({@code whole}, a step
     * of one transfer) or units beyond those of its finished steps (a split step's sub-transfer j needs j + 1); the
     * arrival time of the one that completes it, {@code nowPs} if there, {@link #NO_WAKE} if it was not even sent.
     * Arrivals due by {@code nowPs} are absorbed first.
     */
    long recvReadyAt(int k, boolean whole, long need, long nowPs) {
        TimedQueues q = qs;
        while (q.size(k, ARRIVALS) > 0 && q.time(k, ARRIVALS, 0) <= nowPs) {
            q.addCounter(k, SLOTS_ARRIVED, q.pop(k, ARRIVALS));
            q.addCounter(k, UNITS_ARRIVED, 1);
        }
        long have = whole ? q.counter(k, SLOTS_ARRIVED) - q.counter(k, SLOTS_TAKEN)
                : q.counter(k, UNITS_ARRIVED) - q.counter(k, UNITS_BASE);
        if (have >= need) return nowPs;
        for (int i = 0, n = q.size(k, ARRIVALS); i < n; i++) {
            have += whole ? q.slots(k, ARRIVALS, i) : 1;
            if (have >= need) return q.time(k, ARRIVALS, i);
        }
        return NO_WAKE;
    }

    /**
     * When {@code s} slots of {@code k} are free at its sender: {@code nowPs} if they are, else the credit return that
     * frees them, {@link #NO_WAKE} if the receiver has not freed them yet. Credits due by {@code nowPs} are absorbed first.
     */
    long creditReadyAt(int k, int s, long nowPs) {
        TimedQueues q = qs;
        while (q.size(k, CREDITS) > 0 && q.time(k, CREDITS, 0) <= nowPs) q.addCounter(k, CREDIT_BACK, q.pop(k, CREDITS));
        long free = Protocol.NCCL_STEPS - (q.counter(k, SLOTS_SENT) - q.counter(k, CREDIT_BACK));
        if (free >= s) return nowPs;
        for (int i = 0, n = q.size(k, CREDITS); i < n; i++) {
            free += q.slots(k, CREDITS, i);
            if (free >= s) return q.time(k, CREDITS, i);
        }
        return NO_WAKE;
    }

    /** Whether what {@link #recvReadyAt} asks for was at least sent (no state changes). */
    boolean eventuallyArrives(int k, boolean whole, long need) {
        TimedQueues q = qs;
        long have = whole ? q.counter(k, SLOTS_ARRIVED) - q.counter(k, SLOTS_TAKEN)
                : q.counter(k, UNITS_ARRIVED) - q.counter(k, UNITS_BASE);
        for (int i = 0; i < q.size(k, ARRIVALS); i++) have += whole ? q.slots(k, ARRIVALS, i) : 1;
        return have >= need;
    }

    /** Whether {@code s} slots of {@code k} are free once the credits in flight land (no state changes). */
    boolean eventuallyFree(int k, int s) {
        TimedQueues q = qs;
        long free = Protocol.NCCL_STEPS - (q.counter(k, SLOTS_SENT) - q.counter(k, CREDIT_BACK));
        for (int i = 0; i < q.size(k, CREDITS); i++) free += q.slots(k, CREDITS, i);
        return free >= s;
    }
}
