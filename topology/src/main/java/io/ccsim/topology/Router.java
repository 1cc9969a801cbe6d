package io.ccsim.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Shortest routes with ECMP between nodes of one topology structure, computed on demand and cached (per
 * structure, never static). Thread-safe: computations are serialized, cached routes are read without a
 * lock.
 *
 * <p>A route has the fewest hops, then the least latency; among equal routes the choice is, with
 * {@link Routing#ECMP}, a hash of (seed, src, dst, flowKey), with {@link Routing#DESTINATION} the path at the
 * destination's position (d-mod-k) among all of them in link order; the same on every call. Links of one flow-network group (a GPU's NVLink
 * stripe) count as one choice. A pair whose shortest paths offer no choice between groups is computed
 * and cached once for all flow keys; other routes are cached per flow key, so callers should use a small
 * set of flow keys per connection.
 */
final class Router {

    /*
     * Cost of a path = (hops, latency) compared lexicographically, encoded in one long as
     * hops << 40 | latencyPs (a link's latency is at most Link.MAX_LATENCY_PS = 10 ms = 1e10 ps, so up to
     * ~100 hops fit below 2^40 without carry; every path in our fabrics has fewer than 20 hops).
     *
     * Algorithm: bidirectional Dijkstra from src and dst, alternating on the side with the smaller frontier,
     * stopping when minF + minB > mu (mu = best src-dst cost found) or one side runs dry. Then every node of every
     * shortest path is settled by at least one side (if dF(v) + dB(v) = mu and both were unsettled, their sum would be
     * >= minF + minB > mu). src is settled forward first (both heaps hold one entry and ties go forward); dst's
     * backward distance is final from the start, though the search may stop before dst is settled backward (dst one
     * hop from src, found by the forward side). So each shortest path has a "meeting edge" (u, w), its first edge
     * from a forward-settled node to one that is not (or its last edge, into dst), with u settled forward, w settled
     * backward or dst, and dF(u) + c + dB(w) = mu. The search notes each such edge when its second end is settled
     * (or, into dst, when its forward end is), with its cost; those of cost mu are the meeting edges, in the order of
     * their forward end's first touch and that node's adjacency. The route picks one meeting edge, then walks back to src over
     * settled equal-cost predecessors and forward to dst likewise; every choice among equal candidates is an
     * ECMP hash of (seed, src, dst, flowKey, step): deterministic, and different flows spread over the spines
     * as hardware ECMP does. Candidates in one flow-network group (the members of a GPU's NVLink stripe) are
     * one choice, the first standing for it. Caching per flow key matches NCCL, which hashes one ECMP path
     * per queue pair and opens a few QPs per connection (NCCL_IB_QPS_PER_CONNECTION) rather than one per
     * message. Destination routing lists every shortest path instead (each meeting edge, every equal-cost
     * predecessor chain on both sides, one link per group), sorts the distinct ones by their hops (link group
     * order: a leaf's uplinks in spine order) and takes the destination's index modulo their number; the route
     * then does not depend on the flow key and is cached once per pair. Only the balls around src and dst are explored (plus one side's spine fan-out), not the whole
     * graph. Scratch arrays are reused under the lock.
     */

    private static final long INF = Long.MAX_VALUE / 4;
    private static final long HOP = 1L << 40;

    /** A cached route's key; its hash mixes all bits (pairs r -> r +- 2^d gave the default record hash many equal). */
    private record Key(int src, int dst, long flowKey) {
        @Override public int hashCode() { return (int) mix(((long) src << 32 | (dst & 0xFFFFFFFFL)) ^ mix(flowKey)); }
    }

    private static final long ANY_FLOW = Long.MIN_VALUE;

    private final ConcurrentHashMap<Key, Route> cache = new ConcurrentHashMap<>();
    /** Pairs whose shortest path involved no ECMP choice: their route is cached once, for every flowKey. */
    private final java.util.Set<Key> uniquePairs = ConcurrentHashMap.newKeySet();
    /** Whether the last {@link #compute} chose between different groups (guarded by this). */
    private boolean ecmpUsed;
    private final int n;
    private final Routing routing;
    /** the most shortest paths destination routing lists between two nodes before it refuses the topology */
    static final int MAX_PATHS = 1 << 14;
    // scratch, guarded by this
    private long[] distF;
    private long[] distB;
    private byte[] settled; // bit 1 = forward, bit 2 = backward
    private int[] touched;
    private int touchedCount;
    /** each touched node's index in {@code touched} (valid for touched nodes only) */
    private int[] touchedAt;
    /**
     * Edges found between a forward-settled node and a backward-settled one: (forward node's touch index << 32 | link
     * index; a node's adjacency lists its links in link order), and their cost dF(u) + c + dB(w); the meeting edges are
     * those of cost mu
     */
    private long[] meetKey = new long[16];
    private long[] meetCost = new long[16];
    private int meetCount;
    private final MinHeap heapF = new MinHeap();
    private final MinHeap heapB = new MinHeap();

    Router(int nodeCount, Routing routing) {
        this.n = nodeCount;
        this.routing = routing;
    }

    /** Number of cached routes (for tests and diagnostics). */
    int cachedRoutes() {
        return cache.size();
    }

    /**
     * The route from node {@code src} to node {@code dst} of {@code t} (indices into {@code t.nodes()});
     * {@link Route#local()} when they are the same node.
     *
     * @throws IllegalArgumentException if {@code dst} cannot be reached from {@code src}
     */
    Route route(Topology t, int src, int dst, long flowKey) {
        if (src == dst) {
            return Route.local();
        }
        Route unique = unique(src, dst);
        if (unique != null) {
            return unique;
        }
        Key k = new Key(src, dst, flowKey);
        Route r = cache.get(k);
        if (r != null) return r;
        Route two = throughOneNeighbour(t, src, dst);
        if (two != null) {
            Key any = new Key(src, dst, ANY_FLOW);
            cache.putIfAbsent(any, two);
            uniquePairs.add(any);
            return cache.get(any);
        }
        return computeAndCache(t, src, dst, flowKey, k);
    }

    /** The route the search finds, never a cached or shortcut one (for tests of the shortcut). */
    Route searched(Topology t, int src, int dst, long flowKey) {
        return src == dst ? Route.local() : compute(t, src, dst, flowKey);
    }

    /** {@link #throughOneNeighbour}, for tests. */
    static Route shortcut(Topology t, int src, int dst) {
        return throughOneNeighbour(t, src, dst);
    }

    /** Endpoints with more links than this are left to the search ({@link #throughOneNeighbour}). */
    private static final int SHORTCUT_DEGREE = 8;

    /**
     * The route src - w - dst where it is the only shortest one, without a search: src and dst (each of at most
     * {@link #SHORTCUT_DEGREE} links) share exactly one neighbour w, joined to each by one link, and no link joins them
     * directly. Every other path has three hops or more, and a hop costs more than any two links' latencies (see the
     * cost encoding), so the search would find this path alone, with no choice to make: the route it would return, for
     * every flow key and either routing (two NICs on one leaf switch: most of a ring's crossings between hosts).
     * Null otherwise.
     */
    private static Route throughOneNeighbour(Topology t, int src, int dst) {
        TopologyStructure s = t.structure();
        if (src == dst) return null;
        if (s.adjStart[src + 1] - s.adjStart[src] > SHORTCUT_DEGREE || s.adjStart[dst + 1] - s.adjStart[dst] > SHORTCUT_DEGREE) {
            return null;
        }
        int common = -1;
        int first = -1;
        int second = -1;
        for (int e = s.adjStart[src]; e < s.adjStart[src + 1]; e++) {
            int li = s.adjLink[e];
            int x = s.linkA[li] == src ? s.linkB[li] : s.linkA[li];
            if (x == dst) return null;
            for (int f = s.adjStart[dst]; f < s.adjStart[dst + 1]; f++) {
                int lj = s.adjLink[f];
                int y = s.linkA[lj] == dst ? s.linkB[lj] : s.linkA[lj];
                if (y != x) continue;
                if (common >= 0) return null; // a second common neighbour, or a second link to this one
                common = x;
                first = li;
                second = lj;
            }
        }
        if (common < 0) return null;
        int[] hops = {Route.hop(s.groups.ofLink[first], s.linkA[first] != src),
                Route.hop(s.groups.ofLink[second], s.linkA[second] != common)};
        List<Link> links = t.links();
        return new Route(hops, s.linkLatency[first] + s.linkLatency[second],
                List.of(links.get(first).id(), links.get(second).id()));
    }

    /*
     * Whether the computation made an ECMP choice (ecmpUsed) is per computation state: it is read, and the route cached
     * by it, under the same lock as the computation, or a concurrent caller's computation could overwrite it between
     * the two and an ECMP route would be cached as the one route of its pair, for every flow key.
     */
    private synchronized Route computeAndCache(Topology t, int src, int dst, long flowKey, Key k) {
        Route cached = cache.get(k);
        if (cached == null) cached = unique(src, dst);
        if (cached != null) return cached;
        Route r = compute(t, src, dst, flowKey);
        if (!ecmpUsed) {
            cache.putIfAbsent(new Key(src, dst, ANY_FLOW), r);
            uniquePairs.add(new Key(src, dst, ANY_FLOW));
        } else {
            cache.putIfAbsent(k, r);
        }
        return r;
    }

    private Route unique(int src, int dst) {
        Key k = new Key(src, dst, ANY_FLOW);
        return uniquePairs.contains(k) ? cache.get(k) : null;
    }

    private synchronized Route compute(Topology t, int src, int dst, long flowKey) {
        if (distF == null) {
            distF = new long[n];
            distB = new long[n];
            Arrays.fill(distF, INF);
            Arrays.fill(distB, INF);
            settled = new byte[n];
            touched = new int[Math.max(16, n)];
            touchedAt = new int[n];
        }
        meetCount = 0;
        TopologyStructure s = t.structure();
        List<Link> links = t.links();
        try {
            touch(src);
            touch(dst);
            distF[src] = 0;
            distB[dst] = 0;
            heapF.clear();
            heapB.clear();
            heapF.push(0, src);
            heapB.push(0, dst);
            long mu = INF;
            while (true) {
                long topF = heapF.isEmpty() ? INF : heapF.minKey();
                long topB = heapB.isEmpty() ? INF : heapB.minKey();
                if (topF >= INF && topB >= INF) {
                    break;
                }
                if (mu < INF && (topF >= INF || topB >= INF || topF + topB > mu)) {
                    break;
                }
                boolean forward = topB >= INF || (topF < INF && heapF.size() <= heapB.size());
                MinHeap h = forward ? heapF : heapB;
                long[] d = forward ? distF : distB;
                long[] other = forward ? distB : distF;
                byte bit = forward ? (byte) 1 : (byte) 2;
                long key = h.minKey();
                int v = h.pop();
                if ((settled[v] & bit) != 0 || key != d[v]) {
                    continue;
                }
                settled[v] |= bit;
                if (other[v] < INF) {
                    mu = Math.min(mu, d[v] + other[v]);
                }
                byte otherBit = forward ? (byte) 2 : (byte) 1;
                for (int e = s.adjStart[v]; e < s.adjStart[v + 1]; e++) {
                    int li = s.adjLink[e];
                    int w = s.linkA[li] == v ? s.linkB[li] : s.linkA[li];
                    long nd = d[v] + HOP + s.linkLatency[li];
                    if ((settled[w] & otherBit) != 0 || forward && w == dst) {
                        // both ends now final (dst's backward distance, 0, is from the start): a meeting edge if its cost
                        // turns out to be mu
                        noteMeeting(forward ? v : w, li, nd + other[w]);
                    }
                    if (nd < d[w]) {
                        if (d[w] >= INF && other[w] >= INF) {
                            touch(w);
                        }
                        d[w] = nd;
                        h.push(nd, w);
                    }
                    if (other[w] < INF) {
                        mu = Math.min(mu, nd + other[w]);
                    }
                }
            }
            if (mu >= INF) {
                throw new IllegalArgumentException("topology '" + t.name() + "': no route from '"
                        + t.nodes().get(src).id() + "' to '" + t.nodes().get(dst).id()
                        + "' (the nodes are in different connected components)");
            }
            return build(t, s, links, src, dst, flowKey, mu);
        } finally {
            for (int i = 0; i < touchedCount; i++) {
                int v = touched[i];
                distF[v] = INF;
                distB[v] = INF;
                settled[v] = 0;
            }
            touchedCount = 0;
        }
    }

    private Route build(Topology t, TopologyStructure s, List<Link> links, int src, int dst, long flowKey,
                        long mu) {
        long hash = mix(mix(mix(mix(t.seed()) ^ src) ^ ((long) dst << 32)) ^ flowKey);
        // the meeting edges (see the class comment), in the order of their forward node's touch, then its adjacency: the
        // order ECMP picks from
        long[] keys = new long[meetCount];
        int meets = 0;
        for (int i = 0; i < meetCount; i++) {
            if (meetCost[i] == mu) keys[meets++] = meetKey[i];
        }
        Arrays.sort(keys, 0, meets);
        int distinctKeys = 0;   // an edge into dst is noted when its forward end settles and again when dst settles
        for (int i = 0; i < meets; i++) {
            if (i == 0 || keys[i] != keys[i - 1]) keys[distinctKeys++] = keys[i];
        }
        meets = distinctKeys;
        int[] meetU = new int[Math.max(1, meets)];
        int[] meetL = new int[Math.max(1, meets)];
        for (int i = 0; i < meets; i++) {
            meetU[i] = touched[(int) (keys[i] >>> 32)];
            meetL[i] = (int) keys[i];
        }
        if (meets == 0) {
            throw new IllegalStateException("router invariant broken: no meeting edge for cost " + mu);
        }
        // distinct meeting groups; equal group paths through different meeting edges are one choice
        int distinct = 0;
        int[] firstOf = new int[meets];
        for (int i = 0; i < meets; i++) {
            boolean seen = false;
            for (int j = 0; j < distinct; j++) {
                if (s.groups.ofLink[meetL[firstOf[j]]] == s.groups.ofLink[meetL[i]]) {
                    seen = true;
                    break;
                }
            }
            if (!seen) {
                firstOf[distinct++] = i;
            }
        }
        if (routing == Routing.DESTINATION) {
            ecmpUsed = false; // one route per pair, whatever the flow key
            return byDestination(t, s, links, src, dst, meetU, meetL, firstOf, distinct);
        }
        int chosen = distinct == 1 ? firstOf[0] : firstOf[pick(hash, 0, distinct)];
        ecmpUsed = false;
        Route r = walk(s, links, src, dst, meetU[chosen], meetL[chosen], hash);
        if (!ecmpUsed && distinct > 1) {
            for (int j = 0; j < distinct && !ecmpUsed; j++) {
                int c = firstOf[j];
                if (c != chosen && !Arrays.equals(walk(s, links, src, dst, meetU[c], meetL[c], hash).hops(),
                        r.hops())) {
                    ecmpUsed = true;
                }
            }
            if (!ecmpUsed && chosen != firstOf[0]) {
                // no real choice: return the canonical representative, independent of the flow key
                r = walk(s, links, src, dst, meetU[firstOf[0]], meetL[firstOf[0]], hash);
            }
        }
        return r;
    }

    /** The path src .. u -(ml)- w .. dst over settled equal-cost predecessors; sets ecmpUsed on a real choice. */
    private Route walk(TopologyStructure s, List<Link> links, int src, int dst, int u, int ml, long hash) {
        int w = s.linkA[ml] == u ? s.linkB[ml] : s.linkA[ml];
        List<Integer> head = new ArrayList<>();
        List<Integer> headFrom = new ArrayList<>();
        int step = 1;
        int cur = u;
        while (cur != src) {
            int[] cand = predecessors(s, links, cur, distF, (byte) 1);
            int li = cand[1 + pickByGroup(s, Arrays.copyOfRange(cand, 1, 1 + cand[0]), cand[0], hash, step++)];
            int prev = s.linkA[li] == cur ? s.linkB[li] : s.linkA[li];
            head.add(li);
            headFrom.add(prev);
            cur = prev;
        }
        List<Integer> tail = new ArrayList<>();
        List<Integer> tailFrom = new ArrayList<>();
        cur = w;
        while (cur != dst) {
            int[] cand = predecessors(s, links, cur, distB, (byte) 2);
            int li = cand[1 + pickByGroup(s, Arrays.copyOfRange(cand, 1, 1 + cand[0]), cand[0], hash, step++)];
            int next = s.linkA[li] == cur ? s.linkB[li] : s.linkA[li];
            tail.add(li);
            tailFrom.add(cur);
            cur = next;
        }
        int hopsCount = head.size() + 1 + tail.size();
        int[] hops = new int[hopsCount];
        List<String> ids = new ArrayList<>(hopsCount);
        long latency = 0;
        int h = 0;
        for (int i = head.size() - 1; i >= 0; i--) {
            int li = head.get(i);
            hops[h++] = Route.hop(s.groups.ofLink[li], s.linkA[li] != headFrom.get(i));
            ids.add(links.get(li).id());
            latency += s.linkLatency[li];
        }
        hops[h++] = Route.hop(s.groups.ofLink[ml], s.linkA[ml] != u);
        ids.add(links.get(ml).id());
        latency += links.get(ml).latencyPs();
        for (int i = 0; i < tail.size(); i++) {
            int li = tail.get(i);
            hops[h++] = Route.hop(s.groups.ofLink[li], s.linkA[li] != tailFrom.get(i));
            ids.add(links.get(li).id());
            latency += s.linkLatency[li];
        }
        return new Route(hops, latency, ids);
    }

    /** Every shortest path from src to dst, distinct and sorted by hops; the one at the destination's index mod their count. */
    private Route byDestination(Topology t, TopologyStructure s, List<Link> links, int src, int dst, int[] meetU,
                                int[] meetL, int[] firstOf, int distinct) {
        // each distinct path's hops, with the first (head, meeting link, tail) that gives them; only the chosen one is
        // assembled with its link ids and latency
        java.util.Map<HopsKey, int[][]> first = new java.util.HashMap<>();
        List<int[]> all = new ArrayList<>();
        java.util.Map<Integer, List<int[]>> headsOf = new java.util.HashMap<>();
        java.util.Map<Integer, List<int[]>> tailsOf = new java.util.HashMap<>();
        for (int j = 0; j < distinct; j++) {
            int u = meetU[firstOf[j]];
            int ml = meetL[firstOf[j]];
            int w = s.linkA[ml] == u ? s.linkB[ml] : s.linkA[ml];
            List<int[]> heads = chains(s, links, u, src, distF, (byte) 1, headsOf);
            List<int[]> tails = chains(s, links, w, dst, distB, (byte) 2, tailsOf);
            if ((long) heads.size() * tails.size() + all.size() > MAX_PATHS) {
                throw new IllegalArgumentException("topology '" + t.name() + "': more than " + MAX_PATHS
                        + " equal shortest paths from " + t.nodes().get(src).id() + " to " + t.nodes().get(dst).id()
                        + " for destination routing; valid: a topology with fewer equal paths, or ECMP routing");
            }
            for (int[] head : heads) {
                for (int[] tail : tails) {
                    int[] hops = hopsOf(s, head, ml, u, tail);
                    if (first.putIfAbsent(new HopsKey(hops), new int[][] {head, {ml, u}, tail}) == null) all.add(hops);
                }
            }
        }
        all.sort(Arrays::compare);
        Node d = t.nodes().get(dst);
        int key = d.host() >= 0 ? d.host() : d.localIndex();
        int[][] parts = first.get(new HopsKey(all.get(Math.floorMod(key, all.size()))));
        return assemble(s, links, parts[0], parts[1][0], parts[1][1], parts[2]);
    }

    /** A path's hops as a set element (equal by content). */
    private record HopsKey(int[] hops) {
        @Override public boolean equals(Object o) { return o instanceof HopsKey k && Arrays.equals(hops, k.hops); }

        @Override public int hashCode() { return Arrays.hashCode(hops); }
    }

    /**
     * Every chain of links from v back to end over settled equal-cost predecessors ({@code dist}, {@code bit}: one
     * side's search), one link per group, v's link first; {@code memo} holds the chains of nodes already walked on
     * this side (shared, not to be changed).
     */
    private List<int[]> chains(TopologyStructure s, List<Link> links, int v, int end, long[] dist, byte bit,
                               java.util.Map<Integer, List<int[]>> memo) {
        List<int[]> known = memo.get(v);
        if (known != null) return known;
        List<int[]> out = new ArrayList<>();
        if (v == end) {
            out.add(new int[0]);
            memo.put(v, out);
            return out;
        }
        int[] cand = predecessors(s, links, v, dist, bit);
        java.util.Set<Integer> groups = new java.util.HashSet<>();
        for (int i = 1; i <= cand[0]; i++) {
            int li = cand[i];
            if (!groups.add(s.groups.ofLink[li])) continue;
            int x = s.linkA[li] == v ? s.linkB[li] : s.linkA[li];
            for (int[] rest : chains(s, links, x, end, dist, bit, memo)) {
                int[] c = new int[rest.length + 1];
                c[0] = li;
                System.arraycopy(rest, 0, c, 1, rest.length);
                out.add(c);
                if (out.size() > MAX_PATHS) return out; // the caller refuses
            }
        }
        memo.put(v, out);
        return out;
    }

    /** The hops of the route src .. u -(ml)- w .. dst ({@link #assemble} adds its link ids and latency). */
    private static int[] hopsOf(TopologyStructure s, int[] head, int ml, int u, int[] tail) {
        int[] hops = new int[head.length + 1 + tail.length];
        int cur = u;
        for (int i = 0; i < head.length; i++) { // head runs from u back to src: fill from the meeting hop backwards
            int li = head[i];
            int from = s.linkA[li] == cur ? s.linkB[li] : s.linkA[li];
            hops[head.length - 1 - i] = Route.hop(s.groups.ofLink[li], s.linkA[li] != from);
            cur = from;
        }
        int h = head.length;
        hops[h++] = Route.hop(s.groups.ofLink[ml], s.linkA[ml] != u);
        cur = s.linkA[ml] == u ? s.linkB[ml] : s.linkA[ml];
        for (int li : tail) {
            hops[h++] = Route.hop(s.groups.ofLink[li], s.linkA[li] != cur);
            cur = s.linkA[li] == cur ? s.linkB[li] : s.linkA[li];
        }
        return hops;
    }

    /** The route src .. u -(ml)- w .. dst; {@code head}: the links from u back to src, {@code tail}: from w on. */
    private static Route assemble(TopologyStructure s, List<Link> links, int[] head, int ml, int u, int[] tail) {
        int[] hops = hopsOf(s, head, ml, u, tail);
        List<String> ids = new ArrayList<>(hops.length);
        long latency = 0;
        for (int i = 0; i < hops.length; i++) { // the links in path order: head from src's end, the meeting link, tail
            int li = i < head.length ? head[head.length - 1 - i] : i == head.length ? ml : tail[i - head.length - 1];
            ids.add(links.get(li).id());
            latency += s.linkLatency[li];
        }
        return new Route(hops, latency, ids);
    }

    /** Links from v to a settled neighbour x with dist[x] + cost == dist[v]; result[0] = count. */
    private int[] predecessors(TopologyStructure s, List<Link> links, int v, long[] dist, byte bit) {
        int deg = s.adjStart[v + 1] - s.adjStart[v];
        int[] out = new int[deg + 1];
        for (int e = s.adjStart[v]; e < s.adjStart[v + 1]; e++) {
            int li = s.adjLink[e];
            int x = s.linkA[li] == v ? s.linkB[li] : s.linkA[li];
            if ((settled[x] & bit) != 0 && dist[x] + HOP + s.linkLatency[li] == dist[v]) {
                out[1 + out[0]++] = li;
            }
        }
        if (out[0] == 0) {
            throw new IllegalStateException("router invariant broken: no predecessor at node " + v);
        }
        return out;
    }

    /**
     * Chooses among candidate links: candidates in the same flow-network group are equivalent (the stripe
     * of one GPU through different NVSwitch chips), so the first of the group stands for it; between
     * distinct groups the ECMP hash decides and {@link #ecmpUsed} is set.
     */
    private int pickByGroup(TopologyStructure s, int[] candLinks, int count, long hash, int step) {
        int distinct = 0;
        int[] firstOf = new int[count];
        for (int i = 0; i < count; i++) {
            int g = s.groups.ofLink[candLinks[i]];
            boolean seen = false;
            for (int j = 0; j < distinct; j++) {
                if (s.groups.ofLink[candLinks[firstOf[j]]] == g) {
                    seen = true;
                    break;
                }
            }
            if (!seen) {
                firstOf[distinct++] = i;
            }
        }
        if (distinct == 1) {
            return firstOf[0];
        }
        ecmpUsed = true;
        return firstOf[pick(hash, step, distinct)];
    }

    private static int pick(long hash, int step, int count) {
        return count == 1 ? 0 : (int) Long.remainderUnsigned(mix(hash + step * 0x9E3779B97F4A7C15L), count);
    }

    private static long mix(long z) {
        return io.ccsim.sim.HashKeys.spread(z);
    }

    private void touch(int v) {
        if (touchedCount == touched.length) {
            touched = Arrays.copyOf(touched, touchedCount * 2);
        }
        touchedAt[v] = touchedCount;
        touched[touchedCount++] = v;
    }

    /** Records link {@code li} from forward-settled {@code u} to a backward-settled node, of path cost {@code cost}. */
    private void noteMeeting(int u, int li, long cost) {
        if (meetCount == meetKey.length) {
            meetKey = Arrays.copyOf(meetKey, meetCount * 2);
            meetCost = Arrays.copyOf(meetCost, meetCount * 2);
        }
        meetKey[meetCount] = (long) touchedAt[u] << 32 | li;
        meetCost[meetCount++] = cost;
    }

}
