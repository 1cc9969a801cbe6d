package io.ccsim.scenarios.cluster;

import io.ccsim.algorithms.sim.NcclPaths;
import io.ccsim.topology.Link;
import io.ccsim.topology.Route;
import io.ccsim.topology.Topology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The route of a plan's connection (channel, from GPU, to GPU), exactly as the SimExecutor's
 * connections take it ({@link NcclPaths}: NCCL's transport choice, P2P over NVLink through NVSwitch,
 * each GPU's own rail NIC across hosts), so that the scenarios layer can tell which ring hops cross a
 * link group (the bottleneck, a flipped bit, a dead link). {@code SimCollectiveEngineTest} checks that
 * the link groups these routes name are exactly the ones whose byte counters moved in a simulation.
 */
final class NcclRoutes {
    private final NcclPaths paths;
    private final Map<Long, Route> cache = new HashMap<>();

    NcclRoutes(Topology topo, boolean p2pDisabled, io.ccsim.algorithms.net.NetPolicy policy) {
        this.paths = new NcclPaths(topo, p2pDisabled, policy);
    }

    /**
     * The route from GPU node {@code src} to GPU node {@code dst} on {@code channel} of a ring plan or not
     * ({@code ring}; memoized): the
     * SimExecutor's own rule ({@link NcclPaths}), so that the links the analyzer names are the links the
     * simulated flows crossed.
     */
    Route route(int src, int dst, int channel, boolean ring) {
        if (src == dst) return Route.local();
        long key = ((long) src << 40) ^ ((long) dst << 16) ^ ((long) channel << 1) ^ (ring ? 1 : 0);
        return cache.computeIfAbsent(key, k -> paths.route(src, dst, channel, ring));
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
