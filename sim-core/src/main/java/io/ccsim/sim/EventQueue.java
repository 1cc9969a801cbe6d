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
 *       {@link #headTime} and {@link #headSeq} are that event's time and insertion sequence, and {@link #take}
 *       removes it and returns its action.</li>
 *   <li>A handle is {@code generation << 28 | slot}: a slot's generation grows at each reuse, so the handle of a
 *       taken or cancelled event never names a later event (a slot whose generation would overflow is retired).
 *       At most 2^28 events may be pending at once ({@link IllegalStateException} beyond).</li>
 *   <li>Nothing is boxed; inserting allocates nothing in steady state (storage grows by doubling).</li>
 * </ul>
 * Not thread-safe. The {@link Simulator} is its only subclass; tests use it alone.
 */
class EventQueue extends EntryChunks {
    /*
     * Levels. A radix heap (Ahuja, Mehlhorn, Orlin, Tarjan, "Faster algorithms for the shortest path problem",
     * 1990) with 8-bit digits above a 14-bit block, which is also a hierarchical timing wheel (Varghese, Lauck,
     * "Hashed and hierarchical timing wheels", 1987) whose base is the last minimum, rLast. Let x = t ^ rLast for a
     * time t >= rLast. If x < 2^14, t is in rLast's block (16,384 ps) and the event is in the run (level 0, below).
     * Otherwise its level L >= 1 is that of the highest bit of x (level L covers bits 14 + 8(L-1) to 14 + 8L - 1),
     * and it goes to bucket (L, digit of t in those bits), a chain of chunks (EntryChunks). When the run is empty,
     * the lowest non-empty bucket of the lowest non-empty level (a scan of an occupancy bitmap) is emptied: its least
     * time (kept per bucket) becomes rLast, and each of its events moves to the run or to a lower level. The other
     * buckets keep their place, as rLast kept every bit above those of that bucket's level. An event filed at level L
     * moves L times at most, the last into the run: once if its time is in rLast's aligned 2^22-ps (4.2 us) region.
     *
     * The run holds the events of rLast's block sorted by (time, insertion): an emptied bucket's events that land
     * there are placed by a stable counting sort on the block's 16,384 times (by insertion if the bucket holds at
     * most FEW entries: the counting sort's passes over its bitmaps cost more for a handful), so dispatching reads
     * them in order. An event inserted later in the block is appended if its time is not below the run's last;
     * otherwise it goes to the side heap (below).
     *
     * Equal times keep insertion order: two events of equal time are always in the same bucket (it depends on the
     * time and rLast only); an insertion appends; emptying a bucket of level L moves its entries, in order, to the
     * run and to levels below L, all empty then; and the run's sort is stable.
     *
     * Entries carry their time, handle and insertion sequence, so moving and sorting events read and write chunks
     * and the run in order, never the event table; dispatching reads the table for the action, the next TOUCH
     * entries' actions loaded at once (touchActions). The event table holds, per slot, the generation (written
     * when an event is created, taken or cancelled) and the action. A slot's generation is odd while its event is
     * queued and even while the slot is free; taking or cancelling the event makes it even and frees the slot at
     * once. Cancellation is otherwise lazy: the entry stays and is dropped (its handle's generation no longer
     * matches the slot's) when it surfaces, when its bucket is emptied, or at a compaction, done when cancelled
     * entries outnumber live ones. While no cancelled entry is queued (stale == 0), neither the head nor an emptied
     * bucket's entries need a check.
     *
     * The side heap, ordered by (time, sequence), takes what the run cannot append: times below rLast (looking at
     * the head may move rLast past the simulator's clock, when runUntil(time) stops before a later event or
     * end-of-instant actions run before it; negative times), and times in the run's block below its last. The head
     * is the lesser by (time, sequence) of the run's first entry and the side heap's. Every side entry is below
     * every bucket's times, so the run is refilled only when it and the side heap are empty. An event inserted into
     * an empty queue starts the run, rLast moving to its time (up or down): a simulation with one event pending at
     * a time never touches the buckets.
     *
     * Why the simulator's superclass, not a part it holds: every schedule and dispatch then reaches the queue's
     * state without one more dependent load (the same reason FlowCore is Flow's superclass).
     */
    private static final int SLOT_BITS = 28;
    private static final int SLOT_MASK = (1 << SLOT_BITS) - 1;
    private static final int MAX_GEN = Integer.MAX_VALUE;
    private static final int MIN_COMPACT = 1024;
    private static final int TOUCH = 16; // run entries whose actions are loaded together: see touchActions
    private static final int FEW = 16; // an emptied bucket of at most this many entries is sorted by insertion
    private static final int RUN_BITS = BlockRun.BITS;
    private static final int DIGIT_BITS = 8;
    private static final int LEVELS = 7; // levels 1..7 cover bits 14 to 69
    private static final int BUCKETS = (LEVELS + 1) << DIGIT_BITS; // bucket = level << 8 | digit, level >= 1
    // per bucket, 4 longs (one cache line holds two buckets): least time, first chunk, last chunk, entries in it
    private static final int MIN = 0;
    private static final int HEAD = 1;
    private static final int TAIL = 2;
    private static final int FILL = 3;

    private long nextSeq;

    private long rLast; // the base every bucket is relative to
    private final long[] bucket = new long[4 * BUCKETS]; // empty: no chunks, FILL == CHUNK (the next push chains)
    private final long[] occupied = new long[BUCKETS / 64]; // bit b set iff bucket b holds entries
    private final BlockRun run = new BlockRun(); // level 0: the events of rLast's block
    private final SideHeap side = new SideHeap();
    private boolean headFromSide; // where the head peek found is
    private long headHandle;      // its handle
    private int hSize;            // queue entries (cancelled ones included), side heap included

    // the event table: per slot, the generation and the action
    private int[] sGen = new int[256];
    private Runnable[] sAction = new Runnable[256];
    private long[] freeHandles = new long[256]; // the next handle of each free slot, last freed on top
    private int freeTop;
    private int slotHigh; // slots [0, slotHigh) have been used

    private long live;  // pending, not cancelled
    private long stale; // cancelled entries still queued
    private int touched; // what touchActions read, kept so that its loads are not dropped

    EventQueue() {
        for (int b = 0; b < BUCKETS; b++) {
            clearBucket(b);
        }
    }

    /**
     * Queues {@code action} at {@code time} (ps), after every event already queued at that time.
     *
     * @return the event's handle, {@code >= 0}
     * @throws IllegalStateException if 2^28 events are pending already
     */
    final long enqueue(long time, Runnable action) {
        long handle = allocHandle();
        int slot = (int) (handle & SLOT_MASK);
        long seq = nextSeq++;
        sGen[slot] = (int) (handle >>> SLOT_BITS);
        sAction[slot] = action;
        long r = rLast;
        long x = time ^ r;
        if (hSize == 0 && time >= 0) {
            rLast = time; // nothing is queued: the base moves to this event, which starts the run
            run.append(time, handle, seq);
        } else if (time >= r && x >>> RUN_BITS != 0) {
            push(x, time, handle, seq);
        } else if (time >= r && (run.isEmpty() || time >= run.lastTime())) {
            run.append(time, handle, seq);
        } else {
            side.push(time, seq, handle); // see the block comment
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
        release(slot, handle >>> SLOT_BITS); // the entry stays queued, stale
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
            long handle;
            if (side.size() == 0) {
                if (run.isEmpty()) {
                    advance();
                    continue; // it may have dropped every entry it met: cancelled ones
                }
                headFromSide = false;
                handle = run.headHandle();
            } else if (run.isEmpty() || side.headTime() < run.headTime()
                    || side.headTime() == run.headTime() && side.headSeq() < run.headSeq()) {
                headFromSide = true;
                handle = side.headHandle();
            } else {
                headFromSide = false;
                handle = run.headHandle();
            }
            headHandle = handle;
            if (stale == 0 || isLive(handle)) {
                return (int) (handle & SLOT_MASK);
            }
            removeHead(); // cancelled: its slot was freed then
            stale--;
        }
        return -1;
    }

    /** @return the time (ps) of the event {@link #peek} just returned */
    final long headTime() {
        return headFromSide ? side.headTime() : run.headTime();
    }

    /** @return the insertion sequence of the event {@link #peek} just returned */
    final long headSeq() {
        return headFromSide ? side.headSeq() : run.headSeq();
    }

    /** Removes the head, which must be {@code slot} as {@link #peek} just returned it; returns its action. */
    final Runnable take(int slot) {
        Runnable action = sAction[slot];
        removeHead();
        release(slot, headHandle >>> SLOT_BITS);
        live--;
        return action;
    }

    private long allocHandle() {
        if (freeTop > 0) {
            return freeHandles[--freeTop];
        }
        if (slotHigh == freeHandles.length) {
            if (slotHigh > SLOT_MASK) {
                throw new IllegalStateException("simulator: more than " + (SLOT_MASK + 1L)
                        + " pending events at once");
            }
            int n = Math.min(slotHigh * 2, SLOT_MASK + 1);
            sGen = Arrays.copyOf(sGen, n);
            sAction = Arrays.copyOf(sAction, n);
            freeHandles = Arrays.copyOf(freeHandles, n);
        }
        return (1L << SLOT_BITS) | slotHigh++;
    }

    /** The event of generation {@code gen} in {@code slot} is taken or cancelled: the slot is free. */
    private void release(int slot, long gen) {
        sGen[slot] = (int) gen + 1;
        sAction[slot] = null;
        if (gen + 2 <= MAX_GEN) { // else retired: never reused, so old handles stay unique
            freeHandles[freeTop++] = ((gen + 2) << SLOT_BITS) | slot;
        }
    }

    private boolean isLive(long handle) {
        return sGen[(int) (handle & SLOT_MASK)] == handle >>> SLOT_BITS;
    }

    private int slotOf(long handle) {
        if (handle < 0 || (handle & (1L << SLOT_BITS)) == 0) { // queued generations are odd
            return -1;
        }
        int slot = (int) (handle & SLOT_MASK);
        if (slot >= slotHigh || !isLive(handle)) {
            return -1;
        }
        return slot;
    }

    /** Files an entry under its bucket of level >= 1; {@code x} is {@code time ^ rLast}, at least 2^RUN_BITS. */
    private void push(long x, long time, long handle, long seq) {
        int level = (63 - RUN_BITS - Long.numberOfLeadingZeros(x)) / DIGIT_BITS + 1;
        int b = level << DIGIT_BITS
                | (int) (time >>> (RUN_BITS + DIGIT_BITS * (level - 1))) & ((1 << DIGIT_BITS) - 1);
        long[] bm = bucket;
        int c = (int) bm[4 * b + TAIL];
        int f = (int) bm[4 * b + FILL];
        if (f == CHUNK) { // full, or no chunk yet
            int n = newChunk();
            if (c < 0) {
                bm[4 * b + HEAD] = n;
                occupied[b >>> 6] |= 1L << b;
            } else {
                nextChunk[c] = n;
            }
            bm[4 * b + TAIL] = n;
            c = n;
            f = 0;
        }
        setEntry(c << CHUNK_BITS | f, time, handle, seq);
        bm[4 * b + FILL] = f + 1;
        if (time < bm[4 * b + MIN]) {
            bm[4 * b + MIN] = time;
        }
    }

    private void removeHead() {
        if (headFromSide) {
            side.pop();
        } else {
            run.removeHead();
            if ((run.headIndex() & (TOUCH - 1)) == 0) {
                touchActions();
            }
        }
        hSize--;
    }

    /**
     * Loads the action references of the run's next {@link #TOUCH} entries at once. The event table is indexed by
     * slot, in no relation to time, so each dispatch would otherwise wait for its own cache miss; loaded together,
     * the misses overlap.
     */
    private void touchActions() {
        int nulls = 0;
        for (int i = run.headIndex(), end = Math.min(run.end(), i + TOUCH); i < end; i++) {
            nulls += sAction[(int) (run.handleAt(i) & SLOT_MASK)] == null ? 1 : 0;
        }
        touched += nulls;
    }

    private void clearBucket(int b) {
        bucket[4 * b + MIN] = Long.MAX_VALUE;
        bucket[4 * b + HEAD] = -1;
        bucket[4 * b + TAIL] = -1;
        bucket[4 * b + FILL] = CHUNK;
        occupied[b >>> 6] &= ~(1L << b);
    }

    /**
     * The run and the side heap are empty, with events queued: empties the lowest non-empty bucket, its least time
     * becoming rLast, into the run (sorted) and lower levels, dropping its cancelled entries (the run may stay
     * empty).
     */
    private void advance() {
        int w = (1 << DIGIT_BITS) / 64; // level 0 is the run
        while (occupied[w] == 0) {
            w++;
        }
        int b = w << 6 | Long.numberOfTrailingZeros(occupied[w]);
        int head = (int) bucket[4 * b + HEAD];
        int tail = (int) bucket[4 * b + TAIL];
        int fill = (int) bucket[4 * b + FILL];
        long min = bucket[4 * b + MIN];
        clearBucket(b);
        rLast = min;
        if (head == tail && fill <= FEW) {
            moveFew(head, fill, min);
        } else {
            moveMany(head, tail, fill, min);
        }
        freeChain(head, tail);
        touchActions();
    }

    /** Moves the entries of one chunk out of an emptied bucket: those of rLast's block by insertion into the run. */
    private void moveFew(int chunk, int fill, long min) {
        boolean drop = stale != 0; // cancelled entries are dropped here rather than moved
        for (int e = chunk << CHUNK_BITS, end = e + fill; e < end; e++) {
            long h = key[3 * e + 1];
            if (drop && !isLive(h)) {
                stale--;
                hSize--;
                continue;
            }
            long t = key[3 * e];
            long x = t ^ min;
            if (x >>> RUN_BITS == 0) {
                run.insert(t, h, key[3 * e + 2]);
            } else {
                push(x, t, h, key[3 * e + 2]); // the arrays may grow: no local copies
            }
        }
    }

    /** Moves the entries of an emptied bucket's chain: those of rLast's block by a counting sort into the run. */
    private void moveMany(int head, int tail, int fill, long min) {
        boolean drop = stale != 0; // cancelled entries are dropped here rather than moved
        for (int k = head; ; k = nextChunk[k]) { // the arrays may grow meanwhile: no local copies
            int n = k == tail ? fill : CHUNK;
            for (int e = k << CHUNK_BITS, end = e + n; e < end; e++) {
                long h = key[3 * e + 1];
                if (drop && !isLive(h)) {
                    key[3 * e + 1] = -1; // for the second pass
                    stale--;
                    hSize--;
                    continue;
                }
                long t = key[3 * e];
                long x = t ^ min;
                if (x >>> RUN_BITS == 0) {
                    run.count(t);
                } else {
                    push(x, t, h, key[3 * e + 2]);
                }
            }
            if (k == tail) {
                break;
            }
        }
        run.offsets();
        for (int k = head; ; k = nextChunk[k]) {
            int n = k == tail ? fill : CHUNK;
            for (int e = k << CHUNK_BITS, end = e + n; e < end; e++) {
                long t = key[3 * e];
                long h = key[3 * e + 1];
                if (h >= 0 && (t ^ min) >>> RUN_BITS == 0) {
                    run.place(t, h, key[3 * e + 2]);
                }
            }
            if (k == tail) {
                break;
            }
        }
        run.endFill();
    }

    /** Drops cancelled entries, O(queue size). */
    private void compact() {
        int total = run.retain(this::isLive);
        for (int w = 0; w < occupied.length; w++) {
            long bits = occupied[w];
            while (bits != 0) {
                int b = w << 6 | Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
                total += compactBucket(b);
            }
        }
        int kept = 0;
        for (int k = 0; k < side.size(); k++) {
            if (isLive(side.handleAt(k))) {
                side.moveEntry(k, kept++);
            }
        }
        side.truncate(kept);
        hSize = total + kept;
        stale = 0;
    }

    /** Keeps the live entries of bucket {@code b} in order at the front of its chain; @return how many. */
    private int compactBucket(int b) {
        int head = (int) bucket[4 * b + HEAD];
        int tail = (int) bucket[4 * b + TAIL];
        int fill = (int) bucket[4 * b + FILL];
        int wc = head;
        int wf = 0;
        int kept = 0;
        long min = Long.MAX_VALUE;
        for (int k = head; ; k = nextChunk[k]) {
            int n = k == tail ? fill : CHUNK;
            for (int e = k << CHUNK_BITS, end = e + n; e < end; e++) {
                long h = key[3 * e + 1];
                if (isLive(h)) {
                    if (wf == CHUNK) {
                        wc = nextChunk[wc];
                        wf = 0;
                    }
                    int to = wc << CHUNK_BITS | wf++;
                    long t = key[3 * e];
                    if (to != e) { // entries before the first cancelled one stay where they are
                        setEntry(to, t, h, key[3 * e + 2]);
                    }
                    min = Math.min(min, t);
                    kept++;
                }
            }
            if (k == tail) {
                break;
            }
        }
        if (kept == 0) {
            freeChain(head, tail);
            clearBucket(b);
            return 0;
        }
        if (wc != tail) {
            freeChain(nextChunk[wc], tail);
            nextChunk[wc] = -1;
        }
        bucket[4 * b + TAIL] = wc;
        bucket[4 * b + FILL] = wf;
        bucket[4 * b + MIN] = min;
        return kept;
    }
}
