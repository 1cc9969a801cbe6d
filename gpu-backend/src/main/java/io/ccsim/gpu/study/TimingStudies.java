package io.ccsim.gpu.study;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.plan.Planners;
import io.ccsim.gpu.exec.CudaExecutor;
import io.ccsim.gpu.exec.CudaPerf;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The timing studies, every call float32 sum root 0 timed through {@link CudaPerf}: {@link DeviceStudies#timing}
 * and {@link DeviceStudies#fidelity}. Both write {@code timing.json} rows ({@link TimingRows}).
 */
final class TimingStudies {
    private TimingStudies() { }

    /**
     * On all GPUs: ring Simple all-reduce at 512 MiB over 24..64 channels ({@code channel_sweep}), at the best of
     * them 1, 16, 128 and 512 MiB launched eagerly ({@code eager}) and ring and tree × every protocol 1 KiB..512 MiB
     * by 2× ({@code all_reduce_sweep}); then on 2 and on the largest power of two ≤ the GPUs every op, algorithm and
     * protocol at 16 channels, 4 KiB, 64 KiB, 1, 16 and 128 MiB ({@code ops_sweep}). Writes timing.json at the end.
     */
    static void timing(Path out, int[] all, Consumer<String> log) throws IOException {
        List<Map<String, Object>> rows = new ArrayList<>();
        long[] sizes = new long[20];
        for (int i = 0; i < sizes.length; i++) sizes[i] = 1024L << i;   // 1 KiB .. 512 MiB
        long big = 512L << 20;
        int bestCh = 32;
        try (CudaExecutor ex = CudaExecutor.open(all, DeviceStudies.HANG_MS)) {
            double bestBw = 0;
            for (int ch : new int[] {24, 32, 40, 48, 64}) {
                CudaPerf.Row r = CudaPerf.run(ex, CollectiveOp.ALL_REDUCE, new long[] {big}, DataType.FLOAT32,
                        ReduceOp.SUM, 0, Algorithm.RING, Protocol.SIMPLE, ch, log).get(0);
                TimingRows.add(rows, r, all.length, true, "channel_sweep");
                if (r.busbwGbps() > bestBw) { bestBw = r.busbwGbps(); bestCh = ch; }
            }
            log.accept("best ring Simple channel count at 512 MiB: " + bestCh + " (" + bestBw + " GB/s busbw)");
            for (CudaPerf.Row r : CudaPerf.run(ex, CollectiveOp.ALL_REDUCE, new long[] {1L << 20, 16L << 20, 128L << 20, big},
                    DataType.FLOAT32, ReduceOp.SUM, 0, Algorithm.RING, Protocol.SIMPLE, bestCh, false, log)) {
                TimingRows.add(rows, r, all.length, false, "eager");
            }
            for (Algorithm a : new Algorithm[] {Algorithm.RING, Algorithm.TREE}) {
                for (Protocol p : Protocol.values()) {
                    for (CudaPerf.Row r : CudaPerf.run(ex, CollectiveOp.ALL_REDUCE, sizes, DataType.FLOAT32, ReduceOp.SUM, 0,
                            a, p, bestCh, log)) {
                        TimingRows.add(rows, r, all.length, true, "all_reduce_sweep");
                    }
                }
            }
        }
        opsSweep(rows, all, log);
        ResultFiles.writeJson(out.resolve("timing.json"), rows);
    }

    /** Every op, algorithm and protocol on 2 and on all GPUs, for simulator fidelity checks ({@code ops_sweep}). */
    private static void opsSweep(List<Map<String, Object>> rows, int[] all, Consumer<String> log) {
        long[] few = {4096, 65536, 1L << 20, 16L << 20, 128L << 20};
        int bigN = Integer.highestOneBit(all.length);
        for (int n : bigN > 2 ? new int[] {2, bigN} : new int[] {bigN}) {
            try (CudaExecutor ex = CudaExecutor.open(Arrays.copyOf(all, n), DeviceStudies.HANG_MS)) {
                for (CollectiveOp op : CollectiveOp.values()) {
                    for (Algorithm a : Planners.standard().supportedOnKernels(op)) {
                        for (Protocol p : Protocol.values()) {
                            for (CudaPerf.Row r : CudaPerf.run(ex, op, few, DataType.FLOAT32, ReduceOp.SUM, 0, a, p, 16, log)) {
                                TimingRows.add(rows, r, n, true, "ops_sweep");
                            }
                        }
                    }
                }
            }
        }
    }

    /**
     * The fidelity sweep ({@link FidelitySchedule#forHost}), graph-timed as {@code ops_sweep} is; one executor per
     * rank count. timing.json is rewritten after every group, so that an interrupted run keeps what it measured;
     * progress lines carry the elapsed wall time and rows done of the total.
     */
    static void fidelity(Path out, int[] all, Consumer<String> log) throws IOException {
        List<FidelitySchedule.Item> items = FidelitySchedule.forHost(all.length);
        int total = FidelitySchedule.rows(items);
        log.accept("fidelity: " + items.size() + " groups, " + total + " timed sizes on n = "
                + Arrays.toString(FidelitySchedule.ranks(all.length)));
        List<Map<String, Object>> rows = new ArrayList<>();
        long t0 = System.nanoTime();
        Path file = out.resolve("timing.json");
        int i = 0;
        while (i < items.size()) {
            int n = items.get(i).n();
            try (CudaExecutor ex = CudaExecutor.open(Arrays.copyOf(all, n), DeviceStudies.HANG_MS)) {
                for (; i < items.size() && items.get(i).n() == n; i++) {
                    FidelitySchedule.Item it = items.get(i);
                    long g0 = System.nanoTime();
                    for (CudaPerf.Row r : CudaPerf.run(ex, it.op(), it.sizes(), DataType.FLOAT32, ReduceOp.SUM, 0, it.algo(),
                            it.proto(), it.channels(), true, log)) {
                        TimingRows.add(rows, r, n, true, it.set(), it.trial());
                    }
                    ResultFiles.writeJson(file, rows);
                    log.accept(String.format(Locale.ROOT, "[%6.1f s] %d/%d %s: %.2f s", (System.nanoTime() - t0) / 1e9, rows.size(), total,
                            it, (System.nanoTime() - g0) / 1e9));
                }
            }
        }
        log.accept(String.format(Locale.ROOT, "fidelity: %d rows in %.1f s", rows.size(), (System.nanoTime() - t0) / 1e9));
    }
}
