package io.ccsim.algorithms;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The collective operations ccsim models, with the names NCCL, nccl-tests and PyTorch use for them.
 *
 * <p>Bus-bandwidth factors are nccl-tests' (doc/PERFORMANCE.md in NVIDIA/nccl-tests):
 * busbw = algbw × factor(n), where algbw = size / time.
 */
public enum CollectiveOp {
    ALL_REDUCE("all_reduce", "AllReduce", "ALLREDUCE"),
    ALL_GATHER("all_gather", "AllGather", "ALLGATHER"),
    REDUCE_SCATTER("reduce_scatter", "ReduceScatter", "REDUCE_SCATTER"),
    BROADCAST("broadcast", "Broadcast", "BROADCAST"),
    REDUCE("reduce", "Reduce", "REDUCE"),
    ALL_TO_ALL("all_to_all", "AllToAll", "ALLTOALL_BASE"),
    SEND_RECV("sendrecv", "SendRecv", "SEND");

    private final String cliName;
    private final String ncclName;
    private final String torchOpType;

    CollectiveOp(String cliName, String ncclName, String torchOpType) {
        this.cliName = cliName;
        this.ncclName = ncclName;
        this.torchOpType = torchOpType;
    }

    /** The name on ccsim's command line and in nccl-tests' binary names ({@code all_reduce_perf}). */
    public String cliName() { return cliName; }

    /** The name NCCL uses in NCCL_ALGO/NCCL_PROTO {@code func:} prefixes and in its logs. */
    public String ncclName() { return ncclName; }

    /** PyTorch's {@code OpType} as printed in WorkNCCL watchdog messages. */
    public String torchOpType() { return torchOpType; }

    /**
     * nccl-tests' bus-bandwidth factor for {@code nRanks} ranks: all-reduce 2(n−1)/n; all-gather,
     * reduce-scatter, all-to-all (n−1)/n; broadcast, reduce, send/recv 1.
     */
    public double busBwFactor(int nRanks) {
        if (nRanks < 1) throw new IllegalArgumentException("nRanks must be >= 1, got " + nRanks);
        switch (this) {
            case ALL_REDUCE: return 2.0 * (nRanks - 1) / nRanks;
            case ALL_GATHER:
            case REDUCE_SCATTER:
            case ALL_TO_ALL: return (double) (nRanks - 1) / nRanks;
            default: return 1.0;
        }
    }

    /** Parses a CLI name ({@code all_reduce}) or NCCL name ({@code AllReduce}), case-insensitively. */
    public static CollectiveOp parse(String s) {
        String t = s.trim();
        for (CollectiveOp op : values()) {
            if (op.cliName.equalsIgnoreCase(t) || op.ncclName.equalsIgnoreCase(t) || op.name().equalsIgnoreCase(t)) {
                return op;
            }
        }
        throw new IllegalArgumentException("unknown collective '" + s + "'; valid: "
                + Arrays.stream(values()).map(CollectiveOp::cliName).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() { return cliName.toLowerCase(Locale.ROOT); }
}
