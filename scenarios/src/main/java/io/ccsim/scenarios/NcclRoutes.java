package io.ccsim.scenarios;

import io.ccsim.topology.Link;
import io.ccsim.topology.LinkGroup;
import io.ccsim.topology.LinkKind;
import io.ccsim.topology.Node;
import io.ccsim.topology.NodeKind;
import io.ccsim.topology.Route;
import io.ccsim.topology.Topology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The route of a plan's connection (channel, from GPU, to GPU), exactly as the SimExecutor's
 * connections take it, so that the scenarios layer can tell which ring hops cross a link group (the
 * bottleneck, a flipped bit, a dead link). The rule is NCCL's transport choice (src/graph/paths.cc,
 * ncclTopoComputePaths: P2P over NVLink whenever two GPUs share an NVSwitch) as
 * {@code io.ccsim.algorithms.sim.NcclPaths} implements it — that class is package-private in the
 * algorithms module, so the rule is restated here; {@code SimCollectiveEngineTest} checks that the
 * link groups these routes name are exactly the ones whose byte counters moved in a simulation:
 * <ul>
 *   <li>two GPUs sharing an NVSwitch (and P2P not disabled): the sender's NVLink port group forward,
 *       the receiver's backward;</li>
 *   <li>GPUs of different hosts: the topology's route GPU → its NIC (the NIC whose {@code rail} is the
 *       GPU's local index, else the nearest of its host) → the peer's NIC → the peer GPU, with the
 *       channel as the ECMP key;</li>
 *   <li>otherwise the topology's shortest route.</li>
 * </ul>
 */
final class NcclRoutes {
    private final Topology topo;
    private final boolean p2pDisabled;
    private final Map<Integer, LinkGroup> nvlGroupOfGpu = new HashMap<>();
    private final Map<Integer, Set<String>> switchesOfGpu = new HashMap<>();
    private final Map<Integer, Integer> nicOfGpu = new HashMap<>();
    private final Map<Long, Route> cache = new HashMap<>();

    NcclRoutes(Topology topo, boolean p2pDisabled) {
        this.topo = topo;
        this.p2pDisabled = p2pDisabled;
        for (LinkGroup g : topo.fabric()) {
            if (g.members().get(0).kind() != LinkKind.NVLINK) continue;
            Node anchor = topo.node(g.anchor());
            if (anchor.kind() != NodeKind.GPU) continue;
            Set<String> sw = new HashSet<>();
            for (Link l : g.members()) {
                String other = l.other(anchor.id());
                if (topo.node(other).kind() == NodeKind.NVSWITCH) sw.add(other);
            }
            if (sw.isEmpty()) continue;
            int idx = topo.nodeIndex(anchor.id());
            nvlGroupOfGpu.put(idx, g);
            switchesOfGpu.put(idx, sw);
        }
    }

    /** The route from GPU node {@code src} to GPU node {@code dst} on {@code channel} (memoized). */
    Route route(int src, int dst, int channel) {
        if (src == dst) return Route.local();
        long key = ((long) src << 40) ^ ((long) dst << 16) ^ channel;
        return cache.computeIfAbsent(key, k -> compute(src, dst, channel));
    }

    private Route compute(int src, int dst, long key) {
        if (!p2pDisabled) {
            LinkGroup a = nvlGroupOfGpu.get(src);
            LinkGroup b = nvlGroupOfGpu.get(dst);
            if (a != null && b != null && sharesSwitch(src, dst)) {
                long lat = a.members().get(0).latencyPs() + b.members().get(0).latencyPs();
                return new Route(new int[] {Route.hop(a.index(), false), Route.hop(b.index(), true)}, lat, List.of(a.id(), b.id()));
            }
        }
        Node a = topo.nodes().get(src);
        Node b = topo.nodes().get(dst);
        if (a.host() != b.host()) {
            int nicA = nicOf(src);
            int nicB = nicOf(dst);
            if (nicA >= 0 && nicB >= 0) {
                return Fabric.concat(List.of(topo.route(src, nicA, key), topo.route(nicA, nicB, key), topo.route(nicB, dst, key)));
            }
        }
        return topo.route(src, dst, key);
    }

    private int nicOf(int gpu) {
        return nicOfGpu.computeIfAbsent(gpu, g -> {
            Node n = topo.nodes().get(g);
            int best = -1;
            long bestLat = Long.MAX_VALUE;
            int bestLen = Integer.MAX_VALUE;
            for (Node x : topo.nodes()) {
                if (x.kind() != NodeKind.NIC || x.host() != n.host()) continue;
                int xi = topo.nodeIndex(x.id());
                if (Integer.toString(n.localIndex()).equals(x.attr("rail"))) return xi;
                Route r = topo.route(g, xi, 0);
                if (r.length() < bestLen || (r.length() == bestLen && r.latencyPs() < bestLat)) {
                    best = xi;
                    bestLen = r.length();
                    bestLat = r.latencyPs();
                }
            }
            return best;
        });
    }

    private boolean sharesSwitch(int a, int b) {
        Set<String> sa = switchesOfGpu.get(a);
        for (String s : switchesOfGpu.get(b)) if (sa.contains(s)) return true;
        return false;
    }

    /** Group indices of a route, in order. */
    static int[] groups(Route r) {
        int[] g = new int[r.length()];
        for (int i = 0; i < g.length; i++) g[i] = r.groupAt(i);
        return g;
    }

    /** Every link id of the given groups (a striped port group spreads data over all its members). */
    static List<String> memberLinks(Topology topo, int[] groups) {
        List<String> out = new ArrayList<>();
        for (int g : groups) for (Link l : topo.fabric().get(g).members()) out.add(l.id());
        return out;
    }
}
