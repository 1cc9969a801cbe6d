package io.ccsim.algorithms.sim;

import java.util.Arrays;
import java.util.function.DoubleConsumer;

/**
 * Colour refinement of {@link RankRefinement}'s three kinds of entity (units, connections, link entities) to the
 * coarsest partition that is stable under their relations and finer than their initial colours, recolouring in each
 * round only the entities a neighbour's change can reach.
 *
 * <p>Contract: {@link #run} splits the classes round by round exactly as recolouring every entity each round from its
 * class and its neighbours' classes would (the same partition after each round, so the same round count), and ends
 * when a round splits nothing (returns 0) or after {@code maxRounds} rounds (returns them, the partition unsettled).
 * It then leaves in each colour array a hash of a class number per entity (a bijection of it): equal colours exactly
 * for entities of one class of one kind. A unit's neighbours are its connections in its own order (with their
 * direction); a connection's its sender's and receiver's units, in that order, and the multiset of (link entity,
 * direction) of its hops; a link entity's the multiset of (connection, direction) crossing it.
 */
final class ColourRefinement {
    /*
     * Why only some entities. A round's new class of an entity is a function of its class and its neighbours' classes
     * (its signature), so an entity none of whose neighbours changed class in the last round keeps its signature, and
     * stays with every member of its class that keeps its own. Classes are numbered; where a class splits, the part
     * whose signature is the class's former one (the members that were not recoloured, and any recoloured member that
     * came back to it) keeps the number, and each other part takes a new one. Only entities with a new number change
     * anybody's signature, so a round recolours the neighbours of the entities renumbered in the round before. Every
     * member of a class has one signature at the end of a round (the class's, kept per class), which makes "the
     * class's former signature" known without reading the members that were not recoloured. After round r the classes
     * are those of r synchronous rounds: an entity's signature reads its neighbours' numbers, and a number stands for
     * one class of the current partition (a class that lost members keeps its number and the members it kept).
     *
     * A tree settles in about its depth in rounds, each touching what the last round split; a chain (a ring broadcast)
     * tells its ranks apart one hop from the root per round, each round touching a few entities around that hop instead
     * of all of them. Signatures are hashed with RankRefinement.mix: a unit's connections in order, a multiset as the
     * sum of its members' hashes (order-free, no sort of a spine's thousands of crossings).
     */

    private final int nu;
    private final int nk;
    private final int nl;
    private final int[][] inc;
    private final int[] sendUnit;
    private final int[] recvUnit;
    /** per connection: its hops that relate, each (link entity << 1 | direction) */
    private final int[][] connLinks;
    private final int[] linkStart;
    private final int[] linkCross;
    /** per unit: the connections it sends or receives on (CSR), whose signatures read its class */
    private final int[] unitConnStart;
    private final int[] unitConn;

    /** per entity (units, then connections, then link entities): its class number */
    private final int[] cls;
    /** per entity: its last signature */
    private final long[] sig;
    /** per class: the signature of its members */
    private long[] classSig;
    /** per class: its members, and how many of them a round recolours */
    private int[] classSize;
    private int[] classDirty;
    private int classes;

    /**
     * @param inc       per unit: its connections in order, each {@code k * 2 + 1} receiving or {@code k * 2} sending;
     *                  null for a unit that takes no part (a replica channel's)
     * @param sendUnit  per connection: its sender's unit
     * @param recvUnit  per connection: its receiver's unit
     * @param connLinks per connection: its relating hops, each {@code linkEntity << 1 | direction}
     * @param linkStart per link entity: where its crossings start in linkCross (CSR, one more entry than entities)
     * @param linkCross the crossings, each {@code k * 2 + direction}
     */
    ColourRefinement(int[][] inc, int[] sendUnit, int[] recvUnit, int[][] connLinks, int[] linkStart, int[] linkCross) {
        this.nu = inc.length;
        this.nk = sendUnit.length;
        this.nl = linkStart.length - 1;
        this.inc = inc;
        this.sendUnit = sendUnit;
        this.recvUnit = recvUnit;
        this.connLinks = connLinks;
        this.linkStart = linkStart;
        this.linkCross = linkCross;
        this.unitConnStart = new int[nu + 1];
        for (int k = 0; k < nk; k++) {
            unitConnStart[sendUnit[k] + 1]++;
            if (recvUnit[k] != sendUnit[k]) unitConnStart[recvUnit[k] + 1]++;
        }
        for (int u = 0; u < nu; u++) unitConnStart[u + 1] += unitConnStart[u];
        this.unitConn = new int[unitConnStart[nu]];
        int[] fill = Arrays.copyOf(unitConnStart, nu);
        for (int k = 0; k < nk; k++) {
            unitConn[fill[sendUnit[k]]++] = k;
            if (recvUnit[k] != sendUnit[k]) unitConn[fill[recvUnit[k]]++] = k;
        }
        int e = nu + nk + nl;
        this.cls = new int[e];
        this.sig = new long[e];
    }

    /**
     * Refines from the colours given (units', connections', link entities'), which it replaces by class numbers.
     *
     * @param maxRounds the rounds after which it stops unsettled
     * @param progress  told the round before each, as a part of maxRounds from round MIN_ROUNDS on (else NaN)
     * @return 0 if settled, else the rounds run
     */
    int run(long[] uc, long[] kc, long[] lc, long maxRounds, DoubleConsumer progress) {
        int e = cls.length;
        classSig = new long[64];
        classSize = new int[64];
        classDirty = new int[64];
        number(uc, 0, true);
        number(kc, nu, false);
        number(lc, nu + nk, false);
        // round 1 recolours every entity that takes part
        int[] dirty = new int[e];
        int nd = 0;
        for (int x = 0; x < e; x++) if (x >= nu || inc[x] != null) dirty[nd++] = x;
        int[] former = new int[e];
        int[] stamp = new int[e];
        int[] moved = new int[e];
        Grouping parts = new Grouping();
        int round = 0;
        while (nd > 0) {
            if (round == maxRounds) {
                write(uc, kc, lc);
                return round;
            }
            progress.accept(round < RankRefinement.MIN_ROUNDS ? Double.NaN : round / (double) maxRounds);
            round++;
            for (int i = 0; i < nd; i++) {
                int x = dirty[i];
                sig[x] = signature(x);
                former[i] = cls[x];
                classDirty[cls[x]]++;
            }
            // a class recoloured whole has no former signature among its members: its first part keeps its number
            for (int i = 0; i < nd; i++) {
                int c = former[i];
                if (classDirty[c] == classSize[c]) {
                    classSig[c] = sig[dirty[i]];
                    classDirty[c] = -1; // claimed
                }
            }
            parts.reset(nd);
            int nm = 0;
            for (int i = 0; i < nd; i++) {
                int x = dirty[i];
                int c = former[i];
                if (sig[x] != classSig[c]) {
                    int to = parts.classOf(c, sig[x]);
                    cls[x] = to;
                    moved[nm++] = x;
                }
            }
            for (int i = 0; i < nd; i++) {
                classDirty[former[i]] = 0;
                if (cls[dirty[i]] != former[i]) {
                    classSize[former[i]]--;
                    classSize[cls[dirty[i]]]++;
                }
            }
            // the next round recolours the neighbours of the entities renumbered in this one
            nd = 0;
            for (int i = 0; i < nm; i++) {
                int x = moved[i];
                if (x < nu) {
                    for (int j = unitConnStart[x]; j < unitConnStart[x + 1]; j++) nd = mark(nu + unitConn[j], round, stamp, dirty, nd);
                } else if (x < nu + nk) {
                    int k = x - nu;
                    if (inc[sendUnit[k]] != null) nd = mark(sendUnit[k], round, stamp, dirty, nd);
                    if (inc[recvUnit[k]] != null) nd = mark(recvUnit[k], round, stamp, dirty, nd);
                    for (int h : connLinks[k]) nd = mark(nu + nk + (h >>> 1), round, stamp, dirty, nd);
                } else {
                    int l = x - nu - nk;
                    for (int j = linkStart[l]; j < linkStart[l + 1]; j++) nd = mark(nu + (linkCross[j] >>> 1), round, stamp, dirty, nd);
                }
            }
            Arrays.sort(dirty, 0, nd); // entity order: class numbers do not depend on the order marks came in
        }
        write(uc, kc, lc);
        return 0;
    }

    private static int mark(int x, int round, int[] stamp, int[] dirty, int nd) {
        if (stamp[x] == round) return nd;
        stamp[x] = round;
        dirty[nd++] = x;
        return nd;
    }

    /** Entity x's signature: a hash of its neighbours' classes (see the class comment). */
    private long signature(int x) {
        long h;
        if (x < nu) {
            h = RankRefinement.SEED;
            for (int c : inc[x]) h = RankRefinement.mix(h, RankRefinement.mix(cls[nu + (c >>> 1)], c & 1));
        } else if (x < nu + nk) {
            int k = x - nu;
            long links = 0;
            for (int l : connLinks[k]) links += RankRefinement.mix(cls[nu + nk + (l >>> 1)], l & 1);
            h = RankRefinement.mix(RankRefinement.mix(RankRefinement.mix(RankRefinement.SEED, cls[sendUnit[k]]), cls[recvUnit[k]]), links);
        } else {
            int l = x - nu - nk;
            long crossing = 0;
            for (int j = linkStart[l]; j < linkStart[l + 1]; j++) {
                crossing += RankRefinement.mix(cls[nu + (linkCross[j] >>> 1)], linkCross[j] & 1);
            }
            h = RankRefinement.mix(RankRefinement.SEED, crossing);
        }
        return h;
    }

    /**
     * Numbers the entities from {@code first} on by their colours: equal colours, one class; units that take no part
     * ({@code units}, null inc) in classes of their own kind.
     */
    private void number(long[] colours, int first, boolean units) {
        Grouping g = new Grouping();
        g.reset(colours.length);
        for (int i = 0; i < colours.length; i++) {
            int c = g.classOf(units && inc[i] == null ? -2 : -1, colours[i]);
            cls[first + i] = c;
            classSize[c]++;
        }
    }

    /** A new class, numbered next. */
    private int newClass(long signature) {
        if (classes == classSig.length) {
            int n = 2 * classes;
            classSig = Arrays.copyOf(classSig, n);
            classSize = Arrays.copyOf(classSize, n);
            classDirty = Arrays.copyOf(classDirty, n);
        }
        classSig[classes] = signature;
        return classes++;
    }

    /**
     * Leaves each entity's class as its colour, spread over 64 bits as hashed colours are (the colours key hash tables
     * downstream, CrossingCounts', whose keys mix them with small numbers).
     */
    private void write(long[] uc, long[] kc, long[] lc) {
        for (int u = 0; u < nu; u++) uc[u] = RankRefinement.mix(RankRefinement.SEED, cls[u]);
        for (int k = 0; k < nk; k++) kc[k] = RankRefinement.mix(RankRefinement.SEED, cls[nu + k]);
        for (int l = 0; l < nl; l++) lc[l] = RankRefinement.mix(RankRefinement.SEED, cls[nu + nk + l]);
    }

    /**
     * The parts of one round: (former class, signature) to the class number of that part, by open addressing. Emptied
     * by clearing the slots it filled, so that a round costs what its parts do, not the largest round's table.
     */
    private final class Grouping {
        private int[] from = new int[0];
        private long[] key = new long[0];
        private int[] to = new int[0];
        private boolean[] used = new boolean[0];
        /** the slots filled since the last reset */
        private int[] filled = new int[0];
        private int nFilled;
        private int mask;

        /** Empties the table for up to n parts. */
        void reset(int n) {
            for (int i = 0; i < nFilled; i++) used[filled[i]] = false;
            nFilled = 0;
            int cap = Integer.highestOneBit(Math.max(2, n) * 2 - 1) * 2;
            if (used.length < cap) {
                from = new int[cap];
                key = new long[cap];
                to = new int[cap];
                used = new boolean[cap];
                filled = new int[cap];
            }
            mask = used.length - 1;
        }

        /** The class of the part (c, s), a new one on first sight (c = -1: an initial colour; -2: a unit taking no part). */
        int classOf(int c, long s) {
            int slot = (int) RankRefinement.mix(c, s) & mask;
            while (used[slot]) {
                if (from[slot] == c && key[slot] == s) return to[slot];
                slot = (slot + 1) & mask;
            }
            used[slot] = true;
            filled[nFilled++] = slot;
            from[slot] = c;
            key[slot] = s;
            return to[slot] = newClass(s);
        }
    }
}
