package io.ccsim.cli;

import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.fit.NcclFit;
import io.ccsim.algorithms.profile.CalibrationProfile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code ccsim fit nccl}: {@link NcclFit} on NCCL calibration fixtures. */
@Command(name = "nccl", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Fit a profile's simulator numbers to NCCL calibration fixtures.",
                "Every row of the fixtures (tools/nccl-measure's graph-replay timings) is simulated as 'ccsim perf' would on"
                        + " hgx-h200 with the row's n GPUs: forced rows with their NCCL_ALGO/NCCL_PROTO, default rows with NCCL's"
                        + " choice. Only the sim section, the reduce/copy throughputs and the link efficiencies are fitted, so the"
                        + " tuner keeps choosing as NCCL does.",
                "Progress (one line per block and round) goes to stderr; the error table (64 KiB size classes) and the loss"
                        + " to stdout; the fitted profile, with a fit section saying how it was made, to --out."})
final class FitNcclCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--base", defaultValue = "h200", paramLabel = "NAME|FILE",
            description = "profile to start from: a built-in name (h100, h200, l40s, b200) or a profile JSON (default: ${DEFAULT-VALUE})")
    String base;
    @Option(names = "--out", required = true, paramLabel = "FILE", description = "fitted profile to write")
    Path out;
    @Option(names = "--rounds", defaultValue = "2", paramLabel = "N", description = "rounds of block coordinate descent (default: ${DEFAULT-VALUE})")
    int rounds;
    @Option(names = "--max-eval", defaultValue = "60", paramLabel = "N",
            description = "objective evaluations per block and round, >= 20 (default: ${DEFAULT-VALUE})")
    int maxEval;
    @Option(names = "--date", paramLabel = "YYYY-MM-DD", description = "date of the fit section (default: today, UTC)")
    String date;
    @Option(names = "--note", defaultValue = "", paramLabel = "TEXT", description = "text appended to the fit section's source (default: none)")
    String note;
    @Option(names = "--cta", split = ",", paramLabel = "PROTO", description = "give these protocols (LL, LL128, Simple)"
            + " thread-block stream costs (sim.cta) where the base has none, seeded with the kernel fit's values and their"
            + " per-channel limits lifted to 400 GB/s, and fit them")
    List<String> cta = List.of();
    @Option(names = "--blocks", paramLabel = "REGEX", description = "fit only the blocks whose whole name matches, e.g."
            + " 'cta LL|chain LL|tree LL' (blocks: cta P, ring P, chain P, tree P, p2p P, shared); the others stay as they are")
    String blocks;
    @Option(names = "--min-pipeline", split = ",", paramLabel = "PROTO=BYTES", description = "smallest forwarding unit the fit"
            + " may choose for a protocol, bytes in [1024, 4194304) (default: 65536)")
    List<String> minPipeline = List.of();
    @Parameters(arity = "1..*", paramLabel = "FIXTURE", description = "NCCL calibration fixtures, e.g. experiments/nccl-h200/*.json")
    List<Path> fixtures;

    @Override
    public Integer call() {
        CalibrationProfile start = CalibrationProfile.BUILTIN_NAMES.contains(base) ? CalibrationProfile.builtin(base)
                : SimSetup.profile(Path.of(base), null);
        Set<Protocol> seeded = EnumSet.noneOf(Protocol.class);
        for (String t : cta) seeded.add(FitCommand.protocol("--cta", t));
        Optional<Pattern> only = FitCommand.blocks(blocks);
        NcclFit.Options o = new NcclFit.Options(rounds, maxEval, seeded, only, minPipelineBytes(),
                date == null ? LocalDate.now(ZoneOffset.UTC).toString() : date, note);
        if (NcclFit.fittedParameters(start, o).isEmpty()) {
            throw new UserException("--blocks " + blocks + " matches no block; blocks: " + NcclFit.blockNames(start, seeded));
        }
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        NcclFit.Result r;
        try {
            r = NcclFit.fit(start, fixtures, o, p -> {
                err.println(FitCommand.progressLine(p));
                err.flush();
            });
        } catch (IOException e) {
            throw FitCommand.unreadable(e);
        }
        stdout.print(r.errors().format());
        stdout.printf(Locale.ROOT, "loss %.4f over %d rows%n", r.loss(), r.rows());
        FitCommand.write(r.profile(), out);
        stdout.println("wrote " + out);
        stdout.flush();
        return 0;
    }

    private Map<Protocol, Double> minPipelineBytes() {
        Map<Protocol, Double> m = new EnumMap<>(Protocol.class);
        for (String t : minPipeline) {
            String[] kv = t.split("=");
            if (kv.length != 2) throw new UserException("--min-pipeline: expected PROTO=BYTES[,PROTO=BYTES], got '" + t + "'");
            try {
                m.put(FitCommand.protocol("--min-pipeline", kv[0]), Double.parseDouble(kv[1].trim()));
            } catch (NumberFormatException e) {
                throw new UserException("--min-pipeline: BYTES must be a number, got '" + kv[1].trim() + "'", e);
            }
        }
        return m;
    }
}
