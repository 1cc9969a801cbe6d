package io.ccsim.algorithms.sim;

import io.ccsim.algorithms.plan.StepCursor;
import java.util.Arrays;

/**
 * The state of every worker of one execution, with named accessors over packed arrays. A worker is one
 * (actor, channel, lane) and walks its steps in order; its id is {@code w = (actor * channels + channel) * lanes + lane},
 * in [0, {@link #count()}).
 *
 * <p>Per worker: its step index and step count, {@link #flags} (the {@code F_*} bits), and of the current step: its
 * primitive (ordinal), slots per connection, receive and send connection counts, data bytes, its sub-transfer count
 * ({@link #units}, ≥ 1) and the index of the sub-transfer in progress or next ({@link #sub}, in [0, units)), the
 * flows still running ({@link #pending}), its connections, its thread-block cost (ps per data byte, cta model),
 * the fraction of the thread block its lane runs on ({@link #laneShare}, in (0, 1]), and when its deferred flows
 * leave their latency phase ({@link #stepStartPs}, ps). Connections are indices of {@link Connections}; −1 means none
 * looked up yet. Setters do not validate: the scheduler owns the invariants.
 */
final class Workers {
    /*
     * Layout. Everything a step's start, its flows' ends and its end read of a worker is in one block of WI ints
     * (64 B, one cache line): one array per field cost a miss per field touched in simulations whose 10^4 workers
     * run in turn (the 1,024-GPU ring), and a block per type (ints, longs, doubles, connections) still cost four or
     * five. The step's bytes are two ints (BYTES_HI, BYTES_LO); its first receive and send connections (RECV0, SEND0)
     * sit in the block with the peers they were looked up for (RECV_PEER0, SEND_PEER0), connections 1 and 2 (a tree
     * step talks to up to 3 peers) in recvMore and sendMore, StepCursor.MAX_PEERS entries per worker (index 0 unused).
     * A switch actor talks to every rank of its domain (72 on an NVL72 rack): its connections from MAX_PEERS on are in
     * a wide block of maxPeers entries per direction, given to a worker when it first binds one (wideAt; -1: none), so
     * that the workers that never do (a rank's, and every folded one's) cost nothing there. Sized for every worker,
     * the wide entries were 2/3 of a folded NVLSTree run's heap on 32 NVL72 racks (347 of 488 MB for 557,056 workers).
     */
    /** Flag bits: a (sub-)transfer is running; the worker's channel has started; the step's overhead is paid; a wake-up is pending. */
    static final int F_BUSY = 1, F_STARTED = 2, F_OVERHEAD_PAID = 4, F_WAKE = 8;
    /** Flag bit: the current step continues the previous step's call and pays no overhead of its own. */
    static final int F_CONTINUED = 16;
    /** Flag bit: the current step is a one-sided memory access served by this rank's memory (no SM work of its own). */
    static final int F_MEMORY = 32;
    /** Flag bit: the current step's sends move as one flow over their connections' paths ({@link OneFlowPaths}). */
    static final int F_ONE_FLOW = 64;

    private static final int WI = 16; // ints per worker in wi
    private static final int STEP_IDX = 0, STEP_COUNT = 1, FLAGS = 2, PRIM = 3, NRECV = 4, NSEND = 5, SLOTS = 6,
            SUB = 7, UNITS = 8, PENDING = 9, BYTES_LO = 10, BYTES_HI = 11, RECV0 = 12, SEND0 = 13, RECV_PEER0 = 14,
            SEND_PEER0 = 15;
    private static final int WD = 2; // doubles per worker in wd
    private static final int PS_PER_BYTE = 0, LANE_SHARE = 1;

    private final int nCh;
    private final int nLanes;
    private final int maxPeers;
    private final int[] wi;
    private final double[] wd;
    private final long[] stepStart;
    private final int[] recvMore;
    private final int[] sendMore;
    /** Per worker, its wide block's offset in wideRecv and wideSend, or −1; null when no step has more than MAX_PEERS peers. */
    private final int[] wideAt;
    private int[] wideRecv = new int[0];
    private int[] wideSend = new int[0];
    private int wideUsed;

    /**
     * Workers of {@code nActors × nChannels × nLanes}, all ≥ 1, whose steps have at most {@code maxPeers} peers each
     * way: no steps, flags clear, lane share 1, no connection.
     */
    Workers(int nActors, int nChannels, int nLanes, int maxPeers) {
        this.nCh = nChannels;
        this.nLanes = nLanes;
        this.maxPeers = Math.max(StepCursor.MAX_PEERS, maxPeers);
        int nw = nActors * nChannels * nLanes;
        wi = new int[nw * WI];
        wd = new double[nw * WD];
        stepStart = new long[nw];
        recvMore = new int[nw * StepCursor.MAX_PEERS];
        sendMore = new int[nw * StepCursor.MAX_PEERS];
        // -1: no connection looked up yet (a reuse of the last lookup then always misses)
        Arrays.fill(recvMore, -1);
        Arrays.fill(sendMore, -1);
        wideAt = this.maxPeers > StepCursor.MAX_PEERS ? new int[nw] : null;
        if (wideAt != null) Arrays.fill(wideAt, -1);
        for (int w = 0; w < nw; w++) {
            wi[w * WI + RECV0] = -1;
            wi[w * WI + SEND0] = -1;
            wi[w * WI + RECV_PEER0] = -1;
            wi[w * WI + SEND_PEER0] = -1;
            wd[w * WD + LANE_SHARE] = 1.0;
        }
    }

    /** Number of workers. */
    int count() { return stepStart.length; }

    /** The id of (actor, channel, lane); actors are ranks, then switch actors. */
    int id(int rank, int ch, int lane) { return (rank * nCh + ch) * nLanes + lane; }

    int rank(int w) { return w / nLanes / nCh; }

    int channel(int w) { return (w / nLanes) % nCh; }

    int lane(int w) { return w % nLanes; }

    /** Index of the current step (= {@link #stepCount} once done). */
    int stepIndex(int w) { return wi[w * WI + STEP_IDX]; }

    /** Advances to the next step; returns whether that was the last (the worker is done). */
    boolean advanceStep(int w) { return ++wi[w * WI + STEP_IDX] >= wi[w * WI + STEP_COUNT]; }

    /** Steps the worker runs (0: none, or a replica channel's worker). */
    int stepCount(int w) { return wi[w * WI + STEP_COUNT]; }

    void setStepCount(int w, int n) { wi[w * WI + STEP_COUNT] = n; }

    /** Whether the worker has steps left. */
    boolean hasStepsLeft(int w) { return wi[w * WI + STEP_IDX] < wi[w * WI + STEP_COUNT]; }

    int flags(int w) { return wi[w * WI + FLAGS]; }

    void setFlags(int w, int f) { wi[w * WI + FLAGS] = f; }

    void setFlag(int w, int bit) { wi[w * WI + FLAGS] |= bit; }

    void clearFlag(int w, int bit) { wi[w * WI + FLAGS] &= ~bit; }

    /** Ordinal of the current step's {@link io.ccsim.algorithms.plan.Primitive}. */
    int primitive(int w) { return wi[w * WI + PRIM]; }

    /** Slots the current step takes on each of its connections. */
    int slots(int w) { return wi[w * WI + SLOTS]; }

    int nRecv(int w) { return wi[w * WI + NRECV]; }

    int nSend(int w) { return wi[w * WI + NSEND]; }

    /** Index of the current step's sub-transfer in progress or next, in [0, {@link #units}). */
    int sub(int w) { return wi[w * WI + SUB]; }

    /** Moves to the next sub-transfer; returns whether one is left. */
    boolean advanceSub(int w) { return ++wi[w * WI + SUB] < wi[w * WI + UNITS]; }

    /** Sub-transfers of the current step, ≥ 1. */
    int units(int w) { return wi[w * WI + UNITS]; }

    /** Flows of the current sub-transfer still running. */
    void setPending(int w, int n) { wi[w * WI + PENDING] = n; }

    /** One flow of the current sub-transfer ended; returns whether it was the last. */
    boolean flowEnded(int w) { return --wi[w * WI + PENDING] == 0; }

    /** Data bytes of the current step. */
    long bytes(int w) {
        return (long) wi[w * WI + BYTES_HI] << 32 | (wi[w * WI + BYTES_LO] & 0xffffffffL);
    }

    /** Loads a step: its primitive (ordinal), slots, data bytes, sub-transfers (≥ 1), receive and send counts; sub 0. */
    void loadStep(int w, int prim, int slots, long bytes, int units, int nRecv, int nSend) {
        int b = w * WI;
        wi[b + PRIM] = prim;
        wi[b + SLOTS] = slots;
        wi[b + BYTES_LO] = (int) bytes;
        wi[b + BYTES_HI] = (int) (bytes >>> 32);
        wi[b + SUB] = 0;
        wi[b + UNITS] = units;
        wi[b + NRECV] = nRecv;
        wi[b + NSEND] = nSend;
    }

    /** Connection i (0 .. nRecv − 1) the current step receives from (−1: none looked up). */
    int recvConn(int w, int i) {
        if (i == 0) return wi[w * WI + RECV0];
        return i < StepCursor.MAX_PEERS ? recvMore[w * StepCursor.MAX_PEERS + i] : wide(wideRecv, w, i);
    }

    /** Connection i (0 .. nSend − 1) the current step sends on (−1: none looked up). */
    int sendConn(int w, int i) {
        if (i == 0) return wi[w * WI + SEND0];
        return i < StepCursor.MAX_PEERS ? sendMore[w * StepCursor.MAX_PEERS + i] : wide(wideSend, w, i);
    }

    /** Entry i of worker w's wide block in {@code side}, −1 if it has none. */
    private int wide(int[] side, int w, int i) {
        int at = wideAt[w];
        return at < 0 ? -1 : side[at + i];
    }

    /** The receive ({@code receiving}) or send connection i of the current step. */
    int conn(int w, int i, boolean receiving) { return receiving ? recvConn(w, i) : sendConn(w, i); }

    /** The peer connection 0 (receive or send) was looked up for, −1 if none. */
    int firstPeer(int w, boolean receiving) { return wi[w * WI + (receiving ? RECV_PEER0 : SEND_PEER0)]; }

    /** Sets connection i (receive or send); for i = 0 with the peer it was looked up for. */
    void setConn(int w, int i, boolean receiving, int k, int peer) {
        if (i == 0) {
            wi[w * WI + (receiving ? RECV0 : SEND0)] = k;
            wi[w * WI + (receiving ? RECV_PEER0 : SEND_PEER0)] = peer;
        } else if (i < StepCursor.MAX_PEERS) {
            (receiving ? recvMore : sendMore)[w * StepCursor.MAX_PEERS + i] = k;
        } else {
            if (wideAt[w] < 0) wideAt[w] = newWideBlock();
            (receiving ? wideRecv : wideSend)[wideAt[w] + i] = k;
        }
    }

    /** A wide block of maxPeers entries per direction, all −1; returns its offset. */
    private int newWideBlock() {
        if (wideUsed + maxPeers > wideRecv.length) {
            int n = Math.max(4 * maxPeers, 2 * wideRecv.length);
            wideRecv = grow(wideRecv, n);
            wideSend = grow(wideSend, n);
        }
        int at = wideUsed;
        wideUsed += maxPeers;
        return at;
    }

    private static int[] grow(int[] a, int n) {
        int[] b = Arrays.copyOf(a, n);
        Arrays.fill(b, a.length, n, -1);
        return b;
    }

    /** Thread-block cost of the current step, ps per data byte (cta model; 0 before the first set). */
    double psPerByte(int w) { return wd[w * WD + PS_PER_BYTE]; }

    void setPsPerByte(int w, double v) { wd[w * WD + PS_PER_BYTE] = v; }

    /** The fraction of its channel's thread block the worker's lane runs on, in (0, 1]. */
    double laneShare(int w) { return wd[w * WD + LANE_SHARE]; }

    void setLaneShare(int w, double v) { wd[w * WD + LANE_SHARE] = v; }

    /** When the current step's deferred flows leave their latency phase, ps (0 if never deferred). */
    long stepStartPs(int w) { return stepStart[w]; }

    void setStepStartPs(int w, long ps) { stepStart[w] = ps; }
}
