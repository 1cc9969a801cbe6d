package io.ccsim.gpu.study;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.plan.P2pSettings;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.gpu.cuda.Cuda;
import io.ccsim.gpu.exec.CudaCheck;
import io.ccsim.gpu.exec.CudaExecutor;
import io.ccsim.gpu.exec.CudaPerf;
import io.ccsim.gpu.exec.DevicePlans;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@link DeviceStudies#alltoall}: ccsim's kernels running all-to-all in its two plans, each peer's operation on its own
 * channels as NCCL places it ({@code "placement": "nccl"}: NCCL's p2p channels and settings for the board, which
 * {@code perf --backend cuda} and the simulator run) and every peer's block striped over all channels
 * ({@code "striped"}: 16 channels, what the fidelity sweep measures), LL and Simple, 4 KiB..512 MiB by 2×,
 * {@link FidelitySchedule#TRIALS} trials, on n = 2 and the largest power of two ≤ the GPUs; each plan and protocol
 * checked against the CPU at 1 MiB first. Writes alltoall.json (timing rows, {@code "set": "alltoall"}) and
 * alltoall-checks.json, both rewritten after every trial.
 */
final class AllToAllStudy {
    /** The striped plan's channels: the fidelity sweep's ({@link FidelitySchedule}). */
    static final int STRIPED_CHANNELS = 16;

    /** The protocols NCCL's point-to-point path runs. */
    private static final Protocol[] PROTOCOLS = {Protocol.LL, Protocol.SIMPLE};

    private AllToAllStudy() { }

    /** The catalog board of a device named {@code name} (as the driver names it): HGX H100, else HGX H200. */
    static String boardOf(String name) {
        return name.contains("H100") ? "hgx-h100" : "hgx-h200";
    }

    /** One plan the study runs: its {@code "placement"} label, its channels and its p2p settings (null: striped). */
    record Variant(String placement, int channels, P2pSettings p2p) { }

    /**
     * The two plans on {@code n} GPUs of {@code board}: NCCL's placement with the p2p channels and settings the tuner
     * gives the simulator's plan, then the striped plan on {@link #STRIPED_CHANNELS}.
     */
    static List<Variant> variants(String board, int n) {
        Topology t = TopologyCatalog.build(board, BuildOptions.of(n, 1));
        PerfRunner r = new PerfRunner(t, n, CalibrationProfile.builtin(board.substring(4)), NcclEnv.empty(), 0);
        int channels = r.tune(CollectiveOp.ALL_TO_ALL, 1L << 20).winner().channels();
        return List.of(new Variant("nccl", channels, r.p2pSettings(channels)), new Variant("striped", STRIPED_CHANNELS, null));
    }

    static void run(Path out, int[] all, Consumer<String> log) throws IOException {
        List<Map<String, Object>> rows = new ArrayList<>();
        List<Map<String, Object>> checks = new ArrayList<>();
        long[] sizes = FidelitySchedule.fidelitySizes();
        String board = boardOf(Cuda.deviceName(all[0]));
        long t0 = System.nanoTime();
        for (int n : FidelitySchedule.ranks(all.length)) {
            List<Variant> variants = variants(board, n);
            Variant nccl = variants.get(0);
            log.accept(String.format(Locale.ROOT, "alltoall n=%d: placed on %d channels, %d per peer, chunk %d B (%s);"
                    + " striped on %d", n, nccl.channels(), nccl.p2p().channelsPerPeer(), nccl.p2p().chunkBytes(), board,
                    STRIPED_CHANNELS));
            try (CudaExecutor ex = CudaExecutor.open(Arrays.copyOf(all, n), DeviceStudies.HANG_MS)) {
                for (Protocol p : PROTOCOLS) {
                    for (Variant v : variants) {
                        Plan plan = DevicePlans.forSize(CollectiveOp.ALL_TO_ALL, 1L << 20, DataType.FLOAT32, ReduceOp.SUM, 0,
                                Algorithm.P2P, p, v.channels(), n, v.p2p());
                        CudaCheck.Result r = CudaCheck.check(ex, plan, 7 + n);
                        Map<String, Object> c = CorrectnessStudies.row(r, n, false, 0);
                        c.put("placement", v.placement());
                        checks.add(c);
                        log.accept(String.format(Locale.ROOT, "check n=%d %s %s %s", n, v.p2p() != null ? "placed" : "striped", plan,
                                r.ok() ? "OK" : "MISMATCH " + r.firstMismatch()));
                    }
                }
                for (int trial = 1; trial <= FidelitySchedule.TRIALS; trial++) {
                    for (Protocol p : PROTOCOLS) {
                        for (Variant v : variants) {
                            for (CudaPerf.Row r : CudaPerf.run(ex, CollectiveOp.ALL_TO_ALL, sizes, DataType.FLOAT32,
                                    ReduceOp.SUM, 0, Algorithm.P2P, p, v.channels(), v.p2p(), true, log)) {
                                TimingRows.add(rows, r, n, true, "alltoall", trial, v.placement());
                            }
                        }
                    }
                    ResultFiles.writeJson(out.resolve("alltoall.json"), rows);
                    ResultFiles.writeJson(out.resolve("alltoall-checks.json"), checks);
                    log.accept(String.format(Locale.ROOT, "[%6.1f s] alltoall n=%d trial %d: %d rows", (System.nanoTime() - t0) / 1e9,
                            n, trial, rows.size()));
                }
            }
        }
    }
}
