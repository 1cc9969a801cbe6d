package io.ccsim.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What one dependent load costs over a working set of {@code kib} KiB: a pointer chase along one random cycle
 * (Sattolo's shuffle), so that every load waits for the one before and no prefetcher can guess the next. The
 * simulator's large runs touch a few MiB of state (workers, connections, flows, constraints, events) in no
 * predictable order, so their speed follows this curve: run it
 * beside a timing to tell a slow build from a VM whose neighbours hold the L3
 * ({@code java -jar benchmarks/target/benchmarks.jar CacheLatencyBenchmark -f 1 -wi 2 -i 3}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CacheLatencyBenchmark {
    /** Loads per benchmark invocation. */
    static final int LOADS = 1 << 16;

    @Param({"256", "1024", "4096", "16384"})
    public int kib;

    private int[] next;
    private int at;

    @Setup
    public void build() {
        int n = kib * 256; // ints
        next = new int[n];
        for (int i = 0; i < n; i++) next[i] = i;
        SplittableRandom r = new SplittableRandom(42);
        for (int i = n - 1; i > 0; i--) { // Sattolo: one cycle through every entry
            int j = r.nextInt(i);
            int t = next[i];
            next[i] = next[j];
            next[j] = t;
        }
    }

    @Benchmark
    @OperationsPerInvocation(LOADS)
    public int chase() {
        int[] a = next;
        int p = at;
        for (int i = 0; i < LOADS; i++) p = a[p];
        at = p;
        return p;
    }
}
