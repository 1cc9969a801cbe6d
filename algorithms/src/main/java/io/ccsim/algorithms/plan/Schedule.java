package io.ccsim.algorithms.plan;

/**
 * The compact, generative form of a plan's steps, implemented by each algorithm. Steps are never
 * stored per rank; they are computed from the algorithm's structure on demand.
 */
interface Schedule {
    /** Concurrent step lists per (rank, channel): 1, or 2 where NCCL splits the threads (tree, p2p). */
    int nLanes();

    int stepCount(int rank, int channel, int lane);

    void step(int rank, int channel, int lane, int index, StepCursor c);

    void connections(ConnectionSink sink);

    /** Approximate retained heap bytes of the schedule's own tables. */
    long footprintBytes();

    /** Switch actors after the ranks (actor ids nRanks .. nRanks + this − 1); 0 for plans without in-network work. */
    default int switchActors() { return 0; }

    /** The communicator host (NVLink domain) whose switch, NVLink switch actor {@code actor} stands for. */
    default int switchHost(int actor) { throw new IndexOutOfBoundsException("no switch actor " + actor); }

    /** What switch actor {@code actor} stands for. */
    default SwitchKind switchKind(int actor) { return SwitchKind.NVLINK; }

    /** For a network switch actor: the local index (NIC rail) of the heads it aggregates for. */
    default int switchRail(int actor) { throw new IndexOutOfBoundsException("no network switch actor " + actor); }

    /** Whether some step uses connection index 1 ({@link Plan#connectionChannel}). */
    default boolean usesSecondConnection() { return false; }

    /** The most receive or send peers of any step. */
    default int maxPeers() { return StepCursor.MAX_PEERS; }

    /**
     * A key for (rank, channel, lane)'s step sequence: two ranks of one channel whose keys are equal in every lane, none
     * {@link Plan#NO_KEY}, have equal sequences in every lane (primitives, counts, slots, flags, and the order in which
     * they meet their peers, across the lanes in lane order); {@link Plan#NO_KEY} says nothing (read the steps). Lets
     * the simulator find equivalent ranks without reading every step of every rank.
     */
    default long sequenceKey(int rank, int channel, int lane) { return Plan.NO_KEY; }

    /**
     * {@link #sequenceKey} for switch actor {@code actor} (a switch actor's key never equals a rank's unless their
     * sequences are equal); {@link Plan#NO_KEY} says nothing.
     */
    default long switchSequenceKey(int actor, int channel, int lane) { return Plan.NO_KEY; }

    /**
     * Whether channels r and c have equal step sequences for every actor and lane (primitives, peers, counts, slots,
     * flags; not the element offsets), known from the schedule's structure without reading the steps; false says
     * nothing.
     */
    default boolean sameChannelSteps(int r, int c) { return false; }
}
