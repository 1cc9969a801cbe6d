package io.ccsim.scenarios.faults;

/**
 * The running job as faults reach it: its current launch, its ranks' processes, GPUs and memory, and
 * its store. Ranks are global ranks of the job.
 */
public interface FaultTarget {
    /** The current launch (0 = the first; elastic restarts count up). */
    int attempt();

    /** The rank's process dies now; {@code why} goes to its log. */
    void crash(int rank, String why);

    /** The rank's GPU computes {@code factor} (&gt;= 1) times slower from now on. */
    void slowGpu(int rank, double factor);

    /** The rank's GPU stops making progress now. */
    void gpuHang(int rank);

    /** Another process takes {@code bytes} of the rank's GPU memory. */
    void takeMemory(int rank, long bytes);

    /** One bit flips in the rank's GPU memory holding its next checksummed collective's output. */
    void eccFlip(int rank);

    /** An outside writer sets {@code key} (a full store key) to {@code value}. */
    void storeSet(String key, String value);
}
