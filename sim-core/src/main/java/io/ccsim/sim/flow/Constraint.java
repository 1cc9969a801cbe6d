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
