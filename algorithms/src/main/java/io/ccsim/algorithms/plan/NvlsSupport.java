package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;

import java.util.Optional;

/**
 * Which calls NCCL can run with NVLS (NVLink SHARP), by collective, reduction and element type.
 *
 * <p>NVIDIA/nccl v2.28.9 {@code src/include/device.h ncclNvlsSupported} (the kernels generate.py builds):
 * the switch reduces ({@code multimem.ld_reduce}) sum, min and max of 32- and 64-bit integers, half and
 * bfloat16, and only sum of float and double; no 8-bit types, no product, no average (NCCL's PreMulSum and
 * SumPostDiv). All-gather only copies, so every type goes (src/enqueue.cc getAlgoInfo: nvlsSupport is
 * {@code ncclNvlsSupported(op, type) || func == AllGather}). NVLS implements all-reduce, all-gather and
 * reduce-scatter (tuning.cc: other collectives get no NVLS entry).
 */
public final class NvlsSupport {
    private NvlsSupport() { }

    /** Why NCCL would not run {@code op} of {@code dtype} with {@code redop} as NVLS, or empty if it would. */
    public static Optional<String> refusal(CollectiveOp op, DataType dtype, ReduceOp redop) {
        switch (op) {
            case ALL_GATHER: return Optional.empty();
            case ALL_REDUCE: case REDUCE_SCATTER: break;
            default: return Optional.of("NVLS implements all_reduce, all_gather and reduce_scatter only, not "
                    + op.cliName());
        }
        boolean minMax = redop == ReduceOp.MIN || redop == ReduceOp.MAX;
        switch (dtype) {
            case INT32: case UINT32: case INT64: case UINT64: case FLOAT16: case BFLOAT16:
                if (redop == ReduceOp.SUM || minMax) return Optional.empty();
                break;
            case FLOAT32: case FLOAT64:
                if (redop == ReduceOp.SUM) return Optional.empty();
                break;
            default:
                break;
        }
        return Optional.of("NVLS cannot reduce " + redop.ncclTestsName() + " of " + dtype.ncclTestsName()
                + " (the switch reduces sum, min and max of int32, uint32, int64, uint64, half and bfloat16, and only"
                + " sum of float and double; NCCL 2.28 ncclNvlsSupported)");
    }
}
