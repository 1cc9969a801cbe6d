package io.ccsim.gpu;

import com.google.gson.GsonBuilder;
import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.Planners;
import io.ccsim.gpu.calibrate.Calibrator;
import io.ccsim.gpu.cuda.Cuda;
import io.ccsim.gpu.exec.CudaCheck;
import io.ccsim.gpu.exec.CudaExecutor;
import io.ccsim.gpu.exec.CudaPerf;
import io.ccsim.gpu.exec.DevicePlans;
import io.ccsim.gpu.exec.PreparedProgram;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The GPU validation runs as one program (what the bundle runs on the device host):
 * <ul>
 *   <li>{@code probe OUTDIR}: devices, a few correctness checks at n = 2 and 4, one timing;</li>
 *   <li>{@code matrix OUTDIR}: the correctness matrix (every op and algorithm, dtypes × reductions, n = 2 and
 *       the largest power of two ≤ GPUs, every protocol) against the CPU executor;</li>
 *   <li>{@code timing OUTDIR}: ring (Simple, LL, LL128) and tree all-reduce, 1 KiB .. 512 MiB, on all GPUs;</li>
 *   <li>{@code calibrate OUTDIR}: {@link Calibrator#run};</li>
 *   <li>{@code fidelity OUTDIR}: the simulator-fidelity sweep of {@link FidelitySchedule} (every op, algorithm and
 *       protocol, 4 KiB .. 512 MiB, 3 trials; an all-reduce channel sweep), rows with a {@code "trial"} field,
 *       timing.json rewritten after every group so that an interrupted run keeps what it measured;</li>
 *   <li>{@code full OUTDIR}: matrix, timing and calibrate.</li>
 * </ul>
 * Results are small JSON files in OUTDIR. Exit status 2 without CUDA ("no CUDA device found: ...").
 */
public final class DeviceRunner {
    /** Hang timeout of these runs, ms: every run here takes well under a second per call. */
    static final long HANG_MS = 30_000;

    private DeviceRunner() { }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: DeviceRunner probe|matrix|timing|fidelity|skew|calibrate|full OUTDIR");
            System.exit(64);
        }
        String why = Cuda.unavailableReason();
        if (why != null) {
            System.err.println(why);
            System.exit(2);
        }
        Path out = Files.createDirectories(Path.of(args[1]));
        int nGpu = Cuda.deviceCount();
        int[] all = new int[nGpu];
        for (int i = 0; i < nGpu; i++) all[i] = i;
        log("devices: " + nGpu + " x " + Cuda.deviceName(0));
        switch (args[0]) {
            case "probe": probe(out, all); break;
            case "matrix": matrix(out, all); break;
            case "timing": timing(out, all); break;
            case "fidelity": fidelity(out, all); break;
            case "skew": skew(out, all); break;
            case "calibrate": Calibrator.run(all, out.resolve("profile.json"), DeviceRunner::log); break;
            case "full":
                matrix(out, all);
                timing(out, all);
                Calibrator.run(all, out.resolve("profile.json"), DeviceRunner::log);
                break;
            default:
                System.err.println("unknown mode '" + args[0] + "'; valid: probe, matrix, timing, fidelity, skew, calibrate, full");
                System.exit(64);
        }
    }

    static void log(String s) {
        System.out.println(s);
        System.out.flush();
    }

    static void writeJson(Path file, Object o) throws IOException {
        Files.writeString(file, new GsonBuilder().setPrettyPrinting().serializeSpecialFloatingPointValues().create().toJson(o),
                StandardCharsets.UTF_8);
    }

    static void probe(Path out, int[] all) throws IOException {
        List<Map<String, Object>> res = new ArrayList<>();
        int[] ns = all.length >= 4 ? new int[] {2, 4} : new int[] {Math.min(2, all.length)};
        for (int n : ns) {
            int[] g = java.util.Arrays.copyOf(all, n);
            try (CudaExecutor ex = CudaExecutor.open(g, HANG_MS)) {
                for (Protocol p : Protocol.values()) {
                    for (Algorithm a : new Algorithm[] {Algorithm.RING, Algorithm.TREE}) {
                        for (boolean small : new boolean[] {true, false}) {
                            Plan plan = DevicePlans.forCount(CollectiveOp.ALL_REDUCE, 10_007, DataType.FLOAT32, ReduceOp.SUM, 0, a, p, 2, n, small);
                            long t0 = System.nanoTime();
                            CudaCheck.Result r = CudaCheck.check(ex, plan, 42 + n);
                            res.add(row(r, n, small, (System.nanoTime() - t0) / 1e6));
                            log(String.format(Locale.ROOT, "check n=%d %-40s small=%-5s %s %s", n, plan, small, r.ok() ? "OK" : "MISMATCH",
                                    r.firstMismatch()));
                        }
                    }
                }
                if (n == all.length) {
                    for (int ch : new int[] {8, 16, 32}) {
                        CudaPerf.run(ex, CollectiveOp.ALL_REDUCE, new long[] {64L << 20}, DataType.FLOAT32, ReduceOp.SUM, 0,
                                Algorithm.RING, Protocol.SIMPLE, ch, DeviceRunner::log);
                    }
                }
            }
        }
        writeJson(out.resolve("probe.json"), res);
    }

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

    static final DataType[] MATRIX_TYPES = {DataType.FLOAT32, DataType.FLOAT16, DataType.BFLOAT16, DataType.FLOAT64,
        DataType.INT32, DataType.INT64, DataType.UINT8, DataType.FP8_E4M3};

    static void matrix(Path out, int[] all) throws IOException {
        List<Map<String, Object>> res = new ArrayList<>();
        int pass = 0, fail = 0;
        int big = Integer.highestOneBit(all.length);
        int[] ns = big > 2 ? new int[] {2, big} : new int[] {big};
        long seed = 1;
        for (int n : ns) {
            try (CudaExecutor ex = CudaExecutor.open(java.util.Arrays.copyOf(all, n), HANG_MS)) {
                for (CollectiveOp op : CollectiveOp.values()) {
                    for (Algorithm a : Planners.standard().supported(op)) {
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
                                        log("MISMATCH n=" + n + " " + plan + " " + red + ": " + r.firstMismatch());
                                    }
                                }
                            }
                        }
                    }
                }
                log("matrix n=" + n + ": " + pass + " pass, " + fail + " fail so far");
            }
        }
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("pass", pass);
        summary.put("fail", fail);
        summary.put("checks", res);
        writeJson(out.resolve("matrix.json"), summary);
        log("matrix: " + pass + " pass, " + fail + " fail");
    }

    static boolean isReduction(CollectiveOp op) {
        return op == CollectiveOp.ALL_REDUCE || op == CollectiveOp.REDUCE_SCATTER || op == CollectiveOp.REDUCE;
    }

    static void timing(Path out, int[] all) throws IOException {
        List<Map<String, Object>> rows = new ArrayList<>();
        long[] sizes = new long[20];
        for (int i = 0; i < sizes.length; i++) sizes[i] = 1024L << i;   // 1 KiB .. 512 MiB
        long big = 512L << 20;
        int bestCh = 32;
        try (CudaExecutor ex = CudaExecutor.open(all, HANG_MS)) {
            double bestBw = 0;
            for (int ch : new int[] {24, 32, 40, 48, 64}) {
                CudaPerf.Row r = CudaPerf.run(ex, CollectiveOp.ALL_REDUCE, new long[] {big}, DataType.FLOAT32,
                        ReduceOp.SUM, 0, Algorithm.RING, Protocol.SIMPLE, ch, DeviceRunner::log).get(0);
                add(rows, r, all.length, true, "channel_sweep");
                if (r.busbwGbps() > bestBw) { bestBw = r.busbwGbps(); bestCh = ch; }
            }
            log("best ring Simple channel count at 512 MiB: " + bestCh + " (" + bestBw + " GB/s busbw)");
            for (CudaPerf.Row r : CudaPerf.run(ex, CollectiveOp.ALL_REDUCE, new long[] {1L << 20, 16L << 20, 128L << 20, big},
                    DataType.FLOAT32, ReduceOp.SUM, 0, Algorithm.RING, Protocol.SIMPLE, bestCh, false, DeviceRunner::log)) {
                add(rows, r, all.length, false, "eager");
            }
            for (Algorithm a : new Algorithm[] {Algorithm.RING, Algorithm.TREE}) {
                for (Protocol p : Protocol.values()) {
                    for (CudaPerf.Row r : CudaPerf.run(ex, CollectiveOp.ALL_REDUCE, sizes, DataType.FLOAT32, ReduceOp.SUM, 0,
                            a, p, bestCh, DeviceRunner::log)) {
                        add(rows, r, all.length, true, "all_reduce_sweep");
                    }
                }
            }
        }
        // every op, algorithm and protocol on 2 and on all GPUs, for simulator fidelity checks
        long[] few = {4096, 65536, 1L << 20, 16L << 20, 128L << 20};
        int bigN = Integer.highestOneBit(all.length);
        for (int n : bigN > 2 ? new int[] {2, bigN} : new int[] {bigN}) {
            try (CudaExecutor ex = CudaExecutor.open(java.util.Arrays.copyOf(all, n), HANG_MS)) {
                for (CollectiveOp op : CollectiveOp.values()) {
                    for (Algorithm a : Planners.standard().supported(op)) {
                        for (Protocol p : Protocol.values()) {
                            for (CudaPerf.Row r : CudaPerf.run(ex, op, few, DataType.FLOAT32, ReduceOp.SUM, 0, a, p, 16,
                                    DeviceRunner::log)) {
                                add(rows, r, n, true, "ops_sweep");
                            }
                        }
                    }
                }
            }
        }
        writeJson(out.resolve("timing.json"), rows);
    }

    /**
     * The fidelity sweep ({@link FidelitySchedule#forHost}), graph-timed through {@link CudaPerf} as {@code ops_sweep}
     * is; one executor per rank count. Progress lines carry the elapsed wall time and rows done of the total.
     */
    static void fidelity(Path out, int[] all) throws IOException {
        List<FidelitySchedule.Item> items = FidelitySchedule.forHost(all.length);
        int total = FidelitySchedule.rows(items);
        log("fidelity: " + items.size() + " groups, " + total + " timed sizes on n = "
                + java.util.Arrays.toString(FidelitySchedule.ranks(all.length)));
        List<Map<String, Object>> rows = new ArrayList<>();
        long t0 = System.nanoTime();
        Path file = out.resolve("timing.json");
        int i = 0;
        while (i < items.size()) {
            int n = items.get(i).n();
            try (CudaExecutor ex = CudaExecutor.open(java.util.Arrays.copyOf(all, n), HANG_MS)) {
                for (; i < items.size() && items.get(i).n() == n; i++) {
                    FidelitySchedule.Item it = items.get(i);
                    long g0 = System.nanoTime();
                    for (CudaPerf.Row r : CudaPerf.run(ex, it.op(), it.sizes(), DataType.FLOAT32, ReduceOp.SUM, 0, it.algo(),
                            it.proto(), it.channels(), true, DeviceRunner::log)) {
                        add(rows, r, n, true, it.set(), it.trial());
                    }
                    writeJson(file, rows);
                    log(String.format(Locale.ROOT, "[%6.1f s] %d/%d %s: %.2f s", (System.nanoTime() - t0) / 1e9, rows.size(), total,
                            it, (System.nanoTime() - g0) / 1e9));
                }
            }
        }
        log(String.format(Locale.ROOT, "fidelity: %d rows in %.1f s", rows.size(), (System.nanoTime() - t0) / 1e9));
    }

    /** Iteration counts of {@link #skew}: the graphs captured per timing. */
    static final int[] SKEW_ITERS = {5, 10, 20, 50, 100, 200};

    /**
     * Where does a call at n = 4 get its extra 2-4 µs over n = 2 (gpu-backend/results/h200x4-fidelity: send/recv,
     * whose per-rank work does not depend on n, included)? Times a few calls (16 channels, 64 KiB and 4 MiB) as
     * graph replays of 5 .. 200 captured calls, 3 trials, with the host time of the graph launch loop: a host launch
     * skew makes the per-call extra fall with the captured calls as (n − 1) × launch(iters) / iters, a cost on the
     * GPUs keeps it flat. Writes skew.json.
     */
    static void skew(Path out, int[] all) throws IOException {
        record Case(CollectiveOp op, Algorithm algo, Protocol proto) {}
        Case[] cases = {
                new Case(CollectiveOp.SEND_RECV, Algorithm.P2P, Protocol.SIMPLE), new Case(CollectiveOp.SEND_RECV, Algorithm.P2P, Protocol.LL),
                new Case(CollectiveOp.BROADCAST, Algorithm.RING, Protocol.SIMPLE), new Case(CollectiveOp.ALL_REDUCE, Algorithm.RING, Protocol.LL)};
        List<Map<String, Object>> rows = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int n : FidelitySchedule.ranks(all.length)) {
            try (CudaExecutor ex = CudaExecutor.open(java.util.Arrays.copyOf(all, n), HANG_MS)) {
                for (Case c : cases) {
                    CollectiveOp op = c.op();
                    for (long bytes : new long[] {64L << 10, 4L << 20}) {
                        Plan plan = DevicePlans.forSize(op, bytes, DataType.FLOAT32, ReduceOp.SUM, 0, c.algo(), c.proto(), 16, n);
                        try (PreparedProgram p = ex.prepare(plan)) {
                            p.fillInputs(0x3F800000);
                            for (int trial = 1; trial <= 3; trial++) {
                                for (int iters : SKEW_ITERS) {
                                    double us = p.timeGraphUs(5, iters);
                                    Map<String, Object> m = new LinkedHashMap<>();
                                    m.put("n", n);
                                    m.put("op", op.cliName());
                                    m.put("algo", c.algo().ncclName());
                                    m.put("proto", c.proto().ncclName());
                                    m.put("channels", 16);
                                    m.put("bytes", plan.call().sizeBytes());
                                    m.put("trial", trial);
                                    m.put("iters", iters);
                                    m.put("time_us", Math.round(us * 1000) / 1000.0);
                                    m.put("launch_host_us", Math.round(p.lastGraphLaunchHostUs() * 1000) / 1000.0);
                                    rows.add(m);
                                    log(String.format(Locale.ROOT, "skew n=%d %-9s %-6s %-6s %8d B trial %d iters %3d: %8.2f us/call, graph launches %8.1f us",
                                            n, op.cliName(), c.algo(), c.proto(), plan.call().sizeBytes(), trial, iters, us, p.lastGraphLaunchHostUs()));
                                }
                            }
                        }
                    }
                }
            }
            writeJson(out.resolve("skew.json"), rows);
        }
        log(String.format(Locale.ROOT, "skew: %d rows in %.1f s", rows.size(), (System.nanoTime() - t0) / 1e9));
    }

    private static void add(List<Map<String, Object>> rows, CudaPerf.Row r, int n, boolean graph, String set) {
        add(rows, r, n, graph, set, 0);
    }

    /** One row of timing.json; {@code trial} ≥ 1 adds a {@code "trial"} field (0: none, the older sets). */
    private static void add(List<Map<String, Object>> rows, CudaPerf.Row r, int n, boolean graph, String set, int trial) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("set", set);
        if (trial > 0) m.put("trial", trial);
        m.put("op", r.op().cliName());
        m.put("bytes", r.bytes());
        m.put("count", r.count());
        m.put("dtype", r.dtype().ncclTestsName());
        m.put("redop", r.redop().ncclTestsName());
        m.put("root", r.root());
        m.put("algo", r.algo().ncclName());
        m.put("proto", r.proto().ncclName());
        m.put("channels", r.channels());
        m.put("n", n);
        m.put("graph", graph);
        m.put("time_us", Math.round(r.timeUs() * 1000) / 1000.0);
        m.put("algbw_gbps", Math.round(r.algbwGbps() * 1000) / 1000.0);
        m.put("busbw_gbps", Math.round(r.busbwGbps() * 1000) / 1000.0);
        rows.add(m);
    }
}
