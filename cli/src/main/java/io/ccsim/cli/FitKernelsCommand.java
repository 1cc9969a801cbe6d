package io.ccsim.cli;

import io.ccsim.algorithms.fit.KernelFit;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code ccsim fit kernels}: {@link KernelFit} on the CudaExecutor's timings. */
@Command(name = "kernels", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Fit a profile's simulator numbers to the timings of ccsim's own kernels.",
                "Every graph-replay row of the timing files (timing.json of a device run) is predicted with the plan that ran"
                        + " (op, n, algorithm, protocol, channels, bytes on hgx-h200 with n GPUs), as back-to-back graph replays."
                        + " Protocols without thread-block stream costs (sim.cta) get seeded ones.",
                "Progress (one line per block and round) goes to stderr; the error table (size classes below and from 1 MiB),"
                        + " the held-out table with --fit-n, and the loss to stdout; the fitted profile, with a fit section saying"
                        + " how it was made, to --out."})
final class FitKernelsCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--base", required = true, paramLabel = "FILE", description = "profile JSON to start from")
    Path base;
    @Option(names = "--out", required = true, paramLabel = "FILE", description = "fitted profile to write")
    Path out;
    @Option(names = "--date", required = true, paramLabel = "YYYY-MM-DD", description = "date of the fit section")
    String date;
    @Option(names = "--rounds", defaultValue = "2", paramLabel = "N", description = "rounds of block coordinate descent (default: ${DEFAULT-VALUE})")
    int rounds;
    @Option(names = "--max-eval", defaultValue = "60", paramLabel = "N",
            description = "objective evaluations per block and round, >= 20 (default: ${DEFAULT-VALUE})")
    int maxEval;
    @Option(names = "--fit-n", defaultValue = "0", paramLabel = "N",
            description = "fit only the rows of N ranks and report the others as held out (default: all rows)")
    int fitN;
    @Option(names = "--sparse", description = "search on the sizes 4 KiB x 4^k only (every row is still scored)")
    boolean sparse;
    @Option(names = "--blocks", paramLabel = "REGEX", description = "fit only the blocks whose whole name matches, e.g."
            + " 'cta Simple|ring Simple' (blocks: launch, cta P, ring P, chain P, tree P, p2p P, links); the others stay as they are")
    String blocks;
    @Option(names = "--large-weight", defaultValue = "1.0", paramLabel = "W",
            description = "weight of the rows from 1 MiB in the search, >= 1 (default: ${DEFAULT-VALUE})")
    double largeWeight;
    @Option(names = "--criterion", paramLabel = "MARGIN", description = "search on how far each group's median error lies above"
            + " MARGIN x its bound (15 %% below 1 MiB, 5 %% from 1 MiB), MARGIN in (0, 1], instead of on the mean soft-L1 of every row")
    Double criterion;
    @Parameters(arity = "1..*", paramLabel = "TIMING", description = "the CudaExecutor's timings (graph-replay rows are fitted)")
    List<Path> timings;

    @Override
    public Integer call() {
        if (criterion != null && !(criterion > 0 && criterion <= 1)) {
            throw new UserException("--criterion " + criterion + ": the margin must be in (0, 1] (the fraction of each group's bound it aims below)");
        }
        Optional<Pattern> only = FitCommand.blocks(blocks);
        if (only.isPresent() && KernelFit.blockNames().stream().noneMatch(b -> only.get().matcher(b).matches())) {
            throw new UserException("--blocks " + blocks + " matches no block; blocks: " + KernelFit.blockNames());
        }
        KernelFit.Options o = new KernelFit.Options(rounds, maxEval, fitN, sparse, only, largeWeight,
                criterion == null ? OptionalDouble.empty() : OptionalDouble.of(criterion), date);
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        KernelFit.Result r;
        try {
            r = KernelFit.fit(base, timings, o, p -> {
                err.println(FitCommand.progressLine(p));
                err.flush();
            });
        } catch (IOException e) {
            throw FitCommand.unreadable(e);
        }
        stdout.print(r.errors().format());
        if (r.heldOut().isPresent()) {
            stdout.println("held out (not fitted), n != " + fitN + ":");
            stdout.print(r.heldOut().get().format());
        }
        stdout.printf(Locale.ROOT, "loss %.4f over %d rows (fitted on %d)%n", r.loss(), r.rows(), r.fitRows());
        FitCommand.write(r.profile(), out);
        stdout.println("wrote " + out);
        stdout.flush();
        return 0;
    }
}
