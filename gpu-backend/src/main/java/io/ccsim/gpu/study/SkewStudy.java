package io.ccsim.gpu.study;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.gpu.exec.CudaExecutor;
import io.ccsim.gpu.exec.DevicePlans;
import io.ccsim.gpu.exec.PreparedProgram;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@link DeviceStudies#skew}: how the graph timing's per-call time depends on the number of captured calls.
 * Times send/recv (Simple, LL), ring broadcast (Simple) and ring all-reduce (LL) at 16 channels, 64 KiB and 4 MiB,
 * as graph replays of each of {@link #SKEW_ITERS} captured calls, 3 trials, on n = 2 and the largest power of two
 * ≤ the GPUs, with the host time of the graph launch loop. Writes skew.json (rewritten after each rank count).
 */
final class SkewStudy {
    /*
     * Why: a call on more GPUs may cost more per call either on the GPUs or in the timing itself. The ranks' graphs
     * are launched one after the other by one host thread, so the last rank starts its calls a host graph launch
     * after the first rank's start event; that skew, launch(iters), is paid once per replay of iters calls. A host
     * launch skew thus makes the per-call extra fall with the captured calls as (n − 1) × launch(iters) / iters,
     * while a cost on the GPUs keeps it flat. Send/recv is included because its per-rank work does not depend on n.
     */

    /** Iteration counts: the calls captured per graph. */
    static final int[] SKEW_ITERS = {5, 10, 20, 50, 100, 200};

    private record Case(CollectiveOp op, Algorithm algo, Protocol proto) { }

    private static final Case[] CASES = {
        new Case(CollectiveOp.SEND_RECV, Algorithm.P2P, Protocol.SIMPLE), new Case(CollectiveOp.SEND_RECV, Algorithm.P2P, Protocol.LL),
        new Case(CollectiveOp.BROADCAST, Algorithm.RING, Protocol.SIMPLE), new Case(CollectiveOp.ALL_REDUCE, Algorithm.RING, Protocol.LL)};

    private SkewStudy() { }

    static void skew(Path out, int[] all, Consumer<String> log) throws IOException {
        List<Map<String, Object>> rows = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int n : FidelitySchedule.ranks(all.length)) {
            try (CudaExecutor ex = CudaExecutor.open(Arrays.copyOf(all, n), DeviceStudies.HANG_MS)) {
                for (Case c : CASES) {
                    for (long bytes : new long[] {64L << 10, 4L << 20}) {
                        Plan plan = DevicePlans.forSize(c.op(), bytes, DataType.FLOAT32, ReduceOp.SUM, 0, c.algo(), c.proto(), 16, n);
                        try (PreparedProgram p = ex.prepare(plan)) {
                            p.fillInputs(0x3F800000);
                            trials(p, plan, c, n, rows, log);
                        }
                    }
                }
            }
            ResultFiles.writeJson(out.resolve("skew.json"), rows);
        }
        log.accept(String.format(Locale.ROOT, "skew: %d rows in %.1f s", rows.size(), (System.nanoTime() - t0) / 1e9));
    }

    /** 3 trials of every {@link #SKEW_ITERS} count on one prepared call, a row and a progress line each. */
    private static void trials(PreparedProgram p, Plan plan, Case c, int n, List<Map<String, Object>> rows, Consumer<String> log) {
        CollectiveOp op = c.op();
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
                log.accept(String.format(Locale.ROOT, "skew n=%d %-9s %-6s %-6s %8d B trial %d iters %3d: %8.2f us/call, graph launches %8.1f us",
                        n, op.cliName(), c.algo(), c.proto(), plan.call().sizeBytes(), trial, iters, us, p.lastGraphLaunchHostUs()));
            }
        }
    }
}
