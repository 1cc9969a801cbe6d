package io.ccsim.algorithms;

/**
 * NCCL's collective algorithms by their NCCL_ALGO names (src/include/device.h NCCL_ALGO_*), in NCCL's order (the
 * tuner's tie order), plus P2P for send/recv and all-to-all. ccsim plans every one of them for the collectives NCCL
 * 2.28.9 builds it for (plan.Planners); what a collective lacks is reported as unsupported.
 */
public enum Algorithm {
    TREE("Tree"),
    RING("Ring"),
    COLLNET_DIRECT("CollnetDirect"),
    COLLNET_CHAIN("CollnetChain"),
    NVLS("NVLS"),
    NVLS_TREE("NVLSTree"),
    PAT("PAT"),
    /** Not an NCCL_ALGO value: point-to-point transfers (send/recv, all-to-all). */
    P2P("P2P");

    private final String ncclName;

    Algorithm(String ncclName) { this.ncclName = ncclName; }

    /** NCCL's spelling ({@code Ring}, {@code Tree}, {@code CollnetDirect}...). */
    public String ncclName() { return ncclName; }

    @Override
    public String toString() { return ncclName; }
}
