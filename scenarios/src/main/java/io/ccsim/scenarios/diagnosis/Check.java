package io.ccsim.scenarios.diagnosis;

import io.ccsim.scenarios.format.Units;
import java.util.ArrayList;
import java.util.List;

/**
 * One family of findings of the {@link Analyzer}: reads a run's {@link Trace} and reports what it
 * finds, in the order an on-call engineer would write it down. A check is created for one trace and
 * run once.
 */
abstract class Check {
    final Trace t;
    private final List<Diagnosis> out = new ArrayList<>();

    Check(Trace t) { this.t = t; }

    /** Looks for this family's findings and {@link #add}s them. */
    abstract void run();

    /** Runs the check; its findings, in order. */
    final List<Diagnosis> findings() {
        run();
        return out;
    }

    final void add(Category c, List<Integer> ranks, List<String> links, String summary) {
        out.add(new Diagnosis(c, ranks, links, summary));
    }

    /** The topology id of a rank's GPU ("?" if unknown). */
    final String gpu(int rank) { return t.gpuIds().getOrDefault(rank, "?"); }

    /** A duration for a message ({@link Units#formatDuration}). */
    static String s(long ps) { return Units.formatDuration(ps); }

    /** Ranks as sorted ranges ({@link RankRanges#format}). */
    static String ranges(Iterable<Integer> ranks) { return RankRanges.format(ranks); }
}
