package io.ccsim.gpu.calibrate;

import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.gpu.cuda.Cuda;
import io.ccsim.gpu.cuda.CudaUnavailableException;
import io.ccsim.gpu.cuda.GpuException;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * {@code ccsim calibrate}: microbenchmarks with the project's own kernels, least-squares fits
 * (commons-math3 OLS), and a {@link CalibrationProfile} the simulator reads.
 *
 * <p>Measurements (CUDA-event timed over CUDA-graph replays of back-to-back calls, warm, inputs never zero;
 * the host's eager launch cost would otherwise swamp every small size), in this order:
 * <ol>
 *   <li>kernel launch: a one-step, 16-byte program on one GPU;</li>
 *   <li>one CTA's local reduce (out = in + out) and copy throughput on one GPU, 256 MiB;</li>
 *   <li>the host's cost of launching a CUDA graph, a + b·(captured calls) per GPU, which every graph timing below
 *       carries and the fits take out ({@code sim.graph_launch_us});</li>
 *   <li>per protocol, point-to-point on one channel (sendrecv, 2 GPUs), sizes 4 KiB..(LL 4 MiB, LL128 16 MiB,
 *       Simple 64 MiB): fit {@code t = a + bytes / bw} → hop latency and per-channel throughput (reported in
 *       wire bytes: data / protocol efficiency);</li>
 *   <li>per protocol, the same transfer with the smallest legal buffer vs the default: the extra time per
 *       extra step is the step overhead;</li>
 *   <li>per protocol and algorithm (ring, tree), all-reduce of small sizes on 2 and on all GPUs: fit
 *       {@code t = base + hops × hop} with hops = 2(n − 1) → base and per-hop latency;</li>
 *   <li>link efficiency: the best of sendrecv on 2 GPUs with 16, 32 and 64 channels at 256 MiB, over the raw
 *       NVLink bandwidth of a Hopper GPU (18 NVLink4 links × 25 GB/s per direction = 450 GB/s).</li>
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
     * @param progress receives one line per measurement or fit; may be null
     * @return the fitted profile
     * @throws CudaUnavailableException "no CUDA device found: ..." where CUDA or a GPU is missing
     * @throws IllegalArgumentException if fewer than 2 GPUs are given, or an index is repeated or does not exist
     * @throws GpuException             if a driver call fails or a kernel hangs
     * @throws IOException              if the profile or the measurements cannot be written
     */
    public static CalibrationProfile run(int[] gpus, Path out, Consumer<String> progress) throws IOException {
        Cuda.requireDevices(gpus);
        if (gpus.length < 2) throw new IllegalArgumentException("calibration needs at least 2 GPUs, got " + Arrays.toString(gpus));
        return new CalibrationRun(progress == null ? s -> { } : progress).run(gpus, out);
    }
}
