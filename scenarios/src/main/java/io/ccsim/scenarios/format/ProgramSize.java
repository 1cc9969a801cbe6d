package io.ccsim.scenarios.format;

import java.util.List;

/**
 * What a program amounts to, read without running it, as upper bounds (an {@code if} counts its larger branch):
 * the collective calls a rank makes and the training iterations it runs. A run simulates and records every call, so
 * the calls bound its events and memory before it starts.
 */
public final class ProgramSize {
    private ProgramSize() {}

    /**
     * The most collective calls (collectives, barriers, symmetric-memory all-reduces) one rank of {@code program}
     * makes, every {@code repeat} unrolled; {@link Long#MAX_VALUE} if it overflows.
     */
    public static long calls(List<Step> program) {
        long n = 0;
        for (Step s : program) n = add(n, calls(s));
        return n;
    }

    private static long calls(Step s) {
        if (s instanceof Step.Collective || s instanceof Step.Barrier || s instanceof Step.SymmAllReduce) return 1;
        if (s instanceof Step.Repeat r) return multiply(r.times(), calls(r.body()));
        if (s instanceof Step.If i) return Math.max(calls(i.then()), calls(i.otherwise()));
        return 0;
    }

    /**
     * The most training iterations of {@code program}: the largest {@code times} of a {@code repeat} (the first one
     * a rank reaches is its training loop), 0 if it has none (no iteration ever starts).
     */
    public static int iterations(List<Step> program) {
        int n = 0;
        for (Step s : program) {
            if (s instanceof Step.Repeat r) n = Math.max(n, Math.max(r.times(), iterations(r.body())));
            if (s instanceof Step.If i) n = Math.max(n, Math.max(iterations(i.then()), iterations(i.otherwise())));
        }
        return n;
    }

    private static long add(long a, long b) {
        long s = a + b;
        return s < 0 ? Long.MAX_VALUE : s;
    }

    private static long multiply(long a, long b) {
        if (a == 0 || b == 0) return 0;
        return a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
    }
}
