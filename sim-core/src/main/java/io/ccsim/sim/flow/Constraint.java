package io.ccsim.sim.flow;

import java.util.Arrays;

/**
 * One capacity (bytes/s) that flows share (a link direction, or a whole SHARED link), or, when not
 * {@link #shared}, a per-flow bound (a FAT_PIPE link), with its member flows: those in their bandwidth phase that
 * cross it.
 *
 * <p>Contract: {@link #add} returns the member's position, which stays valid until {@link #remove} of that position
 * or a {@link #compact} (which tells every member its new position through {@link Flow#posInCons}). The entries are a
 * ring: the live members are the non-null entries {@code members[i & mask]} for i in {@code [head, end)}, {@link #size}
 * of them, in the order they joined; {@code members[head & mask]} and {@code members[(end - 1) & mask]} are live
 * unless the constraint is empty. The array holds at most max(4, 4 x the most members ever live at once) entries;
 * after a {@link #compactIfSparse}, {@code end - head} is at most twice the live members.
 */
final class Constraint {
    /*
     * Membership by tombstone in a ring: a leaving member's entry is cleared (each member knows its position here),
     * members are appended after the last used entry, and holes at either end are trimmed off. Removal is O(1) and
     * touches only this constraint's array; a swap-removal would move the last member into the hole and update that
     * member's position, a miss on another flow's object for every flow leaving every constraint. Flows mostly leave
     * in about the order they joined (a pipeline's slices), so the ring's head follows the departures and nobody
     * moves (a 1,024-GPU tree all-reduce: 157 k moves in 1 GiB; a plain array compacted toward its front at each solve
     * moves 10.4 M, each a write to another flow's object). Compaction (toward the head, keeping the members' order, so the solver's
     * sums are the same with or without holes) runs when the ring is full and at most half of it is live, and when the
     * solver takes a constraint whose holes outnumber its live members into a component: the solver's walks skip
     * holes, at most as many as members, and a compaction's moves are paid for by as many departures.
     */
    final int link;
    /** true: members share the capacity; false: each member is individually bounded by it. */
    final boolean shared;
    /** bytes/s */
    double capacity;
    /**
     * The direction (hop) of a FULL_DUPLEX link this constraint stands for, -1 for a SHARED or FAT_PIPE link
     * (one constraint for both directions).
     */
    final int hop;
    /**
     * Index of this constraint in EventFreeEntry's registration table: its hop for a FULL_DUPLEX
     * direction, {@code link << 1} otherwise.
     */
    final int id;

    /*
     * The member ring and the path list start empty, shared, and are allocated when a flow first crosses the
     * constraint: a cluster of 100,000 GPUs has 1.1 M constraints, of which a folded run crosses a few thousand.
     */
    private static final Flow[] NO_MEMBERS = {};
    private static final int[] NO_INTS = {};
    private static final FlowNetwork.Path[] NO_PATHS = {};

    /** members at {@code [head, end)} masked by {@link #mask}, with null entries (tombstones) where members left */
    Flow[] members = NO_MEMBERS;
    /** per entry of {@link #members}: this constraint's index in the member's {@link Flow#cons} */
    private int[] slots = NO_INTS;
    /** per entry of {@link #members}: the member's weight here (its crossings times its multiplicity) */
    int[] weights = NO_INTS;
    /** the ring's first used entry, not masked ({@code head <= end}) */
    int head;
    /** one past the ring's last used entry, not masked */
    int end;
    /** {@code members.length - 1} (a power of two less one; -1 while the ring is unallocated and empty) */
    int mask = -1;
    /** live members: the flows in their bandwidth phase that cross this constraint */
    int size;

    /**
     * Sum over the members of weight x bound (the member's own rate bound, {@link Flow#bound}), in whole
     * {@link #BOUND_UNIT}s rounded up so that the sum is exact (no drift over millions of adds and removes) and never
     * below the true one; members with no finite bound are counted in {@link #unbounded} instead.
     */
    long boundSum;
    int unbounded;
    /**
     * No member can ever saturate this constraint: every member at its own bound still fits
     * ({@code unbounded == 0 && boundSum <= capacity}). Such a constraint is implied by the bounds, so it
     * takes no part in the max-min solution: the solver neither crosses it nor counts it.
     */
    boolean slack = true;

    // solver scratch (the filling's per-constraint numbers live in ProgressiveFilling's arrays, indexed by compIdx)
    int epoch;
    int compIdx;
    /** RegionSolver's stamp of the piece it was filled in */
    int piece;
    /** members whose {@link Flow#bottleneck} this is (kept by {@link Flow#bottleneckAt}) */
    int bottlenecked;

    Constraint(int link, boolean shared, double capacity, int hop) {
        this.link = link;
        this.shared = shared;
        this.capacity = capacity;
        this.hop = hop;
        this.id = hop >= 0 ? hop : link << 1;
    }

    /** Adds f, which crosses this constraint as its {@code slot}-th; returns its position in {@link #members}. */
    int add(Flow f, int slot) {
        if (end - head == members.length) {
            if (members.length > 0 && size <= members.length / 2) {
                compact();
            } else {
                grow();
            }
        }
        if (end == Integer.MAX_VALUE) {
            // rebase: positions are taken mod the length, so subtracting a multiple of it moves nobody
            int shift = head & ~mask;
            head -= shift;
            end -= shift;
        }
        int k = end & mask;
        members[k] = f;
        slots[k] = slot;
        weights[k] = f.weights[slot];
        size++;
        end++;
        return k;
    }

    /** The entry at ring index {@code i} in {@code [head, end)}: a member, or null for a hole. */
    Flow member(int i) {
        return members[i & mask];
    }

    /** {@link #compact}s when the holes outnumber the live members (see the class comment). */
    void compactIfSparse() {
        if (end - head > 2 * size) {
            compact();
        }
    }

    /** Moves the live members toward the head, in order, and tells each its new position. */
    void compact() {
        end = moveLive(members, slots, weights, mask, head);
    }

    /** Doubles the ring, its live members moved to the front in order (each told its new position). */
    private void grow() {
        int n = Math.max(4, members.length * 2);
        Flow[] ms = new Flow[n];
        int[] ss = new int[n];
        int[] ws = new int[n];
        int to = moveLive(ms, ss, ws, n - 1, 0);
        members = ms;
        slots = ss;
        weights = ws;
        mask = n - 1;
        head = 0;
        end = to;
    }

    /**
     * Moves the live members of {@code [head, end)}, in order, to consecutive ring indices from {@code to} in the
     * given arrays (these, or larger ones) masked by {@code toMask}, telling each its new position; returns one past
     * the last index written. Moving within these arrays, a member never lands on one not yet moved.
     */
    private int moveLive(Flow[] ms, int[] ss, int[] ws, int toMask, int to) {
        for (int i = head; i < end; i++) {
            int k = i & mask;
            Flow m = members[k];
            if (m == null) {
                continue;
            }
            int d = to & toMask;
            if (ms != members || d != k) {
                int slot = slots[k];
                members[k] = null;
                ms[d] = m;
                ss[d] = slot;
                ws[d] = weights[k];
                m.posInCons[slot] = d;
            }
            to++;
        }
        return to;
    }

    /**
     * the paths crossing this constraint that have had a flow entered without an event, at [0, nPaths): where
     * EventFreeEntry finds those flows to hand them to the solver
     */
    FlowNetwork.Path[] paths = NO_PATHS;
    int nPaths;

    void addPath(FlowNetwork.Path p) {
        if (nPaths == paths.length) {
            paths = Arrays.copyOf(paths, Math.max(2, 2 * nPaths));
        }
        paths[nPaths++] = p;
    }

    /**
     * The shared constraints crossed by exactly the same paths as this one, with the same weight in each (a GPU's
     * NVLink direction and its multi-peer constraint; a GPU's PCIe link, its NIC's PCIe link and the NIC's cable):
     * they always have the same members with the same weights. Null before any path crosses it.
     */
    TwinGroup twins;

    /** A set of twin constraints ({@link #twins}); PathResolver splits it when a new path crosses only some of them. */
    static final class TwinGroup {
        Constraint[] members = new Constraint[2];
        int n;
        /** the stamps of the path resolution (PathResolver) and the filling (ProgressiveFilling) that last visited it */
        long pathMark;
        long fillMark;
        /** during a filling: the component index of the least capacity member seen so far */
        int best;
        /** RegionSolver's stamp of the piece that last walked a member, and that member's index in the piece */
        int pieceMark;
        int pieceIdx;

        void add(Constraint c) {
            if (n == members.length) {
                members = Arrays.copyOf(members, 2 * n);
            }
            members[n++] = c;
            c.twins = this;
        }
    }

    /** {@link #boundSum}'s unit, bytes/s */
    static final double BOUND_UNIT = 1024.0;

    /** Whether the members' bounds fit in the capacity now (the state {@link #slack} should have). */
    boolean fits() {
        return unbounded == 0 && boundSum <= capacity / BOUND_UNIT;
    }

    /** Counts member f (weight w here) into the bound sum ({@code sign} = 1) or out of it (-1). */
    void count(Flow f, int w, int sign) {
        if (f.boundUnits < 0) {
            unbounded += sign;
        } else {
            boundSum += sign * w * f.boundUnits;
        }
    }

    /** Removes the member at {@code pos}: a tombstone, and the holes at either end of the ring trimmed off. */
    void remove(int pos) {
        members[pos] = null;
        if (--size == 0) {
            head = 0; // every entry is a hole: start over at 0 (the common case of a lightly used link)
            end = 0;
            return;
        }
        if (pos == ((end - 1) & mask)) {
            int e = end - 1;
            while (members[(e - 1) & mask] == null) {
                e--;
            }
            end = e;
        } else if (pos == (head & mask)) {
            int h = head + 1;
            while (members[h & mask] == null) {
                h++;
            }
            head = h;
        }
    }
}
