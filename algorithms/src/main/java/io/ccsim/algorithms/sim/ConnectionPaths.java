package io.ccsim.algorithms.sim;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.StepCursor;
import io.ccsim.algorithms.plan.SwitchKind;
import io.ccsim.algorithms.profile.CtaCosts;
import io.ccsim.algorithms.profile.LinkClass;
import io.ccsim.sim.Sharing;
import io.ccsim.sim.flow.FlowNetwork;
import io.ccsim.topology.Route;
import java.util.Arrays;

/**
 * Resolves, on first use, the flow-network path and the hop latency of each connection of one execution
 * ({@link #ensure}): the route between the two ranks' GPUs (its ECMP key the channel), plus the per-GPU constraints
 * that NVLink sends cross, with the channel's multiplicity ({@link ChannelFolding}); for a switch actor's connection
 * the GPU's NVLink port group and its NVLS port link.
 */
final class ConnectionPaths {
    /*
     * Extra constraints on a connection whose route is NVLink (a network send is the NIC's, not the SMs'):
     *  - the sender's send limit (CtaCosts#limitsGpuSend): one flow-network link per rank and execution, of
     *    CtaCosts#gpuSendBytesPerSec for the rank's sending blocks, which all its NVLink sends cross. The blocks
     *    that send on a rank are counted per channel with work there: its lanes with a step that sends, at least
     *    one. A lane's steps are read until the first that sends, so a ring costs one step per lane; only a
     *    receive-only lane (a tree's leaf going down, its root going up) is read through.
     *  - multi-peer loss (SimCosts#multiPeerEfficiency): a rank that sends to (receives from) several peers crosses
     *    its GPU's multi-peer link forward (in reverse), Fabric#multiPeerLink. Only tree and point-to-point plans,
     *    whose ranks talk to several peers by design (where it was measured): a ring plan's ranks have one peer each
     *    way per channel, and the channels' different ring orders (multi-node rings) spread load by design, which
     *    the ring fits were made without.
     * The hop latency is the family's for the route's slowest link class (Fabric#routeClass).
     */
    private final Fabric fabric;
    private final FlowNetwork net;
    private final RouteCache routes;
    private final StepCosts costs;
    private final ChannelFolding folding;
    private final int[] actorNodes;
    private final int nRanks;
    private final int nCh;
    private final Plan plan;
    /** per rank r: [r] sends to several peers, [nRanks + r] receives from several; null without a multi-peer loss */
    private final boolean[] multiPeer;
    /** per rank: the flow-network link its sending blocks share; null without that limit */
    private final int[] gpuSendLink;
    /** per network switch actor (less nRanks), per host: its head's leaf entry ({@link #sharpEntry}); made on first use */
    private int[][] sharpEntries;
    /** the plan's ranks by host, and the heads' NICs, for {@link #sharpEntry}; made on first use */
    private int[][] sharpByHost;
    private io.ccsim.algorithms.net.HostNics sharpNics;

    /**
     * Paths for {@code plan}'s connections on topology nodes {@code actorNodes} (one per actor: the ranks' GPUs, then the switch actors' NVSwitches). Adds the
     * send-limit links to the fabric's network now (one per rank) when the protocol's cta costs set a send limit.
     */
    ConnectionPaths(Fabric fabric, Plan plan, int[] actorNodes, StepCosts costs, ChannelFolding folding) {
        this.fabric = fabric;
        this.net = fabric.network();
        this.routes = new RouteCache(fabric, costs.algorithm() == Algorithm.RING);
        this.costs = costs;
        this.folding = folding;
        this.actorNodes = actorNodes.clone();
        this.nRanks = plan.nRanks();
        this.nCh = plan.nChannels();
        this.plan = plan;
        Algorithm algo = costs.algorithm();
        boolean byDesign = algo == Algorithm.TREE || algo == Algorithm.P2P;
        this.multiPeer = byDesign && fabric.profile().sim().multiPeerEfficiency(costs.protocol()) < 1 ? multiPeerRanks(plan) : null;
        CtaCosts cta = costs.cta();
        this.gpuSendLink = cta != null && cta.limitsGpuSend() ? gpuSendLinks(fabric, plan, actorNodes, cta) : null;
    }

    /** A sending step's rate limit, wire bytes/s ({@link StepCosts#channelCapBps}). */
    double channelCapBps() { return costs.channelCapBps(); }

    /** Whether a link of the fabric flaps: then capacities change during the execution. */
    boolean capacitiesChange() {
        for (io.ccsim.topology.Link l : fabric.topology().links()) {
            if (!l.health().flaps().isEmpty()) return true;
        }
        return false;
    }

    /** A connection's hops ({@link FlowNetwork#hop}) before any multiplicity, and its hop latency, ps. */
    record Hops(int[] hops, long latencyPs) { }

    /** Sets connection {@code k}'s path and hop latency ({@link Connections#setRoute}) unless already set. */
    void ensure(Connections conns, int k) {
        if (conns.routed(k)) return;
        int ch = conns.channel(k) % nCh; // a connection-1 key channel stands for its channel
        Hops h = hops(conns.channel(k), conns.from(k), conns.to(k));
        conns.setRoute(k, net.path(h.hops(), folding.multiplicity(ch)), h.latencyPs());
    }

    /** The hops and hop latency of connection (connection channel {@code cch}, {@code from}, {@code to}) of the plan. */
    Hops hops(int cch, int from, int to) {
        int ch = cch % nCh;
        if (from >= nRanks || to >= nRanks) return switchHops(ch, from, to);
        Route r = routes.route(actorNodes[from], actorNodes[to], ch);
        int[] hops = r.hops();
        if (r.length() > 0 && fabric.routeClass(r) == LinkClass.NVLINK) {
            int send = gpuSendLink != null ? gpuSendLink[from] : -1;
            int out = multiPeer != null && multiPeer[from] ? fabric.multiPeerLink(actorNodes[from], costs.protocol()) : -1;
            int in = multiPeer != null && multiPeer[nRanks + to] ? fabric.multiPeerLink(actorNodes[to], costs.protocol()) : -1;
            int extra = (send >= 0 ? 1 : 0) + (out >= 0 ? 1 : 0) + (in >= 0 ? 1 : 0);
            if (extra > 0) {
                int i = hops.length;
                hops = Arrays.copyOf(hops, i + extra);
                if (send >= 0) hops[i++] = FlowNetwork.hop(send, false);
                if (out >= 0) hops[i++] = FlowNetwork.hop(out, false);
                if (in >= 0) hops[i] = FlowNetwork.hop(in, true);
            }
        }
        return new Hops(hops, costs.hopLatencyPs(fabric.routeClass(r)));
    }

    /*
     * A connection to or from a switch actor (NVLS): the GPU's NVLink port group one way, and the GPU's NVLS port link
     * (Fabric#nvlsPortLink: the share of the ports multimem traffic gets), forward for the switch reading from the GPU,
     * in reverse for the switch writing into it. Neither the send limit nor the multi-peer loss applies: the switch
     * moves the data, not the GPU's thread blocks. A network switch actor's connection (CollNet) runs from the GPU
     * through its local NIC (the host leg NCCL's net transport takes: PCIe, or staged per NCCL_NET_GDR_LEVEL), the NIC's
     * cable and, where the aggregating switch is a spine, the leaf's uplink (NcclPaths#netSwitchRoute); its hop latency
     * is the network class's.
     */
    private Hops switchHops(int ch, int from, int to) {
        boolean toSwitch = to >= nRanks;
        int gpu = toSwitch ? actorNodes[from] : actorNodes[to];
        if (plan.switchKind(toSwitch ? to : from) == SwitchKind.NETWORK) {
            int sw = toSwitch ? to : from;
            int end = combinesAtLeaf(toSwitch) ? sharpEntry(sw, toSwitch ? from : to) : actorNodes[sw];
            Route r = routes.netSwitchRoute(gpu, end, toSwitch, ch);
            return new Hops(r.hops(), costs.hopLatencyPs(LinkClass.NET));
        }
        Route r = routes.switchRoute(gpu, toSwitch);
        int[] hops = {r.hops()[0], FlowNetwork.hop(fabric.nvlsPortLink(gpu), !toSwitch)};
        return new Hops(hops, costs.hopLatencyPs(LinkClass.NVLINK));
    }

    /**
     * Whether a leaf combines (going up, {@code toSwitch}) or copies (going down) what the plan's network switch
     * connections carry that way: a reduction up (all-reduce, reduce-scatter), one result for every head down
     * (all-reduce, all-gather); an all-gather's windows up and a reduce-scatter's down differ per host.
     */
    private boolean combinesAtLeaf(boolean toSwitch) {
        CollectiveOp op = plan.call().op();
        return op == CollectiveOp.ALL_REDUCE || op == (toSwitch ? CollectiveOp.REDUCE_SCATTER : CollectiveOp.ALL_GATHER);
    }

    /**
     * The switch that network switch actor {@code sw}'s connection with head rank {@code head} ends or starts at where
     * its leaf combines the data ({@link SharpSwitches#leafEntries}): the aggregator or the head's leaf.
     */
    private int sharpEntry(int sw, int head) {
        if (sharpEntries == null) {
            sharpEntries = new int[plan.nActors() - nRanks][];
            sharpByHost = plan.call().layout().ranksByHost();
            sharpNics = new io.ccsim.algorithms.net.HostNics(fabric.topology(), fabric.netPolicy());
        }
        int rail = plan.switchRail(sw);
        int[] e = sharpEntries[sw - nRanks];
        if (e == null) {
            int[] heads = new int[sharpByHost.length];
            for (int k = 0; k < heads.length; k++) heads[k] = actorNodes[sharpByHost[k][rail]];
            e = SharpSwitches.leafEntries(fabric.topology(), sharpNics, heads, actorNodes[sw]);
            sharpEntries[sw - nRanks] = e;
        }
        int k = plan.call().layout().hostOf(head);
        return sharpByHost[k][rail] == head ? e[k] : actorNodes[sw];
    }

    /**
     * Per rank r: whether r sends to more than one peer (index r) and whether it receives from more than one
     * (index nRanks + r) in its plan (all-to-all at n > 2, a middle rank of a tree's chain; a ring, a chain and
     * a send/recv ring have one of each).
     */
    private static boolean[] multiPeerRanks(Plan plan) {
        int n = plan.nRanks();
        int[] firstPeer = new int[2 * n];
        boolean[] multi = new boolean[2 * n];
        Arrays.fill(firstPeer, -1);
        plan.forEachConnection((ch, from, to) -> {
            if (from == to) return;
            note(firstPeer, multi, from, to);
            note(firstPeer, multi, n + to, from);
        });
        return multi;
    }

    private static void note(int[] firstPeer, boolean[] multi, int i, int peer) {
        if (firstPeer[i] < 0) firstPeer[i] = peer;
        else if (firstPeer[i] != peer) multi[i] = true;
    }

    /** Per rank, a new flow-network link of {@link CtaCosts#gpuSendBytesPerSec} for the rank's sending blocks. */
    private static int[] gpuSendLinks(Fabric fabric, Plan plan, int[] gpuOfRank, CtaCosts cta) {
        int[] links = new int[plan.nRanks()];
        for (int r = 0; r < links.length; r++) {
            links[r] = fabric.network().addLink(fabric.topology().nodes().get(gpuOfRank[r]).id() + ".cta-send",
                    cta.gpuSendBytesPerSec(sendingBlocks(plan, r)), Sharing.FULL_DUPLEX);
        }
        return links;
    }

    /** The thread blocks that send on {@code rank}: per channel with work on the rank, its lanes with a step that sends, at least one. */
    static int sendingBlocks(Plan plan, int rank) {
        StepCursor cur = new StepCursor();
        int blocks = 0;
        for (int c = 0; c < plan.nChannels(); c++) {
            int sending = 0;
            boolean busy = false;
            for (int l = 0; l < plan.nLanes(); l++) {
                int n = plan.stepCount(rank, c, l);
                if (n > 0) busy = true;
                for (int i = 0; i < n; i++) {
                    plan.step(rank, c, l, i, cur);
                    if (cur.nSend() > 0) {
                        sending++;
                        break;
                    }
                }
            }
            if (busy) blocks += Math.max(1, sending);
        }
        return blocks;
    }
}
