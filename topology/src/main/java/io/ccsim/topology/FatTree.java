package io.ccsim.topology;

import java.util.List;

/**
 * Rail-optimized two-level fat-tree of NDR InfiniBand (the DGX SuperPOD design): NIC r of every host goes
 * to a leaf of rail r; a leaf has {@code down} host ports and {@code up} spine ports, with
 * {@code down + up <= 64} (Quantum-2 QM9700 radix) and {@code down / up = oversubscription}: at 1:1, 32
 * down and 32 up. A rail with more hosts than {@code down} gets several leaves (hosts assigned to leaves in
 * order). Leaf uplink {@code k} goes to spine {@code k}, so there are {@code up} spines shared by all rails;
 * a spine stands for a spine plane (its port count, rails x leaves per rail, is not limited to 64 — a real
 * cluster that large would use a third level or director switches; the bandwidth per leaf is what the model
 * keeps right). NIC-to-leaf cables run at the NIC's rate, leaf-to-spine cables at NDR 400 Gb/s.
 * Ids: {@code leaf.r<rail>.<j>}, {@code spine.<k>}, links {@code <nic>~<leaf>} and
 * {@code <leaf>~<spine>}.
 *
 * <p><b>SHARP.</b> Built with {@code sharp}, every leaf and spine carries the attributes {@code sharp} = {@code true}
 * and {@code sharp_version} = {@code 3}: an NVIDIA Quantum-2 switch with SHARPv3 streaming aggregation, which
 * reduces the data of its ports in the switch (what NCCL's CollNet algorithms use through the SHARP plugin). Its
 * aggregation runs at the ports' line rate: no public figure gives the Quantum-2 aggregation throughput apart from
 * its ports, so ccsim adds no constraint of its own beyond the links.
 */
final class FatTree {

    private FatTree() {
    }

    /*
     * Leaf ports: down + up <= radix and down / up = oversubscription give down = floor(radix x o / (1 + o))
     * host ports (fewer when there are fewer hosts) and up = ceil(down / o) spine ports; at 1:1 and radix 64,
     * 32 + 32. A rail needs ceil(hosts / down) leaves.
     */

    /**
     * Adds the leaves, the spines and their links for the given hosts.
     *
     * @param b                the builder that already holds the hosts
     * @param nicsByHost       NIC ids of every host by rail; every host needs the same number, at least one
     * @param nicBandwidth     line rate of the NICs, bytes/s per direction
     * @param oversubscription leaf down/up port ratio, >= 1
     * @throws IllegalArgumentException if a host has another NIC count than host 0
     */
    static void add(Topology.Builder b, List<List<String>> nicsByHost, double nicBandwidth, double oversubscription) {
        add(b, nicsByHost, nicBandwidth, oversubscription, false);
    }

    /** As {@link #add(Topology.Builder, List, double, double)}, with SHARP-capable switches if {@code sharp}. */
    static void add(Topology.Builder b, List<List<String>> nicsByHost, double nicBandwidth, double oversubscription,
                    boolean sharp) {
        int hosts = nicsByHost.size();
        int rails = nicsByHost.get(0).size();
        int down = Math.min(hosts, hostsPerLeaf(oversubscription));
        int leavesPerRail = (hosts + down - 1) / down;
        int up = Math.max(1, (int) Math.ceil(down / oversubscription));
        for (int k = 0; k < up; k++) {
            b.node(new Node("spine." + k, NodeKind.NET_SWITCH, -1, k, attrs(sharp, "tier", "spine")));
        }
        for (int r = 0; r < rails; r++) {
            for (int j = 0; j < leavesPerRail; j++) {
                String leaf = "leaf.r" + r + "." + j;
                b.node(new Node(leaf, NodeKind.NET_SWITCH, -1, r * leavesPerRail + j,
                        attrs(sharp, "tier", "leaf", "rail", Integer.toString(r))));
                for (int k = 0; k < up; k++) {
                    b.link(Boards.link(leaf, "spine." + k, LinkKind.INFINIBAND, Hardware.NDR_BW,
                            Hardware.SWITCH_LATENCY_PS, 1, 0));
                }
            }
            for (int h = 0; h < hosts; h++) {
                List<String> nics = nicsByHost.get(h);
                if (nics.size() != rails) {
                    throw new IllegalArgumentException("host " + h + " has " + nics.size() + " NICs but host 0 has "
                            + rails + "; every host of a rail-optimized cluster needs the same NIC count");
                }
                b.link(Boards.link(nics.get(r), "leaf.r" + r + "." + (h / down), LinkKind.INFINIBAND,
                        nicBandwidth, Hardware.NIC_LEAF_LATENCY_PS, 1, 0));
            }
        }
    }

    /**
     * The switches and cables {@link #add} lays out for {@code hosts} hosts of {@code rails} NICs: {nodes, links}.
     */
    static long[] size(long hosts, int rails, double oversubscription) {
        long down = Math.min(hosts, hostsPerLeaf(oversubscription));
        long leavesPerRail = (hosts + down - 1) / down;
        long up = Math.max(1, (long) Math.ceil(down / oversubscription));
        long leaves = rails * leavesPerRail;
        return new long[] {up + leaves, leaves * up + hosts * rails};
    }

    /** Host ports of a leaf, the hosts of a rail one leaf takes: floor(radix × o / (1 + o)), 32 at 1:1. */
    static int hostsPerLeaf(double oversubscription) {
        return (int) Math.floor(Hardware.NDR_SWITCH_RADIX * oversubscription / (1 + oversubscription));
    }

    /** The switch attributes {@code kv} (key, value, ...), plus SHARP's when {@code sharp}. */
    private static java.util.Map<String, String> attrs(boolean sharp, String... kv) {
        java.util.Map<String, String> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put(kv[i], kv[i + 1]);
        if (sharp) {
            m.put(SHARP, "true");
            m.put("sharp_version", "3");
        }
        return m;
    }

    /** The node attribute that marks a SHARP-capable network switch ({@code "true"}). */
    static final String SHARP = "sharp";
}
