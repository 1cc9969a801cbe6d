package io.ccsim.algorithms.sim;

import io.ccsim.algorithms.plan.Plan;

/**
 * The plan steps that folding a plan's ranks ({@link SimExecution.Folding#RANKS}) reads before it knows which ranks
 * are alike, and the most a run may ask it to read.
 *
 * <p>Contract: {@link #of} is an upper bound of the steps the folding's first pass reads (it reads the channels that
 * channel folding keeps; this counts every channel): per channel, the whole sequence of every actor whose steps the
 * plan cannot key ({@link Plan#sequenceKey} is {@link Plan#NO_KEY} in a lane) and of the first actor of each key;
 * the other actors of a key cost a few steps each and are not counted. Counting reads no step.
 */
public final class FoldingReads {
    /*
     * Why a limit. A plan keys an actor's sequence where it knows that sequences are equal without reading them (a
     * ring all-reduce whose chunks all have one count, a tree, PAT). Where it cannot, the folding reads every step of
     * every rank in every channel it keeps, about 20 ns a step on the 2-core machine of docs/performance.md (a ring
     * all-reduce of 10^9 B on 2,048 GPUs, whose chunks are not all equal: 1.34e8 steps in 2.65 s of JFR samples).
     * Such plans are mostly ones whose ranks really differ: a ring all-reduce whose bytes do not split into equal
     * chunks hands each rank its short chunk at another step, so no two ranks fold (the channels still do), and the
     * simulation then has a worker per rank with all its steps. Up to about 8,192 GPUs that is minutes (2.1e9 reads,
     * about 45 s, then 1.3e8 flows). On 100,000 GPUs (Ring/LL, 2 channels, 1 GiB) it is 100,000 sequences of 199,998
     * steps per channel, 4.0e10 reads (about 13 minutes) before a simulation of 2e10 flows (hours): LIMIT (2^32 reads,
     * about a minute and a half) refuses such runs before they start. The scale benchmark's largest reads are 2.1e6
     * (the 1,024-GPU broadcast, unkeyed) and 2.3e5 (NVLSTree 256 MiB on 1,024 GPUs: keyed, 1.0e7 steps in all).
     */
    /** The most steps a run's folding may read, see the class comment. */
    public static final long LIMIT = 1L << 32;
    /** About how long the folding takes to read one step, ns (measured: see the class comment). */
    public static final double NS_PER_READ = 20;

    private FoldingReads() {
    }

    /** The steps folding {@code plan}'s ranks reads at most (see the class contract). */
    public static long of(Plan plan) {
        return of(plan, c -> true);
    }

    /** The steps the folding reads in the channels {@code simulated} accepts (channel folding's: exactly those). */
    static long of(Plan plan, java.util.function.IntPredicate simulated) {
        long reads = 0;
        java.util.HashSet<Long> keys = new java.util.HashSet<>();
        for (int c = 0; c < plan.nChannels(); c++) {
            if (!simulated.test(c)) continue;
            keys.clear();
            for (int a = 0; a < plan.nActors(); a++) {
                long key = unitKey(plan, a, c);
                if (key != Plan.NO_KEY && !keys.add(key)) continue;
                for (int l = 0; l < plan.nLanes(); l++) reads += plan.stepCount(a, c, l);
            }
        }
        return reads;
    }

    /**
     * The key of actor a's whole step sequence in channel c, its lanes' {@link Plan#sequenceKey}s together, or
     * {@link Plan#NO_KEY} if a lane has none: two actors of one channel with equal keys have equal sequences.
     */
    static long unitKey(Plan plan, int a, int c) {
        long h = RankRefinement.SEED;
        for (int l = 0; l < plan.nLanes(); l++) {
            long k = plan.sequenceKey(a, c, l);
            if (k == Plan.NO_KEY) return Plan.NO_KEY;
            h = RankRefinement.mix(h, k);
        }
        return h == Plan.NO_KEY ? h + 1 : h;
    }
}
