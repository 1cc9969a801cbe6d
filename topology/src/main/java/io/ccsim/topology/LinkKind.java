package io.ccsim.topology;

/** The technology of an edge of the hardware graph. */
public enum LinkKind {
    /** NVLink; {@link Link#lanes()} is the number of bonded NVLinks. */
    NVLINK,
    /** PCIe; {@link Link#lanes()} is the width (x16...) and {@link Link#pcieGen()} the generation. */
    PCIE,
    /** CPU-to-CPU interconnect (UPI/QPI, xGMI). */
    SMP,
    /** InfiniBand cable. */
    INFINIBAND,
    /** RDMA over Converged Ethernet cable. */
    ROCE,
    /** NVLink-C2C between a Grace CPU and a Blackwell/Hopper GPU (used by gb200-nvl72). */
    C2C
}
