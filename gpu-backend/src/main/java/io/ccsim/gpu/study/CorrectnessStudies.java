package io.ccsim.gpu.study;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.Planners;
import io.ccsim.gpu.exec.CudaCheck;
import io.ccsim.gpu.exec.CudaExecutor;
import io.ccsim.gpu.exec.CudaPerf;
import io.ccsim.gpu.exec.DevicePlans;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/** The GPU-against-CPU studies: {@link DeviceStudies#probe} and {@link DeviceStudies#matrix}. */
final class CorrectnessStudies {
    /** The element types of the matrix: every width, float and integer, and one FP8. */
    static final DataType[] MATRIX_TYPES = {DataType.FLOAT32, DataType.FLOAT16, DataType.BFLOAT16, DataType.FLOAT64,
        DataType.INT32, DataType.INT64, DataType.UINT8, DataType.FP8_E4M3};

    private CorrectnessStudies() { }

    /**
     * Ring and tree all-reduce of 10,007 floats, every protocol, small and default buffers, 2 channels, at n = 2
     * and 4 (n = 2 only below 4 GPUs); on all GPUs also ring Simple 64 MiB at 8, 16 and 32 channels (progress
     * only). Writes probe.json.
     */
    static void probe(Path out, int[] all, Consumer<String> log) throws IOException {
        List<Map<String, Object>> res = new ArrayList<>();
        int[] ns = all.length >= 4 ? new int[] {2, 4} : new int[] {Math.min(2, all.length)};
        for (int n : ns) {
            int[] g = Arrays.copyOf(all, n);
            try (CudaExecutor ex = CudaExecutor.open(g, DeviceStudies.HANG_MS)) {
                for (Protocol p : Protocol.values()) {
                    for (Algorithm a : new Algorithm[] {Algorithm.RING, Algorithm.TREE}) {
                        for (boolean small : new boolean[] {true, false}) {
                            Plan plan = DevicePlans.forCount(CollectiveOp.ALL_REDUCE, 10_007, DataType.FLOAT32, ReduceOp.SUM, 0, a, p, 2, n, small);
                            long t0 = System.nanoTime();
                            CudaCheck.Result r = CudaCheck.check(ex, plan, 42 + n);
                            res.add(row(r, n, small, (System.nanoTime() - t0) / 1e6));
                            log.accept(String.format(Locale.ROOT, "check n=%d %-40s small=%-5s %s %s", n, plan, small, r.ok() ? "OK" : "MISMATCH",
                                    r.firstMismatch()));
                        }
                    }
                }
                if (n == all.length) {
                    for (int ch : new int[] {8, 16, 32}) {
                        CudaPerf.run(ex, CollectiveOp.ALL_REDUCE, new long[] {64L << 20}, DataType.FLOAT32, ReduceOp.SUM, 0,
                                Algorithm.RING, Protocol.SIMPLE, ch, log);
                    }
                }
            }
        }
        ResultFiles.writeJson(out.resolve("probe.json"), res);
    }

    /** One check's row: plan, n, buffers, outcome, and the wall time of the check in ms (1 decimal). */
    static Map<String, Object> row(CudaCheck.Result r, int n, boolean small, double ms) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("plan", r.plan());
        m.put("n", n);
        m.put("small_buffers", small);
        m.put("ok", r.ok());
        m.put("mismatches", r.mismatches());
        m.put("elements", r.elements());
        if (!r.ok()) m.put("first_mismatch", r.firstMismatch());
        m.put("wall_ms", Math.round(ms * 10) / 10.0);
        return m;
    }

    /**
     * Every op, algorithm and protocol × {@link #MATRIX_TYPES} × every reduction (sum only for ops without one), small
     * buffers, 2 channels, root n − 1, 5,003 elements (1,001 for all-to-all), at n = 2 and the largest power of two ≤
     * the GPUs; a mismatch is a progress line, not an error. Writes matrix.json: pass, fail and every check's row.
     */
    static void matrix(Path out, int[] all, Consumer<String> log) throws IOException {
        List<Map<String, Object>> res = new ArrayList<>();
        int pass = 0, fail = 0;
        int big = Integer.highestOneBit(all.length);
        int[] ns = big > 2 ? new int[] {2, big} : new int[] {big};
        long seed = 1;
        for (int n : ns) {
            try (CudaExecutor ex = CudaExecutor.open(Arrays.copyOf(all, n), DeviceStudies.HANG_MS)) {
                for (CollectiveOp op : CollectiveOp.values()) {
                    for (Algorithm a : Planners.standard().supportedOnKernels(op)) {
                        for (Protocol p : Protocol.values()) {
                            for (DataType t : MATRIX_TYPES) {
                                ReduceOp[] reds = isReduction(op) ? ReduceOp.values() : new ReduceOp[] {ReduceOp.SUM};
                                for (ReduceOp red : reds) {
                                    long count = op == CollectiveOp.ALL_TO_ALL ? 1_001 : 5_003;
                                    int root = n - 1;
                                    Plan plan = DevicePlans.forCount(op, count, t, red, root, a, p, 2, n, true);
                                    long t0 = System.nanoTime();
                                    CudaCheck.Result r = CudaCheck.check(ex, plan, seed++);
                                    res.add(row(r, n, true, (System.nanoTime() - t0) / 1e6));
                                    if (r.ok()) pass++; else {
                                        fail++;
                                        log.accept("MISMATCH n=" + n + " " + plan + " " + red + ": " + r.firstMismatch());
                                    }
                                }
                            }
                        }
                    }
                }
                log.accept("matrix n=" + n + ": " + pass + " pass, " + fail + " fail so far");
            }
        }
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("pass", pass);
        summary.put("fail", fail);
        summary.put("checks", res);
        ResultFiles.writeJson(out.resolve("matrix.json"), summary);
        log.accept("matrix: " + pass + " pass, " + fail + " fail");
    }

    static boolean isReduction(CollectiveOp op) {
        return op == CollectiveOp.ALL_REDUCE || op == CollectiveOp.REDUCE_SCATTER || op == CollectiveOp.REDUCE;
    }
}
