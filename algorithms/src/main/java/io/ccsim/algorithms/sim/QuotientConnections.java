package io.ccsim.algorithms.sim;

import java.util.Arrays;

/**
 * The connections of a folded execution ({@link RankFolding}): quotient connections between representatives, each with
 * its weighted hops and hop latency, and the map from a representative's real connections to them.
 *
 * <p>Contract: a quotient connection is (connection channel, sending representative actor, receiving representative
 * actor, connection class); one pair of representatives may hold several, one per class of the real connections
 * between their classes. {@link #of} names, for a real connection (connection channel, from, to) whose sender or
 * receiver is a representative, the quotient connection it is part of; both ends of one real connection name the same.
 */
final class QuotientConnections {
    /*
     * Why a pair of representatives may need several connections. A representative talks to the members of one class
     * at different steps where a plan's peers at several distances fall into one class: PAT's rank r sends to r − 2^d
     * for every dimension d, and on a cluster of leaves of 32 hosts the peers at distances 32, 64, 128 ... are all
     * alike to r (the same position in another leaf), so r's representative reaches its own class on five
     * connections at 1,024 hosts, each with its own slots, credits and steps. Merged into one they would share eight
     * slots and a first-in first-out order that the real connections do not share. The connection's colour
     * (RankRefinement: its channel, hop latency, the steps at which each end uses it, and by refinement its ends' and
     * links' classes) tells them apart, so the quotient keys its connections by it: connections of one colour to one
     * class are used at the same steps by construction (a tree node's equivalent children, a switch's equivalent GPUs)
     * and merge; connections of different colours stay apart, each weighing on the links as its own class does.
     */
    /** (connection channel, from, to) of each distinct pair of representatives; per pair its colours and connections */
    private final ConnIndex pairs = new ConnIndex();
    private long[][] pairColours = new long[16][];
    private int[][] pairConns = new int[16][];
    private int size;
    private int[] chan = new int[16];
    private int[] from = new int[16];
    private int[] to = new int[16];
    private int[][] hops = new int[16][];
    private long[] latency = new long[16];
    /** real connections (connection channel, from, to) with a representative end, and their quotient connection */
    private final ConnIndex real = new ConnIndex();
    private int[] quotientOf = new int[16];

    /** Number of quotient connections. */
    int size() { return size; }

    /**
     * The quotient connection from representative actor {@code f} to representative actor {@code t} on connection
     * channel {@code cch} for connections of colour {@code colour}, added if there is none yet.
     */
    int add(int cch, int f, int t, long colour) {
        int q = indexOf(cch, f, t, colour);
        if (q >= 0) return q;
        int p = pairs.indexOf(cch, f, t);
        if (p < 0) {
            p = pairs.size();
            pairs.add(cch, f, t);
            if (p == pairColours.length) {
                pairColours = Arrays.copyOf(pairColours, 2 * p);
                pairConns = Arrays.copyOf(pairConns, 2 * p);
            }
            pairColours[p] = new long[0];
            pairConns[p] = new int[0];
        }
        int n = pairColours[p].length;
        pairColours[p] = Arrays.copyOf(pairColours[p], n + 1);
        pairConns[p] = Arrays.copyOf(pairConns[p], n + 1);
        pairColours[p][n] = colour;
        pairConns[p][n] = size;
        if (size == chan.length) {
            chan = Arrays.copyOf(chan, 2 * size);
            from = Arrays.copyOf(from, 2 * size);
            to = Arrays.copyOf(to, 2 * size);
            hops = Arrays.copyOf(hops, 2 * size);
            latency = Arrays.copyOf(latency, 2 * size);
        }
        chan[size] = cch;
        from[size] = f;
        to[size] = t;
        return size++;
    }

    /** The quotient connection (cch, f, t) for colour {@code colour}, or −1 if there is none. */
    int indexOf(int cch, int f, int t, long colour) {
        int p = pairs.indexOf(cch, f, t);
        if (p < 0) return -1;
        long[] c = pairColours[p];
        for (int i = 0; i < c.length; i++) if (c[i] == colour) return pairConns[p][i];
        return -1;
    }

    /** Records that real connection (cch, f, t), with a representative end, is part of quotient connection q. */
    void map(int cch, int f, int t, int q) {
        int before = real.size();
        real.add(cch, f, t);
        if (real.size() == before) return; // both ends are representatives: mapped from the other end already
        if (before == quotientOf.length) quotientOf = Arrays.copyOf(quotientOf, 2 * before);
        quotientOf[before] = q;
    }

    /**
     * The quotient connection real connection (cch, f, t) is part of; one of its ends must be a representative.
     *
     * @throws IllegalStateException if it was not mapped
     */
    int of(int cch, int f, int t) { return quotientOf[real.find(cch, f, t)]; }

    /** Sets quotient connection q's hops (link classes' representatives repeated by weight) and hop latency, ps. */
    void setRoute(int q, int[] qHops, long latencyPs) {
        hops[q] = qHops;
        latency[q] = latencyPs;
    }

    int channel(int q) { return chan[q]; }

    int from(int q) { return from[q]; }

    int to(int q) { return to[q]; }

    int[] hops(int q) { return hops[q]; }

    long latencyPs(int q) { return latency[q]; }
}
