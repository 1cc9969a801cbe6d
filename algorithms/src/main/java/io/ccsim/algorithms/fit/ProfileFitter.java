package io.ccsim.algorithms.fit;

import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.measurements.MeasuredRow;
import io.ccsim.algorithms.profile.CalibrationProfile;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Fits the free parameters of a {@link CalibrationProfile} to measurements by simulating every row as
 * {@code ccsim perf} does ({@link FixturePredictor}): the fit engine behind {@link NcclFit} and {@link KernelFit}.
 * The parameters come in blocks ({@link FitBlocks}), each minimised by {@link BlockOptimizer} on the loss of
 * {@link FitObjective}; the result's errors are an {@link ErrorTable} over every row.
 *
 * <p>Only the simulator's parameters are free (the profile's {@code sim} section, reduce/copy throughput, link
 * efficiency); the Tuner reads none of them, so a fit cannot move NCCL's default choices.
 */
final class ProfileFitter {
    /*
     * Method: block coordinate descent. To keep it fast, the parameters are fitted in blocks that touch disjoint rows:
     * per protocol, the ring parameters on the forced Ring/P rows and the default rows NCCL ran with Ring/P of
     * all-gather, reduce-scatter and all-reduce; per protocol, the chain parameters on those of broadcast and reduce;
     * per protocol, the tree latencies on the forced Tree/P rows; the point-to-point latencies on the send/recv and
     * all-to-all rows; then the shared parameters (reduce/copy throughput, NVLink efficiency) on all rows; repeated
     * for a few rounds. During an NCCL fit's search only the sizes 8·4^k up to 128 MiB are simulated ({@link #inSearch}:
     * every protocol runs in its bandwidth regime long before, and the larger rows cost most of the simulation time);
     * the final errors are computed on every row.
     */

    private final FixturePredictor predictor = new FixturePredictor();
    private final int maxEvalPerBlock;
    private final Predicate<MeasuredRow> search;
    /** Fitting ccsim's own kernels ({@link FitBlocks#kernel}) rather than NCCL's fixtures. */
    private final boolean kernel;
    private final Map<Protocol, Double> minPipelineBytes = new EnumMap<>(Protocol.class);
    private FitObjective objective;

    /**
     * A fitter for NCCL's fixtures: the search simulates the sizes {@link #inSearch} accepts, 64 KiB size classes.
     *
     * @param maxEvalPerBlock objective evaluations allowed per block and round (≥ 20)
     */
    ProfileFitter(int maxEvalPerBlock) {
        this(maxEvalPerBlock, ProfileFitter::inSearch, ErrorTable.LARGE_BYTES);
    }

    /**
     * @param maxEvalPerBlock objective evaluations allowed per block and round (≥ 20)
     * @param search          the rows simulated during the search (all rows are scored at the end)
     * @param boundary        size class boundary of the result's error table, bytes
     */
    ProfileFitter(int maxEvalPerBlock, Predicate<MeasuredRow> search, long boundary) {
        this(maxEvalPerBlock, search, boundary, false);
    }

    private ProfileFitter(int maxEvalPerBlock, Predicate<MeasuredRow> search, long boundary, boolean kernel) {
        if (maxEvalPerBlock < 20) throw new IllegalArgumentException("maxEvalPerBlock must be >= 20, got " + maxEvalPerBlock);
        if (boundary < 1) throw new IllegalArgumentException("size class boundary must be >= 1 B, got " + boundary);
        this.kernel = kernel;
        this.maxEvalPerBlock = maxEvalPerBlock;
        this.search = search;
        this.objective = FitObjective.of(boundary);
    }

    /** A fitter for the CudaExecutor's own timings: every row searched, 1 MiB size classes. */
    static ProfileFitter forKernelTimings(int maxEvalPerBlock) {
        return forKernelTimings(maxEvalPerBlock, r -> true);
    }

    /** As {@link #forKernelTimings(int)}, simulating only the rows {@code search} accepts while searching. */
    static ProfileFitter forKernelTimings(int maxEvalPerBlock, Predicate<MeasuredRow> search) {
        return new ProfileFitter(maxEvalPerBlock, search, ErrorTable.KERNEL_LARGE_BYTES, true);
    }

    /**
     * Lowers (or raises) the smallest forwarding unit the NCCL fit may choose for protocol {@code p}'s families,
     * bytes (default {@value FitBlocks#NCCL_MIN_PIPELINE_BYTES}). NCCL's LL and LL128 forward line by line, so a
     * chain's fill time follows a small unit; Simple keeps 64 KiB for the scale case.
     *
     * @return this fitter
     * @throws IllegalArgumentException unless {@code bytes} is in [1024, 4194304)
     */
    ProfileFitter withMinPipelineBytes(Protocol p, double bytes) {
        if (!(bytes >= 1024 && bytes < 4194304.0)) {
            throw new IllegalArgumentException("min pipeline bytes of " + p.ncclName() + " must be in [1024, 4194304), got " + bytes);
        }
        minPipelineBytes.put(p, bytes);
        return this;
    }

    /** Weighs the rows from the size class boundary {@code w} times in the search ({@link FitObjective#withLargeRowWeight}); returns this. */
    ProfileFitter withLargeRowWeight(double w) {
        objective = objective.withLargeRowWeight(w);
        return this;
    }

    /** Searches on each group's median against its bound ({@link FitObjective#withGroupCriterion}); returns this. */
    ProfileFitter withGroupCriterion(double small, double large, double margin) {
        objective = objective.withGroupCriterion(small, large, margin);
        return this;
    }

    /** The search's loss of {@code preds} ({@link FitObjective#searchLoss}). */
    double searchLoss(List<Prediction> preds) { return objective.searchLoss(preds); }

    /** Whether a row of an NCCL fit is simulated during the search: the sizes 8·4^k up to 128 MiB. */
    static boolean inSearch(MeasuredRow r) {
        long b = r.bytes();
        boolean pow4 = Long.bitCount(b) == 1 && (Long.numberOfTrailingZeros(b) - 3) % 2 == 0;
        return pow4 && b <= 128L << 20;
    }

    /** The blocks this fitter fits on {@code profile}, in order. */
    List<FitBlock> blocks(CalibrationProfile profile) {
        return kernel ? FitBlocks.kernel(profile) : FitBlocks.nccl(profile, minPipelineBytes);
    }

    /** The names of the blocks this fitter fits on {@code profile}, in order. */
    List<String> blockNames(CalibrationProfile profile) {
        return blocks(profile).stream().map(FitBlock::name).toList();
    }

    /** The names of a kernel fit's blocks, in order. */
    static List<String> kernelBlockNames() {
        return FitBlocks.kernel(null).stream().map(FitBlock::name).toList();
    }

    /** Every parameter the fitter adjusts on {@code profile}, in block order. */
    List<FitParameter> parameters(CalibrationProfile profile) {
        List<FitParameter> all = new ArrayList<>();
        for (FitBlock b : blocks(profile)) all.addAll(b.params());
        return all;
    }

    /**
     * The result of a fit.
     *
     * @param profile     the fitted profile
     * @param predictions its predictions of every row
     * @param errors      their error table
     * @param loss        their mean soft-L1 loss ({@link FitObjective#loss})
     */
    record Result(CalibrationProfile profile, List<Prediction> predictions, ErrorTable errors, double loss) {}

    /** Fits {@code base} to {@code rows} in {@code rounds} rounds of block coordinate descent. */
    Result fit(CalibrationProfile base, List<MeasuredRow> rows, int rounds) {
        return fit(base, rows, rounds, name -> true, step -> { });
    }

    /**
     * As {@link #fit(CalibrationProfile, List, int)}, fitting only the blocks whose name {@code blocks} accepts
     * (block names: "cta LL", "ring Simple", "chain LL128", "tree LL", "p2p Simple", "shared"; for kernel fits
     * also "launch" and "links"), and telling {@code progress} of each block done; the errors are still computed on
     * every row.
     *
     * @throws IllegalArgumentException if {@code rows} is empty
     */
    Result fit(CalibrationProfile base, List<MeasuredRow> rows, int rounds, Predicate<String> blocks, Consumer<BlockProgress> progress) {
        if (rows.isEmpty()) throw new IllegalArgumentException("no fixture rows to fit");
        CalibrationProfile cur = base;
        for (int round = 1; round <= rounds; round++) {
            for (FitBlock b : blocks(base)) {
                if (!blocks.test(b.name())) continue;
                List<MeasuredRow> sel = rows.stream().filter(search).filter(b.rows()).toList();
                if (sel.isEmpty()) continue;
                BlockOptimizer.Step step = BlockOptimizer.fit(cur, b, sel, round, maxEvalPerBlock, objective, predictor);
                progress.accept(step.progress());
                cur = step.profile();
            }
        }
        List<Prediction> preds = predictor.predictAll(cur, rows);
        return new Result(cur, preds, ErrorTable.of(preds, objective.boundary()), FitObjective.loss(preds));
    }
}
