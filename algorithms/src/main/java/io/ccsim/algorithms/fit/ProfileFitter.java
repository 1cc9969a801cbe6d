package io.ccsim.algorithms.fit;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.measurements.MeasuredRow;
import io.ccsim.algorithms.measurements.Measurements;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.FitInfo;
import io.ccsim.algorithms.profile.SimCosts;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.commons.math3.optim.InitialGuess;
import org.apache.commons.math3.optim.MaxEval;
import org.apache.commons.math3.optim.SimpleBounds;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;
import org.apache.commons.math3.optim.nonlinear.scalar.ObjectiveFunction;
import org.apache.commons.math3.optim.nonlinear.scalar.noderiv.BOBYQAOptimizer;

/**
 * Fits the free parameters of a {@link CalibrationProfile} to NCCL measurements (fixtures of
 * tools/nccl-measure) by simulating every row as {@code ccsim perf} does ({@link FixturePredictor}).
 *
 * <h2>Method</h2>
 * The residual of a row is r = log(predicted / measured), so that a 10 % error weighs the same at
 * 8 B and at 1 GiB. The loss is the mean soft-L1 (pseudo-Huber) of r with scale {@value #SCALE}:
 * 2(√(1 + (r/s)²) − 1), quadratic for small errors and linear for outliers, so that a few rows the
 * model cannot explain do not drag the rest. The minimiser is BOBYQA (Powell's bounded derivative-free
 * quadratic model, commons-math3) in the logarithm of each parameter, within its bounds.
 * <p>
 * To keep it fast, the parameters are fitted in blocks that touch disjoint rows (block coordinate
 * descent): per protocol, the ring parameters on the forced Ring/P rows and the default rows NCCL ran
 * with Ring/P of all-gather, reduce-scatter and all-reduce; per protocol, the chain parameters on those of
 * broadcast and reduce; per protocol, the tree latencies on the forced Tree/P rows; the point-to-point latencies
 * on the send/recv and all-to-all rows; then the shared parameters
 * (reduce/copy throughput, NVLink efficiency) on all rows; repeated for a few rounds. During the search
 * only the sizes 8·4^k up to 128 MiB are simulated (every protocol runs in its bandwidth regime long
 * before, and the larger rows cost most of the simulation time); the final errors are computed on every row.
 * <p>
 * Only the simulator's parameters are free (the profile's {@code sim} section, reduce/copy throughput,
 * link efficiency); the Tuner reads none of them, so a fit cannot move NCCL's default choices, which the
 * fixture test checks against NCCL's log.
 */
public final class ProfileFitter {
    /** Scale of the soft-L1 loss on log ratios (≈ 10 %). */
    public static final double SCALE = 0.1;

    private final FixturePredictor predictor = new FixturePredictor();
    private final PrintStream log;
    private final int maxEvalPerBlock;
    private final Predicate<MeasuredRow> search;
    private final long boundary;
    /** Fitting ccsim's own kernels ({@link #kernelBlocks}) rather than NCCL's fixtures. */
    private final boolean kernel;
    private final Map<Protocol, Double> minPipelineBytes = new java.util.EnumMap<>(Protocol.class);
    /** Weight of a row at or above the size class boundary in the search's loss (rows below weigh 1). */
    private double largeRowWeight = 1.0;
    /** Bounds of {@link #withGroupCriterion} on a group's median relative error: below the boundary, and from it (0 = off). */
    private double criterionSmall, criterionLarge;
    /** The fraction of its bound above which {@link #withGroupCriterion} scores a group's median. */
    private double criterionMargin = 1.0;
    /** Weight of the mean soft-L1 in the group criterion's search loss. */
    static final double CRITERION_TIE = 0.02;

    /**
     * @param log             progress output (one line per block), or null for none
     * @param maxEvalPerBlock objective evaluations allowed per block and round (≥ 20)
     */
    public ProfileFitter(PrintStream log, int maxEvalPerBlock) {
        this(log, maxEvalPerBlock, ProfileFitter::inSearch, ErrorTable.LARGE_BYTES);
    }

    /**
     * @param log             progress output (one line per block), or null for none
     * @param maxEvalPerBlock objective evaluations allowed per block and round (≥ 20)
     * @param search          the rows simulated during the search (all rows are scored at the end)
     * @param boundary        size class boundary of the result's error table, bytes (64 KiB for NCCL's fixtures,
     *                        {@link ErrorTable#KERNEL_LARGE_BYTES} for issue 4's check of the CudaExecutor's timings)
     */
    public ProfileFitter(PrintStream log, int maxEvalPerBlock, Predicate<MeasuredRow> search, long boundary) {
        this(log, maxEvalPerBlock, search, boundary, false);
    }


    /**
     * Lowers (or raises) the smallest forwarding unit the NCCL fit may choose for protocol {@code p}'s families,
     * bytes (default {@value #NCCL_MIN_PIPELINE_BYTES}; at least 1,024). NCCL's LL and LL128 forward line by
     * line, so a chain's fill time follows a small unit; Simple keeps 64 KiB for the scale case.
     *
     * @return this fitter
     */
    public ProfileFitter withMinPipelineBytes(Protocol p, double bytes) {
        if (!(bytes >= 1024 && bytes < 4194304.0)) {
            throw new IllegalArgumentException("min pipeline bytes of " + p.ncclName() + " must be in [1024, 4194304), got " + bytes);
        }
        minPipelineBytes.put(p, bytes);
        return this;
    }

    /**
     * Weighs the rows at or above the size class boundary {@code w} times the others in the search's loss (the
     * reported loss stays unweighted). Issue 4's bounds are 15 % below 1 MiB and 5 % from 1 MiB, and the
     * CudaExecutor's trial spread is 5.6 % and 0.8 % there (h200x4-fidelity): a residual from 1 MiB is worth
     * about three below it, which an unweighted fit, with 432 rows below and 624 above, does not say.
     *
     * @param w {@code >= 1}, finite
     * @return this fitter
     */
    public ProfileFitter withLargeRowWeight(double w) {
        if (!(w >= 1) || Double.isInfinite(w)) throw new IllegalArgumentException("large-row weight must be a finite number >= 1, got " + w);
        largeRowWeight = w;
        return this;
    }

    /**
     * Makes the search minimise, instead of the mean soft-L1 of every row, how far each group's median error lies
     * above {@code margin} times its bound ({@code small} below the size class boundary, {@code large} from it):
     * the mean over the groups of max(0, median / bound − margin)², plus the mean soft-L1 over every row (weighted as
     * {@link #withLargeRowWeight} says) scaled by {@value #CRITERION_TIE} (so that the groups within their bounds still
     * pull the parameters to a well-defined point). Issue 4 asks for each group's median within its bound, which the mean over all rows does not target: it
     * lets one group sit at 6 % while others sit at 1 %. The reported loss stays the unweighted mean soft-L1.
     *
     * @return this fitter
     */
    public ProfileFitter withGroupCriterion(double small, double large, double margin) {
        if (!(small > 0 && large > 0 && margin > 0 && margin <= 1)) {
            throw new IllegalArgumentException("group criterion bounds must be > 0 and the margin in (0, 1], got " + small + ", " + large + ", " + margin);
        }
        criterionSmall = small;
        criterionLarge = large;
        criterionMargin = margin;
        return this;
    }

    /**
     * The search's loss: as {@link #loss}, rows from the size class boundary weighing {@link #withLargeRowWeight}; with
     * {@link #withGroupCriterion}, the groups' excess over their bounds plus that loss scaled by {@value #CRITERION_TIE}.
     */
    double searchLoss(List<Prediction> preds) {
        if (criterionSmall == 0) return weightedLoss(preds);
        double s = 0;
        List<ErrorTable.Group> gs = ErrorTable.of(preds, boundary).groups();
        for (ErrorTable.Group g : gs) {
            double x = g.medianError() / (g.large() ? criterionLarge : criterionSmall) - criterionMargin;
            if (x > 0) s += x * x;
        }
        return s / gs.size() + CRITERION_TIE * weightedLoss(preds);
    }

    /** As {@link #loss}, rows from the size class boundary weighing {@link #withLargeRowWeight}. */
    private double weightedLoss(List<Prediction> preds) {
        if (largeRowWeight == 1.0) return loss(preds);
        double s = 0, w = 0;
        for (Prediction p : preds) {
            double r = p.logRatio() / SCALE;
            double wi = p.row().bytes() >= boundary ? largeRowWeight : 1.0;
            s += wi * 2 * (Math.sqrt(1 + r * r) - 1);
            w += wi;
        }
        return s / w;
    }

    private ProfileFitter(PrintStream log, int maxEvalPerBlock, Predicate<MeasuredRow> search, long boundary, boolean kernel) {
        this.kernel = kernel;
        if (maxEvalPerBlock < 20) throw new IllegalArgumentException("maxEvalPerBlock must be >= 20, got " + maxEvalPerBlock);
        if (boundary < 1) throw new IllegalArgumentException("size class boundary must be >= 1 B, got " + boundary);
        this.log = log;
        this.maxEvalPerBlock = maxEvalPerBlock;
        this.search = search;
        this.boundary = boundary;
    }

    /** A fitter for the CudaExecutor's own timings ({@link Measurements#kernelTimings}): every row searched, 1 MiB size classes. */
    public static ProfileFitter forKernelTimings(PrintStream log, int maxEvalPerBlock) {
        return forKernelTimings(log, maxEvalPerBlock, r -> true);
    }

    /** As {@link #forKernelTimings(PrintStream, int)}, simulating only the rows {@code search} accepts while searching. */
    public static ProfileFitter forKernelTimings(PrintStream log, int maxEvalPerBlock, Predicate<MeasuredRow> search) {
        return new ProfileFitter(log, maxEvalPerBlock, search, ErrorTable.KERNEL_LARGE_BYTES, true);
    }

    /**
     * Smallest forwarding unit a kernel fit may choose, bytes. ccsim's kernels forward LL/LL128 per line, and
     * unsynchronised channels pipeline a Simple chain across channels on a shared link (one channel's hop 2
     * overlaps another's hop 1), which the folded, synchronised channels of the simulation only show with a
     * unit below the step size. The NCCL fit keeps 64 KiB (its profile runs the 1,024-GPU scale case).
     */
    static final double KERNEL_MIN_PIPELINE_BYTES = 4096.0;

    /**
     * The blocks of a fit of ccsim's own kernels, whose profile has {@code sim.cta} costs for every protocol:
     * per family and protocol the latencies and the forwarding unit; per protocol the thread block's stream
     * costs on every row of that protocol (one kernel runs every family); then NVLink and duplex efficiency.
     */
    private static List<Block> kernelBlocks(CalibrationProfile base) {
        List<Block> b = new ArrayList<>();
        // every family's launch latency first, together, on the rows below 1 MiB (where they weigh most, and which
        // simulate fast): a profile fitted before its timing's graph launch costs were known (sim.graph_launch_us)
        // carries them in its latencies, differently per family
        List<FitParameter> lat = new ArrayList<>();
        for (SimCosts.Family f : SimCosts.Family.values()) {
            for (Protocol p : Protocol.values()) lat.add(FitParameter.sim(f, p, KERNEL_MIN_PIPELINE_BYTES, false, false).get(0));
        }
        b.add(new Block("launch", lat, r -> r.bytes() < (1L << 20)));
        // the streams first: they set every large row, which the latencies barely move
        for (Protocol p : Protocol.values()) {
            b.add(new Block("cta " + p.ncclName(), FitParameter.cta(p, hasCacheEffect(base, p), limitsGpuSend(base, p), narrowsOverlap(base, p)), r -> r.forced() && r.forcedProto().get() == p));
        }
        for (SimCosts.Family f : SimCosts.Family.values()) {
            for (Protocol p : Protocol.values()) {
                b.add(new Block(f.jsonName() + " " + p.ncclName(), FitParameter.sim(f, p, KERNEL_MIN_PIPELINE_BYTES, false, hasRecvStepOverhead(base, f, p)),
                        r -> r.forced() && r.forcedProto().get() == p && SimCosts.Family.of(r.forcedAlgo().get(), r.op()) == f));
            }
        }
        b.add(new Block("links", FitParameter.links(), r -> true));
        return b;
    }

    /**
     * Whether protocol {@code p}'s stream costs in {@code profile} have a cache effect to fit (l2_bytes and
     * l2_miss_factor): not when its miss factor is 1 (none), or without a profile or costs (block names only).
     */
    private static boolean hasCacheEffect(CalibrationProfile profile, Protocol p) {
        return profile == null || profile.sim().ctaOf(p) == null || profile.sim().ctaOf(p).l2MissFactor() != 1.0;
    }

    /** Whether {@code profile} gives family {@code f}'s protocol {@code p} its own overhead for steps that send nothing. */
    private static boolean hasRecvStepOverhead(CalibrationProfile profile, SimCosts.Family f, Protocol p) {
        return profile != null && profile.sim().get(f, p).hasRecvStepOverhead();
    }

    /** Whether protocol {@code p}'s stream costs in {@code profile} narrow the send overlap to part of the loads. */
    private static boolean narrowsOverlap(CalibrationProfile profile, Protocol p) {
        return profile != null && profile.sim().ctaOf(p) != null && profile.sim().ctaOf(p).narrowsOverlap();
    }

    private static boolean limitsGpuSend(CalibrationProfile profile, Protocol p) {
        return profile != null && profile.sim().ctaOf(p) != null && profile.sim().ctaOf(p).limitsGpuSend();
    }

    /** The names of a kernel fit's blocks, in order. */
    public static List<String> kernelBlockNames() {
        return kernelBlocks(null).stream().map(Block::name).toList();
    }

    /** The result of a fit: the fitted profile and its errors on every row. */
    public record Result(CalibrationProfile profile, List<Prediction> predictions, ErrorTable errors, double loss) {}

    /** Mean soft-L1 loss of the log ratios of {@code preds}. */
    public static double loss(List<Prediction> preds) {
        double s = 0;
        for (Prediction p : preds) {
            double r = p.logRatio() / SCALE;
            s += 2 * (Math.sqrt(1 + r * r) - 1);
        }
        return s / preds.size();
    }

    /** Whether a row is simulated during the search (see the class comment). */
    static boolean inSearch(MeasuredRow r) {
        long b = r.bytes();
        boolean pow4 = Long.bitCount(b) == 1 && (Long.numberOfTrailingZeros(b) - 3) % 2 == 0;
        return pow4 && b <= 128L << 20;
    }

    /** Protocols the Tuner picks for send/recv and all-to-all on the fixtures (see the fit report). */
    static final List<Protocol> P2P_PROTOCOLS = List.of(Protocol.LL, Protocol.SIMPLE);

    private record Block(String name, List<FitParameter> params, Predicate<MeasuredRow> rows) {}

    /**
     * The blocks of an NCCL fit of {@code profile}. For each protocol with {@code sim.cta} costs
     * ({@link CtaCosts}), a "cta P" block comes first: the thread block's stream costs on every row that ran
     * with protocol P (forced rows of P, default rows NCCL logged with P), as in {@link #kernelBlocks}; the
     * per-channel limits of such a protocol are then not fitted (the streams set the rate).
     */
    private List<Block> blocks(CalibrationProfile profile) {
        List<Block> b = new ArrayList<>();
        for (Protocol p : Protocol.values()) {
            if (profile.sim().ctaOf(p) == null) continue;
            b.add(new Block("cta " + p.ncclName(), FitParameter.cta(p, hasCacheEffect(profile, p), limitsGpuSend(profile, p), narrowsOverlap(profile, p)), r -> r.forced()
                    ? r.forcedProto().get() == p
                    : r.ncclProto().orElse(null) == p));
        }
        // ring and chain: the forced Ring/P rows and the default rows NCCL ran with Ring/P, split by op
        // (SimCosts.Family#of: broadcast and reduce are the chain)
        for (SimCosts.Family f : List.of(SimCosts.Family.RING, SimCosts.Family.CHAIN)) {
            for (Protocol p : Protocol.values()) {
                b.add(new Block(f.jsonName() + " " + p.ncclName(), sim(profile, f, p), r -> SimCosts.Family.of(Algorithm.RING, r.op()) == f
                        && (r.forced()
                        ? r.forcedAlgo().get() == Algorithm.RING && r.forcedProto().get() == p
                        : r.ncclAlgo().orElse(null) == Algorithm.RING && r.ncclProto().orElse(null) == p)));
            }
        }
        for (Protocol p : Protocol.values()) {
            b.add(new Block("tree " + p.ncclName(), sim(profile, SimCosts.Family.TREE, p), r -> r.forced()
                    && r.forcedAlgo().get() == Algorithm.TREE && r.forcedProto().get() == p));
        }
        // p2p rows carry no NCCL log of the protocol; the Tuner's choice decides which protocol's costs apply
        // forced P2P rows (the CudaExecutor's timings) name their protocol
        for (Protocol p : Protocol.values()) {
            boolean tunerPicks = P2P_PROTOCOLS.contains(p);
            b.add(new Block("p2p " + p.ncclName(), sim(profile, SimCosts.Family.P2P, p), r -> r.forced()
                    ? r.forcedAlgo().get() == Algorithm.P2P && r.forcedProto().get() == p
                    : tunerPicks && r.ncclAlgo().isEmpty()));
        }
        b.add(new Block("shared", FitParameter.shared(), r -> true));
        return b;
    }

    /**
     * The family parameters of an NCCL fit. The per-channel limit stays free with {@code sim.cta} costs too (a
     * step's rate is the smaller of the limit and the block's stream rate): NCCL's tree kernels run slower per
     * byte than the ring's streams predict, which the limit of the tree family absorbs.
     */
    private List<FitParameter> sim(CalibrationProfile profile, SimCosts.Family f, Protocol p) {
        return FitParameter.sim(f, p, minPipelineBytes.getOrDefault(p, NCCL_MIN_PIPELINE_BYTES), true, hasRecvStepOverhead(profile, f, p));
    }

    /**
     * Smallest forwarding unit of an NCCL fit by default, bytes: the built-in profiles run the 1,024-GPU scale
     * case (Ring/Simple), whose simulation cost grows with the sub-transfers per step (see
     * {@link FitParameter#sim(SimCosts.Family, Protocol)}).
     */
    static final double NCCL_MIN_PIPELINE_BYTES = 65536.0;

    /** Every parameter the fitter adjusts on {@code profile}, in block order. */
    public List<FitParameter> parameters(CalibrationProfile profile) {
        List<FitParameter> all = new ArrayList<>();
        for (Block b : kernel ? kernelBlocks(profile) : blocks(profile)) all.addAll(b.params());
        return all;
    }

    /** Fits {@code base} to {@code rows} in {@code rounds} rounds of block coordinate descent. */
    public Result fit(CalibrationProfile base, List<MeasuredRow> rows, int rounds) {
        return fit(base, rows, rounds, name -> true);
    }

    /**
     * As {@link #fit(CalibrationProfile, List, int)}, fitting only the blocks whose name {@code blocks} accepts
     * (block names: "cta LL", "ring Simple", "chain LL128", "tree LL", "p2p Simple", "shared"; for kernel fits
     * also "links"); the errors are still computed on every row.
     */
    public Result fit(CalibrationProfile base, List<MeasuredRow> rows, int rounds, Predicate<String> blocks) {
        if (rows.isEmpty()) throw new IllegalArgumentException("no fixture rows to fit");
        CalibrationProfile cur = base;
        for (int round = 1; round <= rounds; round++) {
            for (Block b : kernel ? kernelBlocks(base) : blocks(base)) {
                if (!blocks.test(b.name())) continue;
                List<MeasuredRow> sel = rows.stream().filter(search).filter(b.rows()).toList();
                if (sel.isEmpty()) continue;
                cur = fitBlock(cur, b, sel, round);
            }
        }
        List<Prediction> preds = predictor.predictAll(cur, rows);
        return new Result(cur, preds, ErrorTable.of(preds, boundary), loss(preds));
    }

    private CalibrationProfile fitBlock(CalibrationProfile start, Block b, List<MeasuredRow> rows, int round) {
        List<FitParameter> ps = b.params();
        int n = ps.size();
        double[] x0 = new double[n], lo = new double[n], hi = new double[n];
        for (int i = 0; i < n; i++) {
            FitParameter f = ps.get(i);
            lo[i] = Math.log(f.lower());
            hi[i] = Math.log(f.upper());
            x0[i] = Math.min(hi[i], Math.max(lo[i], Math.log(f.get().applyAsDouble(start))));
        }
        double before = searchLoss(predictor.predictAll(start, rows));
        // BOBYQA throws at the evaluation budget instead of returning its best point, so the
        // objective remembers the best point it has seen.
        double[] bestX = x0.clone();
        double[] bestV = {before};
        ObjectiveFunction obj = new ObjectiveFunction(x -> {
            double v = searchLoss(predictor.predictAll(FitParameter.apply(start, ps, exp(x)), rows));
            if (v < bestV[0]) {
                bestV[0] = v;
                System.arraycopy(x, 0, bestX, 0, n);
            }
            return v;
        });
        // BOBYQA spends 2n + 1 evaluations on its first model: a block of many parameters gets 6 per parameter at least
        int budget = Math.max(maxEvalPerBlock, 6 * n);
        BOBYQAOptimizer opt = new BOBYQAOptimizer(2 * n + 1, 0.25, 1e-3);
        try {
            opt.optimize(new MaxEval(budget), obj, GoalType.MINIMIZE, new InitialGuess(x0), new SimpleBounds(lo, hi));
        } catch (org.apache.commons.math3.exception.TooManyEvaluationsException e) {
            // budget spent: keep the best point seen
        }
        CalibrationProfile out = bestV[0] < before ? FitParameter.apply(start, ps, exp(bestX)) : start;
        double after = bestV[0];
        if (log != null) {
            StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "round %d %-11s rows=%3d evals=%3d loss %.4f -> %.4f:",
                    round, b.name(), rows.size(), opt.getEvaluations(), before, after));
            for (FitParameter f : ps) sb.append(String.format(Locale.ROOT, " %s=%.4g", f.name(), f.get().applyAsDouble(out)));
            log.println(sb);
        }
        return out;
    }

    private static double[] exp(double[] x) {
        double[] v = new double[x.length];
        for (int i = 0; i < x.length; i++) v[i] = Math.exp(x[i]);
        return v;
    }

    /** {@code profile} with a {@code fit} section: source, date and the per-group median errors of {@code result}. */
    public static CalibrationProfile withFitInfo(CalibrationProfile profile, ErrorTable errors, String source, String date) {
        Map<String, Double> res = new LinkedHashMap<>();
        for (ErrorTable.Group g : errors.groups()) {
            res.put("median_rel_err " + g.key(), Math.round(g.medianError() * 10000) / 10000.0);
        }
        return profile.withFit(Optional.of(new FitInfo(source, date, res)));
    }

    /**
     * Command line: {@code ProfileFitter --base h200|FILE --out FILE [--rounds 2] [--max-eval 60]
     * [--date YYYY-MM-DD] [--note TEXT] [--cta LL,LL128,Simple] [--blocks REGEX] FIXTURE.json...}. Prints
     * progress and the error table. {@code --cta} gives the listed protocols thread-block stream costs
     * ({@code sim.cta}) where the base has none, seeded with {@link KernelFit#CTA_SEEDS} (their per-channel
     * limits lifted to 400 GB/s), and fits them; {@code --blocks} fits only the blocks whose name matches the
     * regular expression (e.g. {@code "cta LL|chain LL|tree LL"}) and leaves the others as they are;
     * {@code --min-pipeline LL=4096} sets a protocol's smallest forwarding unit ({@link #withMinPipelineBytes}).
     */
    public static void main(String[] args) throws IOException {
        String base = "h200";
        Path out = null;
        int rounds = 2, maxEval = 60;
        String date = LocalDate.now(ZoneOffset.UTC).toString();
        String note = "";
        java.util.Set<Protocol> cta = java.util.EnumSet.noneOf(Protocol.class);
        java.util.regex.Pattern only = null;
        Map<Protocol, Double> minPipe = new java.util.EnumMap<>(Protocol.class);
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--base": base = value(args, ++i, a); break;
                case "--out": out = Path.of(value(args, ++i, a)); break;
                case "--rounds": rounds = Integer.parseInt(value(args, ++i, a)); break;
                case "--max-eval": maxEval = Integer.parseInt(value(args, ++i, a)); break;
                case "--date": date = value(args, ++i, a); break;
                case "--note": note = value(args, ++i, a); break;
                case "--cta":
                    for (String t : value(args, ++i, a).split(",")) cta.add(protocolOf(t.trim()));
                    break;
                case "--blocks": only = java.util.regex.Pattern.compile(value(args, ++i, a)); break;
                case "--min-pipeline":
                    for (String t : value(args, ++i, a).split(",")) {
                        String[] kv = t.split("=");
                        if (kv.length != 2) throw new IllegalArgumentException("--min-pipeline: expected PROTO=BYTES[,PROTO=BYTES], got '" + t + "'");
                        minPipe.put(protocolOf(kv[0].trim()), Double.parseDouble(kv[1].trim()));
                    }
                    break;
                default:
                    if (a.startsWith("--")) {
                        throw new IllegalArgumentException("unknown option " + a
                                + "; valid: --base, --out, --rounds, --max-eval, --date, --note, --cta, --blocks, --min-pipeline");
                    }
                    files.add(Path.of(a));
            }
        }
        if (out == null || files.isEmpty()) {
            throw new IllegalArgumentException("usage: ProfileFitter --base h200|FILE --out FILE [--rounds N] [--max-eval N] [--date D] [--note T] FIXTURE.json...");
        }
        CalibrationProfile start = CalibrationProfile.BUILTIN_NAMES.contains(base) ? CalibrationProfile.builtin(base)
                : CalibrationProfile.load(Path.of(base));
        start = KernelFit.withCtaSeeds(start, cta);
        List<MeasuredRow> rows = Measurements.calibrationFixtures(files);
        java.util.regex.Pattern blockPattern = only;
        ProfileFitter fitter = new ProfileFitter(System.out, maxEval);
        for (Map.Entry<Protocol, Double> e : minPipe.entrySet()) fitter.withMinPipelineBytes(e.getKey(), e.getValue());
        List<String> fitted = new ArrayList<>();
        for (Block b : fitter.blocks(start)) {
            if (blockPattern == null || blockPattern.matcher(b.name()).matches()) {
                for (FitParameter f : b.params()) fitted.add(f.name());
            }
        }
        if (fitted.isEmpty()) throw new IllegalArgumentException("--blocks " + only + " matches no block; blocks: " + fitter.blockNames(start));
        Result r = fitter.fit(start, rows, rounds,
                name -> blockPattern == null || blockPattern.matcher(name).matches());
        System.out.print(r.errors().format());
        System.out.printf(Locale.ROOT, "loss %.4f over %d rows%n", r.loss(), rows.size());
        StringBuilder src = new StringBuilder("Fitted by io.ccsim.algorithms.fit.ProfileFitter (BOBYQA on soft-L1 of log(pred/meas), ")
                .append(rounds).append(" rounds) to NCCL 2.28.9 graph-replay timings on 4 x H200 NVSwitch: ");
        for (int i = 0; i < files.size(); i++) src.append(i > 0 ? ", " : "").append(files.get(i).getFileName());
        src.append(" (calibration/nccl-h200/, how taken: tools/nccl-measure/README.md). Fitted: ");
        src.append(String.join(", ", fitted)).append(". Only the simulator's numbers (sim section, reduce/copy throughput, link efficiency) are fitted; protocols, tree and tuner stay NCCL's constants so that the Tuner chooses as NCCL does (");
        src.append(start.fit().map(FitInfo::source).orElse("base profile")).append(")");
        if (!note.isEmpty()) src.append(". ").append(note);
        r.profile().write(out);
        withFitInfo(r.profile(), r.errors(), src.toString(), date).write(out);
        System.out.println("wrote " + out);
    }

    private List<String> blockNames(CalibrationProfile p) {
        return blocks(p).stream().map(Block::name).toList();
    }

    /** The protocol named {@code t} as NCCL spells it (case-insensitive). */
    private static Protocol protocolOf(String t) {
        for (Protocol p : Protocol.values()) {
            if (p.ncclName().equalsIgnoreCase(t)) return p;
        }
        throw new IllegalArgumentException("--cta: unknown protocol '" + t + "'; valid: LL, LL128, Simple");
    }

    private static String value(String[] args, int i, String opt) {
        if (i >= args.length) throw new IllegalArgumentException(opt + " needs a value");
        return args[i];
    }
}
