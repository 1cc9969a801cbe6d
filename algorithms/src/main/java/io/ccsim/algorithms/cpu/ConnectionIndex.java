package io.ccsim.algorithms.cpu;

import java.util.Arrays;

/** Open-addressing map from a non-negative long key to a non-negative int, without boxing. */
final class ConnectionIndex {
    private long[] keys;
    private int[] vals;
    private int size;

    ConnectionIndex(int expected) {
        int cap = Integer.highestOneBit(Math.max(4, expected * 2 - 1)) << 1;
        keys = new long[cap];
        vals = new int[cap];
        Arrays.fill(keys, -1L);
    }

    private static int mix(long k) {
        long h = k * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    /** Returns the existing value for key, or stores {@code v} and returns it. */
    int putIfAbsent(long key, int v) {
        if (2 * (size + 1) > keys.length) grow();
        int m = keys.length - 1;
        int i = mix(key) & m;
        while (keys[i] != -1L) {
            if (keys[i] == key) return vals[i];
            i = (i + 1) & m;
        }
        keys[i] = key;
        vals[i] = v;
        size++;
        return v;
    }

    /** The value for key, or −1. */
    int get(long key) {
        int m = keys.length - 1;
        int i = mix(key) & m;
        while (keys[i] != -1L) {
            if (keys[i] == key) return vals[i];
            i = (i + 1) & m;
        }
        return -1;
    }

    private void grow() {
        long[] ok = keys;
        int[] ov = vals;
        keys = new long[ok.length * 2];
        vals = new int[ok.length * 2];
        Arrays.fill(keys, -1L);
        size = 0;
        for (int i = 0; i < ok.length; i++) if (ok[i] != -1L) putIfAbsent(ok[i], ov[i]);
    }
}
