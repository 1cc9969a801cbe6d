package io.ccsim.sim.flow;

import java.util.Arrays;

/**
 * A binary min-heap of (double key, int value) pairs without positions: the filling's heap of the component's flows
 * (value = the flow's index in the component) by their own rate bound (bytes/s).
 *
 * <p>Contract: {@link #push} adds a pair, {@link #pop} removes the pair of least key, {@link #topKey} and
 * {@link #topValue} read it (size {@code > 0}). Keys are compared with {@code <} (NaN keys are not supported); among
 * equal keys the order is that of the sift operations, deterministic for a given sequence of calls. The arrays grow
 * by doubling; nothing else is allocated.
 */
final class BoundHeap {
    /* The classic array heap (Williams 1964): the pair at position p has its children at 2p + 1 and 2p + 2. */
    private double[] key = new double[16];
    private int[] value = new int[16];
    private int size;

    /** Empties the heap. */
    void clear() {
        size = 0;
    }

    /** @return the number of pairs */
    int size() {
        return size;
    }

    /** @return the least key (size {@code > 0}) */
    double topKey() {
        return key[0];
    }

    /** @return the value paired with the least key (size {@code > 0}) */
    int topValue() {
        return value[0];
    }

    /** Adds the pair (k, v). */
    void push(double k, int v) {
        if (size == key.length) {
            key = Arrays.copyOf(key, size * 2);
            value = Arrays.copyOf(value, size * 2);
        }
        int pos = size++;
        while (pos > 0) {
            int parent = (pos - 1) >>> 1;
            if (k < key[parent]) {
                key[pos] = key[parent];
                value[pos] = value[parent];
                pos = parent;
            } else {
                break;
            }
        }
        key[pos] = k;
        value[pos] = v;
    }

    /** Removes the pair of least key (size {@code > 0}). */
    void pop() {
        int n = --size;
        if (n == 0) {
            return;
        }
        double k = key[n];
        int v = value[n];
        int pos = 0;
        while (true) {
            int c = 2 * pos + 1;
            if (c >= n) {
                break;
            }
            if (c + 1 < n && key[c + 1] < key[c]) {
                c++;
            }
            if (key[c] < k) {
                key[pos] = key[c];
                value[pos] = value[c];
                pos = c;
            } else {
                break;
            }
        }
        key[pos] = k;
        value[pos] = v;
    }
}
