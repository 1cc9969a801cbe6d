package io.ccsim.topology.smi;

/**
 * Disjoint sets over {@code 0..n-1} with path halving; the root of a set is its smallest element, so
 * {@link #find} is a canonical, order-independent name of the set.
 */
final class UnionFind {

    private final int[] parent;

    /** {@code n} singleton sets, n >= 0. */
    UnionFind(int n) {
        parent = new int[n];
        for (int i = 0; i < n; i++) {
            parent[i] = i;
        }
    }

    /** The smallest element of the set that contains {@code x}. */
    int find(int x) {
        while (parent[x] != x) {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    }

    /** Merges the sets of {@code a} and {@code b}. */
    void union(int a, int b) {
        int ra = find(a);
        int rb = find(b);
        if (ra != rb) {
            parent[Math.max(ra, rb)] = Math.min(ra, rb);
        }
    }
}
