package io.ccsim.scenarios.incident;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import java.util.Locale;
import java.util.Optional;

/**
 * PyTorch's names as the flight recorder writes them, in ccsim's terms. {@code profiling_name} is
 * {@code <backend>:<c10d op>} (ProcessGroupNCCL.cpp: the profilingTitle of each collective, {@code nccl:all_reduce},
 * {@code nccl:_all_gather_base}, {@code nccl:reduce_scatter_tensor_coalesced}); dtypes are c10's ScalarType names
 * ({@code Float}, {@code BFloat16}, {@code Half}).
 */
final class TorchNames {
    private TorchNames() {}

    /** The c10d op of a profiling name: {@code nccl:_all_gather_base} gives {@code _all_gather_base}. */
    static String c10dOp(String profilingName) {
        int i = profilingName.indexOf(':');
        return i < 0 ? profilingName : profilingName.substring(i + 1);
    }

    /** PyTorch's OpType as WorkNCCL prints it: {@code ALLREDUCE}, {@code _ALLGATHER_BASE}, {@code BROADCAST}. */
    static String opType(String profilingName) {
        return c10dOp(profilingName).toUpperCase(Locale.ROOT).replace("ALL_REDUCE", "ALLREDUCE").replace("ALL_GATHER", "ALLGATHER")
                .replace("ALL_TO_ALL", "ALLTOALL");
    }

    /** The collective of a profiling name, or empty for one ccsim does not simulate (send, recv, barrier, gather). */
    static Optional<CollectiveOp> collective(String profilingName) {
        String op = c10dOp(profilingName).toLowerCase(Locale.ROOT);
        if (op.contains("all_reduce") || op.contains("allreduce")) return Optional.of(CollectiveOp.ALL_REDUCE);
        if (op.contains("all_gather") || op.contains("allgather")) return Optional.of(CollectiveOp.ALL_GATHER);
        if (op.contains("reduce_scatter")) return Optional.of(CollectiveOp.REDUCE_SCATTER);
        if (op.contains("broadcast")) return Optional.of(CollectiveOp.BROADCAST);
        if (op.contains("all_to_all") || op.contains("alltoall")) return Optional.of(CollectiveOp.ALL_TO_ALL);
        if (op.equals("reduce") || op.startsWith("_reduce")) return Optional.of(CollectiveOp.REDUCE);
        return Optional.empty();
    }

    /** The element type of a c10 ScalarType name, or empty if ccsim has none. */
    static Optional<DataType> dtype(String scalarType) {
        switch (scalarType) {
            case "Float": return Optional.of(DataType.FLOAT32);
            case "BFloat16": return Optional.of(DataType.BFLOAT16);
            case "Half": return Optional.of(DataType.FLOAT16);
            case "Double": return Optional.of(DataType.FLOAT64);
            case "Int": return Optional.of(DataType.INT32);
            case "Long": return Optional.of(DataType.INT64);
            case "Char": return Optional.of(DataType.INT8);
            case "Byte": return Optional.of(DataType.UINT8);
            case "Float8_e4m3fn": return Optional.of(DataType.FP8_E4M3);
            case "Float8_e5m2": return Optional.of(DataType.FP8_E5M2);
            default: return Optional.empty();
        }
    }

    /** The dtype as the analyzer words it ({@code float32}); the ScalarType name where ccsim has no such type. */
    static String dtypeName(String scalarType) {
        return dtype(scalarType).map(DataType::longName).orElse(scalarType);
    }
}
