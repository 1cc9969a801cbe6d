package io.ccsim.algorithms.graph;

import io.ccsim.algorithms.profile.NcclNvlsConstants;
import io.ccsim.algorithms.tuner.NvlsGraph;
import io.ccsim.topology.Link;
import io.ccsim.topology.LinkGroup;
import io.ccsim.topology.LinkKind;
import io.ccsim.topology.Node;
import io.ccsim.topology.NodeKind;
import io.ccsim.topology.Topology;
import java.util.Arrays;
import java.util.Optional;

/**
 * ccsim's model of NCCL's NVLS graph search (NVIDIA/nccl v2.28.9 src/graph/search.cc ncclTopoCompute, NVLS pattern;
 * src/transport/nvls.cc ncclNvlsInit): whether a communicator has NVLS, and the heads and bandwidths NCCL's tuner
 * then reads.
 */
final class NvlsSearch {
    /*
     * NCCL builds an NVLS graph when the GPUs reach an NVSwitch (ccsim: one with attribute multicast = true, the NVLink4
     * and NVLink5 generations) with compute capability >= 90 and at least 2 GPUs (2.28.7+). On one node every local GPU
     * is a head, up to 32 (minChannels = maxChannels = min(32, nGPUs), "pull evenly from all GPUs"). A head's NVSwitch
     * link carries (heads + 1) × bwIntra, so bwIntra is the fastest speed of the search ladder with
     * (heads + 1) × speed ≤ the GPU's NVLink bandwidth (NCCL's per-link constant × links), starting from the first
     * speed with speed × heads ≤ total × n/(n − 1). On one node no link consumes bwInter: pass 2 raises it along the
     * ladder while it is below 2 × bwIntra, so it ends at the first speed ≥ 2 × bwIntra or at the ladder's top.
     * 8 × H100 (18 links × 20.6 = 370.8 GB/s): bwIntra 40 (9 × 40 = 360), bwInter 60 (top). Across nodes the search
     * starts at a NIC and takes its local GPU as a head: one head per NIC (the first 32 GPUs' on a GB200 NVL72 rack,
     * getNvlsNetDev), and pass 2 raises bwInter along the inter-node speeds while it is below 2 × bwIntra and the NIC
     * carries it (NDR 400 Gb/s = 50 GB/s: up to 48). 8 × H100: bwIntra 40, bwInter 48; an NVL72 rack (33 × 20 =
     * 660 of 721.8 GB/s): bwIntra 20, bwInter 40 (NCCL 2.28.9's search, run on that topology). Across nodes the
     * search's speeds are the inter-node ladder's from the NIC's speed down, for bwIntra too: 4 heads on an HGX H100
     * with 4 NICs get bwIntra 48 (5 × 48 ≤ 370.8), where the intra-node ladder would give 60 (NCCL 2.28.9's search on
     * that board: 4 heads, 48 and 48). The graph serves NVLSTree; NCCL's plain NVLS across nodes needs CollNet (SHARP)
     * on top.
     */
    private NvlsSearch() { }

    /**
     * The NVLS graph of a communicator of {@code nNodes} nodes of {@code ppn} GPUs like {@code g0}, whose nodes' NICs
     * (of {@code nicGBs} each) have the GPUs of local indices {@code netHeads} as their first local GPUs (null and 0 on
     * one node).
     */
    static NvlsGraph of(Topology topo, Node g0, int ppn, int nNodes, int[] netHeads, double nicGBs) {
        boolean nvl5 = "B200".equalsIgnoreCase(g0.attr("model")) || "GB200".equalsIgnoreCase(g0.attr("model"));
        int cc = nvl5 ? 100 : 90;
        if (!reachesMulticastSwitch(topo, g0)) {
            return NvlsGraph.none("topology " + topo.name() + " has no NVSwitch with multicast (NVLink SHARP) for "
                    + g0.id());
        }
        if (ppn < 2) return NvlsGraph.none("NVLS needs at least 2 GPUs per node (NCCL 2.28.7+), got " + ppn);
        boolean net = nNodes > 1;
        if (net && (netHeads == null || netHeads.length < 2)) {
            return NvlsGraph.none("ccsim's NVLS graph across nodes needs at least 2 heads (one per NIC), but the nodes"
                    + " have " + (netHeads == null ? 0 : netHeads.length) + " NIC(s) for their GPUs");
        }
        int heads = Math.min(net ? netHeads.length : ppn, NcclNvlsConstants.MAX_HEADS);
        int[] headLocals = net ? Arrays.copyOf(netHeads, heads) : null;
        double total = nvlinkLanes(topo, g0) * (nvl5 ? CommGraph.SM100_NVLINK_BW_GBS : CommGraph.SM90_NVLINK_BW_GBS);
        double[] ladder = net ? interFrom(nvl5, nicGBs) : NcclNvlsConstants.intraSpeeds(cc);
        double start = ppn > 1 ? total * ppn / (ppn - 1) : total;
        double bwIntra = 0;
        for (double speed : ladder) {
            if (speed * heads > start) continue;
            if ((heads + 1) * speed <= total) {
                bwIntra = speed;
                break;
            }
        }
        if (bwIntra == 0) return NvlsGraph.none("the NVLS graph search finds no speed for " + heads + " heads");
        // pass 2 raises bwInter to the first speed >= 2 x bwIntra, or to the ladder's top (across nodes: as far as the
        // NIC allows, since each head's NIC carries it)
        double bwInter = ladder[0];
        for (int i = ladder.length - 1; i >= 0; i--) {
            if (ladder[i] >= 2 * bwIntra) {
                bwInter = ladder[i];
                break;
            }
        }
        return new NvlsGraph(heads, bwIntra, bwInter, NcclNvlsConstants.ctas(cc, nNodes > 1), cc, Optional.empty(),
                headLocals);
    }

    /** The inter-node search speeds (GB/s, descending) from the first at or below {@code nicGBs}. */
    private static double[] interFrom(boolean nvl5, double nicGBs) {
        double[] inter = nvl5 ? CommGraph.SM100_INTER_SPEEDS : CommGraph.SM90_INTER_SPEEDS;
        int i = 0;
        while (i < inter.length - 1 && inter[i] > nicGBs) i++;
        return Arrays.copyOfRange(inter, i, inter.length);
    }

    private static boolean reachesMulticastSwitch(Topology topo, Node gpu) {
        for (Link l : topo.neighbours(gpu.id())) {
            if (l.kind() != LinkKind.NVLINK) continue;
            Node other = topo.node(l.other(gpu.id()));
            if (other.kind() == NodeKind.NVSWITCH && "true".equals(other.attr("multicast"))) return true;
        }
        return false;
    }

    /** NVLink lanes of the GPU that are up (its port group's live lanes). */
    private static int nvlinkLanes(Topology topo, Node gpu) {
        for (LinkGroup grp : topo.fabric()) {
            if (grp.anchor().equals(gpu.id()) && grp.members().get(0).kind() == LinkKind.NVLINK) return grp.liveLanes();
        }
        int lanes = 0;
        for (Link l : topo.neighbours(gpu.id())) if (l.kind() == LinkKind.NVLINK) lanes += l.lanes();
        return lanes;
    }
}
