package io.ccsim.algorithms.net;

import io.ccsim.topology.Link;
import io.ccsim.topology.LinkKind;
import io.ccsim.topology.Node;
import io.ccsim.topology.NodeKind;
import io.ccsim.topology.Route;
import io.ccsim.topology.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The network NICs of every host as NCCL sees them: the NICs NCCL_IB_HCA leaves, each GPU's local NIC, each NIC's
 * rail and local GPU, and the host-side path between a GPU and a NIC (PCIe, host bridge, C2C; never NVLink) with
 * its NCCL path type. Computed lazily per GPU and cached; one instance per topology and policy.
 */
public final class HostNics {
    /*
     * Local NIC (src/graph/topo.cc ncclTopoGetLocalNet, v2.28.9): the NICs with the best path from the GPU, by path
     * type, then bandwidth. NCCL then spreads the GPUs that share several equally close NICs by GPU index; ccsim
     * takes the NIC whose rail is the GPU's local index where one is among the best, else the (local index mod
     * count)-th of them in NIC order. On HGX with a NIC per GPU that is NIC k for GPU k (NICs 2j and 2j+1 share
     * the switch of GPUs 2j and 2j+1); with 4 NICs for 8 GPUs, NIC k for GPUs 2k and 2k+1.
     *
     * Local GPU of a NIC (net->localGpu): the lowest-indexed GPU whose local NIC it is.
     *
     * Path types (src/graph/paths.cc): no host bridge and one PCIe switch PIX, several PXB; through one CPU PHB,
     * two SYS; a GPU on a CPU's C2C link to a NIC on that CPU's PCIe P2C.
     *
     * GPU Direct RDMA (paths.cc ncclTopoCheckGdr): the NIC reads and writes the GPU's memory directly when the path
     * type is at most NCCL_NET_GDR_LEVEL (P2C counting as C2C, NCCL_NET_GDR_C2C=1); otherwise the data is staged in
     * the host memory of the GPU's CPU, so the leg runs GPU -> CPU -> NIC (send) or NIC -> CPU -> GPU (receive).
     */
    private final Topology topo;
    private final NetPolicy policy;
    /** host -> its selected NICs (node indices) in local-index order */
    private final Map<Integer, int[]> nicsByHost = new HashMap<>();
    /** GPU node index -> local NIC node index, -1 for none, {@link #UNKNOWN} until asked */
    private final int[] localNic;
    /** (from, to) -> the leg, {@link #NO_LEG} where there is none */
    private final Map<Long, Leg> legs = new HashMap<>();
    /** host -> its GPUs (node indices) by local index */
    private final Map<Integer, int[]> gpusByHost = new HashMap<>();
    /** host -> its CPUs (node indices) */
    private final Map<Integer, int[]> cpusByHost = new HashMap<>();

    /** A host-side path and its NCCL type. */
    private record Leg(Route route, PathType type, double bytesPerSec) { }

    private static final int UNKNOWN = Integer.MIN_VALUE;
    /** The cached answer "no path". */
    private static final Leg NO_LEG = new Leg(null, PathType.DIS, 0);

    public HostNics(Topology topo, NetPolicy policy) {
        this.topo = topo;
        this.policy = policy;
        this.localNic = new int[topo.nodes().size()];
        java.util.Arrays.fill(localNic, UNKNOWN);
        Map<Integer, List<Node>> nics = new HashMap<>();
        Map<Integer, List<Node>> gpus = new HashMap<>();
        Map<Integer, List<Node>> cpus = new HashMap<>();
        for (Node n : topo.nodes()) {
            if (n.kind() == NodeKind.NIC && hasNetworkLink(n) && policy.hca().selects(device(n), 1)) {
                nics.computeIfAbsent(n.host(), h -> new ArrayList<>()).add(n);
            } else if (n.kind() == NodeKind.GPU) {
                gpus.computeIfAbsent(n.host(), h -> new ArrayList<>()).add(n);
            } else if (n.kind() == NodeKind.CPU) {
                cpus.computeIfAbsent(n.host(), h -> new ArrayList<>()).add(n);
            }
        }
        byLocalIndex(nics, nicsByHost);
        byLocalIndex(gpus, gpusByHost);
        byLocalIndex(cpus, cpusByHost);
    }

    private void byLocalIndex(Map<Integer, List<Node>> in, Map<Integer, int[]> out) {
        for (Map.Entry<Integer, List<Node>> e : in.entrySet()) {
            out.put(e.getKey(), e.getValue().stream().sorted((a, b) -> Integer.compare(a.localIndex(), b.localIndex()))
                    .mapToInt(n -> topo.nodeIndex(n.id())).toArray());
        }
    }

    /** The device name NCCL_IB_HCA matches: the NIC's {@code device} attribute, else {@code mlx5_<local index>}. */
    public static String device(Node nic) {
        String d = nic.attr("device");
        return d != null ? d : "mlx5_" + nic.localIndex();
    }

    private boolean hasNetworkLink(Node nic) {
        for (Link l : topo.neighbours(nic.id())) {
            if (l.kind() == LinkKind.INFINIBAND || l.kind() == LinkKind.ROCE) return true;
        }
        return false;
    }

    /** The policy in force. */
    public NetPolicy policy() { return policy; }

    /** Node indices of host {@code host}'s selected NICs, by local index (empty if none). */
    public int[] nicsOf(int host) {
        int[] n = nicsByHost.get(host);
        return n == null ? new int[0] : n.clone();
    }

    /** Whether the topology has network NICs but NCCL_IB_HCA selects none of them. */
    public boolean hcaSelectsNone() {
        if (!nicsByHost.isEmpty()) return false;
        for (Node n : topo.nodes()) if (n.kind() == NodeKind.NIC && hasNetworkLink(n)) return true;
        return false;
    }

    /** The rail of NIC node {@code nic}: its {@code rail} attribute, else its local index. */
    public int rail(int nic) {
        if (railOf == null) railOf = new int[topo.nodes().size()];
        int known = railOf[nic];
        if (known != 0) return known - 1;
        Node n = topo.nodes().get(nic);
        String r = n.attr("rail");
        int rail = r != null ? Integer.parseInt(r) : n.localIndex();
        railOf[nic] = rail + 1;
        return rail;
    }

    /** per node index: its rail plus one once read ({@link #rail}), 0 before */
    private int[] railOf;

    /** The selected NIC of host {@code host} on rail {@code rail}, −1 if none. */
    public int nicOnRail(int host, int rail) {
        int[] nics = nicsByHost.get(host);
        if (nics == null) return -1;
        for (int n : nics) if (rail(n) == rail) return n;
        return -1;
    }

    /** GPU node {@code gpu}'s local NIC (node index), −1 if its host has no selected NIC. */
    public int localNic(int gpu) {
        int cached = localNic[gpu];
        if (cached != UNKNOWN) return cached;
        Node g = topo.nodes().get(gpu);
        int[] nics = nicsByHost.get(g.host());
        int pick = -1;
        if (nics != null) {
            searchAll(gpu, nics);   // one search from the GPU finds its path to every NIC of its host
            List<Integer> best = new ArrayList<>();
            PathType bestType = PathType.DIS;
            double bestBw = 0;
            for (int n : nics) {
                Leg l = leg(gpu, n);
                if (l == null) continue;
                int c = l.type.compareTo(bestType);
                if (c < 0 || (c == 0 && l.bytesPerSec > bestBw)) {
                    best.clear();
                    bestType = l.type;
                    bestBw = l.bytesPerSec;
                }
                if (l.type == bestType && l.bytesPerSec == bestBw) best.add(n);
            }
            for (int n : best) if (rail(n) == g.localIndex()) pick = n;
            if (pick < 0 && !best.isEmpty()) pick = best.get(g.localIndex() % best.size());
        }
        localNic[gpu] = pick;
        return pick;
    }

    /** The lowest-indexed GPU of {@code nic}'s host whose local NIC it is, −1 if none. */
    public int localGpu(int nic) {
        int[] gpus = gpusByHost.get(topo.nodes().get(nic).host());
        if (gpus == null) return -1;
        for (int g : gpus) if (localNic(g) == nic) return g;
        return -1;
    }

    /** NCCL's path type from GPU {@code gpu} to NIC {@code nic} over the host (PCIe, CPUs, C2C); DIS if none. */
    public PathType pathType(int gpu, int nic) {
        Leg l = leg(gpu, nic);
        return l == null ? PathType.DIS : l.type;
    }

    /**
     * The route data takes from GPU {@code gpu}'s memory into NIC {@code nic} (a send): the host path, or through the
     * host memory of the GPU's CPU where GPU Direct RDMA is off for this pair (NCCL_NET_GDR_LEVEL).
     *
     * @throws IllegalArgumentException if the NIC cannot be reached from the GPU over its host
     */
    public Route sendLeg(int gpu, int nic) {
        return gdr(gpu, nic) ? require(leg(gpu, nic), gpu, nic).route : staged(gpu, nic, true);
    }

    /** As {@link #sendLeg}, from NIC {@code nic} into GPU {@code gpu}'s memory (a receive). */
    public Route recvLeg(int nic, int gpu) {
        return gdr(gpu, nic) ? require(leg(nic, gpu), nic, gpu).route : staged(gpu, nic, false);
    }

    private boolean gdr(int gpu, int nic) {
        PathType t = pathType(gpu, nic);
        if (t == PathType.P2C) t = PathType.C2C;
        return t.compareTo(policy.gdrLevel()) <= 0;
    }

    private Route staged(int gpu, int nic, boolean send) {
        int cpu = cpuOf(gpu);
        return send ? concat(require(leg(gpu, cpu), gpu, cpu).route, require(leg(cpu, nic), cpu, nic).route)
                : concat(require(leg(nic, cpu), nic, cpu).route, require(leg(cpu, gpu), cpu, gpu).route);
    }

    private Leg require(Leg l, int from, int to) {
        if (l == null) {
            throw new IllegalArgumentException("no PCIe path from " + topo.nodes().get(from).id() + " to " + topo.nodes().get(to).id()
                    + " in topology " + topo.name());
        }
        return l;
    }

    /** The CPU whose memory stages a GPU's network data: the nearest CPU over the host. */
    private int cpuOf(int gpu) {
        Node g = topo.nodes().get(gpu);
        int best = -1;
        int bestLen = Integer.MAX_VALUE;
        for (int c : cpusByHost.getOrDefault(g.host(), new int[0])) {
            Leg l = leg(gpu, c);
            if (l != null && l.route.length() < bestLen) {
                best = c;
                bestLen = l.route.length();
            }
        }
        if (best < 0) throw new IllegalArgumentException(g.id() + " reaches no CPU over PCIe in topology " + topo.name());
        return best;
    }

    /** The fewest-hop host path from node {@code from} to node {@code to} (cached), null if none. */
    private Leg leg(int from, int to) {
        long key = io.ccsim.sim.HashKeys.pair(from, to);
        Leg cached = legs.get(key);
        if (cached != null) return cached == NO_LEG ? null : cached;
        Leg l = search(from, to);
        legs.put(key, l == null ? NO_LEG : l);
        return l;
    }

    /**
     * Caches the legs from node {@code from} to each of {@code targets} not cached yet, from one search. A search run
     * to the end meets each node first where a search stopped at that node does (the queue's order does not depend on
     * where it stops), so each leg is the one {@link #search(int, int)} finds.
     */
    private void searchAll(int from, int[] targets) {
        boolean searched = false;
        for (int to : targets) {
            long key = io.ccsim.sim.HashKeys.pair(from, to);
            if (legs.containsKey(key)) continue;
            if (!searched) {
                tree(from, -1);
                searched = true;
            }
            Leg l = treeLeg(from, to);
            legs.put(key, l == null ? NO_LEG : l);
        }
        if (searched) clearTree();
    }

    /** Breadth-first over PCIe, SMP and C2C links through switches and CPUs only. */
    private Leg search(int from, int to) {
        tree(from, to);
        Leg l = treeLeg(from, to);
        clearTree();
        return l;
    }

    /*
     * The search tree, by node index: per node reached, the link it was first reached by plus one (VIA_SOURCE for the
     * source, 0 for a node not reached); the nodes reached, to clear after. Index-based over the topology's adjacency,
     * in the order Topology#neighbours lists it (the order the search's queue depends on).
     */
    private static final int VIA_SOURCE = -1;
    private int[] via;
    private int[] reached = new int[16];
    private int nReached;

    /** Fills the search tree from node {@code from}; it stops once {@code dst} is reached (-1: never). */
    private void tree(int from, int dst) {
        if (via == null) via = new int[topo.nodes().size()];
        mark(from, VIA_SOURCE);
        List<Link> links = topo.links();
        for (int head = 0; head < nReached && (dst < 0 || via[dst] == 0); head++) {
            int at = reached[head];
            NodeKind k = topo.nodes().get(at).kind();
            if (at != from && k != NodeKind.PCIE_SWITCH && k != NodeKind.CPU) continue;
            for (int i = 0, d = topo.degree(at); i < d; i++) {
                int li = topo.neighbourLink(at, i);
                LinkKind lk = links.get(li).kind();
                if (lk != LinkKind.PCIE && lk != LinkKind.SMP && lk != LinkKind.C2C) continue;
                int next = topo.otherEnd(li, at);
                if (via[next] != 0) continue;
                mark(next, li + 1);
            }
        }
    }

    private void mark(int v, int viaLink) {
        via[v] = viaLink;
        if (nReached == reached.length) reached = Arrays.copyOf(reached, 2 * nReached);
        reached[nReached++] = v;
    }

    private void clearTree() {
        for (int i = 0; i < nReached; i++) via[reached[i]] = 0;
        nReached = 0;
    }

    /** The leg from {@code from} to {@code to} in the search tree, null if the search did not reach it. */
    private Leg treeLeg(int from, int to) {
        if (via[to] == 0) return null;
        int n = 0;
        for (int at = to; at != from; at = topo.otherEnd(via[at] - 1, at)) n++;
        int[] path = new int[n];
        for (int at = to, i = n - 1; at != from; at = topo.otherEnd(via[at] - 1, at)) path[i--] = via[at] - 1;
        List<Link> links = topo.links();
        int[] hops = new int[n];
        List<String> ids = new ArrayList<>(n);
        long lat = 0;
        double bw = Double.MAX_VALUE;
        int cpus = 0;
        int switches = 0;
        boolean c2c = false;
        int at = from;
        for (int i = 0; i < n; i++) {
            int li = path[i];
            Link l = links.get(li);
            boolean reverse = topo.linkA(li) != at;
            hops[i] = Route.hop(topo.groupIndexOfLink(li), reverse);
            ids.add(l.id());
            lat += l.latencyPs();
            bw = Math.min(bw, l.bandwidthBytesPerSecPerDirection());
            c2c |= l.kind() == LinkKind.C2C;
            at = topo.otherEnd(li, at);
            if (i < n - 1) {
                NodeKind k = topo.nodes().get(at).kind();
                if (k == NodeKind.CPU) cpus++;
                else if (k == NodeKind.PCIE_SWITCH) switches++;
            }
        }
        PathType type = cpus >= 2 ? PathType.SYS : cpus == 1 ? (c2c ? PathType.P2C : PathType.PHB)
                : switches <= 1 ? PathType.PIX : PathType.PXB;
        return new Leg(new Route(hops, lat, ids), type, bw);
    }

    /** Routes joined end to end. */
    public static Route concat(Route... parts) {
        int len = 0;
        long lat = 0;
        List<String> ids = new ArrayList<>();
        for (Route r : parts) {
            len += r.length();
            lat += r.latencyPs();
            ids.addAll(r.linkIds());
        }
        int[] hops = new int[len];
        int i = 0;
        for (Route r : parts) {
            int[] h = r.hops();
            System.arraycopy(h, 0, hops, i, h.length);
            i += h.length;
        }
        return new Route(hops, lat, ids);
    }

    @Override
    public String toString() { return "HostNics" + Arrays.toString(nicsByHost.keySet().toArray()) + " " + policy; }
}
