package io.ccsim.sim.flow;

import java.util.Arrays;

/**
 * One capacity that flows share (a link direction, or a whole SHARED link), or, when not
 * {@link #shared}, a per-flow bound (a FAT_PIPE link). Holds its member flows (those in their
 * bandwidth phase) in an array with O(1) swap-removal; each member knows its position here.
 */
final class Constraint {
    final int link;
    /** true: members share the capacity; false: each member is individually bounded by it. */
    final boolean shared;
    /** bytes/s */
    double capacity;

    Flow[] members = new Flow[4];
    /** index, in the member's own constraint arrays, of this constraint */
    int[] memberSlot = new int[4];
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

    // solver scratch
    int epoch;
    int compIdx;
    double remaining;
    double wsum;
    double level;
    boolean saturated;

    Constraint(int link, boolean shared, double capacity) {
        this.link = link;
        this.shared = shared;
        this.capacity = capacity;
    }

    /** @return the position of the flow in {@link #members} */
    int add(Flow f, int slotInFlow) {
        if (size == members.length) {
            members = Arrays.copyOf(members, size * 2);
            memberSlot = Arrays.copyOf(memberSlot, size * 2);
        }
        members[size] = f;
        memberSlot[size] = slotInFlow;
        return size++;
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

    void remove(int pos) {
        int last = --size;
        if (pos != last) {
            Flow moved = members[last];
            int ms = memberSlot[last];
            members[pos] = moved;
            memberSlot[pos] = ms;
            moved.posInCons[ms] = pos;
        }
        members[last] = null;
    }
}
