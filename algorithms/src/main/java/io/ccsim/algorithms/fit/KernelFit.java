package io.ccsim.algorithms.fit;

import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.measurements.MeasuredRow;
import io.ccsim.algorithms.measurements.Measurements;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.CtaCosts;
import io.ccsim.algorithms.profile.SimCosts;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Fits a calibration profile's simulator numbers to the CudaExecutor's own timings (ccsim's kernels, read by
 * {@link Measurements#kernelTimings}): every row is predicted with the plan that ran, as back-to-back calls like the
 * graph replay that timed it; the error table uses the fidelity check's size classes (below 1 MiB, from 1 MiB). Rows
 * of one rank count may be fitted alone, the others then reported apart as held out (out of sample).
 * {@code ccsim fit kernels} runs it.
 */
public final class KernelFit {
    private KernelFit() {}

    /**
     * What to fit and how.
     *
     * @param rounds          rounds of block coordinate descent (0: only score the start)
     * @param maxEvalPerBlock objective evaluations per block and round (≥ 20)
     * @param fitN            fit only the rows of this rank count and report the others as held out; 0: every row
     * @param sparse          search on the sizes 4 KiB × 4^k only ({@link #sparseSize}); every row is still scored
     * @param blocks          fit only the blocks whose whole name matches; empty: every block
     * @param largeRowWeight  weight of the rows from 1 MiB in the search (≥ 1, finite)
     * @param criterion       search on each group's median against margin × its bound, with this margin in (0, 1];
     *                        empty: the mean soft-L1 of every row
     * @param date            the fit section's date (YYYY-MM-DD)
     */
    public record Options(int rounds, int maxEvalPerBlock, int fitN, boolean sparse, Optional<Pattern> blocks, double largeRowWeight,
                          OptionalDouble criterion, String date) {}

    /**
     * The outcome of a fit.
     *
     * @param profile the fitted profile, with its {@code fit} section (source, date, per-group median errors of every row)
     * @param errors  its error table over every row
     * @param heldOut its error table over the rows not fitted (rank count other than {@code fitN}); empty when every row
     *                was fitted
     * @param loss    its mean soft-L1 loss of log(predicted / measured) over every row
     * @param rows    the number of rows
     * @param fitRows the number of rows fitted
     */
    public record Result(CalibrationProfile profile, ErrorTable errors, Optional<ErrorTable> heldOut, double loss, int rows, int fitRows) {}

    /** The names of a kernel fit's blocks, in order. */
    public static List<String> blockNames() { return ProfileFitter.kernelBlockNames(); }

    /**
     * Fits the profile in {@code base} ({@link #CTA_SEEDS} added for each protocol without stream costs) to the
     * graph-replay rows of {@code timings}, telling {@code progress} of each block done.
     *
     * @throws IOException              if the profile or a timing file cannot be read
     * @throws IllegalArgumentException for a malformed profile or timing file (naming file, row and field), no rows of
     *                                  rank count {@code fitN}, or an option out of its range
     */
    public static Result fit(Path base, List<Path> timings, Options o, Consumer<BlockProgress> progress) throws IOException {
        CalibrationProfile start = withCtaSeeds(CalibrationProfile.load(base));
        List<MeasuredRow> rows = new ArrayList<>();
        for (Path f : timings) rows.addAll(Measurements.kernelTimings(f));
        int n = o.fitN();
        List<MeasuredRow> fitRows = n == 0 ? rows : rows.stream().filter(r -> r.n() == n).toList();
        if (fitRows.isEmpty()) throw new IllegalArgumentException("no timing rows with n = " + n + " to fit");
        ProfileFitter fitter = ProfileFitter.forKernelTimings(o.maxEvalPerBlock(), o.sparse() ? KernelFit::sparseSize : x -> true)
                .withLargeRowWeight(o.largeRowWeight());
        if (o.criterion().isPresent()) {
            fitter.withGroupCriterion(ErrorTable.KERNEL_BOUND_SMALL, ErrorTable.KERNEL_BOUND_LARGE, o.criterion().getAsDouble());
        }
        ProfileFitter.Result r = fitter.fit(start, fitRows, o.rounds(),
                name -> o.blocks().isEmpty() || o.blocks().get().matcher(name).matches(), progress);
        List<Prediction> all = new FixturePredictor().predictAll(r.profile(), rows);
        ErrorTable table = ErrorTable.of(all, ErrorTable.KERNEL_LARGE_BYTES);
        Optional<ErrorTable> held = n == 0 ? Optional.empty()
                : Optional.of(ErrorTable.of(all.stream().filter(p -> p.row().n() != n).toList(), ErrorTable.KERNEL_LARGE_BYTES));
        String source = source(o, base, timings, rows.size(), start);
        return new Result(FitSection.with(r.profile(), table, source, o.date()), table, held, FitObjective.loss(all), rows.size(),
                fitRows.size());
    }

    private static String source(Options o, Path base, List<Path> timings, int rows, CalibrationProfile start) {
        String objective = o.criterion().isPresent()
                ? "BOBYQA on the squared excess of each group's median error over " + o.criterion().getAsDouble() + " x its bound ("
                        + Math.round(100 * ErrorTable.KERNEL_BOUND_SMALL) + " % below 1 MiB, " + Math.round(100 * ErrorTable.KERNEL_BOUND_LARGE)
                        + " % from 1 MiB) plus " + FitObjective.CRITERION_TIE + " x the soft-L1 of log(pred/meas) (--criterion)"
                : "BOBYQA on soft-L1 of log(pred/meas)";
        StringBuilder src = new StringBuilder("Fitted by io.ccsim.algorithms.fit.KernelFit (ProfileFitter: " + objective
                + (o.largeRowWeight() == 1.0 ? "" : ", rows from 1 MiB weighing " + o.largeRowWeight() + " (--large-weight)") + ", ")
                .append(o.rounds()).append(" rounds, ").append(o.maxEvalPerBlock()).append(" evaluations per block) to the CudaExecutor's"
                        + " graph-replay timings (ccsim's own kernels) on H200 NVSwitch hosts: ");
        for (int i = 0; i < timings.size(); i++) src.append(i > 0 ? ", " : "").append(timings.get(i));
        src.append(o.fitN() == 0 ? " (all " + rows + " rows; the errors below are in-sample)" : " (rows with n = " + o.fitN() + " only)");
        src.append(". Each row predicted with the plan that ran (op, n, algorithm, protocol, channels, bytes on hgx-h200 with n GPUs)."
                + " Fitted: per family and protocol the launch, hop and step latencies and the forwarding unit"
                + " (pipeline_bytes >= 4096); per protocol the thread block's stream costs (sim.cta); NVLink and duplex efficiency. Start: ")
                .append(base).append(" (").append(FitSection.sourceOf(start, "no fit section")).append(")");
        return src.toString();
    }

    /**
     * Starting thread-block stream costs (ns/KiB: recv, src, dst, send, reduce) for a profile that has none: a
     * least-squares fit of the steady-state work per channel of the ring and chain collectives at 16 MiB, 16
     * channels, n = 2 and 4 (experiments/h200x4/timing.json), ignoring latencies and links.
     */
    static final Map<Protocol, CtaCosts> CTA_SEEDS = Map.of(
            Protocol.LL, new CtaCosts(57, 84, 64, 81, 27, CtaCosts.DEFAULT_L2_BYTES, 1.3),
            Protocol.LL128, new CtaCosts(29, 54, 41, 37, 17, CtaCosts.DEFAULT_L2_BYTES, 1.3),
            Protocol.SIMPLE, new CtaCosts(32, 15, 5.5, 46, 14, CtaCosts.DEFAULT_L2_BYTES, 1.3));

    /**
     * {@code p} with {@link #CTA_SEEDS} for each protocol that has no {@code sim.cta} costs; the per-channel
     * limits of such a protocol are lifted to 400 GB/s so that the block's streams and the links set the rate.
     */
    static CalibrationProfile withCtaSeeds(CalibrationProfile p) {
        return withCtaSeeds(p, EnumSet.allOf(Protocol.class));
    }

    /** As {@link #withCtaSeeds(CalibrationProfile)}, for the protocols of {@code protocols} only. */
    static CalibrationProfile withCtaSeeds(CalibrationProfile p, Set<Protocol> protocols) {
        CalibrationProfile q = p;
        for (Protocol pr : protocols) {
            if (q.sim().ctaOf(pr) != null) continue;
            SimCosts s = q.sim().withCta(pr, CTA_SEEDS.get(pr));
            for (SimCosts.Family f : SimCosts.Family.values()) s = s.with(f, pr, s.get(f, pr).withMaxChannelBwGbps(400));
            q = q.withSim(s);
        }
        return q;
    }

    /**
     * The sizes a sparse search simulates: 4 KiB × 4^k (every other size of the fidelity sweep's 2× steps, half the
     * rows and under half the simulation time).
     */
    static boolean sparseSize(MeasuredRow r) {
        long b = r.bytes();
        return Long.bitCount(b) == 1 && (Long.numberOfTrailingZeros(b) - 12) % 2 == 0;
    }
}
