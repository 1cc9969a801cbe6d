package io.ccsim.sim;

import java.util.HashMap;
import java.util.Map;
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
 * <p>Implementation: a 4-ary min-heap whose entries keep their keys inline in parallel
 * primitive arrays ({@code long time}, {@code long seq}, {@code int slot}); the slot indexes
 * the action table. Nothing is boxed and scheduling allocates nothing beyond the caller's
 * {@link Runnable} (arrays grow by doubling). Cancellation is lazy: the slot is freed at once
 * and the heap entry, no longer matching its slot's sequence number, is skipped when it
 * surfaces; the heap is compacted when stale entries outnumber live ones. A handle is
 * {@code generation << 28 | slot}, where a slot's generation grows at each reuse, so a handle
 * of a dispatched or cancelled event is never confused with a later event (a slot whose
 * generation would overflow is retired).
 */
public final class Simulator {
    private static final int SLOT_BITS = 28;
    private static final int SLOT_MASK = (1 << SLOT_BITS) - 1;
    private static final long MAX_GEN = (1L << (63 - SLOT_BITS)) - 1;
    private static final int MIN_COMPACT = 1024;

    private final long seed;
    private long now;
    private long nextSeq;
    private long dispatched;
    private boolean stopRequested;
    private boolean running;
    private EventTracer tracer;
    private final Map<String, RandomStream> streams = new HashMap<>();

    // heap, keys inline
    private long[] hTime = new long[256];
    private long[] hSeq = new long[256];
    private int[] hSlot = new int[256];
    private int hSize;

    // slot table
    private Runnable[] sAction = new Runnable[256];
    private long[] sSeq = new long[256]; // seq of the pending event in the slot, -1 if none
    private long[] sGen = new long[256];
    private int[] freeSlots = new int[256];
    private int freeTop;
    private int slotHigh; // slots [0, slotHigh) have been used

    private long live;  // pending, not cancelled
    private long stale; // cancelled entries still in the heap

    /** @param seed seed of every {@link #random(String) random stream} of this simulation */
    public Simulator(long seed) {
        this.seed = seed;
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
        int slot = allocSlot();
        long seq = nextSeq++;
        sAction[slot] = action;
        sSeq[slot] = seq;
        long handle = (sGen[slot] << SLOT_BITS) | slot;
        if (hSize == hTime.length) {
            growHeap();
        }
        siftUp(hSize++, time, seq, slot);
        live++;
        return handle;
    }

    private int allocSlot() {
        int slot;
        if (freeTop > 0) {
            slot = freeSlots[--freeTop];
        } else {
            if (slotHigh == sAction.length) {
                if (slotHigh > SLOT_MASK) {
                    throw new IllegalStateException("simulator: more than " + SLOT_MASK
                            + " pending events at once");
                }
                int n = Math.min(slotHigh * 2, SLOT_MASK + 1);
                sAction = java.util.Arrays.copyOf(sAction, n);
                sSeq = java.util.Arrays.copyOf(sSeq, n);
                sGen = java.util.Arrays.copyOf(sGen, n);
                freeSlots = java.util.Arrays.copyOf(freeSlots, n);
            }
            slot = slotHigh++;
        }
        sGen[slot]++;
        return slot;
    }

    private void freeSlot(int slot) {
        sAction[slot] = null;
        sSeq[slot] = -1;
        if (sGen[slot] < MAX_GEN) { // else retired: never reused, so old handles stay unique
            freeSlots[freeTop++] = slot;
        }
    }

    private int slotOf(long handle) {
        if (handle < 0) {
            return -1;
        }
        int slot = (int) (handle & SLOT_MASK);
        if (slot >= slotHigh || sGen[slot] != (handle >>> SLOT_BITS) || sSeq[slot] < 0) {
            return -1;
        }
        return slot;
    }

    /**
     * Cancels a pending event.
     *
     * @return true if the event was pending and is now cancelled; false if it already ran, was
     * already cancelled, or the handle is unknown
     */
    public boolean cancel(long handle) {
        int slot = slotOf(handle);
        if (slot < 0) {
            return false;
        }
        freeSlot(slot);
        live--;
        stale++;
        if (stale > MIN_COMPACT && stale > live) {
            compact();
        }
        return true;
    }

    /** @return true if the event of this handle is scheduled and neither ran nor was cancelled */
    public boolean isPending(long handle) {
        return slotOf(handle) >= 0;
    }

    /** @return true if any event is pending */
    public boolean hasPending() {
        return live > 0;
    }

    /** @return number of pending (not cancelled) events */
    public long pendingCount() {
        return live;
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
     * The random stream of this name, created on first use from (seed, name); the same name
     * always returns the same object.
     */
    public RandomStream random(String name) {
        Objects.requireNonNull(name, "random stream name must not be null");
        RandomStream s = streams.get(name);
        if (s == null) {
            s = new RandomStream(seed, name);
            streams.put(name, s);
        }
        return s;
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

    /** Pops and runs the earliest live event if its time is {@code <= limit}. */
    private boolean dispatchNext(long limit) {
        while (hSize > 0) {
            int slot = hSlot[0];
            long seq = hSeq[0];
            long time = hTime[0];
            if (sSeq[slot] != seq) { // cancelled
                removeTop();
                stale--;
                continue;
            }
            if (time > limit) {
                return false;
            }
            removeTop();
            Runnable action = sAction[slot];
            freeSlot(slot);
            live--;
            now = time;
            dispatched++;
            if (tracer != null) {
                tracer.onDispatch(time, seq);
            }
            action.run();
            return true;
        }
        return false;
    }

    // ---- 4-ary heap on (time, seq) ----

    private void removeTop() {
        int last = --hSize;
        if (last > 0) {
            siftDown(0, hTime[last], hSeq[last], hSlot[last]);
        }
    }

    private void siftUp(int pos, long t, long s, int slot) {
        long[] ht = hTime;
        long[] hs = hSeq;
        int[] hl = hSlot;
        while (pos > 0) {
            int parent = (pos - 1) >>> 2;
            long pt = ht[parent];
            if (t < pt || (t == pt && s < hs[parent])) {
                ht[pos] = pt;
                hs[pos] = hs[parent];
                hl[pos] = hl[parent];
                pos = parent;
            } else {
                break;
            }
        }
        ht[pos] = t;
        hs[pos] = s;
        hl[pos] = slot;
    }

    private void siftDown(int pos, long t, long s, int slot) {
        long[] ht = hTime;
        long[] hs = hSeq;
        int[] hl = hSlot;
        int n = hSize;
        while (true) {
            int first = (pos << 2) + 1;
            if (first >= n) {
                break;
            }
            int best = first;
            long bt = ht[first];
            long bs = hs[first];
            int end = Math.min(first + 4, n);
            for (int c = first + 1; c < end; c++) {
                long ct = ht[c];
                if (ct < bt || (ct == bt && hs[c] < bs)) {
                    best = c;
                    bt = ct;
                    bs = hs[c];
                }
            }
            if (bt < t || (bt == t && bs < s)) {
                ht[pos] = bt;
                hs[pos] = bs;
                hl[pos] = hl[best];
                pos = best;
            } else {
                break;
            }
        }
        ht[pos] = t;
        hs[pos] = s;
        hl[pos] = slot;
    }

    private void growHeap() {
        int n = hTime.length * 2;
        hTime = java.util.Arrays.copyOf(hTime, n);
        hSeq = java.util.Arrays.copyOf(hSeq, n);
        hSlot = java.util.Arrays.copyOf(hSlot, n);
    }

    /** Drops cancelled entries and re-heapifies (Floyd), O(heap size). */
    private void compact() {
        int n = 0;
        for (int i = 0; i < hSize; i++) {
            int slot = hSlot[i];
            if (sSeq[slot] == hSeq[i]) {
                hTime[n] = hTime[i];
                hSeq[n] = hSeq[i];
                hSlot[n] = slot;
                n++;
            }
        }
        hSize = n;
        stale = 0;
        for (int i = (n - 2) >>> 2; n > 1 && i >= 0; i--) {
            siftDown(i, hTime[i], hSeq[i], hSlot[i]);
        }
    }
}
