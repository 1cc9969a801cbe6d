package io.ccsim.algorithms.sim;

/**
 * Many queues of increments that become visible at known future times, each in time order (a
 * connection's data arrivals or credit returns travel one hop latency, a constant per connection).
 * Keeping them here instead of scheduling an event per increment lets a waiting worker be woken once,
 * at the time the increment it needs lands, and costs nothing when nobody waits.
 *
 * <p>All queues live in one {@code long[]}: queue {@code q} is the block
 * {@code [q * stride, (q + 1) * stride)} holding its head index and size (one long), the counters (a number fixed per instance)
 * that belong to the queue's owner (a connection's slot counts), then a ring of {@code capacity}
 * entries, each one long: {@code time << 8 | slots}. A queue's header, its owner's counters and its
 * entries thus share one or two cache lines, where one object per queue with two arrays and the
 * counters in arrays of their own cost five or six misses per access in a simulation whose 10^4
 * connections are touched in turn (the 512-GPU 1 GiB ring all-reduce: 4.2-5.1 s before this layout and
 * the interleaved worker state of SimExecution, 3.8-3.9 s after, same machine, alternated runs). When a queue outgrows the capacity, every block is
 * re-laid out at twice the capacity (amortised O(1) per push).
 *
 * <p>Size matters more than lines here: the 1,024-GPU ring all-reduce touches 8,192 connections' queues in turn, and
 * its run time follows its hot state's size against the L3 this VM leaves it (README, session 16). So the header is one
 * long, a queue has only the counters its owner uses, and SimExecution starts with four entries (a Simple ring step
 * holds two of NCCL_STEPS = 8 slots, so four steps in flight at most; LL's one-slot steps grow it to eight).
 */
final class TimedQueues {
    /** header long: head index in the low 32 bits, size in the high 32 */
    private static final int HEADER = 1;
    /** largest time an entry holds (55 bits of ps: 10 hours), and largest slot count (8 bits) */
    static final long MAX_TIME = (1L << 55) - 1;
    static final int MAX_SLOTS = 255;

    private final int nQueues;
    private final int counters;
    /** offset of the entries in a block */
    private final int entries;
    /** entries per queue, a power of two */
    private int cap;
    private int stride;
    private long[] a;

    /**
     * @param nQueues         number of queues, {@code >= 0}
     * @param counters        owner counters per queue, 0..16
     * @param initialCapacity entries per queue before the first growth, {@code >= 1} (rounded up to a power of two)
     */
    TimedQueues(int nQueues, int counters, int initialCapacity) {
        if (nQueues < 0) throw new IllegalArgumentException("TimedQueues: queue count must be >= 0, was " + nQueues);
        if (counters < 0 || counters > 16) {
            throw new IllegalArgumentException("TimedQueues: counters per queue must be in 0..16, was " + counters);
        }
        if (initialCapacity < 1 || initialCapacity > (1 << 20)) {
            throw new IllegalArgumentException("TimedQueues: initial capacity must be in 1..2^20, was " + initialCapacity);
        }
        this.nQueues = nQueues;
        this.counters = counters;
        this.entries = HEADER + counters;
        int c = 1;
        while (c < initialCapacity) c <<= 1;
        this.cap = c;
        this.stride = entries + cap;
        long len = (long) nQueues * stride;
        if (len > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("TimedQueues: " + nQueues + " queues of " + cap + " entries exceed one array");
        }
        this.a = new long[(int) len];
    }

    /** @return entries per queue before the next growth (a power of two) */
    int capacity() { return cap; }

    /** Adds an increment of {@code nSlots} slots visible at {@code at} (not before the queue's last one) to queue {@code q}. */
    void push(int q, long at, int nSlots) {
        if (at < 0 || at > MAX_TIME || nSlots < 0 || nSlots > MAX_SLOTS) {
            throw new IllegalArgumentException("TimedQueues.push: time " + at + " ps must be in [0, " + MAX_TIME
                    + "] and slots " + nSlots + " in [0, " + MAX_SLOTS + "]");
        }
        int b = q * stride;
        long h = a[b];
        int n = (int) (h >>> 32);
        if (n == cap) {
            grow();
            b = q * stride;
            h = a[b];
        }
        a[b + entries + (((int) h + n) & (cap - 1))] = at << 8 | nSlots;
        a[b] = h + (1L << 32);
    }

    /** @return pending increments of queue {@code q} */
    int size(int q) { return (int) (a[q * stride] >>> 32); }

    /** Time of the i-th pending increment of queue {@code q} (0 = oldest), ps. */
    long time(int q, int i) {
        int b = q * stride;
        return a[b + entries + (((int) a[b] + i) & (cap - 1))] >>> 8;
    }

    /** Slots of the i-th pending increment of queue {@code q}. */
    int slots(int q, int i) {
        int b = q * stride;
        return (int) a[b + entries + (((int) a[b] + i) & (cap - 1))] & MAX_SLOTS;
    }

    /** Counter {@code c} (0 .. counters − 1) of queue {@code q}'s owner; 0 at first. */
    long counter(int q, int c) { return a[q * stride + HEADER + c]; }

    /** Adds {@code v} to counter {@code c} of queue {@code q}. */
    void addCounter(int q, int c, long v) { a[q * stride + HEADER + c] += v; }

    /** Removes the oldest increment of queue {@code q} (which must not be empty) and returns its slots. */
    int pop(int q) {
        int b = q * stride;
        long h = a[b];
        int n = (int) (h >>> 32);
        if (n == 0) throw new IllegalStateException("TimedQueues.pop: queue " + q + " is empty");
        int head = (int) h;
        int s = (int) a[b + entries + head] & MAX_SLOTS;
        a[b] = (long) (n - 1) << 32 | ((head + 1) & (cap - 1));
        return s;
    }

    private void grow() {
        int nc = cap * 2;
        int ns = entries + nc;
        long len = (long) nQueues * ns;
        if (len > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("TimedQueues: " + nQueues + " queues of " + nc + " entries exceed one array");
        }
        long[] b = new long[(int) len];
        for (int q = 0; q < nQueues; q++) {
            int o = q * stride;
            int p = q * ns;
            long h = a[o];
            int n = (int) (h >>> 32);
            int head = (int) h;
            for (int i = 0; i < n; i++) b[p + entries + i] = a[o + entries + ((head + i) & (cap - 1))];
            for (int c = 0; c < counters; c++) b[p + HEADER + c] = a[o + HEADER + c];
            b[p] = (long) n << 32; // head 0
        }
        a = b;
        cap = nc;
        stride = ns;
    }

    @Override
    public String toString() {
        return "TimedQueues[" + nQueues + " queues, " + counters + " counters, capacity " + cap + "]";
    }
}
