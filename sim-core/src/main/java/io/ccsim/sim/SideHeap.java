package io.ccsim.sim;

import java.util.Arrays;

/**
 * A binary min-heap of events ordered by (time, insertion sequence): the events that {@link EventQueue} can file
 * neither in its buckets nor at the end of its run (times before its base, or inside the run's block below the
 * run's last).
 *
 * <p>Each entry is (time in picoseconds, insertion sequence, handle), kept inline so that ordering never reads the
 * event table. Inserting allocates nothing (the array grows by doubling). Not thread-safe.
 */
final class SideHeap {
    private static final int W = 3; // longs per entry: time, sequence, handle

    private long[] e = new long[W * 16];
    private int size;

    /** @return the number of entries */
    int size() {
        return size;
    }

    /** @return the time (ps) of the least entry; the heap must not be empty */
    long headTime() {
        return e[0];
    }

    /** @return the insertion sequence of the least entry; the heap must not be empty */
    long headSeq() {
        return e[1];
    }

    /** @return the handle of the least entry; the heap must not be empty */
    long headHandle() {
        return e[2];
    }

    /** @return the handle of entry {@code i} in storage order, {@code 0 <= i < size()} */
    long handleAt(int i) {
        return e[W * i + 2];
    }

    /** Adds an entry. */
    void push(long time, long seq, long handle) {
        if (W * size == e.length) {
            e = Arrays.copyOf(e, e.length * 2);
        }
        int pos = size++;
        while (pos > 0) {
            int parent = (pos - 1) >>> 1;
            if (!before(time, seq, parent)) {
                break;
            }
            move(parent, pos);
            pos = parent;
        }
        set(pos, time, seq, handle);
    }

    /** Removes the least entry; the heap must not be empty. */
    void pop() {
        int last = --size;
        if (last > 0) {
            siftDown(0, e[W * last], e[W * last + 1], e[W * last + 2]);
        }
    }

    /** Moves entry {@code from} to storage position {@code to <= from}, to filter in storage order. */
    void moveEntry(int from, int to) {
        if (from != to) {
            move(from, to);
        }
    }

    /** Keeps the first {@code n} entries in storage order and restores the heap order (Floyd's heapify). */
    void truncate(int n) {
        size = n;
        for (int i = (n >>> 1) - 1; i >= 0; i--) {
            siftDown(i, e[W * i], e[W * i + 1], e[W * i + 2]);
        }
    }

    private void siftDown(int pos, long time, long seq, long handle) {
        int n = size;
        while (true) {
            int c = (pos << 1) + 1;
            if (c >= n) {
                break;
            }
            if (c + 1 < n && less(c + 1, c)) {
                c++;
            }
            if (!before(e[W * c], e[W * c + 1], time, seq)) {
                break;
            }
            move(c, pos);
            pos = c;
        }
        set(pos, time, seq, handle);
    }

    private boolean before(long time, long seq, int i) {
        return before(time, seq, e[W * i], e[W * i + 1]);
    }

    private boolean less(int i, int j) {
        return before(e[W * i], e[W * i + 1], e[W * j], e[W * j + 1]);
    }

    private static boolean before(long t1, long q1, long t2, long q2) {
        return t1 < t2 || (t1 == t2 && q1 < q2);
    }

    private void move(int from, int to) {
        e[W * to] = e[W * from];
        e[W * to + 1] = e[W * from + 1];
        e[W * to + 2] = e[W * from + 2];
    }

    private void set(int pos, long time, long seq, long handle) {
        e[W * pos] = time;
        e[W * pos + 1] = seq;
        e[W * pos + 2] = handle;
    }
}
