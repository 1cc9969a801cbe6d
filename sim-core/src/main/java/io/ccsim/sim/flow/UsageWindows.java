package io.ccsim.sim.flow;

import java.util.Arrays;

/**
 * When the registered flows of each shared constraint use it: per constraint (by {@link Constraint#id}) up to
 * {@link #SLOTS} windows, each a time interval [start, end) in ps and a usage in {@link EventFreeEntry#REG_UNIT}s, and
 * the most usage of the windows that overlap at one instant of a given interval ({@link #maxLoad}, {@link #fits}).
 *
 * <p>Contract: {@link #add} gives a window a slot, or -1 when the constraint's slots are all taken: the window is then
 * counted, not kept, and {@link #maxLoad} answers {@link Long#MAX_VALUE} (unknown), {@link #fits} false, for that
 * constraint until it is {@link #remove}d. {@code end = Long.MAX_VALUE} is an open window (a flow whose end is not
 * known). Ids must be below the count given to {@link #ensure}. Usages are {@code >= 0} and their sum per constraint
 * below 2^63.
 */
final class UsageWindows {
    /*
     * What for: EventFreeEntry, whose sums count a registered flow from its start to its end; a window says when the
     * flow can actually use the constraint. A constraint's load at instant t is the sum of the windows that contain t;
     * over an interval [from, to) it can only rise where a window starts, so its most is the load at from or at the
     * start of a window inside the interval: O(k^2) for k windows (after an O(k) test, the windows that meet the
     * interval at all, which settles most cases), k small (the flows that one link direction carries at once: at most
     * 8 in the rings of 8 to 64 HGX hosts measured, hence 16 slots). A constraint with more windows
     * than slots answers "unknown" until every window counted without a slot has left.
     *
     * Layout: one block of 1 + 3 x SLOTS longs (392 B) per constraint that has had a window, in order of first use,
     * so that a window's start, end and usage share a cache line: the header (low 32 bits: the taken slots; high 32
     * bits: windows counted without a slot), then per slot its start, end and usage. Slots are taken lowest first, so
     * the windows in use sit in the block's first lines. Constraints that no registered flow has crossed share the
     * empty block 0: on the 1,024-GPU ring 8,256 constraints have blocks (3.2 MB), of 16,384 ids in the table.
     */
    /** Windows kept per constraint. */
    static final int SLOTS = 16;
    private static final int BLOCK = 1 + 3 * SLOTS;
    private static final int START = 0, END = 1, UNITS = 2;
    private static final long UNSLOTTED_ONE = 1L << 32;

    /** the blocks; the first one stays empty: the block of every constraint that has had no window yet */
    private long[] w = new long[8 * BLOCK];
    /** per constraint id: its block's offset in w, 0 before its first window */
    private int[] blockOf = new int[32];
    private int nextBlock = BLOCK;

    /** Makes room for constraints with ids below {@code ids}. */
    void ensure(int ids) {
        if (blockOf.length < ids) {
            blockOf = Arrays.copyOf(blockOf, Math.max(blockOf.length * 2, ids));
        }
    }

    /** Gives constraint {@code id} a block of its own; returns its offset. */
    private int newBlock(int id) {
        if (nextBlock + BLOCK > w.length) {
            w = Arrays.copyOf(w, 2 * w.length);
        }
        int b = nextBlock;
        nextBlock += BLOCK;
        blockOf[id] = b;
        return b;
    }

    /**
     * Adds the window [start, end) with usage {@code units} to constraint {@code id}.
     *
     * @return its slot, or -1 if every slot is taken (counted without one)
     */
    int add(int id, long start, long end, long units) {
        int b = blockOf[id];
        if (b == 0) {
            b = newBlock(id);
        }
        long h = w[b];
        int s = Integer.numberOfTrailingZeros(~(int) h);
        if (s >= SLOTS) {
            w[b] = h + UNSLOTTED_ONE;
            return -1;
        }
        w[b] = h | (1L << s);
        int o = b + 1 + 3 * s;
        w[o + START] = start;
        w[o + END] = end;
        w[o + UNITS] = units;
        return s;
    }

    /** Removes the window in {@code slot} of constraint {@code id} (-1: one counted without a slot). */
    void remove(int id, int slot) {
        int b = blockOf[id];
        w[b] = slot < 0 ? w[b] - UNSLOTTED_ONE : w[b] & ~(1L << slot);
    }

    /** Sets the end of the window in {@code slot} of constraint {@code id} (no-op for -1: not kept). */
    void setEnd(int id, int slot, long end) {
        if (slot >= 0) {
            w[blockOf[id] + 1 + 3 * slot + END] = end;
        }
    }

    /**
     * @return whether the usage of constraint {@code id}'s windows at every instant of [from, to) is at most
     * {@code room} ({@link EventFreeEntry#REG_UNIT}s); false if a window is counted without a slot
     */
    boolean fits(int id, long from, long to, long room) {
        int b = blockOf[id];
        long h = w[b];
        if ((h >>> 32) != 0) {
            return false;
        }
        // first the windows that meet [from, to) at all, in one pass: where they fit together they fit at each instant
        int mask = (int) h;
        long sum = 0;
        for (int m = mask; m != 0; m &= m - 1) {
            int o = b + 1 + 3 * Integer.numberOfTrailingZeros(m);
            if (w[o + START] < to && w[o + END] > from) {
                sum += w[o + UNITS];
            }
        }
        return sum <= room || maxLoad(id, from, to) <= room;
    }

    /**
     * @return the most usage of constraint {@code id}'s windows at one instant of [from, to) (from &lt; to), in
     * {@link EventFreeEntry#REG_UNIT}s; {@link Long#MAX_VALUE} if a window is counted without a slot
     */
    long maxLoad(int id, long from, long to) {
        int b = blockOf[id];
        long h = w[b];
        if ((h >>> 32) != 0) {
            return Long.MAX_VALUE;
        }
        int mask = (int) h;
        long best = loadAt(b, mask, from);
        for (int m = mask; m != 0; m &= m - 1) {
            long t = w[b + 1 + 3 * Integer.numberOfTrailingZeros(m) + START];
            if (t > from && t < to) {
                best = Math.max(best, loadAt(b, mask, t));
            }
        }
        return best;
    }

    /** @return the usage of the windows in {@code mask} of the block at {@code b} that contain instant t */
    private long loadAt(int b, int mask, long t) {
        long sum = 0;
        for (int m = mask; m != 0; m &= m - 1) {
            int o = b + 1 + 3 * Integer.numberOfTrailingZeros(m);
            if (w[o + START] <= t && t < w[o + END]) {
                sum += w[o + UNITS];
            }
        }
        return sum;
    }
}
