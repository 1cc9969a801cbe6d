package io.ccsim.sim;

import java.util.Arrays;

/**
 * The simulator's queue of pending actions, ordered by (time, insertion sequence), with cancellable handles.
 *
 * <p>Contract:
 * <ul>
 *   <li>{@link #enqueue} takes any time in picoseconds and returns a handle {@code >= 0}; it is fastest for times
 *       not below the last head's (which the simulator's clock guarantees but for the cases in the block
 *       comment).</li>
 *   <li>{@link #peek} gives the slot of the earliest live event (least time, then least sequence), or -1;
 *       {@link #take} removes that head and returns its action.</li>
 *   <li>A handle is {@code generation << 28 | slot}: a slot's generation grows at each reuse, so the handle of a
 *       taken or cancelled event never names a later event (a slot whose generation would overflow is retired).
 *       At most 2^28 - 1 events may be pending at once ({@link IllegalStateException} beyond).</li>
 *   <li>Nothing is boxed; inserting allocates nothing (arrays grow by doubling).</li>
 * </ul>
 * Not thread-safe. The {@link Simulator} is its only subclass; tests use it alone.
 */
class EventQueue {
    /*
     * The queue is a radix heap (Ahuja, Mehlhorn, Orlin, Tarjan, "Faster algorithms for the shortest path problem",
     * 1990), which fits a discrete-event kernel: times never go below the last minimum. Bucket 0 holds the events at
     * time rLast; bucket i >= 1 those whose time differs from rLast first in bit i-1. When bucket 0 is empty, the
     * lowest non-empty bucket is scanned for its minimum, which becomes rLast, and its events move to lower buckets
     * (each event moves at most 63 times in all). Equal times keep insertion order: the events that land in bucket 0
     * on a redistribution are sorted by insertion sequence, and later ones at that time have larger sequences and are
     * appended. Looking at the head may move rLast past the simulator's clock (runUntil(time) stopping before a later
     * event, or end-of-instant actions running before it); an event then inserted before rLast goes to a small side
     * heap ordered by (time, sequence), and the head is the earlier of the two. Pushes and pops touch a few array
     * ends instead of walking a tree.
     *
     * A slot indexes the event table: per slot, interleaved for locality (one cache line), the time, the insertion
     * sequence and the generation, plus the action (null once taken or cancelled). Cancellation is lazy: the action
     * is dropped at once, and the slot is freed when its queue entry surfaces, or at a compaction, done when
     * cancelled entries outnumber live ones.
     *
     * Why the simulator's superclass, not a part it holds: every schedule and dispatch then reaches the queue's
     * state without one more dependent load (the same reason FlowCore is Flow's superclass).
     */
    private static final int SLOT_BITS = 28;
    private static final int SLOT_MASK = (1 << SLOT_BITS) - 1;
    private static final long MAX_GEN = (1L << (63 - SLOT_BITS)) - 1;
    private static final int MIN_COMPACT = 1024;

    private long nextSeq;

    private final int[][] bucket = new int[64][];
    private final int[] bSize = new int[64];
    private int b0Head;        // bucket 0 is a FIFO of the events at time rLast: [b0Head, bSize[0])
    private long rLast;        // the time every bucket is relative to: the last minimum
    private int hSize;         // queue entries (stale ones included)
    // per slot: time, insertion sequence, generation
    private long[] sMeta = new long[3 * 256];

    // slot table
    private Runnable[] sAction = new Runnable[256];
    private int[] freeSlots = new int[256];
    private int freeTop;
    private int slotHigh; // slots [0, slotHigh) have been used

    private long live;  // pending, not cancelled
    private long stale; // cancelled entries still in the queue

    // the side heap of events inserted before rLast (a binary heap on (time, sequence))
    private int[] early = new int[16];
    private int eSize;

    /**
     * Queues {@code action} at {@code time} (ps), after every event already queued at that time.
     *
     * @return the event's handle, {@code >= 0}
     * @throws IllegalStateException if 2^28 - 1 events are pending already
     */
    final long enqueue(long time, Runnable action) {
        int slot = allocSlot();
        long seq = nextSeq++;
        sAction[slot] = action;
        sMeta[3 * slot + 1] = seq;
        long handle = (sMeta[3 * slot + 2] << SLOT_BITS) | slot;
        sMeta[3 * slot] = time;
        if (time < rLast) {
            earlyPush(slot); // before the radix base: see the block comment
        } else {
            push(bucketOf(time), slot);
        }
        hSize++;
        live++;
        return handle;
    }

    /**
     * Cancels a pending event.
     *
     * @return true if it was pending and is now cancelled; false if it was taken or cancelled already, or the handle
     * names no event
     */
    final boolean cancelEvent(long handle) {
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

    /** @return whether the event of this handle is queued, neither taken nor cancelled */
    final boolean isQueued(long handle) {
        return slotOf(handle) >= 0;
    }

    /** @return the number of pending (not cancelled) events */
    final long liveEvents() {
        return live;
    }

    /**
     * @return the slot of the earliest pending event, or -1 if none; cancelled entries met at the head are dropped
     */
    final int peek() {
        while (hSize > 0) {
            int slot = top();
            if (sAction[slot] != null) {
                return slot;
            }
            removeTop(); // cancelled
            freeSlot(slot);
            stale--;
        }
        return -1;
    }

    /** @return the time (ps) of the event in {@code slot} (a slot {@link #peek} returned) */
    final long timeOf(int slot) {
        return sMeta[3 * slot];
    }

    /** @return the insertion sequence of the event in {@code slot} (a slot {@link #peek} returned) */
    final long seqOf(int slot) {
        return sMeta[3 * slot + 1];
    }

    /** Removes the head, which must be {@code slot} as {@link #peek} just returned it; returns its action. */
    final Runnable take(int slot) {
        Runnable action = sAction[slot];
        removeTop();
        freeSlot(slot);
        live--;
        return action;
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
                sAction = Arrays.copyOf(sAction, n);
                sMeta = Arrays.copyOf(sMeta, 3 * n);
                freeSlots = Arrays.copyOf(freeSlots, n);
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
                a = Arrays.copyOf(a, n * 2);
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
            return earlyBefore(a, b) ? a : b;
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

    private boolean earlyBefore(int a, int b) {
        return sMeta[3 * a] < sMeta[3 * b] || (sMeta[3 * a] == sMeta[3 * b] && sMeta[3 * a + 1] < sMeta[3 * b + 1]);
    }

    private void earlyPush(int slot) {
        if (eSize == early.length) {
            early = Arrays.copyOf(early, eSize * 2);
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
