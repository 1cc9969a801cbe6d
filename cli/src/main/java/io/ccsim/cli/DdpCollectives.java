package io.ccsim.cli;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.ddp.CollectiveCost;
import io.ccsim.algorithms.ddp.CollectiveCosts;
import io.ccsim.algorithms.ddp.SimulatedCollectiveCosts;
import io.ccsim.algorithms.perf.PerfRow;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.scale.Extrapolation;
import io.ccsim.algorithms.scale.Extrapolator;
import io.ccsim.algorithms.scale.NotExtrapolatedException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The times of {@code ccsim ddp}'s collectives by its {@code --sim-mode}: each distinct call (op, size, type) simulated
 * once, folded (exact) on the target cluster, or extrapolated from exact simulations on fewer of the same nodes
 * ({@link Extrapolator}, as {@code perf --sim-mode extrapolated} reads a size), or, under {@code auto}, extrapolated
 * where NCCL's choice at the target has a scaling law and folded where it has none, or one that reads it beyond the
 * scale goals' bound on a target small enough to fold ({@link AutoAtTarget}). What each call was found by is
 * kept for the output ({@link #found}).
 *
 * <p>Contract: in extrapolated mode a call whose choice has no law is refused with {@link UserException}, one line
 * naming the call and what is valid; the target cluster is built only when a call is simulated folded, at most once.
 */
final class DdpCollectives implements CollectiveCosts {
    /**
     * How one distinct call was timed.
     *
     * @param extrapolation the law's reading at the target, or null where the call was simulated folded
     * @param whyFolded     under {@code --sim-mode auto}, why a call was simulated folded (NCCL's choice has no law
     *                      there, or one beyond the scale goals' bound: {@link AutoAtTarget}); null otherwise
     */
    record Found(CollectiveOp op, long bytes, DataType dtype, CollectiveCost cost, Extrapolation extrapolation,
                 String whyFolded) { }

    private record Key(CollectiveOp op, long bytes, DataType dtype) { }

    private final Extrapolator extrapolator;
    private final SampleClusters clusters;
    private final Supplier<PerfRunner> target;
    private final Main.Session session;
    private final Map<Key, Found> found = new LinkedHashMap<>();
    private PerfRunner targetRunner;
    private SimulatedCollectiveCosts folded;
    private volatile PerfRunner running;

    /**
     * @param extrapolator the extrapolator to the target (null: every call folded on {@code target})
     * @param clusters     the sample clusters behind {@code extrapolator} (null with it)
     * @param target       builds the runner on the target cluster, called at most once, when a call is folded (null:
     *                     no call may be folded, {@code --sim-mode extrapolated})
     */
    DdpCollectives(Extrapolator extrapolator, SampleClusters clusters, Supplier<PerfRunner> target, Main.Session session) {
        if (extrapolator == null && target == null) throw new IllegalArgumentException("neither mode given");
        this.extrapolator = extrapolator;
        this.clusters = clusters;
        this.target = target;
        this.session = session;
    }

    @Override
    public CollectiveCost cost(CollectiveOp op, long bytes, DataType dtype) {
        Key k = new Key(op, bytes, dtype);
        Found f = found.get(k);
        if (f != null) return f.cost();
        f = extrapolator == null ? fold(op, bytes, dtype, null) : extrapolate(op, bytes, dtype);
        found.put(k, f);
        return f.cost();
    }

    /** The distinct calls timed so far, in the order first made. */
    List<Found> found() {
        return new ArrayList<>(found.values());
    }

    /** How far the simulation running now is, 0..1 (0 between simulations). */
    double runningFraction() {
        PerfRunner r = running;
        return r == null ? 0 : r.runningFraction();
    }

    private Found extrapolate(CollectiveOp op, long bytes, DataType dtype) {
        Extrapolator.SizePlan p;
        try {
            long count = SimulatedCollectiveCosts.countOf(op, bytes, dtype, extrapolator.target().nRanks());
            p = extrapolator.planCount(op, count, dtype, ReduceOp.SUM, 0);
        } catch (NotExtrapolatedException e) {
            if (target != null) return fold(op, bytes, dtype, e.getMessage());
            if (e.tooSmall()) throw new UserException("ddp --sim-mode extrapolated: " + e.getMessage(), e);
            throw new UserException("ddp --sim-mode extrapolated: " + e.getMessage() + "; valid here: --sim-mode auto"
                    + " (folded where no law serves) or folded, or NCCL_ALGO or NCCL_PROTO for a choice with a law", e);
        }
        if (target != null && AutoAtTarget.simulates(p, extrapolator.target().nRanks(), true)) {
            try {
                return fold(op, bytes, dtype, AutoAtTarget.why(p, extrapolator.target().nodes()));
            } catch (UserException e) {
                // the target's folded run does not fit this heap (refused before it is built): the law answers, its
                // bound stated
            }
        }
        List<Plan> plans = new ArrayList<>();
        for (Extrapolator.Sample s : p.samples()) plans.add(extrapolator.samplePlan(p, s));
        session.budget().check("ddp --sim-mode extrapolated", n -> RunBudget.samples(clusters.built(), plans, n), 1, 0);
        double[] us = new double[p.samples().size()];
        for (int i = 0; i < us.length; i++) {
            Extrapolator.Sample s = p.samples().get(i);
            PerfRunner r = extrapolator.runnerAt(s.nodes());
            running = r;
            try {
                us[i] = extrapolator.simulate(p, s, r);
            } finally {
                running = null;
            }
        }
        Extrapolation x = extrapolator.fit(p, us);
        PerfRow row = x.row();
        return new Found(op, bytes, dtype, new CollectiveCost(Math.round(row.timeUs() * 1e6), row.algo(), row.proto(),
                row.channels()), x, null);
    }

    private Found fold(CollectiveOp op, long bytes, DataType dtype, String why) {
        if (folded == null) {
            targetRunner = target.get();
            folded = new SimulatedCollectiveCosts(targetRunner);
        }
        running = targetRunner;
        try {
            return new Found(op, bytes, dtype, folded.cost(op, bytes, dtype), null, why);
        } finally {
            running = null;
        }
    }

    /**
     * The text footer of a run that extrapolated ({@code auto} says so): the mode, each extrapolated call's law,
     * samples and fit ({@link ExtrapolatedPerf#modeLines}), then the calls simulated folded and why.
     */
    List<String> modeLines(boolean auto) {
        List<Extrapolation> read = new ArrayList<>();
        List<String> foldedLines = new ArrayList<>();
        for (Found f : found.values()) {
            if (f.extrapolation() != null) {
                read.add(f.extrapolation());
            } else {
                foldedLines.add(String.format(Locale.ROOT, "#   folded (exact) on all %,d ranks: %s", // names the call
                        extrapolator.target().nRanks(), f.whyFolded()));
            }
        }
        List<String> lines = new ArrayList<>();
        if (read.isEmpty()) {
            lines.add(String.format(Locale.ROOT, "# mode: folded (exact)%s: no collective's choice at %,d nodes has a"
                    + " scaling law that reads it within the scale goals' 2 %%", auto ? " (--sim-mode auto)" : "", extrapolator.target().nodes()));
        } else {
            lines.addAll(ExtrapolatedPerf.modeLines(read, extrapolator.target().nodes(), auto, true, false));
        }
        lines.addAll(foldedLines);
        return lines;
    }
}
