package io.ccsim.algorithms.sim;

import java.util.Arrays;

/**
 * Increments that become visible at known future times, in time order (a connection's data arrivals
 * or credit returns travel one hop latency, a constant per connection). Keeping them here instead of
 * scheduling an event per increment lets a waiting worker be woken once, at the time the increment it
 * needs lands, and costs nothing when nobody waits.
 */
final class TimedQueue {
    private long[] time = new long[8];
    private int[] slots = new int[8];
    private int head;
    private int size;

    /** Adds an increment of one unit and {@code nSlots} slots visible at {@code at} (not before the last one). */
    void push(long at, int nSlots) {
        if (size == time.length) {
            long[] t = new long[size * 2];
            int[] s = new int[size * 2];
            for (int i = 0; i < size; i++) {
                t[i] = time[(head + i) % time.length];
                s[i] = slots[(head + i) % time.length];
            }
            time = t;
            slots = s;
            head = 0;
        }
        int idx = (head + size) % time.length;
        time[idx] = at;
        slots[idx] = nSlots;
        size++;
    }

    int size() { return size; }

    /** Time of the i-th pending increment (0 = oldest). */
    long time(int i) { return time[(head + i) % time.length]; }

    /** Slots of the i-th pending increment. */
    int slots(int i) { return slots[(head + i) % slots.length]; }

    /** Removes the oldest increment and returns its slots. */
    int pop() {
        int s = slots[head];
        head = (head + 1) % time.length;
        size--;
        return s;
    }

    @Override
    public String toString() {
        return "TimedQueue" + Arrays.toString(Arrays.copyOf(time, size));
    }
}
