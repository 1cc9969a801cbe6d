package io.ccsim.algorithms.sim;

import java.util.Arrays;

/** Connections (channel, from, to) numbered densely, with an open-addressing lookup (no boxing). */
final class ConnIndex {
    private int[] chan = new int[16];
    private int[] from = new int[16];
    private int[] to = new int[16];
    /** key of each connection by index, for {@link #is} */
    private long[] keyOf = new long[16];
    private int size;
    private long[] keys = new long[64];
    private int[] vals = new int[64];

    ConnIndex() {
        Arrays.fill(keys, -1L);
    }

    private static long key(int ch, int f, int t) {
        return ((long) ch << 42) | ((long) f << 21) | t;
    }

    private static int hash(long k, int mask) {
        long h = k * 0x9E3779B97F4A7C15L;
        return (int) (h >>> 40) & mask;
    }

    void add(int ch, int f, int t) {
        if (f >= (1 << 21) || t >= (1 << 21) || ch >= (1 << 20)) throw new IllegalArgumentException("connection index out of range");
        long k = key(ch, f, t);
        if (lookup(k) >= 0) return;
        if (size == chan.length) {
            chan = Arrays.copyOf(chan, size * 2);
            from = Arrays.copyOf(from, size * 2);
            to = Arrays.copyOf(to, size * 2);
            keyOf = Arrays.copyOf(keyOf, size * 2);
        }
        keyOf[size] = k;
        chan[size] = ch;
        from[size] = f;
        to[size] = t;
        if ((size + 1) * 2 > keys.length) rehash(keys.length * 2);
        insert(k, size);
        size++;
    }

    private void insert(long k, int v) {
        int mask = keys.length - 1;
        int i = hash(k, mask);
        while (keys[i] != -1L) i = (i + 1) & mask;
        keys[i] = k;
        vals[i] = v;
    }

    private void rehash(int cap) {
        long[] ok = keys;
        int[] ov = vals;
        keys = new long[cap];
        vals = new int[cap];
        Arrays.fill(keys, -1L);
        for (int i = 0; i < ok.length; i++) if (ok[i] != -1L) insert(ok[i], ov[i]);
    }

    private int lookup(long k) {
        int mask = keys.length - 1;
        int i = hash(k, mask);
        while (true) {
            long x = keys[i];
            if (x == k) return vals[i];
            if (x == -1L) return -1;
            i = (i + 1) & mask;
        }
    }

    /** Index of (ch, f, t); the plan must have declared the connection. */
    int find(int ch, int f, int t) {
        int v = lookup(key(ch, f, t));
        if (v < 0) throw new IllegalStateException("plan step uses undeclared connection ch=" + ch + " " + f + "->" + t);
        return v;
    }

    /** Index of (ch, f, t), or −1 if it was not added. */
    int indexOf(int ch, int f, int t) { return lookup(key(ch, f, t)); }

    /** Whether connection {@code k} (any int; out of range is false) is (ch, f, t): one load, no hashing. */
    boolean is(int k, int ch, int f, int t) {
        return k >= 0 && k < size && keyOf[k] == key(ch, f, t);
    }

    int size() { return size; }

    int channel(int k) { return chan[k]; }

    int from(int k) { return from[k]; }

    int to(int k) { return to[k]; }
}
