package io.ccsim.scenarios.cluster;

import io.ccsim.sim.RandomStream;
import io.ccsim.sim.Simulator;

/**
 * The one place where the scenarios layer touches sim-core's event kernel: the clock (picoseconds),
 * scheduling and cancelling actions, and named random streams. Everything in this module goes
 * through it so that a change of the kernel's API changes this class only.
 */
public final class SimHost {
    private final Simulator sim;
    private final RandomStream ids;

    public SimHost(Simulator sim) {
        this.sim = sim;
        this.ids = sim.random("scenarios.ids");
    }

    public Simulator simulator() { return sim; }

    /** Simulated time now, in picoseconds. */
    public long now() { return sim.now(); }

    /** Runs {@code action} {@code delayPs} picoseconds from now; returns a handle for {@link #cancel}. */
    public long after(long delayPs, Runnable action) {
        if (delayPs < 0) throw new IllegalArgumentException("delay must be >= 0 ps, got " + delayPs);
        return sim.schedule(delayPs, action);
    }

    /** Cancels an action scheduled with {@link #after}; a handle of an action that already ran is ignored. */
    public void cancel(long handle) { sim.cancel(handle); }

    /** A fresh random 64-bit value (ncclUniqueId magics, bootstrap ports) from a seeded named stream. */
    public long randomId() { return ids.nextLong(); }
}
