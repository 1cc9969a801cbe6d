package io.ccsim.algorithms.plan;

/** What a plan's switch actor stands for ({@link Plan#switchKind}). */
public enum SwitchKind {
    /** The NVSwitch of one host's NVLink domain, reducing and multicasting with NVLink SHARP (NVLS). */
    NVLINK,
    /**
     * A SHARP-capable InfiniBand switch that reduces one slice from every host's head GPU of one NIC rail and returns
     * the result to each of them (CollNet, IB SHARP).
     */
    NETWORK
}
