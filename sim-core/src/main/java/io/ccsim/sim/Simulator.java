package io.ccsim.sim;

import java.util.Arrays;
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
 * <p>Implementation: a 4-ary min-heap in one primitive array of (time, slot) pairs; the slot
 * indexes the event table (action, sequence number, generation).
 * The sequence number is read from the table only to break ties of equal times, which keeps
 * the heap's memory traffic to 16 contiguous bytes an entry. Nothing is boxed and scheduling allocates
 * nothing beyond the caller's {@link Runnable} (arrays grow by doubling). Cancellation is
 * lazy: the action is dropped at once, and the slot is freed when its heap entry surfaces (or
 * at a compaction, done when cancelled entries outnumber live ones). A handle is
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
    // end-of-instant actions: run once every event of the current time has run, before time advances
    private Runnable[] eoi = new Runnable[8];
    private int eoiSize;
    private long eoiRuns;
    private EventTracer tracer;
    private final Map<String, RandomStream> streams = new HashMap<>();

    // heap, keys inline
    private long[] heap = new long[512]; // 2 longs an entry

    private int hSize;

    // slot table
    private Runnable[] sAction = new Runnable[256];
    private long[] sSeq = new long[256]; // insertion sequence of the slot's event
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
        if (hSize << 1 == heap.length) {
            growHeap();
        }
        siftUp(hSize++, time, slot);
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
        if (sGen[slot] < MAX_GEN) { // else retired: never reused, so old handles stay unique
            freeSlots[freeTop++] = slot;
        }
    }

    private int slotOf(long handle) {
        if (handle < 0) {
            return -1;
        }
        int slot = (int) (handle & SLOT_MASK);
        if (slot >= slotHigh || sGen[slot] != (handle >>> SLOT_BITS) || sAction[slot] == null) {
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
        sAction[slot] = null; // the slot is freed when its heap entry is removed
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
        return live > 0 || eoiSize > 0;
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

    /**
     * Runs {@code action} at the end of the current instant: after every event whose time is
     * {@link #now()} (including events scheduled at {@code now} meanwhile), before the clock moves on.
     * Actions registered for the same instant run in registration order, those registered by an
     * end-of-instant action included; events they schedule at {@code now} run after the batch,
     * followed by a new batch if they register more. Used to
     * batch work that many same-time events would otherwise repeat (the flow network's re-solve),
     * at no cost in the event heap.
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

    /** Pops and runs the earliest live event if its time is {@code <= limit}. */
    private boolean dispatchNext(long limit) {
        while (hSize > 0 || eoiSize > 0) {
            if (hSize == 0) {
                runEndOfInstant();
                return true;
            }
            int slot = (int) heap[1];
            Runnable action = sAction[slot];
            if (action == null) { // cancelled
                removeTop();
                freeSlot(slot);
                stale--;
                continue;
            }
            long time = heap[0];
            if (eoiSize > 0 && time > now) {
                runEndOfInstant();
                return true;
            }
            if (time > limit) {
                return false;
            }
            removeTop();
            long seq = sSeq[slot];
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

    // ---- 4-ary heap on (time, seq of slot); entry i is heap[2i] = time, heap[2i+1] = slot ----

    /**
     * Removes the root by Floyd's bottom-up method: the hole walks down along the smallest
     * children to a leaf, then the last element is placed there and sifted up; since that
     * element is usually among the largest, it rarely moves, which saves about half the
     * comparisons of a plain sift-down. Time and slot are interleaved so that the four
     * children of a node are 64 contiguous bytes.
     */
    private void removeTop() {
        int last = --hSize;
        if (last == 0) {
            return;
        }
        long[] h = heap;
        long[] ss = sSeq;
        int pos = 0;
        while (true) {
            int first = (pos << 2) + 1;
            if (first >= last) {
                break;
            }
            int best = first;
            long bt = h[first << 1];
            int end = Math.min(first + 4, last);
            for (int c = first + 1; c < end; c++) {
                long ct = h[c << 1];
                if (ct < bt || (ct == bt && ss[(int) h[(c << 1) + 1]] < ss[(int) h[(best << 1) + 1]])) {
                    best = c;
                    bt = ct;
                }
            }
            h[pos << 1] = bt;
            h[(pos << 1) + 1] = h[(best << 1) + 1];
            pos = best;
        }
        siftUp(pos, h[last << 1], (int) h[(last << 1) + 1]);
    }

    private void siftUp(int pos, long t, int slot) {
        long[] h = heap;
        while (pos > 0) {
            int parent = (pos - 1) >>> 2;
            long pt = h[parent << 1];
            // the sequence numbers (a random access into the slot table) only on a tie
            if (t < pt || (t == pt && sSeq[slot] < sSeq[(int) h[(parent << 1) + 1]])) {
                h[pos << 1] = pt;
                h[(pos << 1) + 1] = h[(parent << 1) + 1];
                pos = parent;
            } else {
                break;
            }
        }
        h[pos << 1] = t;
        h[(pos << 1) + 1] = slot;
    }

    private void siftDown(int pos, long t, int slot) {
        long[] h = heap;
        long[] ss = sSeq;
        int n = hSize;
        while (true) {
            int first = (pos << 2) + 1;
            if (first >= n) {
                break;
            }
            int best = first;
            long bt = h[first << 1];
            int end = Math.min(first + 4, n);
            for (int c = first + 1; c < end; c++) {
                long ct = h[c << 1];
                if (ct < bt || (ct == bt && ss[(int) h[(c << 1) + 1]] < ss[(int) h[(best << 1) + 1]])) {
                    best = c;
                    bt = ct;
                }
            }
            if (bt < t || (bt == t && ss[(int) h[(best << 1) + 1]] < ss[slot])) {
                h[pos << 1] = bt;
                h[(pos << 1) + 1] = h[(best << 1) + 1];
                pos = best;
            } else {
                break;
            }
        }
        h[pos << 1] = t;
        h[(pos << 1) + 1] = slot;
    }

    private void growHeap() {
        heap = java.util.Arrays.copyOf(heap, heap.length * 2);
    }

    /** Drops cancelled entries (freeing their slots) and re-heapifies (Floyd), O(heap size). */
    private void compact() {
        int n = 0;
        for (int i = 0; i < hSize; i++) {
            int slot = (int) heap[(i << 1) + 1];
            if (sAction[slot] != null) {
                heap[n << 1] = heap[i << 1];
                heap[(n << 1) + 1] = slot;
                n++;
            } else {
                freeSlot(slot);
            }
        }
        hSize = n;
        stale = 0;
        for (int i = (n - 2) >>> 2; n > 1 && i >= 0; i--) {
            siftDown(i, heap[i << 1], (int) heap[(i << 1) + 1]);
        }
    }
}
