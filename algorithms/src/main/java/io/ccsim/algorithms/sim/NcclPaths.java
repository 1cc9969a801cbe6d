package io.ccsim.algorithms.sim;

import io.ccsim.algorithms.net.HostNics;
import io.ccsim.algorithms.net.NetPolicy;
import io.ccsim.topology.Link;
import io.ccsim.topology.LinkGroup;
import io.ccsim.topology.LinkKind;
import io.ccsim.topology.Node;
import io.ccsim.topology.NodeKind;
import io.ccsim.topology.Route;
import io.ccsim.topology.Topology;
import java.util.HashSet;
import java.util.Set;

/**
 * The path NCCL's transports take between two GPUs, on top of the topology's shortest paths.
 *
 * <p>Inside a host: NCCL (src/graph/paths.cc, ncclTopoComputePaths) uses the P2P transport over NVLink whenever
 * two GPUs are NVLink-connected (directly, or through NVSwitch), even when a PCIe path has as few hops. Two GPUs
 * reached through NVSwitch use their NVLink port groups (the striped groups anchored at each GPU); a direct
 * NVLink between them is used as is; otherwise (or with {@code NCCL_P2P_DISABLE=1}, which forces the SHM/PCIe
 * path) the topology's shortest path.
 *
 * <p>Between hosts ({@link #route(int, int, long, boolean)}): sender's host leg, the network between two NICs,
 * receiver's host leg ({@link HostNics}: PCIe, or staged through host memory where NCCL_NET_GDR_LEVEL turns GPU
 * Direct RDMA off).
 */
public final class NcclPaths {
    /*
     * Which NICs a transfer between hosts uses (NVIDIA/nccl v2.28.9):
     *  - it is received by the receiver's local NIC: NCCL has no PXN on the receive side (transport/net.cc
     *    recvSetup);
     *  - it is sent by the sender's NIC on the receiver's NIC's rail whenever NCCL would pick that NIC:
     *    for a ring, the search keeps a channel on the NIC it entered by (NCCL_CROSS_NIC 0, or 2 when PXN lets the
     *    ring close on it: search.cc ncclTopoSearchCheckNet), and the next node enters on the same rail, since
     *    every node's ring is the same; for point-to-point and tree edges, ncclTopoGetNetDev (search.cc) looks up
     *    the NIC of the peer's local index when NCCL_CROSS_NIC=0 or PXN is on (NCCL_P2P_PXN_LEVEL=2);
     *  - when that NIC is not the sender's own, PXN (on by default) sends over NVLink to the NIC's local GPU,
     *    whose proxy posts the RDMA from its memory (paths.cc ncclTopoComputePaths "PXN = PCI + NVLink",
     *    net.cc sendSetup: the send buffer lives on the proxy GPU); without PXN and with NCCL_CROSS_NIC=0 the
     *    sender reaches the NIC over PCIe and the host bridge (PHB/SYS); otherwise it sends by its own NIC;
     *  - a ring with NCCL_CROSS_NIC=1 always sends by the sender's own NIC (the search closed the ring there).
     * ccsim applies PXN to any non-local NIC whose local GPU is NVLink-connected to the sender. NCCL also requires
     * the proxy to have more bandwidth to the NIC or the sender's own path to be worse than PXN, which holds on a
     * DGX H100 (each GPU and its NIC on their own PCIe switch, other NICs through the CPU); ccsim's HGX board puts
     * two GPU-NIC pairs on one switch and keeps NCCL's choice for the real board.
     */
    private final Topology topo;
    private final boolean p2pDisabled;
    private final NetPolicy policy;
    private final HostNics nics;
    /** GPU node index -> its NVLink port group to NVSwitches, null for none */
    private final LinkGroup[] nvlGroupOfGpu;
    /** GPU node index -> the node indices of the NVSwitches its port group reaches, ascending; null for none */
    private final int[][] switchesOfGpu;

    /** NCCL's default network policy ({@link NetPolicy#DEFAULT}). */
    public NcclPaths(Topology topo, boolean p2pDisabled) {
        this(topo, p2pDisabled, NetPolicy.DEFAULT);
    }

    public NcclPaths(Topology topo, boolean p2pDisabled, NetPolicy policy) {
        this.topo = topo;
        this.p2pDisabled = p2pDisabled;
        this.policy = policy;
        this.nics = new HostNics(topo, policy);
        this.nvlGroupOfGpu = new LinkGroup[topo.nodes().size()];
        this.switchesOfGpu = new int[topo.nodes().size()][];
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
            nvlGroupOfGpu[idx] = g;
            switchesOfGpu[idx] = sw.stream().mapToInt(topo::nodeIndex).sorted().toArray();
        }
    }

    /** The NICs as this policy sees them. */
    public HostNics nics() { return nics; }

    /** {@link #route(int, int, long, boolean)} for a point-to-point or tree connection. */
    public Route route(int src, int dst, long key) {
        return route(src, dst, key, false);
    }

    /**
     * The route NCCL would use from GPU node {@code src} to GPU node {@code dst}; {@code key} picks among equal
     * paths; {@code ring} says the connection is a ring's (which matters between hosts with NCCL_CROSS_NIC=1).
     */
    public Route route(int src, int dst, long key, boolean ring) {
        if (src == dst) return Route.local();
        if (!p2pDisabled) {
            Route nvl = nvlink(src, dst);
            if (nvl != null) return nvl;
        }
        Node a = topo.nodes().get(src);
        Node b = topo.nodes().get(dst);
        if (a.host() != b.host()) {
            int recvNic = nics.localNic(dst);
            int ownNic = nics.localNic(src);
            if (recvNic >= 0 && ownNic >= 0) {
                Route in = nics.recvLeg(recvNic, dst);
                int railNic = nics.nicOnRail(a.host(), nics.rail(recvNic));
                boolean peerRail = railNic >= 0 && railNic != ownNic && !(ring && policy.crossNic() == 1)
                        && (policy.pxn() || policy.crossNic() == 0);
                if (peerRail) {
                    int proxy = policy.pxn() && !p2pDisabled ? nics.localGpu(railNic) : -1;
                    Route viaProxy = proxy >= 0 && proxy != src ? nvlink(src, proxy) : null;
                    if (viaProxy != null) {
                        return HostNics.concat(viaProxy, nics.sendLeg(proxy, railNic), topo.route(railNic, recvNic, key), in);
                    }
                    if (policy.crossNic() == 0) {
                        return HostNics.concat(nics.sendLeg(src, railNic), topo.route(railNic, recvNic, key), in);
                    }
                }
                return HostNics.concat(nics.sendLeg(src, ownNic), topo.route(ownNic, recvNic, key), in);
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
        LinkGroup g = nvlGroupOfGpu[gpu];
        if (g == null) {
            throw new IllegalArgumentException("GPU " + topo.nodes().get(gpu).id() + " has no NVLink port group to an NVSwitch");
        }
        return new Route(new int[] {Route.hop(g.index(), !toSwitch)}, g.members().get(0).latencyPs(), java.util.List.of(g.id()));
    }

    /**
     * The path between GPU node {@code gpu} and network switch node {@code sw} through the GPU's local NIC: the
     * GPU-to-NIC host leg, then the topology's route from the NIC to the switch ({@code toSwitch}), or the reverse.
     *
     * @throws IllegalArgumentException if the GPU's host has no NIC the policy selects
     */
    public Route netSwitchRoute(int gpu, int sw, boolean toSwitch, long key) {
        int nic = nics.localNic(gpu);
        if (nic < 0) {
            throw new IllegalArgumentException("GPU " + topo.nodes().get(gpu).id() + " has no NIC to reach network switch "
                    + topo.nodes().get(sw).id());
        }
        return toSwitch ? HostNics.concat(nics.sendLeg(gpu, nic), topo.route(nic, sw, key))
                : HostNics.concat(topo.route(sw, nic, key), nics.recvLeg(nic, gpu));
    }

    /** The NVLink route between two GPUs of one NVSwitch domain, null if they share no switch. */
    private Route nvlink(int src, int dst) {
        LinkGroup a = nvlGroupOfGpu[src];
        LinkGroup b = nvlGroupOfGpu[dst];
        if (a == null || b == null || !sharesSwitch(src, dst)) return null;
        long lat = a.members().get(0).latencyPs() + b.members().get(0).latencyPs();
        return new Route(new int[] {Route.hop(a.index(), false), Route.hop(b.index(), true)}, lat,
                java.util.List.of(a.id(), b.id()));
    }

    private boolean sharesSwitch(int a, int b) {
        int[] sa = switchesOfGpu[a];
        int[] sb = switchesOfGpu[b];
        for (int i = 0, j = 0; i < sa.length && j < sb.length; ) {
            if (sa[i] == sb[j]) return true;
            if (sa[i] < sb[j]) i++;
            else j++;
        }
        return false;
    }
}
