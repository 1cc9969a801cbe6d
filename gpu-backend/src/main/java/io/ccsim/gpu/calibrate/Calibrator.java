package io.ccsim.gpu.calibrate;

import com.google.gson.GsonBuilder;
import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.FitInfo;
import io.ccsim.algorithms.profile.LinkClass;
import io.ccsim.algorithms.profile.ProtocolCosts;
import io.ccsim.algorithms.profile.SimCosts;
import io.ccsim.algorithms.profile.SimProtocolCosts;
import io.ccsim.gpu.cuda.Cuda;
import io.ccsim.gpu.cuda.CudaUnavailableException;
import io.ccsim.gpu.exec.CudaExecutor;
import io.ccsim.gpu.exec.CudaPerf;
import io.ccsim.gpu.exec.DevicePlans;
import io.ccsim.gpu.exec.PreparedProgram;
import io.ccsim.gpu.kernel.DeviceProgram;
import org.apache.commons.math3.stat.regression.OLSMultipleLinearRegression;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code ccsim calibrate}: microbenchmarks with the project's own kernels, least-squares fits
 * (commons-math3 OLS), and a {@link CalibrationProfile} the simulator reads.
 *
 * <p>Measurements (CUDA-event timed over CUDA-graph replays of back-to-back calls, warm, inputs never zero;
 * the host's eager launch cost, about 12 µs per JCuda launch, would otherwise swamp every small size):
 * <ol>
 *   <li>kernel launch: a one-step, 16-byte program on one GPU;</li>
 *   <li>per protocol, point-to-point on one channel (sendrecv, 2 GPUs), sizes 4 KiB..(LL 4 MiB, LL128 16 MiB,
 *       Simple 64 MiB): fit {@code t = a + bytes / bw} → hop latency and per-channel throughput (reported in
 *       wire bytes: data / protocol efficiency);</li>
 *   <li>per protocol, the same transfer with the smallest legal buffer vs the default: the extra time per
 *       extra step is the step overhead;</li>
 *   <li>per protocol and algorithm (ring, tree), all-reduce of small sizes on 2 and on all GPUs: fit
 *       {@code t = base + hops × hop} with hops = 2(n − 1) → base and per-hop latency;</li>
 *   <li>link efficiency: the best of sendrecv on 2 GPUs with 16, 32 and 64 channels at 256 MiB, over the raw
 *       NVLink bandwidth of a Hopper GPU (18 NVLink4 links × 25 GB/s per direction = 450 GB/s);</li>
 *   <li>one CTA's local reduce (out = in + out) and copy throughput on one GPU, 256 MiB.</li>
 * </ol>
 * Fields not measured (PCIe and network hop latencies, tuner constants) keep the built-in h200 values.
 */
public final class Calibrator {
    /** Raw NVLink bandwidth per direction of an H100/H200: 18 links × 25 GB/s (NVIDIA H100/H200 datasheets). */
    static final double NVLINK_RAW_GBPS = 450.0;

    private Calibrator() { }

    /**
     * Runs the microbenchmarks on {@code gpus} (at least 2), writes the fitted profile to {@code out} and the raw
     * measurements next to it ({@code <out>.measurements.json}); progress lines go to {@code progress}.
     *
     * @return the fitted profile
     * @throws CudaUnavailableException "no CUDA device found: ..." where CUDA or a GPU is missing
     */
    public static CalibrationProfile run(int[] gpus, Path out, Consumer<String> progress) throws IOException {
        Cuda.requireDevices(gpus);
        if (gpus.length < 2) throw new IllegalArgumentException("calibration needs at least 2 GPUs, got " + Arrays.toString(gpus));
        Consumer<String> say = progress == null ? s -> { } : progress;
        Map<String, Object> raw = new LinkedHashMap<>();
        Map<String, Double> residuals = new LinkedHashMap<>();
        CalibrationProfile base = CalibrationProfile.builtin("h200");

        double launchUs;
        double reduceGbps;
        double copyGbps;
        try (CudaExecutor one = CudaExecutor.open(gpus[0])) {
            launchUs = launch(one, say, raw);
            raw.put("kernel_launch_us", launchUs);
            long bytes = 256L << 20;
            reduceGbps = local(one, bytes, true, say);
            copyGbps = local(one, bytes, false, say);
            raw.put("reduce_cta_gbps", reduceGbps);
            raw.put("copy_cta_gbps", copyGbps);
        }

        // measured values go to the simulator's own section; NCCL's constants (protocols, tree, tuner)
        // stay the base profile's so that the Tuner keeps choosing as NCCL does
        SimCosts sim = base.sim();
        double linkEff;
        int[] pair = {gpus[0], gpus[1]};
        try (CudaExecutor two = CudaExecutor.open(pair); CudaExecutor all = CudaExecutor.open(gpus)) {
            // the timing's own cost first: every time below is a graph replay, whose later GPUs start their calls a
            // host graph launch after the earlier ones; the fits take it out (SimCosts: graph_launch_us)
            double[] gl = graphLaunch(all, say, raw);
            sim = sim.withGraphLaunch(gl[0], gl[1]);
            final SimCosts timing = sim;
            for (Protocol p : Protocol.values()) {
                say.accept("calibrate: " + p + " point-to-point, 1 channel");
                long max = p == Protocol.SIMPLE ? 64L << 20 : p == Protocol.LL128 ? 16L << 20 : 4L << 20;
                List<double[]> pts = new ArrayList<>();
                for (long b = 4096; b <= max; b *= 4) {
                    double us = kernelTime(two, DevicePlans.forSize(CollectiveOp.SEND_RECV, b, DataType.FLOAT32, ReduceOp.SUM, 0,
                            Algorithm.P2P, p, 1, 2), timing);
                    pts.add(new double[] {b, us});
                    say.accept(String.format(Locale.ROOT, "  %-6s p2p %10d B %10.2f us", p, b, us));
                }
                double[] ab = fitLine(pts);
                double p2pInterceptUs = ab[0];
                double dataGbps = 1e-3 / ab[1];
                double wireGbps = dataGbps / p.dataEfficiency();
                residuals.put("p2p_" + p.ncclName() + "_median_rel_err", medianRelErr(pts, ab));
                raw.put("p2p_" + p.ncclName(), pts);

                say.accept("calibrate: " + p + " step overhead (small vs default buffer)");
                long sz = p == Protocol.LL ? 1L << 20 : 4L << 20;
                Plan dflt = DevicePlans.forSize(CollectiveOp.SEND_RECV, sz, DataType.FLOAT32, ReduceOp.SUM, 0, Algorithm.P2P, p, 1, 2);
                Plan small = io.ccsim.algorithms.plan.Planners.standard().plan(dflt.call(),
                        io.ccsim.algorithms.plan.PlanOptions.of(Algorithm.P2P, p, 1).withBufferBytes(DevicePlans.smallBuffer(p)));
                double tD = time(two, dflt), tS = time(two, small);
                long stepsD = dflt.stepCount(0, 0, 0) + dflt.stepCount(0, 0, dflt.nLanes() - 1);
                long stepsS = small.stepCount(0, 0, 0) + small.stepCount(0, 0, small.nLanes() - 1);
                double stepNs = Math.max(0, (tS - tD) / Math.max(1, stepsS - stepsD) * 1000.0);
                raw.put("step_overhead_" + p.ncclName(), Map.of("default_us", tD, "small_us", tS, "steps_default", stepsD,
                        "steps_small", stepsS));
                say.accept(String.format(Locale.ROOT, "  %-6s %d steps %.2f us vs %d steps %.2f us: %.1f ns/step", p, stepsD, tD,
                        stepsS, tS, stepNs));

                double[] ring = hopFit(two, all, Algorithm.RING, p, say, raw, residuals, timing);
                double[] tree = hopFit(two, all, Algorithm.TREE, p, say, raw, residuals, timing);
                double ringBase = Math.max(launchUs, ring[0]);
                double treeBase = Math.max(launchUs, tree[0]);
                SimProtocolCosts br = base.sim().get(SimCosts.Family.RING, p);
                Map<LinkClass, Double> hop = new EnumMap<>(br.hopLatencyUs());
                hop.put(LinkClass.NVLINK, Math.max(0.05, ring[1]));
                sim = sim.with(SimCosts.Family.RING, p, new SimProtocolCosts(ringBase, stepNs, hop, wireGbps, br.pipelineBytes()));
                SimProtocolCosts bt = base.sim().get(SimCosts.Family.TREE, p);
                Map<LinkClass, Double> thop = new EnumMap<>(bt.hopLatencyUs());
                thop.put(LinkClass.NVLINK, Math.max(0.05, tree[1]));
                sim = sim.with(SimCosts.Family.TREE, p, bt.withLatencies(treeBase, thop));
                SimProtocolCosts bq = base.sim().get(SimCosts.Family.P2P, p);
                sim = sim.with(SimCosts.Family.P2P, p, new SimProtocolCosts(Math.max(launchUs, p2pInterceptUs), stepNs,
                        bq.hopLatencyUs(), wireGbps, bq.pipelineBytes()));
                say.accept(String.format(Locale.ROOT, "calibrate: %-6s p2p intercept %.2f us, channel %.1f GB/s wire, step %.0f ns,"
                        + " ring base %.2f hop %.2f us, tree base %.2f hop %.2f us", p, p2pInterceptUs, wireGbps, stepNs, ringBase, ring[1],
                        treeBase, tree[1]));
            }
            say.accept("calibrate: NVLink efficiency (sendrecv, 2 GPUs, 256 MiB, 16/32/64 channels: best)");
            double gbps = 0;
            for (int ch : new int[] {16, 32, 64}) {
                double us = time(two, DevicePlans.forSize(CollectiveOp.SEND_RECV, 256L << 20, DataType.FLOAT32, ReduceOp.SUM, 0,
                        Algorithm.P2P, Protocol.SIMPLE, ch, 2));
                double g = (256L << 20) / (us * 1e-6) / 1e9;
                raw.put("p2p_" + ch + "ch_256MiB_gbps", g);
                say.accept(String.format(Locale.ROOT, "  %2d channels: %.1f GB/s per direction", ch, g));
                gbps = Math.max(gbps, g);
            }
            linkEff = Math.min(1.0, gbps / NVLINK_RAW_GBPS);
            say.accept(String.format(Locale.ROOT, "  best %.1f GB/s per direction = %.3f of %.0f GB/s", gbps, linkEff, NVLINK_RAW_GBPS));
        }

        Map<LinkClass, Double> eff = new EnumMap<>(base.linkEfficiency());
        eff.put(LinkClass.NVLINK, linkEff);
        String gpu = Cuda.deviceName(gpus[0]).replace("NVIDIA ", "").trim();
        FitInfo fit = new FitInfo("ccsim calibrate on " + gpus.length + " x " + Cuda.deviceName(gpus[0])
                + " with ccsim's own kernels (io.ccsim.gpu.calibrate.Calibrator); PCIe/net hop latencies and tuner constants from"
                + " the built-in h200 profile", LocalDate.now(ZoneOffset.UTC).toString(), residuals);
        // kernel_launch_us is bounded by NCCL's base latencies (it is part of them); the measured launch is
        // in every sim launch latency
        double launchBound = Math.min(launchUs, base.protocols().values().stream().mapToDouble(ProtocolCosts::baseLatencyUs).min().orElse(launchUs));
        CalibrationProfile prof = new CalibrationProfile(gpu.isEmpty() ? "GPU" : gpu, base.computeCapability(), launchBound,
                base.protocols(), base.treeLatencies(), reduceGbps, copyGbps, eff, base.tuner(), sim, java.util.Optional.of(fit));
        prof.write(out);
        Path rawFile = out.resolveSibling(out.getFileName() + ".measurements.json");
        writeJson(rawFile, raw);
        say.accept("calibrate: wrote " + out + " and " + rawFile);
        return prof;
    }

    /** Mean µs per call of {@code plan} on {@code ex}, inputs 1.0f. */
    static double time(CudaExecutor ex, Plan plan) {
        try (PreparedProgram p = ex.prepare(plan)) {
            p.fillInputs(0x3F800000);
            int iters = CudaPerf.itersFor(plan.call().sizeBytes());
            return p.timeGraphUs(Math.max(2, iters / 5), iters);
        }
    }

    /** {@link #time} less what the graph timing adds on {@code ex}'s GPUs ({@link SimCosts#graphTimingSkewUs}), µs. */
    static double kernelTime(CudaExecutor ex, Plan plan, SimCosts timing) {
        int iters = CudaPerf.itersFor(plan.call().sizeBytes());
        return time(ex, plan) - timing.graphTimingSkewUs(ex.nRanks(), iters);
    }

    /** Graph replays of 10, 50 and 200 calls whose host launch loop is timed, 2 of each. */
    static final int[] LAUNCH_ITERS = {10, 50, 200};

    /**
     * The host's cost of launching one GPU's CUDA graph of k captured calls, {a, b} in a + b·k µs (least squares,
     * relative): a 64 KiB send/recv on all GPUs, its launch loop timed ({@code PreparedProgram.lastGraphLaunchHostUs}) and
     * divided by the GPUs. Measured on 4 × H200: 10.3 + 1.29·k (gpu-backend/results/h200x4-skew).
     */
    static double[] graphLaunch(CudaExecutor all, Consumer<String> say, Map<String, Object> raw) {
        int n = all.nRanks();
        List<double[]> pts = new ArrayList<>();
        try (PreparedProgram p = all.prepare(DevicePlans.forSize(CollectiveOp.SEND_RECV, 64L << 10, DataType.FLOAT32, ReduceOp.SUM, 0,
                Algorithm.P2P, Protocol.SIMPLE, 1, n))) {
            p.fillInputs(0x3F800000);
            for (int iters : LAUNCH_ITERS) {
                for (int rep = 0; rep < 2; rep++) {
                    p.timeGraphUs(2, iters);
                    pts.add(new double[] {iters, p.lastGraphLaunchHostUs() / n});
                }
            }
        }
        double[] ab = fitLine(pts);
        double a = Math.max(0, ab[0]), b = Math.max(0, ab[1]);
        raw.put("graph_launch_per_gpu_us", pts);
        say.accept(String.format(Locale.ROOT, "calibrate: a CUDA graph launch costs the host %.2f us + %.3f us per captured call (per GPU, %d GPUs)",
                a, b, n));
        return new double[] {a, b};
    }

    /** Fits t = base + hops × hop over small all-reduces on 2 and on all GPUs (hops = 2(n − 1)), graph timing taken out. */
    private static double[] hopFit(CudaExecutor two, CudaExecutor all, Algorithm a, Protocol p, Consumer<String> say,
                                   Map<String, Object> raw, Map<String, Double> residuals, SimCosts timing) {
        List<double[]> pts = new ArrayList<>();
        for (CudaExecutor ex : new CudaExecutor[] {two, all}) {
            int n = ex.nRanks();
            for (long b : new long[] {1024, 4096, 16384}) {
                double us = kernelTime(ex, DevicePlans.forSize(CollectiveOp.ALL_REDUCE, b, DataType.FLOAT32, ReduceOp.SUM, 0, a, p, 1, n), timing);
                pts.add(new double[] {2.0 * (n - 1), us, b});
                say.accept(String.format(Locale.ROOT, "  %-6s %-4s all_reduce n=%d %6d B %8.2f us", p, a.ncclName(), n, b, us));
            }
        }
        raw.put("latency_" + a.ncclName() + "_" + p.ncclName(), pts);
        if (two.nRanks() == all.nRanks()) {
            double mean = pts.stream().mapToDouble(x -> x[1]).average().orElse(0);
            return new double[] {mean, 0};
        }
        double[] ab = fitLine(pts);
        residuals.put("latency_" + a.ncclName() + "_" + p.ncclName() + "_median_rel_err", medianRelErr(pts, ab));
        return ab;
    }

    /**
     * Least squares t = a + b·x over points {x, t, ...} minimising <em>relative</em> residuals (each equation
     * divided by its t: the small sizes, microseconds, weigh as much as the large ones, milliseconds);
     * returns {a, b}.
     */
    static double[] fitLine(List<double[]> pts) {
        if (pts.size() < 2) throw new IllegalArgumentException("a line fit needs at least 2 points, got " + pts.size());
        OLSMultipleLinearRegression ols = new OLSMultipleLinearRegression();
        ols.setNoIntercept(true);
        double[] y = new double[pts.size()];
        double[][] x = new double[pts.size()][2];
        for (int i = 0; i < y.length; i++) {
            double t = pts.get(i)[1];
            if (!(t > 0)) throw new IllegalArgumentException("measured time must be > 0, got " + t + " at x=" + pts.get(i)[0]);
            x[i][0] = 1.0 / t;
            x[i][1] = pts.get(i)[0] / t;
            y[i] = 1.0;
        }
        ols.newSampleData(y, x);
        return ols.estimateRegressionParameters();
    }

    /** Median over points of |a + b·x − t| / t. */
    static double medianRelErr(List<double[]> pts, double[] ab) {
        double[] e = new double[pts.size()];
        for (int i = 0; i < e.length; i++) {
            double[] p = pts.get(i);
            e[i] = Math.abs(ab[0] + ab[1] * p[0] - p[1]) / p[1];
        }
        Arrays.sort(e);
        return e.length % 2 == 1 ? e[e.length / 2] : (e[e.length / 2 - 1] + e[e.length / 2]) / 2;
    }

    /**
     * Per-call cost of a 16-byte one-step program on one GPU, replayed back to back from a CUDA graph (as all
     * timings here): the launch gap plus an empty kernel. Median of 5 graphs of 200. The eager per-launch
     * cost (JCuda, host-bound) is reported as progress only.
     */
    private static double launch(CudaExecutor one, Consumer<String> say, Map<String, Object> raw) {
        DeviceProgram prog = DeviceProgram.localStep(16, false);
        try (PreparedProgram p = one.prepare(prog)) {
            p.fillInputs(0x3F800000);
            double[] t = new double[5];
            for (int i = 0; i < t.length; i++) t[i] = p.timeGraphUs(i == 0 ? 20 : 0, 200);
            Arrays.sort(t);
            double us = t[t.length / 2];
            double eager = p.timeUs(20, 200);
            raw.put("eager_launch_us", eager);
            say.accept(String.format(Locale.ROOT, "calibrate: kernel launch %.2f us per call in a graph, %.2f us eager (host-bound)",
                    us, eager));
            return us;
        }
    }

    /** One CTA's local reduce (out = in + out) or copy over {@code bytes}; GB/s of input consumed. */
    private static double local(CudaExecutor one, long bytes, boolean reduce, Consumer<String> say) {
        DeviceProgram prog = DeviceProgram.localStep(bytes, reduce);
        try (PreparedProgram p = one.prepare(prog)) {
            p.fillInputs(0x3F800000);
            double us = p.timeGraphUs(2, 5);
            double gbps = (reduce ? 2.0 : 1.0) * bytes / (us * 1e-6) / 1e9;
            say.accept(String.format(Locale.ROOT, "calibrate: one CTA %s %d B: %.1f us = %.1f GB/s of input", reduce ? "reduce" : "copy",
                    bytes, us, gbps));
            return gbps;
        }
    }

    static void writeJson(Path file, Object o) throws IOException {
        Files.writeString(file, new GsonBuilder().setPrettyPrinting().serializeSpecialFloatingPointValues().create().toJson(o),
                StandardCharsets.UTF_8);
    }
}
