package io.ccsim.algorithms.graph;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.tuner.NvlsGraph;
import io.ccsim.algorithms.plan.CommLayout;
import io.ccsim.algorithms.profile.LinkClass;
import io.ccsim.algorithms.tuner.TuneInput;
import io.ccsim.algorithms.tuner.Tuner;
import io.ccsim.topology.Link;
import io.ccsim.topology.LinkGroup;
import io.ccsim.topology.LinkKind;
import io.ccsim.topology.Node;
import io.ccsim.topology.NodeKind;
import io.ccsim.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * ccsim's model of what NCCL's topology search (src/graph/search.cc, ncclTopoCompute) finds for a
 * communicator: ranks per host, the intra-node graph's link class, channel count and per-channel
 * bandwidth, the network bandwidth per channel, and the ring order of every channel.
 *
 * <p>Intra-node bandwidth follows NCCL's per-link constants rather than the raw link rate, because it
 * is what NCCL's tuner compares (src/graph/topo.h: SM90_NVLINK_BW = 20.6 GB/s per NVLink4 link,
 * SM100_NVLINK_BW = 40.1 for NVLink5). NCCL's search looks for as many channels as the links carry at a
 * speed from its speed array and then duplicates the channels (search.cc "Duplicate channels"), which
 * on an 18-link H100/H200 board gives 2 × 12 = 24 channels — the count NCCL 2.28.9 reported on the
 * 4 × H200 machine of experiments/nccl-h200. ccsim uses nChannels = min(32, 2 × ⌊total / 30 GB/s⌋)
 * for NVLink graphs (30 GB/s is the search speed that yields 12 channels there) and 2 channels on
 * PCIe graphs; bwIntra = total / nChannels.
 *
 * <p>Rings: on one host ranks in order. On several hosts the ring of channel c is rail-aligned:
 * host k enters and leaves at local GPU s_k = (c − k) mod ppn, visiting s_k, s_k+1, …, s_k−1, so that
 * every inter-host hop goes from GPU x of host k to GPU x of host k+1 through the NIC of rail x, as
 * NCCL's rail-optimized rings keep inter-node traffic on one leaf (the closing hop from the last host
 * to the first may cross rails).
 */
public record CommGraph(int nRanks, int nNodes, int gpusPerNode, LinkClass intraClass, double intraBwGBs,
                        double interBwGBs, int nChannels, int[] gpuOfRank, CommLayout layout, NvlsGraph nvls) {

    /** NVLink4 bandwidth per link NCCL assumes on sm90 (src/graph/topo.h SM90_NVLINK_BW). */
    public static final double SM90_NVLINK_BW_GBS = Tuner.SM90_NVLINK_BW_GBS;
    /** NVLink5 bandwidth per link NCCL assumes on sm100 (src/graph/topo.h SM100_NVLINK_BW). */
    public static final double SM100_NVLINK_BW_GBS = Tuner.SM100_NVLINK_BW_GBS;
    private static final double SEARCH_SPEED_GBS = 30.0;

    /**
     * The graph of a communicator over the first {@code nRanks} GPUs of {@code topo} (rank order:
     * host, then local index).
     */
    public static CommGraph of(Topology topo, int nRanks) {
        List<Node> gpus = topo.gpus();
        if (nRanks < 1 || nRanks > gpus.size()) {
            throw new IllegalArgumentException("ranks must be in 1.." + gpus.size() + " for topology " + topo.name() + ", got " + nRanks);
        }
        int[] nodes = new int[nRanks];
        for (int r = 0; r < nRanks; r++) nodes[r] = topo.nodeIndex(gpus.get(r).id());
        return of(topo, nodes);
    }

    /**
     * The graph of a communicator whose rank r runs on GPU node {@code gpuNodeIndices[r]} (topology node
     * indices), e.g. a sub-communicator such as an expert-data-parallel group with one GPU per host. The
     * ranks of one host must be consecutive and every host must hold the same number of them (what the
     * ring orders and {@link CommLayout} assume).
     *
     * @throws IllegalArgumentException for an empty list, a node that is not a GPU, a GPU listed twice,
     *                                  or ranks of a host that are not consecutive or not equally many per host
     */
    public static CommGraph of(Topology topo, int[] gpuNodeIndices) {
        List<Node> gpus = gpusOf(topo, gpuNodeIndices);
        int nRanks = gpus.size();
        int[] hostOfRank = hostsOf(gpus);
        int nNodes = hostOfRank[nRanks - 1] + 1; // hosts are numbered in rank order and their ranks are consecutive
        int ppn = nRanks / nNodes;
        CommLayout layout = new CommLayout(nRanks, hostOfRank);
        Node g0 = gpus.get(0);
        Intra intra = intraOf(topo, g0, ppn);
        int nCh = intra.nChannels();
        double interBw = 0;
        if (nNodes > 1) {
            Nics nics = nicsOf(topo, g0);
            // Across nodes every channel needs a NIC per direction; ccsim gives each NIC two channels
            // (NCCL's default of two channels per network peer, NCCL_NCHANNELS_PER_NET_PEER = 2).
            nCh = Math.max(1, Math.min(nCh, 2 * nics.count()));
            interBw = nics.totalGBs() / nCh;
        }
        double intraBw = intra.totalGBs() / nCh;
        NvlsGraph nvls = NvlsSearch.of(topo, g0, ppn, nNodes);
        return new CommGraph(nRanks, nNodes, ppn, intra.linkClass(), intraBw, interBw, nCh, gpuNodeIndices.clone(), layout,
                nvls);
    }

    /** The GPU nodes of the ranks. @throws IllegalArgumentException for none, a node that is not a GPU, a GPU twice */
    private static List<Node> gpusOf(Topology topo, int[] gpuNodeIndices) {
        int nRanks = gpuNodeIndices.length;
        if (nRanks < 1) throw new IllegalArgumentException("a communicator needs at least one GPU, got none (topology " + topo.name() + ")");
        List<Node> gpus = new ArrayList<>(nRanks);
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (int r = 0; r < nRanks; r++) {
            int idx = gpuNodeIndices[r];
            if (idx < 0 || idx >= topo.nodes().size() || topo.nodes().get(idx).kind() != NodeKind.GPU) {
                throw new IllegalArgumentException("rank " + r + ": node index " + idx + " is not a GPU of topology " + topo.name()
                        + "; valid: the node indices of its " + topo.gpus().size() + " GPUs");
            }
            if (!seen.add(idx)) {
                throw new IllegalArgumentException("rank " + r + ": GPU " + topo.nodes().get(idx).id() + " is already used by another rank");
            }
            gpus.add(topo.nodes().get(idx));
        }
        return gpus;
    }

    /**
     * Per rank, its host's index in the communicator (0, 1, ... in rank order).
     *
     * @throws IllegalArgumentException if a host's ranks are not consecutive or not as many as every other host's
     */
    private static int[] hostsOf(List<Node> gpus) {
        int nRanks = gpus.size();
        int[] hostOfRank = new int[nRanks];
        Map<Integer, Integer> hostIds = new java.util.LinkedHashMap<>();
        for (int r = 0; r < nRanks; r++) {
            Node g = gpus.get(r);
            Integer known = hostIds.get(g.host());
            if (known != null && known != hostIds.size() - 1) {
                throw new IllegalArgumentException("rank " + r + " (" + g.id() + ") returns to host " + g.host()
                        + " after another host: the ranks of a host must be consecutive");
            }
            hostIds.putIfAbsent(g.host(), hostIds.size());
            hostOfRank[r] = hostIds.get(g.host());
        }
        int nNodes = hostIds.size();
        if (nRanks % nNodes != 0) {
            throw new IllegalArgumentException(nRanks + " ranks over " + nNodes + " hosts: ccsim needs the same number of ranks on every host");
        }
        int ppn = nRanks / nNodes;
        int[] perHost = new int[nNodes];
        for (int h : hostOfRank) perHost[h]++;
        for (int h = 0; h < nNodes; h++) {
            if (perHost[h] != ppn) {
                throw new IllegalArgumentException(nRanks + " ranks over " + nNodes + " hosts but host #" + h + " of the communicator holds "
                        + perHost[h] + ": ccsim needs the same number of ranks (" + ppn + ") on every host");
            }
        }
        return hostOfRank;
    }

    /** The intra-node graph: its link class, its total bandwidth (GB/s) and channel count. */
    private record Intra(LinkClass linkClass, double totalGBs, int nChannels) { }

    /** The intra-node graph of a communicator of {@code ppn} ranks per host: the NVLink port group of {@code g0} if any. */
    private static Intra intraOf(Topology topo, Node g0, int ppn) {
        int lanes = 0;
        boolean nvl5 = "B200".equalsIgnoreCase(g0.attr("model")) || "GB200".equalsIgnoreCase(g0.attr("model"));
        for (LinkGroup grp : topo.fabric()) {
            if (grp.anchor().equals(g0.id()) && grp.members().get(0).kind() == LinkKind.NVLINK) lanes = grp.liveLanes();
        }
        if (lanes == 0) {
            for (Link l : topo.neighbours(g0.id())) {
                if (l.kind() == LinkKind.NVLINK) lanes += l.lanes();
            }
        }
        if (lanes > 0 && ppn > 1) {
            double total = lanes * (nvl5 ? SM100_NVLINK_BW_GBS : SM90_NVLINK_BW_GBS);
            return new Intra(LinkClass.NVLINK, total, Math.max(2, Math.min(32, 2 * (int) Math.floor(total / SEARCH_SPEED_GBS))));
        }
        return new Intra(lanes > 0 ? LinkClass.NVLINK : LinkClass.PCIE, pcieGBs(topo, g0), 2);
    }

    /** The NICs of a host with a network link: their count and total bandwidth per direction (GB/s). */
    private record Nics(double totalGBs, int count) { }

    /** The NICs of {@code g0}'s host. @throws IllegalArgumentException if it has none */
    private static Nics nicsOf(Topology topo, Node g0) {
        double nicTotal = 0;
        int nics = 0;
        for (Node n : topo.nodes()) {
            if (n.kind() == NodeKind.NIC && n.host() == g0.host()) {
                for (Link l : topo.neighbours(n.id())) {
                    if (l.kind() == LinkKind.INFINIBAND || l.kind() == LinkKind.ROCE) {
                        nicTotal += l.bandwidthBytesPerSecPerDirection() / 1e9;
                        nics++;
                        break;
                    }
                }
            }
        }
        if (nicTotal <= 0) throw new IllegalArgumentException("topology " + topo.name() + " has several hosts but no NIC on host " + g0.host());
        return new Nics(nicTotal, nics);
    }

    private static double pcieGBs(Topology topo, Node gpu) {
        double best = 0;
        for (Link l : topo.neighbours(gpu.id())) {
            if (l.kind() == LinkKind.PCIE) best = Math.max(best, l.bandwidthBytesPerSecPerDirection() / 1e9);
        }
        return best > 0 ? best : 24.0; // NCCL's PCI_BW (topo.h) when the topology gives none
    }

    /** The tuner's input for {@code op} of {@code bytes} (NCCL's nBytes) of floats summed on this graph. */
    public TuneInput tuneInput(CollectiveOp op, long bytes) {
        return tuneInput(op, bytes, DataType.FLOAT32, ReduceOp.SUM);
    }

    /** The tuner's input for {@code op} of {@code bytes} (NCCL's nBytes) of {@code dtype} reduced by {@code redop}. */
    public TuneInput tuneInput(CollectiveOp op, long bytes, DataType dtype, ReduceOp redop) {
        return new TuneInput(op, bytes, nRanks, nNodes, gpusPerNode, intraBwGBs, nNodes > 1 ? interBwGBs : 0.0,
                intraClass, nChannels, 0.0, true, nvls, dtype, redop);
    }

    /** Ring orders (lists of ranks) for {@code channels} channels, as described in the class comment. */
    public int[][] ringOrders(int channels) {
        int[][] out = new int[channels][];
        for (int c = 0; c < channels; c++) {
            int[] ring = new int[nRanks];
            int i = 0;
            for (int k = 0; k < nNodes; k++) {
                int s = nNodes == 1 ? 0 : Math.floorMod(c - k, gpusPerNode);
                for (int j = 0; j < gpusPerNode; j++) ring[i++] = k * gpusPerNode + (s + j) % gpusPerNode;
            }
            out[c] = ring;
        }
        return out;
    }

    /** Hosts in order with their ranks. */
    public List<int[]> ranksByHost() {
        List<int[]> out = new ArrayList<>();
        for (int k = 0; k < nNodes; k++) {
            int[] rs = new int[gpusPerNode];
            for (int j = 0; j < gpusPerNode; j++) rs[j] = k * gpusPerNode + j;
            out.add(rs);
        }
        return out;
    }
}
