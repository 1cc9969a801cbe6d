package io.ccsim.scenarios.cluster;

import io.ccsim.algorithms.plan.Plan;
import io.ccsim.topology.Route;
import io.ccsim.topology.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntUnaryOperator;

/**
 * Where a plan's data goes on the cluster: for every connection (channel, from, to) of the plan, the
 * link groups its route crosses ({@link NcclRoutes}), and the ring order of each channel. The
 * collective asks it which connections cross a link group (a dead link, a flipped bit, the
 * bottleneck). Ranks are communicator ranks; {@code nodes[r]} is rank r's GPU node.
 */
final class ConnectionRoutes {
    /** One connection of the plan: the data of channel {@code ch} from comm rank {@code from} to {@code to}. */
    record Conn(int ch, int from, int to, int[] groups) {}

    private final NcclRoutes routes;
    private final int[] nodes;
    private final int n;
    /** Per channel: comm ranks in ring order. */
    private final int[][] rings;
    /** Per channel: the channel whose routes its data takes (a replica channel is simulated by its representative). */
    private final int[] routeChannel;
    /** whether the plan is a ring's (NcclPaths routes ring hops by their own rule under NCCL_CROSS_NIC=1) */
    private final boolean ring;
    private final List<Conn> conns = new ArrayList<>();
    private final Map<Long, Conn> connOf = new HashMap<>();
    private final BitSet crossed = new BitSet();
    private final BitSet crossedForward = new BitSet();
    private final BitSet crossedReverse = new BitSet();

    /**
     * @param rings        per channel, comm ranks in ring order
     * @param multiplicity per channel, how many channels the executor's representative stands for (0 = a replica)
     */
    ConnectionRoutes(NcclRoutes routes, Plan plan, int[] nodes, int[][] rings, IntUnaryOperator multiplicity) {
        this.routes = routes;
        this.nodes = nodes;
        this.n = nodes.length;
        this.rings = rings;
        this.ring = plan.options().algorithm() == io.ccsim.algorithms.Algorithm.RING;
        // a replica channel is simulated by its representative, whose flows (and routes) stand for it
        this.routeChannel = new int[rings.length];
        for (int ch = 0; ch < rings.length; ch++) {
            routeChannel[ch] = ch;
            if (multiplicity.applyAsInt(ch) > 0) continue;
            for (int r = 0; r < ch; r++) {
                if (multiplicity.applyAsInt(r) > 0 && Arrays.equals(rings[r], rings[ch])) {
                    routeChannel[ch] = r;
                    break;
                }
            }
        }
        plan.forEachConnection((ch, from, to) -> {
            Route rt = routes.route(nodes[from], nodes[to], routeChannel[ch], ring);
            int[] groups = NcclRoutes.groups(rt);
            Conn k = new Conn(ch, from, to, groups);
            conns.add(k);
            connOf.put(key(ch, from, to), k);
            for (int i = 0; i < rt.length(); i++) {
                crossed.set(rt.groupAt(i));
                (rt.reverseAt(i) ? crossedReverse : crossedForward).set(rt.groupAt(i));
            }
        });
    }

    private static long key(int ch, int from, int to) { return ((long) ch << 42) | ((long) from << 21) | to; }

    /** Every connection, in the plan's order. */
    List<Conn> conns() { return conns; }

    /** Link groups some connection crosses. */
    BitSet crossed() { return crossed; }

    /** Link groups crossed in their forward direction. */
    BitSet crossedForward() { return crossedForward; }

    /** Link groups crossed in their reverse direction. */
    BitSet crossedReverse() { return crossedReverse; }

    /** Per channel, comm ranks in ring order. */
    int[] ring(int ch) { return rings[ch]; }

    /**
     * Where a bit flipped on link group {@code group} enters the data: {ring position of the sender,
     * channel} of the first ring hop (channel order, ring order) crossing it; else {sender comm rank, 0}
     * of the first connection crossing it (a tree's); null if none does.
     */
    int[] firstCrossing(int group) {
        for (int ch = 0; ch < rings.length; ch++) {
            int[] ring = rings[ch];
            for (int p = 0; p < n; p++) {
                Conn k = connOf.get(key(ch, ring[p], ring[(p + 1) % n]));
                if (k == null) continue;
                for (int g : k.groups()) {
                    if (g == group) return new int[] {p, ch};
                }
            }
        }
        for (Conn k : conns) {
            for (int g : k.groups()) {
                if (g == group) return new int[] {k.from(), 0};
            }
        }
        return null;
    }

    /** The hops (sender, receiver as global ranks) whose connections cross {@code group}, each once, in plan order. */
    void hopsCrossing(int group, int[] global, List<Integer> senders, List<Integer> receivers) {
        Set<Long> seen = new LinkedHashSet<>();
        for (Conn k : conns) {
            for (int g : k.groups()) {
                if (g == group && seen.add(((long) k.from() << 32) | k.to())) {
                    senders.add(global[k.from()]);
                    receivers.add(global[k.to()]);
                    break;
                }
            }
        }
    }

    /** Per ring position p of channel {@code ch}: the links of the data path from position p-1 to p. */
    List<List<String>> hopLinks(int ch, Topology topo) {
        int[] order = rings[ch];
        List<List<String>> hopLinks = new ArrayList<>();
        for (int p = 0; p < n; p++) {
            Route rt = routes.route(nodes[order[(p - 1 + n) % n]], nodes[order[p]], routeChannel[ch], ring);
            hopLinks.add(NcclRoutes.memberLinks(topo, NcclRoutes.groups(rt)));
        }
        return hopLinks;
    }
}
