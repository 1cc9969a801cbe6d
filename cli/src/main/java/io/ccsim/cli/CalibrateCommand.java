package io.ccsim.cli;

import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.gpu.calibrate.Calibrator;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code ccsim calibrate}: runs {@link Calibrator}'s microbenchmarks with ccsim's own kernels on real GPUs and
 * writes the fitted calibration profile (plus its raw measurements next to it). Progress goes to stderr,
 * the summary to stdout. Without CUDA: one line "no CUDA device found: ..." and exit 1.
 */
@Command(name = "calibrate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Measure this host's GPUs with ccsim's kernels and fit a calibration profile for the simulator.",
                "Needs at least 2 GPUs with peer access (NVLink or PCIe P2P); takes a few minutes."})
final class CalibrateCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--gpus", paramLabel = "N|LIST",
            description = "devices: a count N (the first N) or a list like 0,1,2,3 (default: all)")
    String gpus;
    @Option(names = "--out", paramLabel = "FILE", defaultValue = "profile.json",
            description = "profile to write; raw points go to FILE.measurements.json (default: ${DEFAULT-VALUE})")
    Path out;

    @Override
    public Integer call() {
        int[] devices = GpuArgs.devices(gpus);
        // calibrate's progress is a line per measurement, printed whether or not stderr is a terminal
        Progress progress = new Progress(spec.commandLine().getErr(), false, System::nanoTime);
        CalibrationProfile prof;
        try {
            prof = Calibrator.run(devices, out, progress::line);
        } catch (IOException e) {
            throw new UserException("cannot write profile " + out + ": " + e.getMessage(), e);
        }
        FitCommand.write(prof, out);   // again, its fit section's source naming the build, as fit's profiles do
        PrintWriter o = spec.commandLine().getOut();
        o.printf(java.util.Locale.ROOT, "calibration profile for %s written to %s (launch %.2f us, NVLink efficiency %.3f)%n",
                prof.gpu(), out, prof.kernelLaunchUs(), prof.linkEfficiency().getOrDefault(io.ccsim.algorithms.profile.LinkClass.NVLINK, Double.NaN));
        o.println("use it with: ccsim perf --profile " + out + " ...   or   ccsim validate --profile " + out + " --measured FILE...");
        o.flush();
        return 0;
    }
}
