package io.ccsim.cli;

import io.ccsim.gpu.cuda.Cuda;
import io.ccsim.gpu.study.DeviceStudies;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code ccsim device STUDY OUTDIR}: the studies of ccsim's kernels on this host's GPUs ({@link DeviceStudies}), one
 * subcommand each. Every study uses all devices, creates OUTDIR, writes its JSON files there and prints its
 * progress lines to stderr (nothing to stdout). Without CUDA: one line "no CUDA device found: ..." and exit 1,
 * before anything is created.
 */
@Command(name = "device", mixinStandardHelpOptions = true,
        description = {"Device studies of ccsim's kernels: checks, timings, calibration.",
                "Each study uses every GPU of the host (with peer access between them), writes JSON files into OUTDIR"
                        + " and prints its progress to stderr. Without CUDA: one line 'no CUDA device found: ...', exit 1."},
        subcommands = {DeviceCommand.Probe.class, DeviceCommand.Matrix.class, DeviceCommand.Timing.class,
                DeviceCommand.Fidelity.class, DeviceCommand.AllToAll.class, DeviceCommand.Skew.class,
                DeviceCommand.Calibrate.class, DeviceCommand.Full.class})
final class DeviceCommand implements Runnable {
    @Spec CommandSpec spec;

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                "missing study: probe, matrix, timing, fidelity, alltoall, skew, calibrate or full");
    }

    /** One study: the OUTDIR parameter, the CUDA check, the progress callback. */
    abstract static class Study implements Callable<Integer> {
        @Spec CommandSpec spec;

        @Parameters(index = "0", paramLabel = "OUTDIR", description = "folder for the result files (created if missing)")
        Path outDir;

        /** Runs the study on {@code studies}' GPUs into {@code outDir}. */
        abstract void run(DeviceStudies studies, Path outDir) throws IOException;

        @Override
        public Integer call() {
            int[] gpus = GpuArgs.devices(null);
            PrintWriter err = spec.commandLine().getErr();
            Consumer<String> progress = line -> {
                err.println(line);
                err.flush();
            };
            try {
                Files.createDirectories(outDir);
            } catch (IOException e) {
                throw new UserException("cannot create " + outDir + ": " + e.getMessage(), e);
            }
            progress.accept("devices: " + gpus.length + " x " + Cuda.deviceName(gpus[0]));
            try {
                run(new DeviceStudies(gpus, progress), outDir);
            } catch (IOException e) {
                throw new UserException("cannot write results to " + outDir + ": " + e.getMessage(), e);
            }
            return 0;
        }
    }

    @Command(name = "probe", mixinStandardHelpOptions = true,
            description = {"Quick check: a few all-reduces against the CPU, one timing.",
                    "Ring and tree all-reduce against the CPU on 2 and 4 GPUs (2 below 4), every protocol, small and"
                            + " default buffers; on all GPUs one 64 MiB ring all-reduce at 8, 16 and 32 channels (progress"
                            + " only). Writes OUTDIR/probe.json."})
    static final class Probe extends Study {
        @Override
        void run(DeviceStudies studies, Path outDir) throws IOException {
            studies.probe(outDir);
        }
    }

    @Command(name = "matrix", mixinStandardHelpOptions = true,
            description = {"Correctness against the CPU: every op, algorithm, protocol, type.",
                    "Every op, algorithm and protocol, 8 element types x every reduction, small buffers, on 2 GPUs and"
                            + " the largest power of two <= the GPUs, against the CPU executor. Writes OUTDIR/matrix.json"
                            + " (pass, fail, every check); a mismatch is reported, not an error."})
    static final class Matrix extends Study {
        @Override
        void run(DeviceStudies studies, Path outDir) throws IOException {
            studies.matrix(outDir);
        }
    }

    @Command(name = "timing", mixinStandardHelpOptions = true,
            description = {"Timings: channel sweep, eager launches, all-reduce and op sweeps.",
                    "On all GPUs: ring Simple all-reduce at 512 MiB over 24..64 channels, eager launches at the best"
                            + " channel count, ring and tree all-reduce 1 KiB..512 MiB; then every op, algorithm and"
                            + " protocol at 5 sizes on 2 GPUs and the largest power of two <= the GPUs. Writes"
                            + " OUTDIR/timing.json."})
    static final class Timing extends Study {
        @Override
        void run(DeviceStudies studies, Path outDir) throws IOException {
            studies.timing(outDir);
        }
    }

    @Command(name = "fidelity", mixinStandardHelpOptions = true,
            description = {"Simulator-fidelity sweep: every op, algorithm, protocol, 3 trials.",
                    "Every op x algorithm x protocol, 16 channels, 4 KiB..512 MiB by 2x, 3 trials, then an all-reduce"
                            + " 4/64-channel sweep, on 2 GPUs and the largest power of two <= the GPUs. Rewrites"
                            + " OUTDIR/timing.json after every group (rows carry a \"trial\")."})
    static final class Fidelity extends Study {
        @Override
        void run(DeviceStudies studies, Path outDir) throws IOException {
            studies.fidelity(outDir);
        }
    }

    @Command(name = "alltoall", mixinStandardHelpOptions = true,
            description = {"All-to-all as NCCL places it against the striped plan.",
                    "Each peer's operation on its own channels (NCCL's p2p channels and settings for this board, what"
                            + " perf --backend cuda and the simulator run) and every block striped over 16 channels, LL"
                            + " and Simple, 4 KiB..512 MiB by 2x, 3 trials, on 2 GPUs and the largest power of two <="
                            + " the GPUs; each plan checked against the CPU at 1 MiB first. Rewrites"
                            + " OUTDIR/alltoall.json (rows with their \"placement\") and OUTDIR/alltoall-checks.json after"
                            + " every trial."})
    static final class AllToAll extends Study {
        @Override
        void run(DeviceStudies studies, Path outDir) throws IOException {
            studies.alltoall(outDir);
        }
    }

    @Command(name = "skew", mixinStandardHelpOptions = true,
            description = {"Graph-launch skew: per-call time against calls captured per graph.",
                    "Send/recv, broadcast and all-reduce at 64 KiB and 4 MiB timed as CUDA-graph replays of 5..200"
                            + " captured calls, 3 trials, with the host time of the launch loop, on 2 GPUs and the"
                            + " largest power of two <= the GPUs. Writes OUTDIR/skew.json."})
    static final class Skew extends Study {
        @Override
        void run(DeviceStudies studies, Path outDir) throws IOException {
            studies.skew(outDir);
        }
    }

    @Command(name = "calibrate", mixinStandardHelpOptions = true,
            description = {"The calibration microbenchmarks, as 'ccsim calibrate' on all GPUs.",
                    "Writes OUTDIR/profile.json and OUTDIR/profile.json.measurements.json."})
    static final class Calibrate extends Study {
        @Override
        void run(DeviceStudies studies, Path outDir) throws IOException {
            studies.calibrate(outDir);
        }
    }

    @Command(name = "full", mixinStandardHelpOptions = true, description = "matrix, timing and calibrate in turn, into one OUTDIR.")
    static final class Full extends Study {
        @Override
        void run(DeviceStudies studies, Path outDir) throws IOException {
            studies.full(outDir);
        }
    }
}
