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
 * <p>Implementation: a radix heap of slots (see the comment above {@code bucketOf}); a slot
 * indexes the event table (time, action, sequence number, generation). The sequence number orders
 * equal times. Nothing is boxed and scheduling allocates nothing beyond the caller's
 * {@link Runnable} (arrays grow by doubling). Cancellation is
 * lazy: the action is dropped at once, and the slot is freed when its queue entry surfaces (or
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

    // the queue: a radix heap over times (events are never scheduled before the last popped time),
    // see the block comment at the end of the class
    private final int[][] bucket = new int[64][];
    private final int[] bSize = new int[64];
    private int b0Head;        // bucket 0 is a FIFO of the events at time rLast: [b0Head, bSize[0])
    private long rLast;        // the time every bucket is relative to: the last minimum
    private int hSize;         // queue entries (stale ones included)
    // per slot, interleaved for locality (one cache line): time, insertion sequence, generation
    private long[] sMeta = new long[3 * 256];

    // slot table
    private Runnable[] sAction = new Runnable[256];
    private int[] freeSlots = new int[256];
    private int freeTop;
    private int slotHigh; // slots [0, slotHigh) have been used

    private long live;  // pending, not cancelled
    private long stale; // cancelled entries still in the queue

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
        sMeta[3 * slot + 1] = seq;
        long handle = (sMeta[3 * slot + 2] << SLOT_BITS) | slot;
        sMeta[3 * slot] = time;
        if (time < rLast) {
            earlyPush(slot); // before the radix base: see the comment above bucketOf
        } else {
            push(bucketOf(time), slot);
        }
        hSize++;
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
                sMeta = java.util.Arrays.copyOf(sMeta, 3 * n);
                freeSlots = java.util.Arrays.copyOf(freeSlots, n);
            }
            slot = slotHigh++;
        }
        sMeta[3 * slot + 2]++;
        return slot;
    }

    private void freeSlot(int slot) {
        sAction[slot] = null;
        if (sMeta[3 * slot + 2] < MAX_GEN) { // else retired: never reused, so old handles stay unique
            freeSlots[freeTop++] = slot;
        }
    }

    private int slotOf(long handle) {
        if (handle < 0) {
            return -1;
        }
        int slot = (int) (handle & SLOT_MASK);
        if (slot >= slotHigh || sMeta[3 * slot + 2] != (handle >>> SLOT_BITS) || sAction[slot] == null) {
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
        sAction[slot] = null; // the slot is freed when its queue entry is removed
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

    /** Pops and runs the earliest live event if its time is {@code <= limit}. */
    private boolean dispatchNext(long limit) {
        while (hSize > 0 || eoiSize > 0) {
            if (hSize == 0) {
                runEndOfInstant();
                return true;
            }
            int slot = top();
            Runnable action = sAction[slot];
            if (action == null) { // cancelled
                removeTop();
                freeSlot(slot);
                stale--;
                continue;
            }
            long time = sMeta[3 * slot];
            if (eoiSize > 0 && time > now) {
                runEndOfInstant();
                return true;
            }
            if (time > limit) {
                return false;
            }
            removeTop();
            long seq = sMeta[3 * slot + 1];
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

    /*
     * The event queue is a radix heap (Ahuja, Mehlhorn, Orlin, Tarjan, "Faster algorithms for the
     * shortest path problem", 1990), which fits a discrete-event kernel: times never go below the
     * last minimum. Bucket 0 holds the events at time rLast; bucket i >= 1 those whose time differs
     * from rLast first in bit i-1. When bucket 0 is empty, the lowest non-empty bucket is scanned for
     * its minimum, which becomes rLast, and its events move to lower buckets (each event moves at
     * most 63 times in all). Equal times keep insertion order: the events that land in bucket 0 on a
     * redistribution are sorted by insertion sequence, and later ones at that time have larger
     * sequences and are appended. Looking at the head may move rLast past the clock (runUntil(time)
     * stopping before a later event, or end-of-instant actions running before it); an event then
     * scheduled before rLast goes to a small side heap ordered by (time, sequence), and the head is
     * the earlier of the two. Pushes and pops touch a few array ends instead of walking a tree
     * of 10^5 entries, which is what made the 4-ary heap miss the cache.
     */

    private int bucketOf(long time) {
        return time == rLast ? 0 : 64 - Long.numberOfLeadingZeros(time ^ rLast);
    }

    private void push(int b, int slot) {
        int[] a = bucket[b];
        int n = bSize[b];
        if (a == null) {
            a = new int[16];
            bucket[b] = a;
        } else if (n == a.length) {
            if (b == 0 && b0Head > 0) { // reclaim the popped front of the FIFO first
                System.arraycopy(a, b0Head, a, 0, n - b0Head);
                n -= b0Head;
                b0Head = 0;
            }
            if (n == a.length) {
                a = java.util.Arrays.copyOf(a, n * 2);
                bucket[b] = a;
            }
        }
        a[n] = slot;
        bSize[b] = n + 1;
    }

    /** The slot at the head of the queue (hSize > 0). */
    private int top() {
        if (eSize > 0) {
            if (hSize == eSize) {
                return early[0];
            }
            if (b0Head == bSize[0]) {
                refill();
            }
            int a = early[0];
            int b = bucket[0][b0Head];
            // early events are before rLast, except a tie broken by insertion order
            return sMeta[3 * a] < sMeta[3 * b] || (sMeta[3 * a] == sMeta[3 * b] && sMeta[3 * a + 1] < sMeta[3 * b + 1]) ? a : b;
        }
        if (b0Head == bSize[0]) {
            refill();
        }
        return bucket[0][b0Head];
    }

    private void removeTop() {
        if (eSize > 0 && top() == early[0]) {
            earlyPop();
            hSize--;
            return;
        }
        b0Head++;
        hSize--;
        if (b0Head == bSize[0]) {
            b0Head = 0;
            bSize[0] = 0;
        }
    }

    // the side heap of events scheduled before rLast (a binary heap on (time, sequence))
    private int[] early = new int[16];
    private int eSize;

    private boolean earlyBefore(int a, int b) {
        return sMeta[3 * a] < sMeta[3 * b] || (sMeta[3 * a] == sMeta[3 * b] && sMeta[3 * a + 1] < sMeta[3 * b + 1]);
    }

    private void earlyPush(int slot) {
        if (eSize == early.length) {
            early = java.util.Arrays.copyOf(early, eSize * 2);
        }
        int pos = eSize++;
        while (pos > 0) {
            int parent = (pos - 1) >>> 1;
            if (!earlyBefore(slot, early[parent])) {
                break;
            }
            early[pos] = early[parent];
            pos = parent;
        }
        early[pos] = slot;
    }

    private void earlyPop() {
        int last = early[--eSize];
        int pos = 0;
        int n = eSize;
        while (true) {
            int c = (pos << 1) + 1;
            if (c >= n) {
                break;
            }
            if (c + 1 < n && earlyBefore(early[c + 1], early[c])) {
                c++;
            }
            if (!earlyBefore(early[c], last)) {
                break;
            }
            early[pos] = early[c];
            pos = c;
        }
        if (n > 0) {
            early[pos] = last;
        }
    }

    /** Bucket 0 is empty: the lowest non-empty bucket's minimum becomes rLast and its events move down. */
    private void refill() {
        b0Head = 0;
        bSize[0] = 0;
        int i = 1;
        while (bSize[i] == 0) {
            i++;
        }
        int[] a = bucket[i];
        int n = bSize[i];
        long min = Long.MAX_VALUE;
        for (int k = 0; k < n; k++) {
            long t = sMeta[3 * a[k]];
            if (t < min) {
                min = t;
            }
        }
        rLast = min;
        bSize[i] = 0;
        for (int k = 0; k < n; k++) {
            int slot = a[k];
            push(bucketOf(sMeta[3 * slot]), slot);
        }
        sortBucket0BySeq();
    }

    /** Insertion order among the events at time rLast (a redistribution brings them in any order). */
    private void sortBucket0BySeq() {
        int[] a = bucket[0];
        int n = bSize[0];
        for (int k = b0Head + 1; k < n; k++) {
            int slot = a[k];
            long q = sMeta[3 * slot + 1];
            int j = k - 1;
            while (j >= b0Head && sMeta[3 * a[j] + 1] > q) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = slot;
        }
    }

    /** Drops cancelled entries (freeing their slots), O(queue size). */
    private void compact() {
        int total = 0;
        for (int b = 0; b < 64; b++) {
            int[] a = bucket[b];
            int from = b == 0 ? b0Head : 0;
            int n = 0;
            for (int k = from; k < bSize[b]; k++) {
                int slot = a[k];
                if (sAction[slot] != null) {
                    a[n++] = slot;
                } else {
                    freeSlot(slot);
                }
            }
            bSize[b] = n;
            total += n;
        }
        b0Head = 0;
        int[] keep = new int[eSize];
        int kept = 0;
        for (int k = 0; k < eSize; k++) {
            int slot = early[k];
            if (sAction[slot] != null) {
                keep[kept++] = slot;
            } else {
                freeSlot(slot);
            }
        }
        eSize = 0;
        for (int k = 0; k < kept; k++) {
            earlyPush(keep[k]);
        }
        hSize = total + kept;
        stale = 0;
    }
}
