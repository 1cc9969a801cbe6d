package io.ccsim.cli;

import io.ccsim.algorithms.perf.ParallelRuns;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.sim.RunControl;
import io.ccsim.sim.RunStoppedException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * Independent simulations (the sizes of a {@code perf} sweep, the rows of a {@code tune} table) run by
 * {@link ParallelRuns}, shown by a {@link Progress} and stopped by a {@link RunControl}.
 *
 * <p>Contract: {@link #run} returns one result per item in item order, null for each item a stop request left
 * undone (the items finished before it keep their results, whatever their order); after a stop, items not yet
 * started are not started. The progress line names the lowest item running and how far it is, and the fraction of
 * all the work done, items weighted by {@code work}. Other exceptions of a task propagate as from
 * {@link ParallelRuns#map}.
 */
final class Sweep<I, R> {
    /** One simulation job: the result for {@code input}, telling {@code part} what part of its item runs now. */
    @FunctionalInterface
    interface Task<I, R> {
        R run(PerfRunner runner, I input, Part part);
    }

    /** What part of its item's work the simulation now running is (for an item of several simulations). */
    interface Part {
        /** The simulation starting now covers [{@code base}, {@code base + share}) of the item's work. */
        void set(double base, double share);

        /** The runner that simulates the item from now on, when the task picks its own (a study's point). */
        default void runner(PerfRunner runner) { }
    }

    private final List<I> inputs;
    private final long[] work;
    private final IntFunction<String> label;
    private final Progress progress;
    private final RunControl control;
    private final ThreadLocal<Slot> current = new ThreadLocal<>();
    // guarded by this
    private final double[] fraction;
    private final boolean[] running;
    /** per item: the set-up phase its simulation is in ("folding 37 %"), or null once it simulates */
    private final String[] phase;
    private RunStoppedException stopped;

    /** The item a worker thread simulates, and the part of it now running. */
    private static final class Slot implements Part {
        final int item;
        PerfRunner runner;
        double base;
        double share = 1;

        Slot(int item, PerfRunner runner) {
            this.item = item;
            this.runner = runner;
        }

        @Override
        public void set(double base, double share) {
            this.base = base;
            this.share = share;
        }

        @Override
        public void runner(PerfRunner runner) {
            this.runner = runner;
        }
    }

    /**
     * @param inputs   the items
     * @param work     the work of each item (steps of its plans), for the fraction done
     * @param label    what item i is, for the progress line
     * @param progress the command's progress display
     * @param control  the run's control: its stop requests end the sweep
     */
    Sweep(List<I> inputs, long[] work, IntFunction<String> label, Progress progress, RunControl control) {
        this.inputs = inputs;
        this.work = work.clone();
        this.label = label;
        this.progress = progress;
        this.control = control;
        this.fraction = new double[inputs.size()];
        this.phase = new String[inputs.size()];
        this.running = new boolean[inputs.size()];
    }

    /**
     * Runs {@code task} on every item with runners from {@code runners} (each polling this sweep's control; null where
     * the task picks its runner per item and names it with {@link Part#runner}), on up to {@code threads} threads.
     *
     * @throws InterruptedException if the calling thread is interrupted (as {@link ParallelRuns#map})
     */
    List<R> run(Supplier<PerfRunner> runners, int threads, Task<I, R> task) throws InterruptedException {
        List<Integer> items = new ArrayList<>(inputs.size());
        for (int i = 0; i < inputs.size(); i++) items.add(i);
        control.setWatcher(sim -> watch());
        try {
            return new ParallelRuns(runners, threads).map(items, (runner, i) -> runItem(runner, i, task));
        } finally {
            control.setWatcher(null);
            progress.clear();
        }
    }

    /** The stop request that ended the sweep early, or null. */
    synchronized RunStoppedException stopped() {
        return stopped;
    }

    private R runItem(PerfRunner runner, int i, Task<I, R> task) {
        if (control.stopRequested()) {   // stopped before this item began: it did not run, and the sweep ended early
            synchronized (this) {
                if (stopped == null) stopped = new RunStoppedException(control.stopReason());
            }
            return null;
        }
        Slot s = new Slot(i, runner);
        current.set(s);
        synchronized (this) {
            running[i] = true;
        }
        draw();
        try {
            R r = task.run(runner, inputs.get(i), s);
            synchronized (this) {
                fraction[i] = 1;
            }
            return r;
        } catch (RunStoppedException e) {
            synchronized (this) {
                if (stopped == null) stopped = e;
            }
            return null;
        } finally {
            current.remove();
            synchronized (this) {
                running[i] = false;
            }
        }
    }

    /** The control's watcher, on a simulating thread: records how far its item is, redraws when due. */
    private void watch() {
        Slot s = current.get();
        if (s == null) return;
        double f = s.base + (s.runner == null ? 0 : s.share * s.runner.runningFraction());
        RunControl.Phase ph = control.phase();
        synchronized (this) {
            fraction[s.item] = Math.min(1, f);
            phase[s.item] = ph == null ? null : ph.name() + (Double.isNaN(ph.fraction()) ? ""
                    : String.format(Locale.ROOT, " %.0f %%", 100 * ph.fraction()));
        }
        draw();
    }

    /**
     * The status line's text: the lowest item running ({@code label}), then the set-up phase it is in ({@code phase},
     * e.g. {@code folding 37 %}; null once it simulates), else the part of it done where the sweep has more than
     * one item (with one, the line's overall percentage says it), and how many {@code others} run beside it.
     */
    static String status(String label, double itemFraction, int items, int others, String phase) {
        return label + (phase != null ? ": " + phase : items > 1 ? String.format(Locale.ROOT, ": %.0f %%", 100 * itemFraction) : "")
                + (others > 0 ? " +" + others + " more" : "");
    }

    private void draw() {
        if (!progress.due()) return;
        String what;
        double done;
        synchronized (this) {
            long total = 0;
            double sum = 0;
            int first = -1;
            int others = 0;
            for (int i = 0; i < work.length; i++) {
                total += work[i];
                sum += work[i] * fraction[i];
                if (running[i]) {
                    if (first < 0) first = i;
                    else others++;
                }
            }
            done = total == 0 ? Double.NaN : sum / total;
            what = first < 0 ? "" : status(label.apply(first), fraction[first], work.length, others, phase[first]);
        }
        progress.show(what, done);
    }
}
