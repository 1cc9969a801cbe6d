package io.ccsim.algorithms.plan;

import java.util.Arrays;

/**
 * The ranks of a communicator and the host (node) each lives on. Trees are built over hosts with
 * a chain inside each host, and default rings visit hosts in order, as NCCL does.
 *
 * @param nRanks     number of ranks, ≥ 1
 * @param hostOfRank host index of every rank; length nRanks; host indices are dense:
 *                   0..nHosts−1, each used by at least one rank
 */
public record CommLayout(int nRanks, int[] hostOfRank) {

    public CommLayout {
        if (nRanks < 1) throw new IllegalArgumentException("CommLayout.nRanks must be >= 1, got " + nRanks);
        if (hostOfRank == null || hostOfRank.length != nRanks) {
            throw new IllegalArgumentException("CommLayout.hostOfRank must have nRanks=" + nRanks + " entries, got "
                    + (hostOfRank == null ? "null" : hostOfRank.length));
        }
        hostOfRank = hostOfRank.clone();
        int max = -1;
        for (int r = 0; r < nRanks; r++) {
            if (hostOfRank[r] < 0) {
                throw new IllegalArgumentException("CommLayout.hostOfRank[" + r + "] = " + hostOfRank[r]
                        + "; host indices must be >= 0");
            }
            max = Math.max(max, hostOfRank[r]);
        }
        boolean[] used = new boolean[max + 1];
        for (int h : hostOfRank) used[h] = true;
        for (int h = 0; h <= max; h++) {
            if (!used[h]) {
                throw new IllegalArgumentException("CommLayout.hostOfRank uses hosts up to " + max + " but host " + h
                        + " has no rank; host indices must be dense 0..nHosts-1");
            }
        }
    }

    /** All ranks on one host. */
    public static CommLayout singleHost(int nRanks) {
        if (nRanks < 1) throw new IllegalArgumentException("nRanks must be >= 1, got " + nRanks);
        return new CommLayout(nRanks, new int[nRanks]);
    }

    /** {@code nHosts} hosts of {@code ranksPerHost} consecutive ranks each (rank r on host r / ranksPerHost). */
    public static CommLayout uniform(int nHosts, int ranksPerHost) {
        if (nHosts < 1 || ranksPerHost < 1) {
            throw new IllegalArgumentException("nHosts and ranksPerHost must be >= 1, got " + nHosts + " and " + ranksPerHost);
        }
        int n = Math.multiplyExact(nHosts, ranksPerHost);
        int[] h = new int[n];
        for (int r = 0; r < n; r++) h[r] = r / ranksPerHost;
        return new CommLayout(n, h);
    }

    /** Host of {@code rank}. */
    public int hostOf(int rank) { return hostOfRank[rank]; }

    /** Number of hosts. */
    public int nHosts() {
        int max = 0;
        for (int h : hostOfRank) max = Math.max(max, h);
        return max + 1;
    }

    /** Ranks of each host in ascending rank order: {@code result[h]} lists host h's ranks. */
    public int[][] ranksByHost() {
        int nh = nHosts();
        int[] cnt = new int[nh];
        for (int h : hostOfRank) cnt[h]++;
        int[][] out = new int[nh][];
        for (int h = 0; h < nh; h++) out[h] = new int[cnt[h]];
        int[] fill = new int[nh];
        for (int r = 0; r < nRanks; r++) out[hostOfRank[r]][fill[hostOfRank[r]]++] = r;
        return out;
    }

    /** Default ring order: hosts in order, ranks of a host in ascending order (NCCL rings cross each host once). */
    public int[] defaultRingOrder() {
        int[] order = new int[nRanks];
        int i = 0;
        for (int[] hr : ranksByHost()) for (int r : hr) order[i++] = r;
        return order;
    }

    @Override public int[] hostOfRank() { return hostOfRank.clone(); }

    @Override
    public boolean equals(Object o) {
        return o instanceof CommLayout c && c.nRanks == nRanks && Arrays.equals(c.hostOfRank, hostOfRank);
    }

    @Override public int hashCode() { return 31 * nRanks + Arrays.hashCode(hostOfRank); }

    @Override public String toString() { return "CommLayout[nRanks=" + nRanks + ", nHosts=" + nHosts() + "]"; }
}
