package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import java.util.Locale;
import java.util.Optional;

/**
 * What PyTorch's symmetric-memory all-reduces ({@link Algorithm#TORCH_ONE_SHOT}, {@link Algorithm#TORCH_TWO_SHOT})
 * accept, how many thread blocks they launch, how two-shot cuts the buffer, and their barriers' fixed cost.
 */
public final class TorchSymmMem {
    /*
     * Source: pytorch/pytorch torch/csrc/distributed/c10d/symm_mem/CUDASymmetricMemoryOps.cu (main-branch blob
     * fd6c4b6a, the revision /work/notes/i29-dataflow.md §8 read) and CUDASymmetricMemory-inl.cuh (blob ae65af8f).
     * - Types: AT_DISPATCH_FLOAT_AND_BFLOAT16 in one_shot_all_reduce_out_impl and two_shot_all_reduce_impl: float
     *   and bfloat16 only; reduce_op "sum" only. Any other type or reduction is a TORCH_CHECK failure.
     * - Alignment: get_and_verify_alignment requires the size in bytes to be a multiple of max(4, element size);
     *   the kernels' vector width is the largest of 16, 8, 4 B dividing it (the buffer itself is 16 B aligned).
     * - Launch: init_elementwise_launch_config(numel, elt, alignment, splits, maxBlocks, maxThreads): numel is
     *   rounded up to alignment × splits elements and divided by splits; blocks = ⌈per-split elements /
     *   (maxThreads × alignment/elt)⌉, at most maxBlocks. One-shot: splits 1, 24 blocks × 512 threads; two-shot:
     *   splits = world size, 24 blocks × 1024 threads.
     * - Two-shot slices: numel_per_rank = roundup(numel, alignment/elt × n) / n; rank r owns the contiguous
     *   [r × numel_per_rank, (r + 1) × numel_per_rank) clipped to numel (the last ranks' slices may be short or
     *   empty).
     * - Barriers: both kernels open with sync_remote_blocks<true, true> and close with sync_remote_blocks<true,
     *   false>: every block's threads t < n put a flag into peer t's signal pad (a release store over NVLink) and
     *   spin on their own pad for peer t's flag. PyTorch publishes no time for it; BARRIER_US is an estimate: one
     *   system-scope NVLink store becoming visible to a spinning reader, about a microsecond on Hopper (uncalibrated).
     * - Several hosts: the CUDA backend maps peers' allocations through cuMem FD exchange and P2P, one node only.
     */

    /** Fixed cost of one sync_remote_blocks barrier, µs: an estimate (see the block comment), uncalibrated. */
    public static final double BARRIER_US = 1.0;
    /** Barriers per call: one before the first peer load, one after the last store or load. */
    public static final int BARRIERS = 2;

    private static final int MAX_BLOCKS = 24;

    private TorchSymmMem() { }

    /** The algorithm for a {@code --symm-mem} value: {@code one_shot} or {@code two_shot}. */
    public static Algorithm parse(String s) {
        String v = s == null ? "" : s.trim().toLowerCase(Locale.ROOT);
        if (v.equals("one_shot")) return Algorithm.TORCH_ONE_SHOT;
        if (v.equals("two_shot")) return Algorithm.TORCH_TWO_SHOT;
        throw new IllegalArgumentException("--symm-mem: invalid '" + s + "'; valid: one_shot, two_shot");
    }

    /** PyTorch's op name for an algorithm ({@code one_shot_all_reduce} or {@code two_shot_all_reduce_}). */
    public static String opName(Algorithm a) {
        return a == Algorithm.TORCH_ONE_SHOT ? "one_shot_all_reduce" : "two_shot_all_reduce_";
    }

    /** Why PyTorch's kernel {@code a} cannot run (op, type, reduction), or empty: sum of float or bfloat16 only. */
    public static Optional<String> refusal(Algorithm a, CollectiveOp op, DataType dtype, ReduceOp redop) {
        if (op != CollectiveOp.ALL_REDUCE) {
            return Optional.of("torch.ops.symm_mem." + opName(a) + " is an all_reduce, not " + op.cliName());
        }
        if (redop == ReduceOp.SUM && (dtype == DataType.FLOAT32 || dtype == DataType.BFLOAT16)) return Optional.empty();
        return Optional.of("torch.ops.symm_mem." + opName(a) + " cannot reduce " + redop.ncclTestsName() + " of "
                + dtype.ncclTestsName() + " (PyTorch dispatches sum of float and bfloat16 only)");
    }

    /** PyTorch's reason why a buffer of {@code count} elements is refused (size alignment), or empty. */
    public static Optional<String> alignmentRefusal(Algorithm a, long count, DataType dtype) {
        long min = Math.max(4, dtype.bytes());
        if ((count * dtype.bytes()) % min == 0) return Optional.empty();
        return Optional.of("torch.ops.symm_mem." + opName(a) + ": input size must be at least " + min
                + "-byte aligned, not " + count * dtype.bytes() + " bytes");
    }

    /** Why a communicator over {@code nHosts} hosts cannot run it, or empty for one host. */
    public static Optional<String> hostRefusal(int nHosts) {
        if (nHosts <= 1) return Optional.empty();
        return Optional.of("PyTorch's CUDA symmetric memory maps peers' buffers over P2P inside one node only, not across "
                + nHosts + " nodes");
    }

    /** Elements per vector access: the largest of 16, 8, 4 B dividing the buffer's size, over the element size. */
    static long alignElems(long count, DataType dtype) {
        long bytes = count * dtype.bytes();
        long align = bytes % 16 == 0 ? 16 : bytes % 8 == 0 ? 8 : 4;
        return Math.max(1, align / dtype.bytes());
    }

    /** Two-shot's slice per rank, elements: roundup(count, alignment × n) / n. */
    static long sliceElems(long count, DataType dtype, int n) {
        long unit = alignElems(count, dtype) * n;
        return Chunking.divUp(count, unit) * unit / n;
    }

    /** Thread blocks PyTorch launches for {@code count} elements on {@code n} ranks (≥ 1, ≤ 24). */
    public static int blocks(Algorithm a, long count, DataType dtype, int n) {
        long perThread = alignElems(count, dtype);
        long perSplit = a == Algorithm.TORCH_ONE_SHOT ? count : sliceElems(count, dtype, n);
        long threads = a == Algorithm.TORCH_ONE_SHOT ? 512 : 1024;
        return (int) Math.max(1, Math.min(MAX_BLOCKS, Chunking.divUp(perSplit, threads * perThread)));
    }
}
