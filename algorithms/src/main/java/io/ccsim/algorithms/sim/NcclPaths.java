package io.ccsim.algorithms.sim;

import io.ccsim.topology.Link;
import io.ccsim.topology.LinkGroup;
import io.ccsim.topology.LinkKind;
import io.ccsim.topology.Node;
import io.ccsim.topology.NodeKind;
import io.ccsim.topology.Route;
import io.ccsim.topology.Topology;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The path NCCL's transports take between two GPUs, on top of the topology's shortest paths.
 *
 * <p>NCCL (src/graph/paths.cc, ncclTopoComputePaths) classifies GPU-to-GPU paths as PATH_NVL, PATH_PIX,
 * PATH_PXB, PATH_PHB, PATH_SYS, PATH_NET and uses the P2P transport over NVLink whenever the GPUs are
 * NVLink-connected (directly, or through NVSwitch), even when a PCIe path has as few hops. This class
 * applies that preference: two GPUs of one host reached through NVSwitch use their NVLink port groups
 * (the striped groups anchored at each GPU); a direct NVLink between them is used as is; otherwise (or
 * with {@code NCCL_P2P_DISABLE=1}, which forces the SHM/PCIe path) the topology's shortest path.
 * Between hosts the topology's route applies (GPU, its PCIe switch, a NIC, the network fabric).
 */
public final class NcclPaths {
    private final Topology topo;
    private final boolean p2pDisabled;
    private final Map<Integer, LinkGroup> nvlGroupOfGpu = new HashMap<>();
    private final Map<Integer, Set<String>> switchesOfGpu = new HashMap<>();
    private final Map<Integer, Integer> nicOfGpu = new HashMap<>();

    public NcclPaths(Topology topo, boolean p2pDisabled) {
        this.topo = topo;
        this.p2pDisabled = p2pDisabled;
        for (LinkGroup g : topo.fabric()) {
            Link first = g.members().get(0);
            if (first.kind() != LinkKind.NVLINK) continue;
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

    /** The route NCCL would use from GPU node {@code src} to GPU node {@code dst}; {@code key} picks among equal paths. */
    public Route route(int src, int dst, long key) {
        if (src == dst) return Route.local();
        if (!p2pDisabled) {
            LinkGroup a = nvlGroupOfGpu.get(src);
            LinkGroup b = nvlGroupOfGpu.get(dst);
            if (a != null && b != null && sharesSwitch(src, dst)) {
                long lat = a.members().get(0).latencyPs() + b.members().get(0).latencyPs();
                return new Route(new int[] {Route.hop(a.index(), false), Route.hop(b.index(), true)}, lat,
                        java.util.List.of(a.id(), b.id()));
            }
        }
        Node a = topo.nodes().get(src);
        Node b = topo.nodes().get(dst);
        if (a.host() != b.host()) {
            int nicA = nicOf(src);
            int nicB = nicOf(dst);
            if (nicA >= 0 && nicB >= 0) {
                return concat(topo.route(src, nicA, key), topo.route(nicA, nicB, key), topo.route(nicB, dst, key));
            }
        }
        return topo.route(src, dst, key);
    }

    /**
     * The path between GPU node {@code gpu} and the NVLink switch of its port group: the group forward (the GPU's
     * egress, {@code toSwitch}) or in reverse (the switch writing into the GPU), its latency one member link's.
     *
     * @throws IllegalArgumentException if the GPU has no NVLink port group to an NVSwitch
     */
    public Route switchRoute(int gpu, boolean toSwitch) {
        LinkGroup g = nvlGroupOfGpu.get(gpu);
        if (g == null) {
            throw new IllegalArgumentException("GPU " + topo.nodes().get(gpu).id() + " has no NVLink port group to an NVSwitch");
        }
        return new Route(new int[] {Route.hop(g.index(), !toSwitch)}, g.members().get(0).latencyPs(), java.util.List.of(g.id()));
    }

    /**
     * The NIC a GPU sends and receives through: NCCL pairs each GPU with its closest NIC (PATH_PIX on
     * HGX boards, one NIC per GPU: the NIC whose {@code rail} is the GPU's local index); else the NIC of
     * the same host with the shortest route; −1 if the host has none.
     */
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

    private static Route concat(Route... parts) {
        int len = 0;
        long lat = 0;
        java.util.List<String> ids = new java.util.ArrayList<>();
        for (Route r : parts) {
            len += r.length();
            lat += r.latencyPs();
            ids.addAll(r.linkIds());
        }
        int[] hops = new int[len];
        int i = 0;
        for (Route r : parts) {
            for (int h : r.hops()) hops[i++] = h;
        }
        return new Route(hops, lat, ids);
    }

    private boolean sharesSwitch(int a, int b) {
        Set<String> sa = switchesOfGpu.get(a);
        for (String s : switchesOfGpu.get(b)) if (sa.contains(s)) return true;
        return false;
    }
}
