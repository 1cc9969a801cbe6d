package io.ccsim.algorithms.plan;

/**
 * A collective call compiled for one algorithm and protocol: immutable, backend-independent data.
 *
 * <p>For each (rank, channel, lane) the plan has an ordered list of steps, each one slice of an
 * NCCL primitive (see {@link Primitive}, {@link StepCursor}). Lanes are the concurrently running
 * thread groups of one channel's kernel: 1 for ring algorithms; 2 for the tree (NCCL's
 * runTreeSplit: lane 0 reduces up, lane 1 broadcasts down; the root does both in lane 0) and for
 * point-to-point (lane 0 sends, lane 1 receives, as NCCL's p2p kernel runs send and receive warps
 * side by side). An executor must run the lanes of a channel concurrently.
 *
 * <p><b>Actors.</b> Ranks are actors 0 .. nRanks − 1. Algorithms that reduce or replicate in the network (NVLS)
 * add <em>switch actors</em> after them, {@link #nActors()} in all: an NVLink switch's reduction or multicast for
 * one head, with steps of {@link Primitive#isSwitch() switch primitives} that touch no buffer and may name every
 * rank of the domain as peers ({@link #maxPeers()}). Executors run a switch actor's steps as they run a rank's,
 * without a kernel launch or a thread block; {@link #switchHost} says which host's switch it is.
 *
 * <p>Steps are generated from the algorithm's structure into a caller's reusable cursor; nothing is
 * stored per step, so a plan for 1,024 ranks × 64 channels takes kilobytes
 * ({@link #approxFootprintBytes()}).
 *
 * <p>Flow-control contract: every connection (channel, from, to) has NCCL_STEPS = 8 slots
 * ({@link #geometry()}); a step occupies {@link StepCursor#slots()} consecutive slots of every
 * connection it sends on and frees as many on every connection it receives from. A step may
 * start only when all its receive slots hold data and all its send slots are free. Along every
 * connection the sender's sends and the receiver's receives are listed in the same order with the
 * same element counts.
 *
 * <p>Connection indices: an NCCL channel has two connections per peer and direction (conn 0 and 1); CollNet Direct
 * runs its scatter and head reduction on conn 1 and its broadcast and gather on conn 0, both between the same GPUs.
 * A step names the index of its receive and send connections ({@link StepCursor#recvConn()}, {@link
 * StepCursor#sendConn()}); connections are keyed by {@link #connectionChannel} = channel + conn × nChannels, which is
 * the channel that {@link #forEachConnection} reports.
 */
public final class Plan {
    private final String algorithmName;
    private final CollectiveCall call;
    private final PlanOptions options;
    private final ProtocolGeometry geometry;
    private final Schedule schedule;

    Plan(String algorithmName, CollectiveCall call, PlanOptions options, ProtocolGeometry geometry, Schedule schedule) {
        this.algorithmName = algorithmName;
        this.call = call;
        this.options = options;
        this.geometry = geometry;
        this.schedule = schedule;
    }

    /** The planner's name, e.g. {@code ring-all_reduce}. */
    public String algorithmName() { return algorithmName; }

    public CollectiveCall call() { return call; }

    public PlanOptions options() { return options; }

    /** Slots, slot sizes, chunk and slice steps of this plan's connections. */
    public ProtocolGeometry geometry() { return geometry; }

    public int nRanks() { return call.nRanks(); }

    /** Ranks plus switch actors (see the class comment). */
    public int nActors() { return call.nRanks() + schedule.switchActors(); }

    /** Whether actor {@code actor} is a switch actor (≥ nRanks). */
    public boolean isSwitchActor(int actor) { return actor >= call.nRanks(); }

    /**
     * What switch actor {@code actor} stands for: an NVLink domain's switch ({@link #switchHost}) or a SHARP-capable
     * network switch ({@link #switchRail}).
     *
     * @throws IndexOutOfBoundsException if {@code actor} is not a switch actor of this plan
     */
    public SwitchKind switchKind(int actor) {
        checkSwitch(actor);
        return schedule.switchKind(actor);
    }

    /**
     * For a network switch actor: the local index of the head GPUs whose NICs it aggregates for (one per host, all on
     * that NIC rail); the executor maps it to the SHARP switch of that rail.
     *
     * @throws IndexOutOfBoundsException if {@code actor} is not a switch actor of this plan
     * @throws IllegalStateException     if it is an NVLink domain's switch
     */
    public int switchRail(int actor) {
        if (switchKind(actor) != SwitchKind.NETWORK) {
            throw new IllegalStateException("actor " + actor + " is an NVLink switch, not a network switch");
        }
        return schedule.switchRail(actor);
    }

    /** The key channel of the connections of a step of {@code channel} with connection index {@code conn} (0 or 1). */
    public int connectionChannel(int channel, int conn) { return channel + conn * nChannels(); }

    /** Connection channels: 2 × nChannels where a plan uses connection index 1, else nChannels. */
    public int connectionChannels() { return schedule.usesSecondConnection() ? 2 * nChannels() : nChannels(); }

    /**
     * The communicator host (index in the call's {@link CommLayout}) whose NVLink switch {@code actor} stands for.
     *
     * @throws IndexOutOfBoundsException if {@code actor} is not a switch actor of this plan
     * @throws IllegalStateException     if it is a network switch
     */
    public int switchHost(int actor) {
        if (switchKind(actor) != SwitchKind.NVLINK) {
            throw new IllegalStateException("actor " + actor + " is a network switch, which belongs to no host");
        }
        return schedule.switchHost(actor);
    }

    private void checkSwitch(int actor) {
        if (actor < call.nRanks() || actor >= nActors()) {
            throw new IndexOutOfBoundsException("actor " + actor + " is not a switch actor: those are [" + call.nRanks()
                    + ", " + nActors() + ")");
        }
    }

    /** The most receive or send peers of any step ({@link StepCursor#MAX_PEERS} unless switch actors name more). */
    public int maxPeers() { return schedule.maxPeers(); }

    public int nChannels() { return options.nChannels(); }

    /** Lanes per (rank, channel): 1 or 2 (see the class comment). */
    public int nLanes() { return schedule.nLanes(); }

    /** What {@link #sequenceKey} returns when it knows nothing. */
    public static final long NO_KEY = Long.MIN_VALUE;

    /**
     * A key of (actor, channel, lane)'s step sequence: actors of one channel whose keys are equal in every lane, none
     * {@link #NO_KEY}, have equal step sequences in every lane (primitives, counts, slots, flags, and the order in which
     * they first meet each peer connection, across the lanes in lane order); {@link #NO_KEY} when the plan does not
     * know without reading the steps.
     */
    public long sequenceKey(int actor, int channel, int lane) {
        check(actor, channel, lane);
        return actor < nRanks() ? schedule.sequenceKey(actor, channel, lane) : schedule.switchSequenceKey(actor, channel, lane);
    }

    /**
     * Whether channels r and c have equal step sequences for every actor and lane (primitives, peers, counts, slots,
     * flags; the element offsets may differ), known from the plan's structure without reading steps; false says nothing.
     */
    public boolean sameChannelSteps(int r, int c) {
        check(0, r, 0);
        check(0, c, 0);
        return schedule.sameChannelSteps(r, c);
    }

    /** Number of steps of (actor, channel, lane); actors are ranks, then switch actors. */
    public int stepCount(int rank, int channel, int lane) {
        check(rank, channel, lane);
        return schedule.stepCount(rank, channel, lane);
    }

    /** Fills {@code cursor} with step {@code index} of (actor, channel, lane); allocates nothing once the cursor holds {@link #maxPeers()} peers. */
    public void step(int rank, int channel, int lane, int index, StepCursor cursor) {
        check(rank, channel, lane);
        int sc = schedule.stepCount(rank, channel, lane);
        if (index < 0 || index >= sc) {
            throw new IndexOutOfBoundsException("step " + index + " of rank " + rank + " channel " + channel + " lane " + lane
                    + " out of range [0, " + sc + ")");
        }
        schedule.step(rank, channel, lane, index, cursor);
    }

    /** The steps of (rank, channel, lane) as a flat array, {@link StepCursor#ENCODED_LONGS} longs per step. */
    public long[] encodeSteps(int rank, int channel, int lane) {
        int sc = stepCount(rank, channel, lane);
        long[] out = new long[Math.multiplyExact(sc, StepCursor.ENCODED_LONGS)];
        StepCursor c = new StepCursor();
        for (int i = 0; i < sc; i++) {
            schedule.step(rank, channel, lane, i, c);
            c.encode(out, i * StepCursor.ENCODED_LONGS);
        }
        return out;
    }

    /** Visits every connection (connection channel, from, to) that carries data, once each ({@link #connectionChannel}). */
    public void forEachConnection(ConnectionSink sink) { schedule.connections(sink); }

    /** Number of connections. */
    public long connectionCount() {
        long[] n = {0};
        schedule.connections((c, f, t) -> n[0]++);
        return n[0];
    }

    /** Sum of step counts over all actors, channels and lanes. */
    public long totalSteps() {
        long s = 0;
        for (int r = 0; r < nActors(); r++)
            for (int c = 0; c < nChannels(); c++)
                for (int l = 0; l < nLanes(); l++) s += schedule.stepCount(r, c, l);
        return s;
    }

    /** Approximate retained heap of the plan in bytes (its tables; the call's layout included). */
    public long approxFootprintBytes() {
        return 128 + 16 + 4L * nRanks() + schedule.footprintBytes();
    }

    private void check(int rank, int channel, int lane) {
        if (rank < 0 || rank >= nActors()) throw new IndexOutOfBoundsException("actor " + rank + " not in [0, " + nActors() + ")");
        if (channel < 0 || channel >= nChannels()) {
            throw new IndexOutOfBoundsException("channel " + channel + " not in [0, " + nChannels() + ")");
        }
        if (lane < 0 || lane >= nLanes()) throw new IndexOutOfBoundsException("lane " + lane + " not in [0, " + nLanes() + ")");
    }

    /** {@code NVLSTree/Simple x16}: the algorithm, protocol and channels, as perf's lines name a run. */
    public String label() {
        return options.algorithm().ncclName() + "/" + options.protocol().ncclName() + " x" + nChannels();
    }

    @Override
    public String toString() {
        return "Plan[" + algorithmName + ", " + call.op() + " " + call.count() + " × " + call.dtype() + ", n=" + nRanks()
                + ", " + options.protocol() + ", " + nChannels() + " ch]";
    }
}
