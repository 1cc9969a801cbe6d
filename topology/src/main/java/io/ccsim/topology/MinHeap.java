package io.ccsim.topology;

import java.util.Arrays;

/**
 * A binary min-heap of (long key, int value) pairs, growing as needed. Entries are never updated in place:
 * a caller that lowers a key pushes the pair again and skips stale entries when it pops them. Among equal
 * keys the pop order is unspecified (but deterministic for the same sequence of operations).
 */
final class MinHeap {

    private long[] keys = new long[64];
    private int[] vals = new int[64];
    private int size;

    /** Removes every entry (keeps the capacity). */
    void clear() {
        size = 0;
    }

    /** Number of entries. */
    int size() {
        return size;
    }

    /** Whether there is no entry. */
    boolean isEmpty() {
        return size == 0;
    }

    /** The smallest key; only when not empty. */
    long minKey() {
        return keys[0];
    }

    /** Adds the pair ({@code k}, {@code v}). */
    void push(long k, int v) {
        if (size == keys.length) {
            keys = Arrays.copyOf(keys, size * 2);
            vals = Arrays.copyOf(vals, size * 2);
        }
        int i = size++;
        while (i > 0) {
            int p = (i - 1) >>> 1;
            if (keys[p] <= k) {
                break;
            }
            keys[i] = keys[p];
            vals[i] = vals[p];
            i = p;
        }
        keys[i] = k;
        vals[i] = v;
    }

    /** Removes the entry with the smallest key and returns its value; only when not empty. */
    int pop() {
        int top = vals[0];
        long k = keys[--size];
        int v = vals[size];
        int i = 0;
        while (true) {
            int c = 2 * i + 1;
            if (c >= size) {
                break;
            }
            if (c + 1 < size && keys[c + 1] < keys[c]) {
                c++;
            }
            if (keys[c] >= k) {
                break;
            }
            keys[i] = keys[c];
            vals[i] = vals[c];
            i = c;
        }
        keys[i] = k;
        vals[i] = v;
        return top;
    }
}
