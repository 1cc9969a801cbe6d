package io.ccsim.sim;

import java.util.Arrays;
import java.util.function.LongPredicate;

/**
 * Events of one block of 2^{@value #BITS} picoseconds in (time, insertion) order, as one array: the lowest level of
 * {@link EventQueue}.
 *
 * <p>An entry is (time in ps, handle, insertion sequence). The run is filled, when empty, by a stable counting sort
 * on the time's low {@value #BITS} bits: {@link #count} each entry, {@link #offsets}, {@link #place} each entry in
 * the same order, {@link #endFill}; or, for a few entries, by {@link #insert} of each. After that, {@link #append}
 * adds entries whose time is not below {@link #lastTime}; the head is taken from the front. Nothing is allocated in
 * steady state (the array grows by doubling, and restarts from its front whenever the run is empty). Not
 * thread-safe.
 */
final class BlockRun {
    /*
     * Why a sorted array rather than a FIFO per time: the queue's dispatches then read the run in order, one cache
     * line per two or three events, and the random accesses of sorting happen in the fill, many at once. The counts
     * (one int per time of the block) are only ever non-zero during a fill, and a two-level bitmap lets offsets() and
     * endFill() visit the times present only. Still, walking them costs more than inserting a handful of entries
     * one by one, the common case between instants far apart: the queue fills those with insert().
     */
    /** Bits of time within a block: a block is 2^BITS ps. */
    static final int BITS = 14;
    private static final int DIGITS = 1 << BITS;
    private static final int MASK = DIGITS - 1;
    private static final int W = 3; // longs per entry: time, handle, insertion sequence

    private final long[] present = new long[DIGITS / 64]; // during a fill: bit d set iff count[d] > 0
    private final long[] words = new long[DIGITS / 4096]; // during a fill: bit w set iff present[w] != 0
    private final int[] count = new int[DIGITS];          // during a fill: per time, its entries, then its position
    private long[] entries = new long[W * 64];
    private int head;
    private int size;

    /** @return whether no entry is queued */
    boolean isEmpty() {
        return head == size;
    }

    /** @return the time (ps) of the head entry; the run must not be empty */
    long headTime() {
        return entries[W * head];
    }

    /** @return the handle of the head entry; the run must not be empty */
    long headHandle() {
        return entries[W * head + 1];
    }

    /** @return the insertion sequence of the head entry; the run must not be empty */
    long headSeq() {
        return entries[W * head + 2];
    }

    /** @return the time (ps) of the last entry; the run must not be empty */
    long lastTime() {
        return entries[W * size - W];
    }

    /** @return the index of the head entry: the entries queued are those of indices [head index, end) */
    int headIndex() {
        return head;
    }

    /** @return the index after the last entry */
    int end() {
        return size;
    }

    /** @return the handle of the entry of index {@code i} */
    long handleAt(int i) {
        return entries[W * i + 1];
    }

    /** Removes the head entry; the run must not be empty. */
    void removeHead() {
        if (++head == size) {
            head = 0;
            size = 0;
        }
    }

    /** Appends an entry; the run must be empty or {@code time >= lastTime()}, in the block of the others. */
    void append(long time, long handle, long seq) {
        int n = size;
        if (W * n == entries.length) {
            if (head > 0) { // reclaim the taken front first
                System.arraycopy(entries, W * head, entries, 0, W * (n - head));
                n -= head;
                head = 0;
            } else {
                entries = Arrays.copyOf(entries, 2 * entries.length);
            }
        }
        entries[W * n] = time;
        entries[W * n + 1] = handle;
        entries[W * n + 2] = seq;
        size = n + 1;
    }

    /**
     * Adds an entry during a fill by insertion, for fills of few entries: after every entry of its time or earlier,
     * the later ones moved up by one. Every entry already in the run must have been inserted before this one.
     */
    void insert(long time, long handle, long seq) {
        int n = size;
        if (W * n == entries.length) {
            entries = Arrays.copyOf(entries, 2 * entries.length);
        }
        long[] a = entries;
        int p = n;
        for (; p > head && a[W * p - W] > time; p--) {
            a[W * p] = a[W * p - W];
            a[W * p + 1] = a[W * p - W + 1];
            a[W * p + 2] = a[W * p - W + 2];
        }
        a[W * p] = time;
        a[W * p + 1] = handle;
        a[W * p + 2] = seq;
        size = n + 1;
    }

    /** First pass of a fill of the empty run: counts an entry of this time. */
    void count(long time) {
        int d = (int) time & MASK;
        if (count[d]++ == 0) {
            int w = d >>> 6;
            long bits = present[w];
            if (bits == 0) {
                words[w >>> 6] |= 1L << w;
            }
            present[w] = bits | 1L << d;
        }
    }

    /** Second pass of a fill: gives each time its first position, in order of time. */
    void offsets() {
        int n = 0;
        for (int s = 0; s < words.length; s++) {
            for (long ws = words[s]; ws != 0; ws &= ws - 1) {
                int w = s << 6 | Long.numberOfTrailingZeros(ws);
                for (long bits = present[w]; bits != 0; bits &= bits - 1) {
                    int d = w << 6 | Long.numberOfTrailingZeros(bits);
                    int c = count[d];
                    count[d] = n;
                    n += c;
                }
            }
        }
        if (W * n > entries.length) {
            entries = new long[Math.max(W * n, 2 * entries.length)];
        }
        head = 0;
        size = n;
    }

    /** Third pass of a fill: places an entry, the counted entries in the order they were counted. */
    void place(long time, long handle, long seq) {
        int p = count[(int) time & MASK]++;
        entries[W * p] = time;
        entries[W * p + 1] = handle;
        entries[W * p + 2] = seq;
    }

    /** Ends a fill: the counts are zero again. */
    void endFill() {
        for (int s = 0; s < words.length; s++) {
            for (long ws = words[s]; ws != 0; ws &= ws - 1) {
                int w = s << 6 | Long.numberOfTrailingZeros(ws);
                for (long bits = present[w]; bits != 0; bits &= bits - 1) {
                    count[w << 6 | Long.numberOfTrailingZeros(bits)] = 0;
                }
                present[w] = 0;
            }
            words[s] = 0;
        }
    }

    /**
     * Keeps only the entries whose handle {@code keep} accepts, in their order.
     *
     * @return the entries kept
     */
    int retain(LongPredicate keep) {
        int n = 0;
        for (int k = head; k < size; k++) {
            if (keep.test(entries[W * k + 1])) {
                System.arraycopy(entries, W * k, entries, W * n, W);
                n++;
            }
        }
        head = 0;
        size = n;
        return n;
    }
}
