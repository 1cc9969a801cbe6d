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
}
