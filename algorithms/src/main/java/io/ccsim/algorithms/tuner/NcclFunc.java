package io.ccsim.algorithms.tuner;

import io.ccsim.algorithms.CollectiveOp;

import java.util.Optional;

/**
 * NCCL's tuned collective functions in NCCL's order (src/init.cc {@code ncclFuncStr}: Broadcast, Reduce,
 * AllGather, ReduceScatter, AllReduce). These are the valid {@code func:} prefixes of NCCL_ALGO and
 * NCCL_PROTO. Send/recv and all-to-all are not among them: NCCL's tuner does not select their algorithm.
 */
enum NcclFunc {
    BROADCAST("Broadcast", CollectiveOp.BROADCAST),
    REDUCE("Reduce", CollectiveOp.REDUCE),
    ALL_GATHER("AllGather", CollectiveOp.ALL_GATHER),
    REDUCE_SCATTER("ReduceScatter", CollectiveOp.REDUCE_SCATTER),
    ALL_REDUCE("AllReduce", CollectiveOp.ALL_REDUCE);

    private final String ncclName;
    private final CollectiveOp op;

    NcclFunc(String ncclName, CollectiveOp op) {
        this.ncclName = ncclName;
        this.op = op;
    }

    /** NCCL's spelling, as accepted (case-insensitively) in a {@code func:} prefix. */
    public String ncclName() { return ncclName; }

    /** The collective this function is. */
    public CollectiveOp op() { return op; }

    /** The NCCL function of {@code op}, or empty for send/recv and all-to-all (not tuned by NCCL). */
    public static Optional<NcclFunc> of(CollectiveOp op) {
        for (NcclFunc f : values()) if (f.op == op) return Optional.of(f);
        return Optional.empty();
    }

    @Override
    public String toString() { return ncclName; }
}
