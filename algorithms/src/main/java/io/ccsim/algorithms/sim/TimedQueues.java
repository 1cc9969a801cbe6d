package io.ccsim.algorithms.sim;

/**
 * Many queues of increments that become visible at known future times, each in time order (a
 * connection's data arrivals or credit returns travel one hop latency, a constant per connection).
 * Keeping them here instead of scheduling an event per increment lets a waiting worker be woken once,
 * at the time the increment it needs lands, and costs nothing when nobody waits.
 *
 * <p>All queues live in one {@code long[]}: queue {@code q} is the block
 * {@code [q * stride, (q + 1) * stride)} holding its head index, its size, then a ring of
 * {@code capacity} (time, slots) pairs. A queue's header and its oldest entries thus share a cache
 * line, where one object per queue with two arrays cost three or four misses per access in a
 * simulation whose 10^4 connections are touched in turn (the 1,024-GPU ring). When a queue outgrows
 * the capacity, every block is re-laid out at twice the capacity (amortised O(1) per push).
 */
final class TimedQueues {
    private static final int HEAD = 0;
    private static final int SIZE = 1;
    private static final int ENTRIES = 2;

    private final int nQueues;
    /** entries per queue, a power of two */
    private int cap;
    private int stride;
    private long[] a;

    /**
     * @param nQueues         number of queues, {@code >= 0}
     * @param initialCapacity entries per queue before the first growth, {@code >= 1} (rounded up to a power of two)
     */
    TimedQueues(int nQueues, int initialCapacity) {
        if (nQueues < 0) throw new IllegalArgumentException("TimedQueues: queue count must be >= 0, was " + nQueues);
        if (initialCapacity < 1 || initialCapacity > (1 << 20)) {
            throw new IllegalArgumentException("TimedQueues: initial capacity must be in 1..2^20, was " + initialCapacity);
        }
        this.nQueues = nQueues;
        int c = 1;
        while (c < initialCapacity) c <<= 1;
        this.cap = c;
        this.stride = ENTRIES + 2 * cap;
        long len = (long) nQueues * stride;
        if (len > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("TimedQueues: " + nQueues + " queues of " + cap + " entries exceed one array");
        }
        this.a = new long[(int) len];
    }

    /** @return the number of queues */
    int queueCount() { return nQueues; }

    /** @return entries per queue before the next growth (a power of two) */
    int capacity() { return cap; }

    /** Adds an increment of {@code nSlots} slots visible at {@code at} (not before the queue's last one) to queue {@code q}. */
    void push(int q, long at, int nSlots) {
        int b = q * stride;
        int n = (int) a[b + SIZE];
        if (n == cap) {
            grow();
            b = q * stride;
        }
        int idx = b + ENTRIES + 2 * ((int) (a[b + HEAD] + n) & (cap - 1));
        a[idx] = at;
        a[idx + 1] = nSlots;
        a[b + SIZE] = n + 1;
    }

    /** @return pending increments of queue {@code q} */
    int size(int q) { return (int) a[q * stride + SIZE]; }

    /** Time of the i-th pending increment of queue {@code q} (0 = oldest), ps. */
    long time(int q, int i) {
        int b = q * stride;
        return a[b + ENTRIES + 2 * ((int) (a[b + HEAD] + i) & (cap - 1))];
    }

    /** Slots of the i-th pending increment of queue {@code q}. */
    int slots(int q, int i) {
        int b = q * stride;
        return (int) a[b + ENTRIES + 1 + 2 * ((int) (a[b + HEAD] + i) & (cap - 1))];
    }

    /** Removes the oldest increment of queue {@code q} (which must not be empty) and returns its slots. */
    int pop(int q) {
        int b = q * stride;
        int n = (int) a[b + SIZE];
        if (n == 0) throw new IllegalStateException("TimedQueues.pop: queue " + q + " is empty");
        int h = (int) a[b + HEAD];
        int s = (int) a[b + ENTRIES + 1 + 2 * h];
        a[b + HEAD] = (h + 1) & (cap - 1);
        a[b + SIZE] = n - 1;
        return s;
    }

    private void grow() {
        int nc = cap * 2;
        int ns = ENTRIES + 2 * nc;
        long len = (long) nQueues * ns;
        if (len > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("TimedQueues: " + nQueues + " queues of " + nc + " entries exceed one array");
        }
        long[] b = new long[(int) len];
        for (int q = 0; q < nQueues; q++) {
            int o = q * stride;
            int p = q * ns;
            int n = (int) a[o + SIZE];
            int h = (int) a[o + HEAD];
            for (int i = 0; i < n; i++) {
                int src = o + ENTRIES + 2 * ((h + i) & (cap - 1));
                b[p + ENTRIES + 2 * i] = a[src];
                b[p + ENTRIES + 2 * i + 1] = a[src + 1];
            }
            b[p + HEAD] = 0;
            b[p + SIZE] = n;
        }
        a = b;
        cap = nc;
        stride = ns;
    }

    @Override
    public String toString() {
        return "TimedQueues[" + nQueues + " queues, capacity " + cap + "]";
    }
}
