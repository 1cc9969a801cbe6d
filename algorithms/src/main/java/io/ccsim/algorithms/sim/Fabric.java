package io.ccsim.algorithms.sim;

import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.LinkClass;
import io.ccsim.sim.Sharing;
import io.ccsim.sim.Simulator;
import io.ccsim.sim.flow.FlowNetwork;
import io.ccsim.topology.Flap;
import io.ccsim.topology.Link;
import io.ccsim.topology.LinkGroup;
import io.ccsim.topology.LinkHealth;
import io.ccsim.topology.LinkKind;
import io.ccsim.topology.Route;
import io.ccsim.topology.Topology;

/**
 * A topology's fabric bound to a flow network in one simulation: one flow-network link per
 * {@link LinkGroup} (same index), with capacity = group capacity (health applied) × the profile's
 * link efficiency for the group's link class, and, for a full-duplex group, the profile's
 * {@code sim.duplex_efficiency} of its class (a direction's capacity times e
 * while the other direction is busy, {@link FlowNetwork#setDuplexEfficiency}; groups of other sharing ignore it). Link health can change mid-run
 * ({@link #setLinkHealth}); scheduled flaps in the topology's link health are applied as events.
 */
public final class Fabric {
    private final Simulator sim;
    private final FlowNetwork net;
    private final CalibrationProfile profile;
    private final LinkClass[] groupClass;
    private Topology topology;
    private boolean p2pDisabled;
    private io.ccsim.algorithms.net.NetPolicy netPolicy = io.ccsim.algorithms.net.NetPolicy.DEFAULT;
    /** [node index * protocols + protocol]: its multi-peer link (see multiPeerLink), NONE, or UNSET before first use */
    private final int[] multiPeerLinks;
    /** [node index]: its NVLS port link (see nvlsPortLink), NONE, or UNSET before first use */
    private final int[] nvlsPortLinks;
    private static final int NONE = -1;
    private static final int UNSET = -2;
    private static final int NPROTO = Protocol.values().length;

    public Fabric(Simulator sim, Topology topology, CalibrationProfile profile) {
        this(sim, topology, profile, true);
    }

    /**
     * @param trackLinkTraffic whether the network keeps each link direction's rate and bytes carried
     *                         ({@link FlowNetwork#linkBytes}); a run that only wants times (perf, tune) leaves it
     *                         off and is faster (see {@link FlowNetwork.Options#trackLinkTraffic})
     */
    public Fabric(Simulator sim, Topology topology, CalibrationProfile profile, boolean trackLinkTraffic) {
        // nothing here asks for nextCompletionTime()
        this(sim, topology, profile, FlowNetwork.Options.DEFAULT.withTrackNextCompletion(false)
                .withTrackLinkTraffic(trackLinkTraffic));
    }

    /** A fabric whose flow network has {@code options} (tests compare the network's optimisations on and off). */
    Fabric(Simulator sim, Topology topology, CalibrationProfile profile, FlowNetwork.Options options) {
        this.sim = sim;
        this.topology = topology;
        this.profile = profile;
        this.net = new FlowNetwork(sim, options);
        this.multiPeerLinks = new int[topology.nodes().size() * NPROTO];
        java.util.Arrays.fill(multiPeerLinks, UNSET);
        this.nvlsPortLinks = new int[topology.nodes().size()];
        java.util.Arrays.fill(nvlsPortLinks, UNSET);
        int n = topology.fabric().size();
        this.groupClass = new LinkClass[n];
        io.ccsim.sim.RunControl control = sim.runControl();
        for (LinkGroup g : topology.fabric()) {
            // 0.9 M groups at 100,000 GPUs take a second or more: the run's stop request is polled on the way
            if (control != null && (g.index() & 4095) == 4095) control.checkpoint();
            groupClass[g.index()] = classOf(g.members().get(0).kind());
            int idx = net.addLink(g.id(), capacity(g), g.sharing());
            if (idx != g.index()) throw new IllegalStateException("fabric index mismatch for " + g.id());
            double duplex = profile.sim().duplexEfficiency(groupClass[idx]);
            if (duplex < 1 && g.sharing() == Sharing.FULL_DUPLEX) net.setDuplexEfficiency(idx, duplex);
        }
        for (Link l : topology.links()) {
            for (Flap f : l.health().flaps()) scheduleFlap(l.id(), f);
        }
    }

    /** The link class NCCL's model distinguishes for a link kind: NVLink, PCIe (and SMP, C2C), network. */
    public static LinkClass classOf(LinkKind kind) {
        switch (kind) {
            case NVLINK: return LinkClass.NVLINK;
            case INFINIBAND:
            case ROCE: return LinkClass.NET;
            default: return LinkClass.PCIE;
        }
    }

    private double capacity(LinkGroup g) {
        return g.capacityBytesPerSec() * profile.linkEfficiency(groupClass[g.index()]);
    }

    public Simulator simulator() { return sim; }

    public FlowNetwork network() { return net; }

    public CalibrationProfile profile() { return profile; }

    /** The topology with the link health currently in force. */
    public Topology topology() { return topology; }

    /** Whether NCCL_P2P_DISABLE=1 is in force: GPUs of one host talk through PCIe/host memory, not NVLink. */
    public boolean p2pDisabled() { return p2pDisabled; }

    /** Sets NCCL_P2P_DISABLE for executions started after this call. */
    public void setP2pDisabled(boolean disabled) { this.p2pDisabled = disabled; }

    /** NCCL_CROSS_NIC, NCCL_PXN_DISABLE, NCCL_IB_HCA, NCCL_NET_GDR_LEVEL as connections between hosts are routed. */
    public io.ccsim.algorithms.net.NetPolicy netPolicy() { return netPolicy; }

    /** Sets the network policy for executions started after this call. */
    public void setNetPolicy(io.ccsim.algorithms.net.NetPolicy policy) { this.netPolicy = java.util.Objects.requireNonNull(policy, "policy"); }

    /** Link class of fabric group {@code index}. */
    public LinkClass groupClass(int index) { return groupClass[index]; }

    /**
     * The slowest class on a route, as NCCL's model charges one hop latency per GPU-to-GPU step: any
     * network link makes it NET, else any PCIe/SMP link makes it PCIE, else NVLINK.
     */
    public LinkClass routeClass(Route r) {
        LinkClass worst = LinkClass.NVLINK;
        for (int i = 0; i < r.length(); i++) {
            LinkClass c = groupClass[r.groupAt(i)];
            if (c == LinkClass.NET) return LinkClass.NET;
            if (c == LinkClass.PCIE) worst = LinkClass.PCIE;
        }
        return worst;
    }

    /** Changes a link's health now: the flow network re-solves the flows crossing its group. */
    public void setLinkHealth(String linkId, LinkHealth health) {
        topology = topology.withLinkHealth(linkId, health);
        LinkGroup g = topology.groupOf(linkId);
        net.setCapacity(g.index(), capacity(g));
        if (groupClass[g.index()] == LinkClass.NVLINK) {
            // the multi-peer links of the group's two end nodes follow their NVLink capacity
            Link first = g.members().get(0);
            for (String node : new String[] {first.a(), first.b()}) {
                int n = topology.nodeIndex(node);
                for (Protocol p : Protocol.values()) {
                    int l = multiPeerLinks[n * NPROTO + p.ordinal()];
                    if (l >= 0) net.setCapacity(l, multiPeerCapacity(n, p));
                }
                if (nvlsPortLinks[n] >= 0) net.setCapacity(nvlsPortLinks[n], nvlsPortCapacity(n));
            }
        }
    }

    /**
     * The flow-network link that stands for GPU node {@code gpuNode}'s NVLink ports when the GPU sends to or
     * receives from several peers at once with protocol {@code p} ({@code sim.multi_peer_efficiency} of the
     * profile, see {@link io.ccsim.algorithms.profile.SimCosts}): full duplex, each direction of capacity
     * efficiency × the sum of the GPU's NVLink groups' capacities (their health applied); the forward direction
     * is the GPU's egress, the reverse its ingress. Created on first use; -1 when the efficiency is 1 or the GPU
     * has no NVLink.
     */
    public int multiPeerLink(int gpuNode, Protocol p) {
        int key = gpuNode * NPROTO + p.ordinal();
        if (multiPeerLinks[key] != UNSET) return multiPeerLinks[key];
        int idx = NONE;
        if (profile.sim().multiPeerEfficiency(p) < 1 && multiPeerCapacity(gpuNode, p) > 0) {
            idx = net.addLink(topology.nodes().get(gpuNode).id() + ".nvlink-multi-peer." + p.ncclName(),
                    multiPeerCapacity(gpuNode, p), Sharing.FULL_DUPLEX);
        }
        multiPeerLinks[key] = idx;
        return idx;
    }

    /**
     * The NVLink switch (NVSwitch node index) that serves GPU node {@code gpuNode}'s NVLS traffic: the first NVSwitch
     * with multicast (node attribute {@code multicast} = {@code true}) that the GPU reaches over NVLink.
     *
     * @throws IllegalArgumentException if there is none
     */
    public int nvlsSwitchOf(int gpuNode) {
        String gpu = topology.nodes().get(gpuNode).id();
        for (Link l : topology.neighbours(gpu)) {
            if (l.kind() != LinkKind.NVLINK) continue;
            io.ccsim.topology.Node other = topology.node(l.other(gpu));
            if (other.kind() == io.ccsim.topology.NodeKind.NVSWITCH && "true".equals(other.attr("multicast"))) {
                return topology.nodeIndex(other.id());
            }
        }
        throw new IllegalArgumentException("GPU " + gpu + " of topology " + topology.name() + " reaches no NVSwitch with"
                + " multicast (NVLS needs one: an NVSwitch node with attribute \"multicast\": \"true\")");
    }

    /**
     * The flow-network link that stands for GPU node {@code gpuNode}'s NVLink ports as its multimem (NVLS) traffic sees
     * them: full duplex, each direction of NCCL's nvlsEfficiency for the profile's compute capability
     * ({@link io.ccsim.algorithms.profile.NcclNvlsConstants#efficiency}) × the sum of the GPU's NVLink groups'
     * capacities (health and link efficiency applied), with the NVLink class's duplex efficiency; the forward direction
     * is the GPU's egress. Created on first use.
     *
     * @throws IllegalArgumentException if the GPU has no NVLink or the profile's architecture has no NVLS
     */
    public int nvlsPortLink(int gpuNode) {
        if (nvlsPortLinks[gpuNode] != UNSET) return nvlsPortLinks[gpuNode];
        double cap = nvlsPortCapacity(gpuNode);
        if (!(cap > 0)) {
            throw new IllegalArgumentException("GPU " + topology.nodes().get(gpuNode).id() + " has no NVLS bandwidth"
                    + " (no NVLink, or compute capability " + profile.computeCapability() + " < 90)");
        }
        int idx = net.addLink(topology.nodes().get(gpuNode).id() + ".nvls", cap, Sharing.FULL_DUPLEX);
        double duplex = profile.sim().duplexEfficiency(LinkClass.NVLINK);
        if (duplex < 1) net.setDuplexEfficiency(idx, duplex);
        nvlsPortLinks[gpuNode] = idx;
        return idx;
    }

    private double nvlsPortCapacity(int gpuNode) {
        return nvlinkCapacity(gpuNode) * io.ccsim.algorithms.profile.NcclNvlsConstants.efficiency(profile.computeCapability());
    }

    /** Sum of the capacities of GPU node {@code gpuNode}'s NVLink groups (health and link efficiency applied). */
    private double nvlinkCapacity(int gpuNode) {
        // the groups are found through the GPU's own links (not a scan of the whole fabric, which made the setup of a
        // run quadratic in the GPU count) and summed in group order, as a scan would
        String id = topology.nodes().get(gpuNode).id();
        java.util.TreeMap<Integer, LinkGroup> mine = new java.util.TreeMap<>();
        for (Link l : topology.neighbours(id)) {
            LinkGroup g = topology.groupOf(l.id());
            if (groupClass[g.index()] != LinkClass.NVLINK) continue;
            Link first = g.members().get(0);
            if (first.a().equals(id) || first.b().equals(id)) mine.put(g.index(), g);
        }
        double sum = 0;
        for (LinkGroup g : mine.values()) sum += capacity(g);
        return sum;
    }

    private double multiPeerCapacity(int gpuNode, Protocol p) {
        return nvlinkCapacity(gpuNode) * profile.sim().multiPeerEfficiency(p);
    }

    private void scheduleFlap(String linkId, Flap f) {
        for (int k = 0; k < f.count(); k++) {
            long downAt = f.startPs() + k * f.periodPs();
            sim.scheduleAt(Math.max(downAt, sim.now()), () -> setDown(linkId, true));
            sim.scheduleAt(Math.max(downAt + f.durationPs(), sim.now()), () -> setDown(linkId, false));
        }
    }

    private void setDown(String linkId, boolean down) {
        LinkHealth h = topology.link(linkId).health();
        setLinkHealth(linkId, new LinkHealth(h.degradeFactor(), down, h.flaps(), h.bitErrorRate()));
    }
}
