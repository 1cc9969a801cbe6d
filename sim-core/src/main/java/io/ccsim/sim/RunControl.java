package io.ccsim.sim;

import java.util.function.Consumer;

/**
 * Lets another thread stop a long run, and the run's owner watch it as it goes.
 *
 * <p>Contract:
 * <ul>
 *   <li>{@link #requestStop} may be called from any thread (a signal handler); the first reason wins and later
 *       calls change nothing.</li>
 *   <li>A {@link Simulator} given this control ({@link Simulator#setRunControl}) calls {@link #poll} once every
 *       {@link #POLL_EVENTS} dispatched events, on its own thread: after a stop request the poll throws
 *       {@link RunStoppedException} out of the simulator's {@code run*} or {@code step} call, which leaves that
 *       simulation unfinished for good. A simulator dispatching 10 M events/s is thus stopped within 26 µs.</li>
 *   <li>Long phases outside the simulator (building a topology) call {@link #checkpoint} at least a few times per
 *       second of work; it throws the same exception.</li>
 *   <li>The watcher, if set, runs on the polling thread after every poll or checkpoint that does not throw, with the
 *       simulator that polled (null from a checkpoint); it must be quick (a progress display reads a few counters
 *       and redraws at most a few times a second).</li>
 *   <li>A budget ({@link #setBudget}) stops the run like a request, with a reason that starts with {@link #BUDGET}
 *       and names the limit and how to raise it: when the simulators polling this control have dispatched more
 *       than its events together (counted {@link #POLL_EVENTS} at a time), or its wall-clock deadline has passed
 *       (read at polls and checkpoints).</li>
 * </ul>
 */
public final class RunControl {
    /**
     * Events between two polls of a simulator: a power of two, so the test is one mask of the event count. Small
     * enough that heavy events (a rank's launch binds the routes of all its connections: about 0.5 ms each at 8,000
     * ranks on a loaded machine) still poll within a fraction of a second; a poll costs a volatile read and the
     * watcher's clock read (about 25 ns), 0.1 ns per event.
     */
    public static final int POLL_EVENTS = 256;

    /** The first word of the reason of a stop by a budget ({@link #setBudget}). */
    public static final String BUDGET = "budget";

    private volatile String stopReason;
    private Consumer<Simulator> watcher;
    private final java.util.concurrent.atomic.AtomicLong events = new java.util.concurrent.atomic.AtomicLong();
    private volatile long maxEvents = Long.MAX_VALUE;
    private volatile long deadlineNanos = Long.MAX_VALUE;
    private volatile String eventsHint = "";
    private volatile String wallHint = "";

    /**
     * Limits the run from now on to {@code maxEvents} dispatched events (0: no limit) and {@code maxWallNanos} of
     * wall-clock time (0: no limit); {@code eventsHint} and {@code wallHint} say how the user raises each (e.g.
     * {@code --max-events N}), for the stop reason.
     */
    public void setBudget(long maxEvents, String eventsHint, long maxWallNanos, String wallHint) {
        this.events.set(0);
        this.maxEvents = maxEvents <= 0 ? Long.MAX_VALUE : maxEvents;
        this.deadlineNanos = maxWallNanos <= 0 ? Long.MAX_VALUE : System.nanoTime() + maxWallNanos;
        this.eventsHint = eventsHint;
        this.wallHint = wallHint;
    }

    /** @return the events counted against the budget so far (a multiple of {@link #POLL_EVENTS}) */
    public long eventsCounted() {
        return events.get();
    }

    /** Asks the run to stop at its next poll or checkpoint; {@code reason} (e.g. {@code SIGINT}) is kept. */
    public void requestStop(String reason) {
        if (stopReason == null) stopReason = java.util.Objects.requireNonNull(reason, "reason");
    }

    /** @return whether a stop was requested */
    public boolean stopRequested() {
        return stopReason != null;
    }

    /** @return the reason given to the first {@link #requestStop}, or null */
    public String stopReason() {
        return stopReason;
    }

    /**
     * Sets (or, with null, removes) what runs after each poll of a simulator; set it on the thread that runs the
     * simulations, before they start.
     */
    public void setWatcher(Consumer<Simulator> watcher) {
        this.watcher = watcher;
    }

    /**
     * Throws if a stop was requested, else runs the watcher (with no simulator).
     *
     * @throws RunStoppedException if a stop was requested
     */
    public void checkpoint() {
        checkWall();
        runWatcher(null);
    }

    /** What a run does before it simulates (its set-up), as a {@link #checkpoint(String, double)} reports it. */
    public record Phase(String name, double fraction) { }

    /** the phase of the checkpoint the watcher runs in, on its thread (null: none) */
    private final ThreadLocal<Phase> phase = new ThreadLocal<>();

    /**
     * {@link #checkpoint()} from a set-up phase: while the watcher runs, {@link #phase()} on this thread is
     * {@code name} and {@code fraction} (the part of the phase done, in [0, 1], or NaN if unknown).
     *
     * @throws RunStoppedException if a stop was requested
     */
    public void checkpoint(String name, double fraction) {
        phase.set(new Phase(name, fraction));
        try {
            checkpoint();
        } finally {
            phase.remove();
        }
    }

    /** The phase whose checkpoint runs the watcher on this thread, or null (a simulator's poll, or a plain checkpoint). */
    public Phase phase() {
        return phase.get();
    }

    /** The simulator's periodic call: throws if a stop was requested or a budget is spent, else runs the watcher. */
    void poll(Simulator sim) {
        if (events.addAndGet(POLL_EVENTS) > maxEvents) {
            requestStop(String.format(java.util.Locale.ROOT, "%s: the limit of %,d simulated events (raise it with %s)", BUDGET,
                    maxEvents, eventsHint));
        }
        checkWall();
        runWatcher(sim);
    }

    private void checkWall() {
        if (deadlineNanos != Long.MAX_VALUE && System.nanoTime() - deadlineNanos > 0) {
            requestStop(BUDGET + ": the wall-clock limit (raise it with " + wallHint + ")");
        }
    }

    private void runWatcher(Simulator sim) {
        String r = stopReason;
        if (r != null) throw new RunStoppedException(r);
        Consumer<Simulator> w = watcher;
        if (w != null) w.accept(sim);
    }
}
