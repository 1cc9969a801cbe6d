package io.ccsim.algorithms.ddp;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** DDP steps of one profile over several {@code bucket_cap_mb} values, and the best of them. */
public final class DdpSweep {
    /**
     * One cap of a sweep.
     *
     * @param capMb         {@code bucket_cap_mb} as given to DDP
     * @param firstCapBytes the first bucket's limit that applied
     * @param result        the simulated step
     * @param measured      the profile's measured run at this cap, if it has one
     */
    public record Point(double capMb, long firstCapBytes, DdpResult result, Optional<MeasuredRun> measured) { }

    private DdpSweep() {}

    /**
     * Simulates a step for each cap of {@code capsMb}, each given to DDP explicitly (so the first bucket's limit is the
     * cap too, as DDP does for an explicit {@code bucket_cap_mb}).
     */
    public static List<Point> run(StepProfile profile, double[] capsMb, CollectiveCosts costs, StepOptions options) {
        List<Point> out = new ArrayList<>(capsMb.length);
        for (double mb : capsMb) {
            long cap = BucketAssigner.capBytes(mb);
            DdpResult r = DdpStep.simulate(profile, BucketAssigner.assign(profile, cap, cap), costs, options);
            out.add(new Point(mb, cap, r, measuredAt(profile, mb)));
        }
        return out;
    }

    /** The profile's measured run at {@code capMb}, if any. */
    public static Optional<MeasuredRun> measuredAt(StepProfile profile, double capMb) {
        for (MeasuredRun m : profile.measured()) if (m.bucketCapMb() == capMb) return Optional.of(m);
        return Optional.empty();
    }

    /** The point with the shortest simulated iteration (the smaller cap on a tie). */
    public static Point best(List<Point> points) {
        Point best = null;
        for (Point p : points) {
            if (best == null || p.result().iterationPs() < best.result().iterationPs()) best = p;
        }
        if (best == null) throw new IllegalArgumentException("an empty sweep has no best cap");
        return best;
    }

    /** The measured point with the shortest median, if any point was measured. */
    public static Optional<Point> bestMeasured(List<Point> points) {
        Point best = null;
        for (Point p : points) {
            if (p.measured().isEmpty()) continue;
            if (best == null || p.measured().get().medianMs() < best.measured().get().medianMs()) best = p;
        }
        return Optional.ofNullable(best);
    }
}
