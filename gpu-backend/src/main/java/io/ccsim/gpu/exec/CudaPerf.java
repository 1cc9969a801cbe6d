package io.ccsim.gpu.exec;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.plan.CollectiveCall;
import io.ccsim.algorithms.plan.P2pSettings;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.gpu.cuda.CudaUnavailableException;
import io.ccsim.gpu.cuda.GpuException;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code perf --backend cuda}: times collectives with the project's kernels on real GPUs and reports rows
 * with the fields of the simulated perf. Sizes are nccl-tests' "size" (bytes of the larger of the input
 * and output buffer); {@code count} follows {@link CollectiveCall}. algbw = size / time; busbw = algbw ×
 * nccl-tests' factor ({@link CollectiveOp#busBwFactor}); plans from {@link DevicePlans#forSize}. Calls are timed by
 * default as CUDA-graph replays of back-to-back calls (like nccl-tests' {@code -G}); see {@link #run(CudaExecutor, CollectiveOp, long[], DataType,
 * ReduceOp, int, Algorithm, Protocol, int, boolean, Consumer)}.
 */
public final class CudaPerf {
    private CudaPerf() { }

    /**
     * One measured row.
     *
     * @param op        collective
     * @param bytes     nccl-tests size, bytes
     * @param count     elements per rank as {@link CollectiveCall} defines
     * @param dtype     element type
     * @param redop     reduction
     * @param root      root rank
     * @param algo      algorithm
     * @param proto     protocol
     * @param channels  channels
     * @param timeUs    mean time per call, µs (CUDA events, warm)
     * @param algbwGbps bytes / time in GB/s (1e9 B/s)
     * @param busbwGbps algbw × bus factor
     */
    public record Row(CollectiveOp op, long bytes, long count, DataType dtype, ReduceOp redop, int root, Algorithm algo,
                      Protocol proto, int channels, double timeUs, double algbwGbps, double busbwGbps) { }

    /** Timed calls per size: 50 below 16 MiB, 20 below 256 MiB, 10 from 256 MiB (warm-up: a fifth, at least 2). */
    public static int itersFor(long bytes) {
        if (bytes >= (256L << 20)) return 10;
        if (bytes >= (16L << 20)) return 20;
        return 50;
    }

    /**
     * Measures every size of {@code sizes} (bytes) on {@code gpus}; progress lines go to {@code progress}.
     *
     * @throws CudaUnavailableException with "no CUDA device found: ..." where CUDA or a GPU is missing
     */
    static List<Row> run(CollectiveOp op, long[] sizes, DataType dtype, ReduceOp redop, int root, Algorithm algo,
                         Protocol proto, int channels, int[] gpus, Consumer<String> progress) {
        try (CudaExecutor ex = CudaExecutor.open(gpus)) {
            return run(ex, op, sizes, dtype, redop, root, algo, proto, channels, progress);
        }
    }

    /**
     * Measures every size of {@code sizes} (nccl-tests sizes, bytes) on {@code ex}'s GPUs, CUDA-graph timed; one
     * progress line per size goes to {@code progress} (may be null).
     *
     * @throws GpuException if a driver call fails or a kernel runs past the executor's hang timeout
     */
    public static List<Row> run(CudaExecutor ex, CollectiveOp op, long[] sizes, DataType dtype, ReduceOp redop, int root,
                                Algorithm algo, Protocol proto, int channels, Consumer<String> progress) {
        return run(ex, op, sizes, dtype, redop, root, algo, proto, channels, true, progress);
    }

    /**
     * As above; {@code graphs} selects CUDA-graph replay of the timed calls (the default: the per-call time
     * of the kernels) or eager launches (the host's launch cost included, as an eager NCCL call through PyTorch
     * pays it).
     */
    public static List<Row> run(CudaExecutor ex, CollectiveOp op, long[] sizes, DataType dtype, ReduceOp redop, int root,
                                Algorithm algo, Protocol proto, int channels, boolean graphs, Consumer<String> progress) {
        return run(ex, op, sizes, dtype, redop, root, algo, proto, channels, null, graphs, progress);
    }

    /**
     * As above, an all-to-all placed with point-to-point settings {@code p2p} as NCCL places it (null: striped over
     * every channel; see {@link DevicePlans#forSize(CollectiveOp, long, DataType, ReduceOp, int, Algorithm, Protocol,
     * int, int, P2pSettings)}).
     */
    public static List<Row> run(CudaExecutor ex, CollectiveOp op, long[] sizes, DataType dtype, ReduceOp redop, int root,
                                Algorithm algo, Protocol proto, int channels, P2pSettings p2p, boolean graphs,
                                Consumer<String> progress) {
        List<Row> rows = new ArrayList<>();
        int n = ex.nRanks();
        for (long bytes : sizes) {
            Plan plan = DevicePlans.forSize(op, bytes, dtype, redop, root, algo, proto, channels, n, p2p);
            long size = plan.call().sizeBytes();
            double us;
            try (PreparedProgram p = ex.prepare(plan)) {
                p.fillInputs(0x3F800000);   // 1.0f: never time on zeros
                int iters = itersFor(size);
                us = graphs ? p.timeGraphUs(Math.max(2, iters / 5), iters) : p.timeUs(Math.max(2, iters / 5), iters);
            }
            double algbw = size / (us * 1e-6) / 1e9;
            Row row = new Row(op, size, plan.call().count(), dtype, redop, root, algo, proto, channels, us, algbw,
                    algbw * op.busBwFactor(n));
            rows.add(row);
            if (progress != null) {
                progress.accept(String.format(java.util.Locale.ROOT, "%-14s %-6s %-6s ch=%-2d n=%d %12d B %10.2f us %8.2f GB/s busbw%s%s",
                        op.cliName(), algo.ncclName(), proto.ncclName(), channels, n, size, us, row.busbwGbps(), graphs ? "" : " eager",
                        p2p != null && op == CollectiveOp.ALL_TO_ALL ? " placed" : ""));
            }
        }
        return rows;
    }
}
