package io.ccsim.sim.flow;

import java.util.Arrays;

/**
 * One capacity (bytes/s) that flows share (a link direction, or a whole SHARED link), or, when not
 * {@link #shared}, a per-flow bound (a FAT_PIPE link), with its member flows: those in their bandwidth phase that
 * cross it.
 *
 * <p>Contract: {@link #add} returns the member's position, which stays valid until {@link #remove} of that position
 * or a {@link #compact} (which tells every member its new position through {@link Flow#posInCons}); the live members
 * are the non-null entries of {@code members[0, end)}, {@link #size} of them, and {@code members[end - 1]} is live
 * unless the constraint is empty. The array holds at most max(4, 4 x the most members ever live at once) entries.
 */
final class Constraint {
    /*
     * Membership by tombstone: a leaving member's entry is cleared (each member knows its position here), members are
     * appended after the last used entry, and the array is compacted when full of holes. Removal is O(1) and touches
     * only this constraint's array; a swap-removal would move the last member into the hole and update that member's
     * position, a miss on another flow's object for every flow leaving every constraint. Compaction, amortised over
     * the entries it reclaims, runs when the holes fill the array, and when the solver takes the constraint into a
     * component (whose members it walks anyway).
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

    /** members at [0, end), with null entries (tombstones) where members left */
    Flow[] members = new Flow[4];
    /** per entry of {@link #members}: this constraint's index in the member's {@link Flow#cons} */
    private int[] slots = new int[4];
    /** per entry of {@link #members}: the member's weight here (its crossings times its multiplicity) */
    int[] weights = new int[4];
    /** one past the last used entry of {@link #members} */
    int end;
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
        if (end == members.length) {
            if (size <= end / 2) {
                compact();
            } else {
                members = Arrays.copyOf(members, end * 2);
                slots = Arrays.copyOf(slots, end * 2);
                weights = Arrays.copyOf(weights, end * 2);
            }
        }
        members[end] = f;
        slots[end] = slot;
        weights[end] = f.weights[slot];
        size++;
        return end++;
    }

    /**
     * Moves the live members to the front, in order, and tells each its new position. The solver calls it on each
     * constraint of a component it solves (whose members it visits anyway), so that busy constraints (an
     * all-to-all's, hundreds of members coming and going) are walked without holes.
     */
    void compact() {
        int n = 0;
        for (int k = 0; k < end; k++) {
            Flow m = members[k];
            if (m == null) {
                continue;
            }
            if (n != k) {
                members[n] = m;
                members[k] = null;
                slots[n] = slots[k];
                weights[n] = weights[k];
                m.posInCons[slots[k]] = n;
            }
            n++;
        }
        end = n;
    }

    /**
     * the paths crossing this constraint that have had a flow entered without an event, at [0, nPaths): where
     * EventFreeEntry finds those flows to hand them to the solver
     */
    FlowNetwork.Path[] paths = new FlowNetwork.Path[2];
    int nPaths;

    void addPath(FlowNetwork.Path p) {
        if (nPaths == paths.length) {
            paths = Arrays.copyOf(paths, 2 * nPaths);
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

    /** Removes the member at {@code pos}: a tombstone, and the trailing ones trimmed off. */
    void remove(int pos) {
        members[pos] = null;
        if (--size == 0) {
            end = 0; // every entry is a hole: start over at 0 (the common case of a lightly used link)
            return;
        }
        if (pos == end - 1) {
            int e = pos;
            while (members[e - 1] == null) {
                e--;
            }
            end = e;
        }
    }
}
