package io.ccsim.algorithms.sim;

import java.util.Arrays;

/**
 * Per worker, the quotient connections ({@link RankFolding#connection}) it looked up last, so that a worker that talks
 * to a few peers in turn finds them without the folding's table of every real connection. Direct-mapped by the peer,
 * 16 entries a worker, given to a worker on its first lookup; a miss asks the folding and replaces the entry.
 */
final class QuotientMemo {
    /*
     * Why. A folded worker binds its step's connections by (connection channel, from, to); where its peers change from
     * step to step, or a step has more peers than the worker's block keeps (NVLSTree: a rank's scatter sends to its
     * node's 8 reduction actors, its gather receives from the 8 multicast actors), every step
     * looks up the real connection in a hash table of all connections with a representative end, which is far larger
     * than the cache (6 % of the samples of a 1,024-GPU NVLSTree run). A worker has few distinct peers (NVLSTree: at
     * most the heads of its node and 3 tree neighbours). For one worker the real connection is given by the
     * connection index (0 or 1), the direction and the peer, so an entry is that key and the quotient connection in
     * one long, and the entry is the peer's low bits: a node's switch actors, consecutive ids, share one or two cache
     * lines. The entries of the workers that look up (the simulated ones, a few thousand) are packed in one table.
     */
    private static final int SLOTS = 16;
    private final RankFolding ranks;
    /** per worker: 1 + its position in the table, 0 before its first lookup */
    private final int[] position;
    /** per position: SLOTS entries of key << 32 | quotient connection, −1 when empty */
    private long[] table = new long[0];
    private int used;

    QuotientMemo(RankFolding ranks, int workers) {
        this.ranks = ranks;
        this.position = new int[workers];
    }

    /**
     * The quotient connection of real connection (connection channel cch, from, to) for worker w, which is its
     * receiver ({@code receiving}) or sender and meets it as connection {@code conn} (0 or 1) of a step, with
     * {@code peer} at the other end.
     */
    int connection(int w, int conn, boolean receiving, int peer, int cch, int from, int to) {
        long key = peer | (receiving ? 1L << 21 : 0) | ((long) conn << 22);
        int p = position[w];
        if (p == 0) p = place(w);
        int e = (p - 1) * SLOTS + (peer & (SLOTS - 1));
        long entry = table[e];
        if (entry >>> 32 == key) return (int) entry;
        int q = ranks.connection(cch, from, to);
        table[e] = key << 32 | (q & 0xffffffffL);
        return q;
    }

    private int place(int w) {
        if ((used + 1) * SLOTS > table.length) {
            int before = table.length;
            table = Arrays.copyOf(table, Math.max(64 * SLOTS, 2 * before));
            Arrays.fill(table, before, table.length, -1L);
        }
        position[w] = ++used;
        return used;
    }
}
