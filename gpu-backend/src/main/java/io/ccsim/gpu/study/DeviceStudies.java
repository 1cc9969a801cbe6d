package io.ccsim.gpu.study;

import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.gpu.calibrate.Calibrator;
import io.ccsim.gpu.cuda.CudaUnavailableException;
import io.ccsim.gpu.cuda.GpuException;

import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * The device studies ({@code ccsim device ...}): validation and measurement runs of ccsim's kernels on the GPUs of
 * this host, each writing small JSON files into an existing output folder and reporting progress, one line at a
 * time, to a callback. Studies that use fewer ranks than GPUs take the first GPUs of the list.
 *
 * <p>Every study throws {@link CudaUnavailableException} ("no CUDA device found: ...") where CUDA or a GPU is
 * missing, {@link GpuException} when a driver call fails or a kernel runs past the hang timeout
 * ({@value #HANG_MS} ms), and {@link IOException} when a result file cannot be written. A wrong result is data
 * (a row with {@code "ok": false} and a {@code MISMATCH} progress line), not an exception.
 */
public final class DeviceStudies {
    /** Hang timeout of these runs, ms: every call here takes well under a second. */
    static final long HANG_MS = 30_000;

    private final int[] gpus;
    private final Consumer<String> progress;

    /**
     * @param gpus     device ordinals, rank order (rank r on {@code gpus[r]})
     * @param progress receives the progress lines
     */
    public DeviceStudies(int[] gpus, Consumer<String> progress) {
        this.gpus = gpus.clone();
        this.progress = progress;
    }

    /**
     * A quick check: ring and tree all-reduce on n = 2 and 4 (2 below 4 GPUs) against the CPU, every protocol,
     * small and default buffers; on all GPUs one 64 MiB ring all-reduce at 8, 16 and 32 channels. Writes probe.json.
     */
    public void probe(Path outDir) throws IOException {
        CorrectnessStudies.probe(outDir, gpus, progress);
    }

    /**
     * The correctness matrix against the CPU executor: every op, algorithm and protocol, 8 element types × every
     * reduction, small buffers, on n = 2 and the largest power of two ≤ the GPUs. Writes matrix.json.
     */
    public void matrix(Path outDir) throws IOException {
        CorrectnessStudies.matrix(outDir, gpus, progress);
    }

    /**
     * Timings: a ring Simple channel sweep at 512 MiB, eager launches at the best channel count, ring and tree
     * all-reduce 1 KiB..512 MiB on all GPUs, and every op, algorithm and protocol at 5 sizes on 2 and on all GPUs.
     * Writes timing.json.
     */
    public void timing(Path outDir) throws IOException {
        TimingStudies.timing(outDir, gpus, progress);
    }

    /**
     * The simulator-fidelity sweep ({@link FidelitySchedule}): every op × algorithm × protocol, 16 channels,
     * 4 KiB..512 MiB by 2×, 3 trials, then an all-reduce 4/64-channel sweep, on n = 2 and the largest power of two ≤
     * the GPUs. Writes timing.json (rows with a {@code "trial"}), rewritten after every group.
     */
    public void fidelity(Path outDir) throws IOException {
        TimingStudies.fidelity(outDir, gpus, progress);
    }

    /**
     * All-to-all in ccsim's two plans: each peer's operation on its own channels as NCCL places it (NCCL's p2p channels
     * and settings for this board) and every block striped over 16 channels, LL and Simple, 4 KiB..512 MiB by 2×, 3
     * trials, on n = 2 and the largest power of two ≤ the GPUs, each plan checked against the CPU first
     * ({@link AllToAllStudy}). Writes alltoall.json (timing rows with their {@code "placement"}) and
     * alltoall-checks.json, rewritten after every trial.
     */
    public void alltoall(Path outDir) throws IOException {
        AllToAllStudy.run(outDir, gpus, progress);
    }

    /**
     * The graph-launch skew: a few calls timed as graph replays of 5..200 captured calls, 3 trials, with the host
     * time of the launch loop ({@link SkewStudy}). Writes skew.json.
     */
    public void skew(Path outDir) throws IOException {
        SkewStudy.skew(outDir, gpus, progress);
    }

    /** {@link Calibrator#run} on these GPUs; writes profile.json and profile.json.measurements.json. */
    public CalibrationProfile calibrate(Path outDir) throws IOException {
        return Calibrator.run(gpus, outDir.resolve("profile.json"), progress);
    }

    /** {@link #matrix}, {@link #timing} and {@link #calibrate}, in that order. */
    public void full(Path outDir) throws IOException {
        matrix(outDir);
        timing(outDir);
        calibrate(outDir);
    }
}
