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

    private volatile String stopReason;
    private Consumer<Simulator> watcher;

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
        poll(null);
    }

    /** The simulator's periodic call: throws if a stop was requested, else runs the watcher. */
    void poll(Simulator sim) {
        String r = stopReason;
        if (r != null) throw new RunStoppedException(r);
        Consumer<Simulator> w = watcher;
        if (w != null) w.accept(sim);
    }
}
