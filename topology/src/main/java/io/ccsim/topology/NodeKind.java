package io.ccsim.topology;

/** The kind of a vertex of the hardware graph. */
public enum NodeKind {
    /** A GPU; ranks are assigned to GPUs in the order of {@link Topology#gpus()}. */
    GPU,
    /** An NVSwitch chip. */
    NVSWITCH,
    /** A PCIe switch (or a PCIe host bridge/root port seen as one). */
    PCIE_SWITCH,
    /** A CPU socket / NUMA node. */
    CPU,
    /** A network adapter (HCA). */
    NIC,
    /** A network switch (InfiniBand or Ethernet leaf/spine). */
    NET_SWITCH
}
