package io.ccsim.algorithms.sim;

/**
 * Many blocks, each of a few queues of increments that become visible at known future times, each queue in time
 * order (a connection's data arrivals and its credit returns travel one hop latency, a constant per connection), and
 * a few counters of the block's owner. Keeping the increments here instead of scheduling an event per increment lets a
 * waiting worker be woken once, at the time the increment it needs lands, and costs nothing when nobody waits.
 * Times are ps in [0, {@link #MAX_TIME}], slot counts in [0, {@link #MAX_SLOTS}].
 */
final class TimedQueues {
    /*
     * Layout. All blocks live in one long[]: block q is [q * stride, (q + 1) * stride) holding one header per queue
     * (head index and size, one long), the owner's counters (a number fixed per instance), then each queue's ring of
     * `capacity` entries, each one long: time << 8 | slots. Everything a connection's events read (who sends and
     * receives on it, its latency, its slot counts, its arrivals and credits in flight) thus shares two or three cache
     * lines, where an array per field, or one per queue kind, cost a miss each in a simulation whose 10^4 connections
     * are touched in turn (the 1,024-GPU ring all-reduce). When a queue outgrows the capacity, every block is re-laid
     * out at twice the capacity (amortised O(1) per push).
     *
     * Size matters more than lines here: the 1,024-GPU ring all-reduce's run time follows its hot state's size
     * against the last-level cache. So a header is one long, a block has only the counters its owner uses, and
     * Connections starts with four entries per queue (a Simple ring step holds two of NCCL_STEPS = 8 slots, so four
     * steps in flight at most; LL's one-slot steps grow it to eight).
     */
    /** largest time an entry holds (55 bits of ps: 10 hours), and largest slot count (8 bits) */
    static final long MAX_TIME = (1L << 55) - 1;
    static final int MAX_SLOTS = 255;

    private final int nBlocks;
    private final int queues;
    private final int counters;
    /** offset of the entries in a block */
    private final int entries;
    /** entries per queue, a power of two */
    private int cap;
    private int stride;
    private long[] a;

    /**
     * @param nBlocks         number of blocks, {@code >= 0}
     * @param queues          queues per block, 1..4
     * @param counters        owner counters per block, 0..16
     * @param initialCapacity entries per queue before the first growth, {@code >= 1} (rounded up to a power of two)
     */
    TimedQueues(int nBlocks, int queues, int counters, int initialCapacity) {
        if (nBlocks < 0) throw new IllegalArgumentException("TimedQueues: block count must be >= 0, was " + nBlocks);
        if (queues < 1 || queues > 4) {
            throw new IllegalArgumentException("TimedQueues: queues per block must be in 1..4, was " + queues);
        }
        if (counters < 0 || counters > 16) {
            throw new IllegalArgumentException("TimedQueues: counters per block must be in 0..16, was " + counters);
        }
        if (initialCapacity < 1 || initialCapacity > (1 << 20)) {
            throw new IllegalArgumentException("TimedQueues: initial capacity must be in 1..2^20, was " + initialCapacity);
        }
        this.nBlocks = nBlocks;
        this.queues = queues;
        this.counters = counters;
        this.entries = queues + counters;
        int c = 1;
        while (c < initialCapacity) c <<= 1;
        this.cap = c;
        this.stride = entries + queues * cap;
        long len = (long) nBlocks * stride;
        if (len > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("TimedQueues: " + nBlocks + " blocks of " + queues + " queues of " + cap
                    + " entries exceed one array");
        }
        this.a = new long[(int) len];
    }

    /** @return entries per queue before the next growth (a power of two) */
    int capacity() { return cap; }

    /** Adds an increment of {@code nSlots} slots visible at {@code at} (not before the queue's last one) to queue {@code r} of block {@code q}. */
    void push(int q, int r, long at, int nSlots) {
        if (at < 0 || at > MAX_TIME || nSlots < 0 || nSlots > MAX_SLOTS) {
            throw new IllegalArgumentException("TimedQueues.push: time " + at + " ps must be in [0, " + MAX_TIME
                    + "] and slots " + nSlots + " in [0, " + MAX_SLOTS + "]");
        }
        int b = q * stride;
        long h = a[b + r];
        int n = (int) (h >>> 32);
        if (n == cap) {
            grow();
            b = q * stride;
            h = a[b + r];
        }
        a[b + entries + r * cap + (((int) h + n) & (cap - 1))] = at << 8 | nSlots;
        a[b + r] = h + (1L << 32);
    }

    /** @return pending increments of queue {@code r} of block {@code q} */
    int size(int q, int r) { return (int) (a[q * stride + r] >>> 32); }

    /** Time of the i-th pending increment of queue {@code r} of block {@code q} (0 = oldest), ps. */
    long time(int q, int r, int i) {
        int b = q * stride;
        return a[b + entries + r * cap + (((int) a[b + r] + i) & (cap - 1))] >>> 8;
    }

    /** Slots of the i-th pending increment of queue {@code r} of block {@code q}. */
    int slots(int q, int r, int i) {
        int b = q * stride;
        return (int) a[b + entries + r * cap + (((int) a[b + r] + i) & (cap - 1))] & MAX_SLOTS;
    }

    /** Counter {@code c} (0 .. counters − 1) of block {@code q}'s owner; 0 at first. */
    long counter(int q, int c) { return a[q * stride + queues + c]; }

    /** Adds {@code v} to counter {@code c} of block {@code q}. */
    void addCounter(int q, int c, long v) { a[q * stride + queues + c] += v; }

    /** Sets counter {@code c} of block {@code q}. */
    void setCounter(int q, int c, long v) { a[q * stride + queues + c] = v; }

    /** Removes the oldest increment of queue {@code r} of block {@code q} (which must not be empty) and returns its slots. */
    int pop(int q, int r) {
        int b = q * stride;
        long h = a[b + r];
        int n = (int) (h >>> 32);
        if (n == 0) throw new IllegalStateException("TimedQueues.pop: queue " + r + " of block " + q + " is empty");
        int head = (int) h;
        int s = (int) a[b + entries + r * cap + head] & MAX_SLOTS;
        a[b + r] = (long) (n - 1) << 32 | ((head + 1) & (cap - 1));
        return s;
    }

    private void grow() {
        int nc = cap * 2;
        int ns = entries + queues * nc;
        long len = (long) nBlocks * ns;
        if (len > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("TimedQueues: " + nBlocks + " blocks of " + queues + " queues of " + nc
                    + " entries exceed one array");
        }
        long[] b = new long[(int) len];
        for (int q = 0; q < nBlocks; q++) {
            int o = q * stride;
            int p = q * ns;
            for (int c = 0; c < counters; c++) b[p + queues + c] = a[o + queues + c];
            for (int r = 0; r < queues; r++) {
                long h = a[o + r];
                int n = (int) (h >>> 32);
                int head = (int) h;
                for (int i = 0; i < n; i++) b[p + entries + r * nc + i] = a[o + entries + r * cap + ((head + i) & (cap - 1))];
                b[p + r] = (long) n << 32; // head 0
            }
        }
        a = b;
        cap = nc;
        stride = ns;
    }

    @Override
    public String toString() {
        return "TimedQueues[" + nBlocks + " blocks of " + queues + " queues, " + counters + " counters, capacity " + cap + "]";
    }
}
