package io.ccsim.algorithms.graph;

import io.ccsim.algorithms.tuner.CollNetGraph;
import io.ccsim.topology.Link;
import io.ccsim.topology.LinkKind;
import io.ccsim.topology.Node;
import io.ccsim.topology.NodeKind;
import io.ccsim.topology.Topology;

/**
 * ccsim's model of NCCL's CollNetDirect and CollNetChain graph searches (NVIDIA/nccl v2.28.9 src/graph/search.cc
 * ncclTopoCompute with {@code graph->collNet = 1}; init.cc sets up both graphs): whether the communicator has a SHARP
 * network, and the channels and per-channel bandwidths NCCL's tuner then reads.
 */
final class CollNetSearch {
    /*
     * NCCL only searches CollNet graphs with a CollNet plugin and NCCL_COLLNET_ENABLE=1, over NICs with collSupport
     * (search.cc ncclTopoSearchRecNet skips the others). ccsim's stand-in: every NIC of the ranks' hosts must reach a
     * SHARP-capable switch (attribute sharp = true; the fat-tree's --sharp).
     * Across nodes the search uses the inter-node speed ladder (sm90 48, 45, 42, 40, 30, 24, ...; sm100 96, 48, ...)
     * from the first speed not above the NIC's bandwidth (the GPU-to-NIC path, NDR 400 Gb/s: 50 GB/s -> 48).
     *  - CollNetDirect (pattern COLLNET_DIRECT, maxChannels = min(NCCL_MAX_DIRECT_ARITY + 1, GPUs) = 8): one channel
     *    per NIC whose local GPU is not a head yet, at that speed; ncclTopoDupChannels doubles them up to maxChannels,
     *    dividing the bandwidth, unless bw < 25 or (sm > 80, bw < 50 and more than 4 channels). 8 NDR NICs: 8 x 48;
     *    4 NICs for 8 GPUs: 4 x 48 -> 8 x 24.
     *  - CollNetChain (pattern TREE, minChannels = maxChannels = the ring graph's channels, before ncclTopoPostset
     *    doubles them): as many channels as the ring search, each at the ladder speed that the NICs carry for that
     *    many (pass 2 raises bwIntra only while it is below 2 x bwInter, which the search speed already is not).
     *    8 NDR NICs: 8 x 48; 4 NICs: 8 x 24.
     */
    private CollNetSearch() { }

    private static final double[] SM90_INTER = {48, 45, 42, 40, 30, 24, 22, 20, 17.5, 15, 12, 6, 3, 2.4, 1.2, 0.24, 0.12};
    private static final double[] SM100_INTER = {96, 48, 45.1, 42, 40, 30, 24, 22, 20, 17.5, 15, 12, 6, 3, 2.4, 1.2, 0.24, 0.12};

    /**
     * @param topo       the topology
     * @param g0         the first rank's GPU
     * @param headLocals local indices of the heads: per distinct local NIC of a host's ranks, the first GPU whose
     *                   local NIC it is (NCCL: the NIC's localGpu, search.cc ncclTopoSearchRecNet)
     * @param nicGBs     bandwidth of one NIC, GB/s
     * @param ppn        ranks per host
     * @param nNodes     hosts
     * @param commCh     the communicator's ring channels (after ncclTopoPostset's doubling)
     * @param sm100      Blackwell (sm100 ladder)
     */
    static CollNetGraph of(Topology topo, Node g0, int[] headLocals, double nicGBs, int ppn, int nNodes, int commCh,
                           boolean sm100) {
        int heads = headLocals.length;
        if (nNodes < 2) return CollNetGraph.none("one node: CollNet reduces in the network between nodes");
        String noSharp = firstNonSharpSwitch(topo);
        if (noSharp != null) {
            return CollNetGraph.none("no SHARP-capable network: " + noSharp + " of topology " + topo.name()
                    + " has no SHARP (CollNet needs a CollNet plugin, collnet-capable NICs and SHARP switches; --sharp"
                    + " builds them)");
        }
        double[] ladder = sm100 ? SM100_INTER : SM90_INTER;
        double speed = speedAtMost(ladder, nicGBs);
        int max = Math.min(8, ppn);
        int direct = Math.min(heads, max);
        double directBw = speed;
        boolean noDup = directBw < 25 || (directBw < 50 && direct > 4);
        if (!noDup) {
            int dup = Math.min(2 * direct, max);
            directBw /= (dup + direct - 1) / direct;
            direct = dup;
        }
        int chain = Math.max(1, commCh / 2);
        double chainBw = speedAtMost(ladder, heads * nicGBs / chain);
        return new CollNetGraph(java.util.Arrays.copyOf(headLocals, Math.min(heads, max)), direct, directBw, chain, chainBw,
                reachesNvSwitch(topo, g0), java.util.Optional.empty());
    }

    private static double speedAtMost(double[] ladder, double bw) {
        for (double s : ladder) if (s <= bw + 1e-9) return s;
        return ladder[ladder.length - 1];
    }

    /** The first network switch without SHARP, or null if every one has it (and there is one). */
    private static String firstNonSharpSwitch(Topology topo) {
        boolean any = false;
        for (Node n : topo.nodes()) {
            if (n.kind() != NodeKind.NET_SWITCH) continue;
            any = true;
            if (!"true".equals(n.attr("sharp"))) return n.id();
        }
        return any ? null : "(no network switch)";
    }

    private static boolean reachesNvSwitch(Topology topo, Node gpu) {
        for (Link l : topo.neighbours(gpu.id())) {
            if (l.kind() == LinkKind.NVLINK && topo.node(l.other(gpu.id())).kind() == NodeKind.NVSWITCH) return true;
        }
        return false;
    }
}
