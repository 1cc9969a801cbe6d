package io.ccsim.algorithms;

/**
 * NCCL's collective algorithms by their NCCL_ALGO names (src/include/device.h NCCL_ALGO_*), in NCCL's order (the
 * tuner's tie order), plus P2P for send/recv and all-to-all; after {@link #P2P} come NCCL's symmetric-memory kernels,
 * which NCCL selects on a path of their own (no NCCL_ALGO name), then PyTorch's symmetric-memory all-reduces. ccsim plans every one of them for the collectives
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
    SYM_RS_LD("ReduceScatter_LD"),
    /** Not an NCCL_ALGO value: NCCL's symmetric kernel AllGather_STMC (one multicast store into every output). */
    SYM_AG_STMC("AllGather_STMC"),
    /** Not an NCCL_ALGO value: NCCL's symmetric kernel ReduceScatter_LDMC (multicast load-reduce of its block). */
    SYM_RS_LDMC("ReduceScatter_LDMC"),
    /** Not an NCCL_ALGO value: NCCL's symmetric kernel AllReduce_AGxLLMC_R (one-shot with one multicast LL store). */
    SYM_AR_ONE_SHOT_MC("AllReduce_AGxLLMC_R"),
    /** Not an NCCL_ALGO value: NCCL's symmetric kernel AllGather_LL (LL stores into every peer, then a local copy). */
    SYM_AG_LL("AllGather_LL"),
    /** Not an NCCL_ALGO value: NCCL's symmetric kernel AllGather_LLMC (AllGather_LL with one multicast LL store). */
    SYM_AG_LLMC("AllGather_LLMC"),
    /** Not an NCCL_ALGO value: NCCL's symmetric kernel ReduceScatter_LL (LL all-to-all, then a local reduction). */
    SYM_RS_LL("ReduceScatter_LL"),
    /**
     * Not an NCCL algorithm: PyTorch's {@code torch.ops.symm_mem.one_shot_all_reduce} (every rank loads every
     * peer's whole symmetric buffer and reduces locally).
     */
    TORCH_ONE_SHOT("torch_one_shot"),
    /**
     * Not an NCCL algorithm: PyTorch's {@code torch.ops.symm_mem.two_shot_all_reduce_} (each rank loads its
     * contiguous slice from every peer, reduces, stores the sum into every peer).
     */
    TORCH_TWO_SHOT("torch_two_shot");

    private final String ncclName;

    Algorithm(String ncclName) { this.ncclName = ncclName; }

    /** NCCL's spelling ({@code Ring}, {@code Tree}, {@code CollnetDirect}...). */
    public String ncclName() { return ncclName; }

    /**
     * Whether this is a symmetric-memory kernel: one of NCCL's (NCCL 2.27+, buffers in symmetric windows, named by
     * its kernel id as NCCL_SYM_KERNEL names it) or one of PyTorch's ({@link #isTorchSymmMem()}). Their plans have
     * one-sided memory steps.
     */
    public boolean isSymmetric() { return ordinal() > P2P.ordinal(); }

    /** Whether this is one of PyTorch's symmetric-memory all-reduces (torch.ops.symm_mem), not an NCCL kernel. */
    public boolean isTorchSymmMem() { return this == TORCH_ONE_SHOT || this == TORCH_TWO_SHOT; }

    @Override
    public String toString() { return ncclName; }
}
