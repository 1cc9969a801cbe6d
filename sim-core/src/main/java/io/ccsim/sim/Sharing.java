package io.ccsim.sim;

/**
 * How a link's capacity is shared between its two directions and among its flows.
 */
public enum Sharing {
    /** Each direction has the full capacity of its own (NVLink, PCIe, InfiniBand). */
    FULL_DUPLEX,
    /** Both directions share one capacity (a half-duplex bus, a memory controller). */
    SHARED,
    /** No sharing at all: every flow gets the full capacity (an ideal non-blocking crossbar). */
    FAT_PIPE
}
