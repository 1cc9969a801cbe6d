package io.ccsim.cli;

import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.fit.BlockProgress;
import io.ccsim.algorithms.profile.CalibrationProfile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code ccsim fit}: fits a calibration profile's simulator numbers to measurements, {@code nccl} to NCCL's calibration
 * fixtures ({@link FitNcclCommand}), {@code kernels} to the CudaExecutor's timings ({@link FitKernelsCommand}). Progress
 * (one line per block and round) goes to stderr; the error table, the loss and the file written to stdout.
 */
@Command(name = "fit", mixinStandardHelpOptions = true,
        description = {"Fit a calibration profile's simulator numbers to measured timings.",
                "Slow: each objective evaluation simulates every searched row; a fit takes minutes to hours."},
        subcommands = {FitNcclCommand.class, FitKernelsCommand.class})
final class FitCommand implements Runnable {
    @Spec CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing fit command (nccl or kernels); try 'ccsim fit --help'");
    }

    /** One progress line: round, block, rows, evaluations, the loss before and after, and the block's values. */
    static String progressLine(BlockProgress p) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "round %d %-11s rows=%3d evals=%3d loss %.4f -> %.4f:",
                p.round(), p.block(), p.rows(), p.evaluations(), p.lossBefore(), p.lossAfter()));
        for (Map.Entry<String, Double> v : p.values().entrySet()) sb.append(String.format(Locale.ROOT, " %s=%.4g", v.getKey(), v.getValue()));
        return sb.toString();
    }

    /** The protocol named {@code t} as NCCL spells it (case-insensitive), for option {@code option}. */
    static Protocol protocol(String option, String t) {
        for (Protocol p : Protocol.values()) {
            if (p.ncclName().equalsIgnoreCase(t.trim())) return p;
        }
        throw new UserException(option + ": unknown protocol '" + t.trim() + "'; valid: LL, LL128, Simple");
    }

    /** {@code --blocks}' regular expression, or empty. */
    static Optional<Pattern> blocks(String regex) {
        if (regex == null) return Optional.empty();
        try {
            return Optional.of(Pattern.compile(regex));
        } catch (PatternSyntaxException e) {
            throw new UserException("--blocks: not a regular expression: " + e.getMessage().replace(System.lineSeparator(), " "), e);
        }
    }

    /** Writes the fitted profile, its fit section's source ending with the build that fitted it ({@link #stamped}). */
    static void write(CalibrationProfile p, Path out) {
        try {
            stamped(p).write(out);
        } catch (IOException e) {
            throw new UserException("cannot write profile " + out + ": " + e.getMessage(), e);
        }
    }

    /** {@code p} with " Written by ccsim VERSION (git ...)." at the end of its fit section's source, if it has one. */
    static CalibrationProfile stamped(CalibrationProfile p) {
        return p.withFit(p.fit().map(f -> new io.ccsim.algorithms.profile.FitInfo(f.source() + (f.source().endsWith(".") ? "" : ".")
                + " Written by ccsim " + BuildInfo.current().label() + ".", f.date(), f.residuals())));
    }

    /** An input that could not be read, as one line. */
    static UserException unreadable(IOException e) {
        return new UserException("cannot read " + e.getMessage(), e);
    }
}
