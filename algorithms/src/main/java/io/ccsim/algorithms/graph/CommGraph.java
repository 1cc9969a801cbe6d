package io.ccsim.algorithms.graph;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.net.HostNics;
import io.ccsim.algorithms.net.NetPolicy;
import io.ccsim.algorithms.tuner.CollNetGraph;
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
 * <p>Across hosts ({@link RailRings}): rings as NCCL's search builds them, rail-aligned — channel c enters every
 * host by its c-th NIC at that NIC's local GPU and descends through the host's GPUs; the exit GPU sends on the
 * same rail (directly, or over PXN through the entry GPU), so no ring hop changes rail. The channel count and the
 * network bandwidth per channel follow NCCL's ring search over the NICs (see the block comment below).
 */
public record CommGraph(int nRanks, int nNodes, int gpusPerNode, LinkClass intraClass, double intraBwGBs,
                        double interBwGBs, int nChannels, int[] gpuOfRank, CommLayout layout, RailRings rails,
                        NvlsGraph nvls, CollNetGraph collNet, TuneInput.NetGraph netGraph) {
    /*
     * Channels across hosts (NVIDIA/nccl v2.28.9 src/graph/search.cc ncclTopoCompute, connect.cc ncclTopoPostset):
     * the ring search starts at the fastest speed of its array (sm90: 48, 45, 42, 40, 30, 24, ... GB/s) not above the
     * NIC's bandwidth and finds floor(nicBw / speed) channels per NIC (each channel debits its NIC by the speed), so
     * T = nics x that at bw = speed. On an NVLink host a channel crosses the NVLink of every GPU but its entry (in)
     * and its exit (out), so the GPU's NVLink (NCCL's per-link constant x links) bounds the count too: S channels
     * fit while S x speed does, or (S - S / ppn) x speed where every GPU is the entry of as many channels (S >= ppn);
     * at lower speeds more channels may fit, down to the speed where T do; the search keeps the largest S x speed
     * (ncclTopoCompareGraphs; ties keep the faster). Beyond one channel a NIC ccsim keeps S a multiple of the NICs
     * (its rails repeat by NIC; an odd count would load some NICs' rings more than the others, which no
     * measurement or run of NCCL's search here has shown). Search channel c tries the c-th NIC first (ncclTopoSearchRecNet
     * over ncclTopoSelectNets' list, in GPU order), so the first S NICs carry the channels. 8 NICs on 8 x H100
     * (370.8 GB/s): 8 at 48, each GPU carrying 7. A GB200 NVL72 rack (72 NICs, 18 x 40.1 = 721.8 GB/s): 15 at 48,
     * 16 at 45.1, no more at lower speeds, so 16 channels on the NICs of the first 16 GPUs: the "16 NICs between MNNVL
     * domains" of NCCL 2.27.3's release notes. NCCL 2.28.9's own search, compiled and run on modelled HGX H100 and
     * NVL72 topologies, finds both (8 at 48; 16 at 45.1).
     * ncclTopoDupChannels doubles them, halving bw, unless bw < 25 or (sm > 80 and bw < 50 and S > 4).
     * ncclTopoPostset doubles the channels again,
     * and once more on sm90+ when bw > 45 and there are fewer than 16. 8 x NDR 400 Gb/s (50 GB/s): 8 at 48 -> no
     * dup -> 16 channels; 4 NICs: 4 at 48 -> 8 at 24 -> 16 channels; 1 NIC: 1 at 48 -> 2 at 24 -> 4 channels;
     * GB200 NVL72: 16 at 45.1 -> no dup -> 32 channels, channel c + 16 on channel c's NIC.
     * ccsim takes min(that, the intra-node channels) and keeps its convention of raw bandwidths: per channel the
     * used NICs' total over the channels, and for the intra-node graph no more than that (NCCL's ring graph across
     * nodes has bwIntra = bwInter, the search speed). So 4 NICs for 8 GPUs give the same 16 channels at half the
     * network bandwidth per channel, and an NVL72 rack's 32 channels get 16 NICs' worth, 25 GB/s each.
     */

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
        return of(topo, nRanks, NetPolicy.DEFAULT);
    }

    /** As {@link #of(Topology, int)} under the network policy {@code policy} (NCCL_CROSS_NIC, NCCL_PXN_DISABLE, ...). */
    public static CommGraph of(Topology topo, int nRanks, NetPolicy policy) {
        List<Node> gpus = topo.gpus();
        if (nRanks < 1 || nRanks > gpus.size()) {
            throw new IllegalArgumentException("ranks must be in 1.." + gpus.size() + " for topology " + topo.name() + ", got " + nRanks);
        }
        int[] nodes = new int[nRanks];
        for (int r = 0; r < nRanks; r++) nodes[r] = topo.nodeIndex(gpus.get(r).id());
        return of(topo, nodes, policy);
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
        return of(topo, gpuNodeIndices, NetPolicy.DEFAULT);
    }

    /**
     * As {@link #of(Topology, int[])} under the network policy {@code policy}.
     *
     * @throws IllegalArgumentException as there, or if the hosts have no NIC the policy's NCCL_IB_HCA selects
     */
    public static CommGraph of(Topology topo, int[] gpuNodeIndices, NetPolicy policy) {
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
        double intraBw;
        RailRings rails;
        Nics netNics = null;
        int[] netHeads = null; // per distinct NIC of a host, its first GPU's local index
        CollNetGraph collNet = CollNetGraph.none("one node: CollNet reduces in the network between nodes");
        TuneInput.NetGraph netGraph = null;
        if (nNodes > 1) {
            HostNics hostNics = new HostNics(topo, policy);
            int[] nicOfLocal = new int[ppn];
            for (int j = 0; j < ppn; j++) nicOfLocal[j] = hostNics.localNic(gpuNodeIndices[j]);
            Nics nics = nicsOf(topo, hostNics, nicOfLocal, g0);
            netNics = nics;
            boolean nvlink = intra.linkClass() == LinkClass.NVLINK && ppn > 1;
            NetSearch search = NetSearch.of(nics, ppn, intra.nvl5(), nvlink ? intra.totalGBs() : 0);
            nCh = Math.max(1, Math.min(nCh, search.commChannels()));
            interBw = search.nicsUsed() * (nics.totalGBs() / nics.count()) / nCh;
            intraBw = Math.min(intra.totalGBs() / nCh, interBw);
            rails = RailRings.across(ppn, nNodes, nicOfLocal, nvlink, policy, search.nicsUsed());
            netGraph = search.tunerGraph(nics.count(), ppn);
            netHeads = headLocals(nicOfLocal);
            collNet = CollNetSearch.of(topo, g0, netHeads, nics.totalGBs() / nics.count(), ppn, nNodes, nCh, intra.nvl5());
        } else {
            intraBw = intra.totalGBs() / nCh;
            rails = RailRings.singleHost(ppn);
        }
        NvlsGraph nvls = netNics == null ? NvlsSearch.of(topo, g0, ppn, nNodes, null, 0)
                : NvlsSearch.of(topo, g0, ppn, nNodes, netHeads, netNics.totalGBs() / netNics.count());
        return new CommGraph(nRanks, nNodes, ppn, intra.linkClass(), intraBw, interBw, nCh, gpuNodeIndices.clone(), layout, rails,
                nvls, collNet, netGraph);
    }

    /** Per distinct local NIC ({@code nicOfLocal}: per local index, −1 for none), the first local index using it. */
    private static int[] headLocals(int[] nicOfLocal) {
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        int[] out = new int[nicOfLocal.length];
        int k = 0;
        for (int j = 0; j < nicOfLocal.length; j++) if (nicOfLocal[j] >= 0 && seen.add(nicOfLocal[j])) out[k++] = j;
        return java.util.Arrays.copyOf(out, k);
    }

    /** NCCL's sm90 and sm100 search speeds across nodes, GB/s (search.cc sm90SpeedArrayInter, sm100SpeedArrayInter). */
    static final double[] SM90_INTER_SPEEDS = {48, 45, 42, 40, 30, 24, 22, 20, 17.5, 15, 12, 6, 3, 2.4, 1.2, 0.24, 0.12};
    static final double[] SM100_INTER_SPEEDS = {96, 48, 45.1, 42, 40, 30, 24, 22, 20, 17.5, 15, 12, 6, 3, 2.4, 1.2, 0.24, 0.12};

    /**
     * What NCCL's ring search across nodes finds (class comment): its channels and their speed (GB/s), the NICs they
     * use (the first ones in GPU order), and the communicator's channels after ncclTopoDupChannels and ncclTopoPostset.
     */
    record NetSearch(int searchChannels, double speed, double undupSpeed, int nicsUsed, int commChannels) {
        /**
         * The ring and tree graphs as NCCL's tuner reads them, on a host of {@code nics} NICs for {@code ppn} GPUs. The
         * tree search looks for the balanced pattern first (a channel's parent traffic on one GPU, its children's on
         * another) and falls back to the plain tree where the NICs cannot carry it: 8 channels on the 8 NICs of an
         * HGX H100 find the plain tree; 16 on an NVL72 rack's 72, and 8 on 4 NICs shared by GPU pairs (both GPUs of a
         * pair on one NIC), the balanced one (NCCL 2.28.9's search on all three).
         */
        TuneInput.NetGraph tunerGraph(int nics, int ppn) {
            return new TuneInput.NetGraph(searchChannels, speed, undupSpeed, nics < ppn || 2 * searchChannels <= nics);
        }

        /**
         * The search over {@code nics} of a host of {@code ppn} GPUs, on sm100 ({@code sm100}) or sm90, every GPU's
         * NVLink carrying {@code nvlinkGBs} (0: the host's GPUs are not joined by NVLink, no bound).
         */
        static NetSearch of(Nics nics, int ppn, boolean sm100, double nvlinkGBs) {
            double[] speeds = sm100 ? SM100_INTER_SPEEDS : SM90_INTER_SPEEDS;
            double nicBw = nics.totalGBs() / nics.count();
            int i = 0;
            while (i < speeds.length - 1 && speeds[i] > nicBw) i++;
            int perNic = Math.max(1, (int) Math.floor(nicBw / speeds[i] + 1e-9));
            int target = nics.count() * perNic;
            int best = 0;
            double bw = speeds[i];
            for (int j = i; j < speeds.length; j++) {
                int n = Math.min(target, MAX_SEARCH_CHANNELS);
                while (n > 1 && nvlinkGBs > 0 && nvlinkLoad(n, ppn) * speeds[j] > nvlinkGBs + 1e-9) n--;
                // beyond one channel a NIC, only as many as every NIC carries alike (ccsim's rails repeat by NIC)
                if (n > nics.count()) n -= n % nics.count();
                if (n * speeds[j] > best * bw + 1e-9) {
                    best = n;
                    bw = speeds[j];
                }
                if (n >= target) break; // lower speeds fit no more channels
            }
            int search = Math.max(1, best);
            int used = Math.min(nics.count(), search); // channel c tries the c-th NIC first (ncclTopoSearchRecNet)
            double undup = bw;
            if (!(bw < 25) && !(bw < 50 && search > 4)) {
                search *= 2;
                bw /= 2;
            }
            int comm = 2 * search;
            if (bw > 45 && comm < 16) comm *= 2;
            return new NetSearch(search, bw, undup, used, Math.min(comm, io.ccsim.algorithms.tuner.NcclEnv.MAX_CHANNELS));
        }
    }

    /** Channels that cross a GPU's NVLink one way when {@code s} channels enter by the first NICs of {@code ppn} GPUs. */
    private static int nvlinkLoad(int s, int ppn) {
        return s < ppn ? s : s - s / ppn;
    }

    /** The most channels NCCL's ring search looks for (init.cc: MAXCHANNELS / 2). */
    private static final int MAX_SEARCH_CHANNELS = 32;

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
    private record Intra(LinkClass linkClass, double totalGBs, int nChannels, boolean nvl5) { }

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
            return new Intra(LinkClass.NVLINK, total, Math.max(2, Math.min(32, 2 * (int) Math.floor(total / SEARCH_SPEED_GBS))), nvl5);
        }
        return new Intra(lanes > 0 ? LinkClass.NVLINK : LinkClass.PCIE, pcieGBs(topo, g0), 2, nvl5);
    }

    /** The NICs the ranks of a host use: their count and total bandwidth per direction (GB/s). */
    record Nics(double totalGBs, int count) { }

    /**
     * The distinct local NICs of a host's ranks ({@code nicOfLocal}).
     *
     * @throws IllegalArgumentException if they have none, saying whether NCCL_IB_HCA left none
     */
    private static Nics nicsOf(Topology topo, HostNics hostNics, int[] nicOfLocal, Node g0) {
        double nicTotal = 0;
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (int nic : nicOfLocal) {
            if (nic < 0 || !seen.add(nic)) continue;
            for (Link l : topo.neighbours(topo.nodes().get(nic).id())) {
                if (l.kind() == LinkKind.INFINIBAND || l.kind() == LinkKind.ROCE) {
                    nicTotal += l.bandwidthBytesPerSecPerDirection() / 1e9;
                    break;
                }
            }
        }
        if (nicTotal <= 0) {
            if (hostNics.hcaSelectsNone()) {
                throw new IllegalArgumentException(io.ccsim.algorithms.tuner.NcclEnv.NCCL_IB_HCA + "=\"" + hostNics.policy().hca().spec()
                        + "\" selects none of the NICs of topology " + topo.name() + "; its NICs are named mlx5_0, mlx5_1, ... on every host");
            }
            throw new IllegalArgumentException("topology " + topo.name() + " has several hosts but no NIC on host " + g0.host());
        }
        return new Nics(nicTotal, seen.size());
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
        // NCCL's ring search keeps every channel on one GPU order (sameChannels) unless the channels enter by
        // different NICs, as rail rings across nodes do; that sets a ring broadcast's latency (Tuner)
        boolean sameChannels = nNodes == 1 || rails.channelNics().length == 1;
        return new TuneInput(op, bytes, nRanks, nNodes, gpusPerNode, intraBwGBs, nNodes > 1 ? interBwGBs : 0.0,
                intraClass, nChannels, 0.0, sameChannels, nvls, dtype, redop, collNet, netGraph);
    }

    /** Ring orders (lists of ranks) for {@code channels} channels: ranks in order on one host, {@link RailRings} across hosts. */
    public int[][] ringOrders(int channels) {
        return rails.orders(channels);
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
