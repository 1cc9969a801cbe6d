package io.ccsim.sim;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * The discrete-event kernel: a clock in picoseconds and a queue of pending actions.
 *
 * <p>Order is total and deterministic: by time, then by insertion sequence (events scheduled
 * for the same instant run in the order they were scheduled). Simulating never waits on wall
 * time. One instance per run; it holds no static state, so independent simulations can run in
 * parallel threads, but one instance must be used by one thread at a time.
 *
 * <p>Scheduling allocates nothing beyond the caller's {@link Runnable}; a handle stays unique for
 * the whole run, so cancelling or asking about an event that already ran is harmless. The queue
 * itself is an {@code EventQueue} (the buckets of a radix heap above a sorted run), the random
 * streams a {@code RandomStreams} registry.
 */
public final class Simulator extends EventQueue {
    private final long seed;
    private long now;
    private long dispatched;
    private boolean stopRequested;
    private boolean running;
    // end-of-instant actions: run once every event of the current time has run, before time advances
    private Runnable[] eoi = new Runnable[8];
    private int eoiSize;
    private long eoiRuns;
    private EventTracer tracer;
    private RunControl control;
    private final RandomStreams streams;

    /** @param seed seed of every {@link #random(String) random stream} of this simulation */
    public Simulator(long seed) {
        this.seed = seed;
        this.streams = new RandomStreams(seed);
    }

    /** @return the current simulated time, picoseconds */
    public long now() {
        return now;
    }

    /** @return the seed given at construction */
    public long seed() {
        return seed;
    }

    /**
     * Schedules {@code action} to run {@code delayPs} after now.
     *
     * @param delayPs delay in picoseconds, {@code >= 0}
     * @param action  what to run, not null
     * @return a handle for {@link #cancel(long)} and {@link #isPending(long)}
     * @throws IllegalArgumentException if the delay is negative or the time would overflow
     */
    public long schedule(long delayPs, Runnable action) {
        if (delayPs < 0) {
            throw new IllegalArgumentException("schedule: delay must be >= 0 ps, was " + delayPs
                    + " ps at now=" + now + " ps");
        }
        if (delayPs > Long.MAX_VALUE - now) {
            throw new IllegalArgumentException("schedule: delay " + delayPs + " ps from now=" + now
                    + " ps overflows the clock (max " + Long.MAX_VALUE + " ps)");
        }
        return insert(now + delayPs, action);
    }

    /**
     * Schedules {@code action} at absolute time {@code timePs}.
     *
     * @param timePs picoseconds, {@code >= now()}
     * @throws IllegalArgumentException if {@code timePs} is in the past
     */
    public long scheduleAt(long timePs, Runnable action) {
        if (timePs < now) {
            throw new IllegalArgumentException("scheduleAt: time " + timePs + " ps is in the past (now="
                    + now + " ps); valid is a time >= now");
        }
        return insert(timePs, action);
    }

    private long insert(long time, Runnable action) {
        Objects.requireNonNull(action, "schedule: action must not be null");
        return enqueue(time, action);
    }

    /**
     * Cancels a pending event.
     *
     * @return true if the event was pending and is now cancelled; false if it already ran, was
     * already cancelled, or the handle is unknown
     */
    public boolean cancel(long handle) {
        return cancelEvent(handle);
    }

    /** @return true if the event of this handle is scheduled and neither ran nor was cancelled */
    public boolean isPending(long handle) {
        return isQueued(handle);
    }

    /** @return true if any event is pending */
    public boolean hasPending() {
        return liveEvents() > 0 || eoiSize > 0;
    }

    /** @return number of pending (not cancelled) events */
    public long pendingCount() {
        return liveEvents();
    }

    /** @return number of events dispatched since construction */
    public long dispatchedCount() {
        return dispatched;
    }

    /** Sets (or, with null, removes) the tracer called before each dispatch. */
    public void setTracer(EventTracer t) {
        this.tracer = t;
    }

    /**
     * Sets (or, with null, removes) the control polled every {@link RunControl#POLL_EVENTS} dispatched events: a stop
     * requested there ends the current {@code run*} or {@link #step()} call with {@link RunStoppedException}.
     */
    public void setRunControl(RunControl c) {
        this.control = c;
    }

    /** @return the control set with {@link #setRunControl}, or null */
    public RunControl runControl() {
        return control;
    }

    /**
     * The random stream of this name, created on first use from (seed, name); the same name
     * always returns the same object.
     */
    public RandomStream random(String name) {
        return streams.get(name);
    }

    /**
     * Asks the current {@code run*} call to return after the action now running. Called outside
     * a run it has no effect (each run starts with the request cleared).
     */
    public void stop() {
        stopRequested = true;
    }

    /** Runs events until none is pending or {@link #stop()} is called. */
    public void run() {
        enter("run()");
        try {
            while (!stopRequested && dispatchNext(Long.MAX_VALUE)) {
                // loop
            }
        } finally {
            running = false;
        }
    }

    /**
     * Runs every event whose time is {@code <= timePs}, then sets the clock to {@code timePs}
     * (unless {@link #stop()} ended the run early, in which case the clock stays at the time of
     * the last event).
     *
     * @param timePs picoseconds, {@code >= now()}
     */
    public void runUntil(long timePs) {
        if (timePs < now) {
            throw new IllegalArgumentException("runUntil: time " + timePs + " ps is in the past (now="
                    + now + " ps); valid is a time >= now");
        }
        enter("runUntil(time)");
        try {
            while (!stopRequested && dispatchNext(timePs)) {
                // loop
            }
            if (!stopRequested) {
                now = timePs;
            }
        } finally {
            running = false;
        }
    }

    /**
     * Runs events until {@code stopCondition} is true, no event is pending, or {@link #stop()}
     * is called. The condition is checked before the first event and after each event.
     */
    public void runUntil(BooleanSupplier stopCondition) {
        Objects.requireNonNull(stopCondition, "runUntil: stopCondition must not be null");
        enter("runUntil(condition)");
        try {
            while (!stopRequested && !stopCondition.getAsBoolean() && dispatchNext(Long.MAX_VALUE)) {
                // loop
            }
        } finally {
            running = false;
        }
    }

    /**
     * Dispatches exactly one event if any is pending (for stepping and benchmarks).
     *
     * @return true if an event was dispatched
     */
    public boolean step() {
        enter("step()");
        try {
            return dispatchNext(Long.MAX_VALUE);
        } finally {
            running = false;
        }
    }

    private void enter(String what) {
        if (running) {
            throw new IllegalStateException(what + " called from inside an event action; "
                    + "actions must schedule events, not run the simulator re-entrantly");
        }
        running = true;
        stopRequested = false;
    }

    /**
     * Runs {@code action} at the end of the current instant: after every event whose time is
     * {@link #now()} (including events scheduled at {@code now} meanwhile), before the clock moves on.
     * Actions registered for the same instant run in registration order, those registered by an
     * end-of-instant action included; events they schedule at {@code now} run after the batch,
     * followed by a new batch if they register more. Used to
     * batch work that many same-time events would otherwise repeat (the flow network's re-solve),
     * at no cost in the event queue.
     */
    public void atEndOfInstant(Runnable action) {
        Objects.requireNonNull(action, "atEndOfInstant: action must not be null");
        if (eoiSize == eoi.length) {
            eoi = Arrays.copyOf(eoi, eoiSize * 2);
        }
        eoi[eoiSize++] = action;
    }

    /** @return end-of-instant actions run so far */
    public long endOfInstantRuns() {
        return eoiRuns;
    }

    private void runEndOfInstant() {
        // actions may register more actions: run until none is left
        for (int i = 0; i < eoiSize; i++) {
            Runnable r = eoi[i];
            eoi[i] = null;
            eoiRuns++;
            r.run();
        }
        eoiSize = 0;
    }

    /** Runs the earliest live event if its time is {@code <= limit}, or the end-of-instant batch due before it. */
    private boolean dispatchNext(long limit) {
        int slot = peek();
        if (slot < 0) {
            if (eoiSize > 0) {
                runEndOfInstant();
                return true;
            }
            return false;
        }
        long time = headTime();
        if (eoiSize > 0 && time > now) {
            runEndOfInstant();
            return true;
        }
        if (time > limit) {
            return false;
        }
        long seq = tracer == null ? -1 : headSeq(); // read only for a tracer
        Runnable action = take(slot);
        now = time;
        long n = ++dispatched;
        // one mask of the count per event, before the action (no reload after it); the control is read once every
        // POLL_EVENTS events, and a stop leaves this event taken but not run: the simulation is abandoned
        if ((n & (RunControl.POLL_EVENTS - 1)) == 0 && control != null) {
            control.poll(this);
        }
        if (tracer != null) {
            tracer.onDispatch(time, seq);
        }
        action.run();
        return true;
    }
}
