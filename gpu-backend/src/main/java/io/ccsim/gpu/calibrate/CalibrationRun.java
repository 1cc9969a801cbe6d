package io.ccsim.gpu.calibrate;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.PlanOptions;
import io.ccsim.algorithms.plan.Planners;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.FitInfo;
import io.ccsim.algorithms.profile.LinkClass;
import io.ccsim.algorithms.profile.ProtocolCosts;
import io.ccsim.algorithms.profile.SimCosts;
import io.ccsim.algorithms.profile.SimProtocolCosts;
import io.ccsim.gpu.cuda.Cuda;
import io.ccsim.gpu.exec.CudaExecutor;
import io.ccsim.gpu.exec.CudaPerf;
import io.ccsim.gpu.exec.DevicePlans;
import io.ccsim.gpu.exec.PreparedProgram;
import io.ccsim.gpu.kernel.DeviceProgram;

import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One calibration, step by step in the order {@link Calibrator} documents: the single-GPU launch and local
 * throughput, the host's graph-launch cost, per protocol the point-to-point line, the step overhead and the ring
 * and tree hop fits, then the NVLink efficiency; then the profile. Single use.
 */
final class CalibrationRun {
    /** Graph replays of 10, 50 and 200 calls whose host launch loop is timed, 2 of each. */
    static final int[] LAUNCH_ITERS = {10, 50, 200};

    private final Consumer<String> say;
    private final CalibrationRecord m = new CalibrationRecord();
    private final CalibrationProfile base = CalibrationProfile.builtin("h200");
    private double launchUs;
    private double reduceGbps;
    private double copyGbps;
    /** The base profile's sim section with the measured graph launch: what the graph timing adds to each time. */
    private SimCosts timing;

    CalibrationRun(Consumer<String> say) {
        this.say = say;
    }

    /** Measures on {@code gpus} (at least 2, checked by the caller), writes the profile to {@code out}. */
    CalibrationProfile run(int[] gpus, Path out) throws IOException {
        try (CudaExecutor one = CudaExecutor.open(gpus[0])) {
            singleGpu(one);
        }
        // measured values go to the simulator's own section; NCCL's constants (protocols, tree, tuner)
        // stay the base profile's so that the Tuner keeps choosing as NCCL does
        SimCosts sim = base.sim();
        double linkEff;
        int[] pair = {gpus[0], gpus[1]};
        try (CudaExecutor two = CudaExecutor.open(pair); CudaExecutor all = CudaExecutor.open(gpus)) {
            // the timing's own cost first: every time below is a graph replay, whose later GPUs start their calls a
            // host graph launch after the earlier ones; the fits take it out (SimCosts: graph_launch_us)
            double[] gl = graphLaunch(all);
            sim = sim.withGraphLaunch(gl[0], gl[1]);
            timing = sim;
            for (Protocol p : Protocol.values()) sim = protocol(two, all, p, sim);
            linkEff = nvlinkEfficiency(two);
        }
        CalibrationProfile prof = profile(gpus, sim, linkEff);
        prof.write(out);
        Path rawFile = out.resolveSibling(out.getFileName() + ".measurements.json");
        m.write(rawFile);
        say.accept("calibrate: wrote " + out + " and " + rawFile);
        return prof;
    }

    /** Kernel launch, then one CTA's reduce and copy over 256 MiB, on one GPU. */
    private void singleGpu(CudaExecutor one) {
        launchUs = launch(one);
        m.put("kernel_launch_us", launchUs);
        long bytes = 256L << 20;
        reduceGbps = local(one, bytes, true);
        copyGbps = local(one, bytes, false);
        m.put("reduce_cta_gbps", reduceGbps);
        m.put("copy_cta_gbps", copyGbps);
    }

    /** Protocol p's point-to-point line, step overhead and hop fits, applied to {@code sim}'s ring, tree and p2p costs. */
    private SimCosts protocol(CudaExecutor two, CudaExecutor all, Protocol p, SimCosts sim) {
        double[] line = p2pLine(two, p);
        double p2pInterceptUs = line[0];
        double wireGbps = line[1];
        double stepNs = stepOverhead(two, p);
        double[] ring = hopFit(two, all, Algorithm.RING, p);
        double[] tree = hopFit(two, all, Algorithm.TREE, p);
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
        // NCCL's registered-buffer send (sim.p2p.Simple.registered_channel_bw_gbps) is not what ccsim's kernels run:
        // the base profile's value, unmeasured here
        sim = sim.with(SimCosts.Family.P2P, p, new SimProtocolCosts(Math.max(launchUs, p2pInterceptUs), stepNs,
                bq.hopLatencyUs(), wireGbps, bq.pipelineBytes()).withRegisteredChannelBwGbps(bq.registeredChannelBwGbps()));
        say.accept(String.format(Locale.ROOT, "calibrate: %-6s p2p intercept %.2f us, channel %.1f GB/s wire, step %.0f ns,"
                + " ring base %.2f hop %.2f us, tree base %.2f hop %.2f us", p, p2pInterceptUs, wireGbps, stepNs, ringBase, ring[1],
                treeBase, tree[1]));
        return sim;
    }

    /** Send/recv on one channel, 4 KiB up to 4/16/64 MiB (LL/LL128/Simple) by 4×: {intercept µs, wire GB/s}. */
    private double[] p2pLine(CudaExecutor two, Protocol p) {
        say.accept("calibrate: " + p + " point-to-point, 1 channel");
        long max = p == Protocol.SIMPLE ? 64L << 20 : p == Protocol.LL128 ? 16L << 20 : 4L << 20;
        List<double[]> pts = new ArrayList<>();
        for (long b = 4096; b <= max; b *= 4) {
            double us = kernelTime(two, DevicePlans.forSize(CollectiveOp.SEND_RECV, b, DataType.FLOAT32, ReduceOp.SUM, 0,
                    Algorithm.P2P, p, 1, 2));
            pts.add(new double[] {b, us});
            say.accept(String.format(Locale.ROOT, "  %-6s p2p %10d B %10.2f us", p, b, us));
        }
        double[] ab = LineFit.fit(pts);
        double dataGbps = 1e-3 / ab[1];
        double wireGbps = dataGbps / p.dataEfficiency();
        m.residual("p2p_" + p.ncclName() + "_median_rel_err", LineFit.medianRelErr(pts, ab));
        m.put("p2p_" + p.ncclName(), pts);
        return new double[] {ab[0], wireGbps};
    }

    /** The same send/recv with the default and with small buffers: extra time per extra step, ns (≥ 0). */
    private double stepOverhead(CudaExecutor two, Protocol p) {
        say.accept("calibrate: " + p + " step overhead (small vs default buffer)");
        long sz = p == Protocol.LL ? 1L << 20 : 4L << 20;
        Plan dflt = DevicePlans.forSize(CollectiveOp.SEND_RECV, sz, DataType.FLOAT32, ReduceOp.SUM, 0, Algorithm.P2P, p, 1, 2);
        Plan small = Planners.standard().plan(dflt.call(),
                PlanOptions.of(Algorithm.P2P, p, 1).withBufferBytes(DevicePlans.smallBuffer(p)));
        double tD = time(two, dflt), tS = time(two, small);
        long stepsD = dflt.stepCount(0, 0, 0) + dflt.stepCount(0, 0, dflt.nLanes() - 1);
        long stepsS = small.stepCount(0, 0, 0) + small.stepCount(0, 0, small.nLanes() - 1);
        double stepNs = Math.max(0, (tS - tD) / Math.max(1, stepsS - stepsD) * 1000.0);
        m.put("step_overhead_" + p.ncclName(), Map.of("default_us", tD, "small_us", tS, "steps_default", stepsD,
                "steps_small", stepsS));
        say.accept(String.format(Locale.ROOT, "  %-6s %d steps %.2f us vs %d steps %.2f us: %.1f ns/step", p, stepsD, tD,
                stepsS, tS, stepNs));
        return stepNs;
    }

    /** The best send/recv throughput at 256 MiB over 16, 32 and 64 channels, as a fraction of raw NVLink (≤ 1). */
    private double nvlinkEfficiency(CudaExecutor two) {
        say.accept("calibrate: NVLink efficiency (sendrecv, 2 GPUs, 256 MiB, 16/32/64 channels: best)");
        double gbps = 0;
        for (int ch : new int[] {16, 32, 64}) {
            double us = time(two, DevicePlans.forSize(CollectiveOp.SEND_RECV, 256L << 20, DataType.FLOAT32, ReduceOp.SUM, 0,
                    Algorithm.P2P, Protocol.SIMPLE, ch, 2));
            double g = (256L << 20) / (us * 1e-6) / 1e9;
            m.put("p2p_" + ch + "ch_256MiB_gbps", g);
            say.accept(String.format(Locale.ROOT, "  %2d channels: %.1f GB/s per direction", ch, g));
            gbps = Math.max(gbps, g);
        }
        double linkEff = Math.min(1.0, gbps / Calibrator.NVLINK_RAW_GBPS);
        say.accept(String.format(Locale.ROOT, "  best %.1f GB/s per direction = %.3f of %.0f GB/s", gbps, linkEff,
                Calibrator.NVLINK_RAW_GBPS));
        return linkEff;
    }

    /** The profile: measured launch, local throughput, NVLink efficiency and sim section; the rest from the base. */
    private CalibrationProfile profile(int[] gpus, SimCosts sim, double linkEff) {
        Map<LinkClass, Double> eff = new EnumMap<>(base.linkEfficiency());
        eff.put(LinkClass.NVLINK, linkEff);
        String gpu = Cuda.deviceName(gpus[0]).replace("NVIDIA ", "").trim();
        FitInfo fit = new FitInfo("ccsim calibrate on " + gpus.length + " x " + Cuda.deviceName(gpus[0])
                + " with ccsim's own kernels (io.ccsim.gpu.calibrate.Calibrator); PCIe/net hop latencies and tuner constants from"
                + " the built-in h200 profile", LocalDate.now(ZoneOffset.UTC).toString(), m.residuals());
        // kernel_launch_us is bounded by NCCL's base latencies (it is part of them); the measured launch is
        // in every sim launch latency
        double launchBound = Math.min(launchUs, base.protocols().values().stream().mapToDouble(ProtocolCosts::baseLatencyUs).min().orElse(launchUs));
        return new CalibrationProfile(gpu.isEmpty() ? "GPU" : gpu, base.computeCapability(), launchBound,
                base.protocols(), base.treeLatencies(), reduceGbps, copyGbps, eff, base.tuner(), sim, Optional.of(fit));
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
    private double kernelTime(CudaExecutor ex, Plan plan) {
        int iters = CudaPerf.itersFor(plan.call().sizeBytes());
        return time(ex, plan) - timing.graphTimingSkewUs(ex.nRanks(), iters);
    }

    /**
     * The host's cost of launching one GPU's CUDA graph of k captured calls, {a, b} in a + b·k µs (least squares,
     * relative): a 64 KiB send/recv on all GPUs, its launch loop timed ({@link PreparedProgram#lastGraphLaunchHostUs})
     * and divided by the GPUs.
     */
    private double[] graphLaunch(CudaExecutor all) {
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
        double[] ab = LineFit.fit(pts);
        double a = Math.max(0, ab[0]), b = Math.max(0, ab[1]);
        m.put("graph_launch_per_gpu_us", pts);
        say.accept(String.format(Locale.ROOT, "calibrate: a CUDA graph launch costs the host %.2f us + %.3f us per captured call (per GPU, %d GPUs)",
                a, b, n));
        return new double[] {a, b};
    }

    /** Fits t = base + hops × hop over small all-reduces on 2 and on all GPUs (hops = 2(n − 1)), graph timing taken out. */
    private double[] hopFit(CudaExecutor two, CudaExecutor all, Algorithm a, Protocol p) {
        List<double[]> pts = new ArrayList<>();
        for (CudaExecutor ex : new CudaExecutor[] {two, all}) {
            int n = ex.nRanks();
            for (long b : new long[] {1024, 4096, 16384}) {
                double us = kernelTime(ex, DevicePlans.forSize(CollectiveOp.ALL_REDUCE, b, DataType.FLOAT32, ReduceOp.SUM, 0, a, p, 1, n));
                pts.add(new double[] {2.0 * (n - 1), us, b});
                say.accept(String.format(Locale.ROOT, "  %-6s %-4s all_reduce n=%d %6d B %8.2f us", p, a.ncclName(), n, b, us));
            }
        }
        m.put("latency_" + a.ncclName() + "_" + p.ncclName(), pts);
        if (two.nRanks() == all.nRanks()) {
            double mean = pts.stream().mapToDouble(x -> x[1]).average().orElse(0);
            return new double[] {mean, 0};
        }
        double[] ab = LineFit.fit(pts);
        m.residual("latency_" + a.ncclName() + "_" + p.ncclName() + "_median_rel_err", LineFit.medianRelErr(pts, ab));
        return ab;
    }

    /**
     * Per-call cost of a 16-byte one-step program on one GPU, replayed back to back from a CUDA graph (as all
     * timings here): the launch gap plus an empty kernel. Median of 5 graphs of 200. The eager per-launch
     * cost (host-bound) is recorded and reported as progress only.
     */
    private double launch(CudaExecutor one) {
        DeviceProgram prog = DeviceProgram.localStep(16, false);
        try (PreparedProgram p = one.prepare(prog)) {
            p.fillInputs(0x3F800000);
            double[] t = new double[5];
            for (int i = 0; i < t.length; i++) t[i] = p.timeGraphUs(i == 0 ? 20 : 0, 200);
            Arrays.sort(t);
            double us = t[t.length / 2];
            double eager = p.timeUs(20, 200);
            m.put("eager_launch_us", eager);
            say.accept(String.format(Locale.ROOT, "calibrate: kernel launch %.2f us per call in a graph, %.2f us eager (host-bound)",
                    us, eager));
            return us;
        }
    }

    /** One CTA's local reduce (out = in + out) or copy over {@code bytes}; GB/s of input consumed. */
    private double local(CudaExecutor one, long bytes, boolean reduce) {
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
}
