package io.ccsim.algorithms;

/**
 * NCCL's collective algorithms by their NCCL_ALGO names (src/include/device.h NCCL_ALGO_*), in NCCL's order (the
 * tuner's tie order), plus P2P for send/recv and all-to-all; after {@link #P2P} come NCCL's symmetric-memory kernels,
 * which NCCL selects on a path of their own (no NCCL_ALGO name). ccsim plans every one of them for the collectives
 * NCCL 2.28.9 builds it for (plan.Planners); what a collective lacks is reported as unsupported.
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
    P2P("P2P"),
    /** Not an NCCL_ALGO value: NCCL's symmetric kernel AllReduce_AGxLL_R (one-shot: LL broadcast, local reduce). */
    SYM_AR_ONE_SHOT("AllReduce_AGxLL_R"),
    /** Not an NCCL_ALGO value: NCCL's symmetric kernel AllReduce_RSxLD_AGxST (two-shot: load-reduce, store). */
    SYM_AR_TWO_SHOT("AllReduce_RSxLD_AGxST"),
    /** Not an NCCL_ALGO value: NCCL's symmetric kernel AllReduce_RSxLDMC_AGxSTMC (multimem load-reduce and store). */
    SYM_AR_MULTIMEM("AllReduce_RSxLDMC_AGxSTMC"),
    /** Not an NCCL_ALGO value: NCCL's symmetric kernel AllGather_ST (stores into every peer's output). */
    SYM_AG_ST("AllGather_ST"),
    /** Not an NCCL_ALGO value: NCCL's symmetric kernel ReduceScatter_LD (loads from every peer, reduces). */
    SYM_RS_LD("ReduceScatter_LD");

    private final String ncclName;

    Algorithm(String ncclName) { this.ncclName = ncclName; }

    /** NCCL's spelling ({@code Ring}, {@code Tree}, {@code CollnetDirect}...). */
    public String ncclName() { return ncclName; }

    /**
     * Whether this is one of NCCL's symmetric-memory kernels (NCCL 2.27+, buffers in symmetric windows), named by
     * its kernel id as NCCL_SYM_KERNEL names it.
     */
    public boolean isSymmetric() { return ordinal() > P2P.ordinal(); }

    @Override
    public String toString() { return ncclName; }
}
