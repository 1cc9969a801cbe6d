package io.ccsim.algorithms.perf;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Independent simulations (the sizes of a {@code perf} sweep, the rows of a {@code tune} table) run on several
 * threads, each thread with its own {@link PerfRunner}, results in task order. Each simulation has its own simulator,
 * fabric and plan, seeded alike, so the results are the same, bit for bit, as one thread would give; only the wall
 * time changes.
 *
 * <p>Contract: {@link #map} returns one result per task, in task order, or throws the exception of the first task
 * (in task order) that failed, after stopping the others; an interrupt of the caller stops the workers and is
 * rethrown as {@link InterruptedException}.
 */
public final class ParallelRuns {
    /** Stack per worker thread: what the launcher gives the main thread (-Xss8m), for deep plans. */
    private static final long STACK_BYTES = 8L << 20;

    private final Supplier<PerfRunner> runners;
    private final int threads;

    /**
     * @param runners makes one runner per worker thread (the runners must not share mutable state)
     * @param threads worker threads, ≥ 1 (1: everything on the calling thread)
     */
    public ParallelRuns(Supplier<PerfRunner> runners, int threads) {
        if (threads < 1) throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        this.runners = runners;
        this.threads = threads;
    }

    /** The default worker count: the machine's processors. */
    public static int defaultThreads() {
        return Runtime.getRuntime().availableProcessors();
    }

    /** Runs {@code task} on every input, on up to {@link #threads} threads; results in input order. */
    public <I, R> List<R> map(List<I> inputs, Task<I, R> task) throws InterruptedException {
        int n = inputs.size();
        int workers = Math.min(threads, n);
        if (workers <= 1) {
            PerfRunner r = runners.get();
            List<R> out = new ArrayList<>(n);
            for (I in : inputs) {
                if (Thread.interrupted()) throw new InterruptedException();
                out.add(task.run(r, in));
            }
            return out;
        }
        AtomicInteger made = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(workers, job -> {
            Thread t = new Thread(null, job, "ccsim-sim-" + made.incrementAndGet(), STACK_BYTES);
            t.setDaemon(true);
            return t;
        });
        ThreadLocal<PerfRunner> own = ThreadLocal.withInitial(runners);
        try {
            List<Future<R>> futures = new ArrayList<>(n);
            for (I in : inputs) futures.add(pool.submit(() -> task.run(own.get(), in)));
            List<R> out = new ArrayList<>(n);
            for (Future<R> f : futures) out.add(result(f));
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    private static <R> R result(Future<R> f) throws InterruptedException {
        try {
            return f.get();
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException re) throw re;
            if (c instanceof Error err) throw err;
            throw new IllegalStateException(c);
        }
    }

    /** One simulation job: its result from a runner of the calling worker thread. */
    @FunctionalInterface
    public interface Task<I, R> {
        R run(PerfRunner runner, I input);
    }
}
