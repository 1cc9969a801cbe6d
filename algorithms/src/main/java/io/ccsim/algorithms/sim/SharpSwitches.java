package io.ccsim.algorithms.sim;

import io.ccsim.algorithms.net.HostNics;
import io.ccsim.topology.Link;
import io.ccsim.topology.LinkKind;
import io.ccsim.topology.Node;
import io.ccsim.topology.NodeKind;
import io.ccsim.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Which SHARP-capable network switch aggregates a CollNet group: the head GPUs of one local index, one per host,
 * whose NICs all sit on one rail of a rail-optimized fat-tree.
 */
final class SharpSwitches {
    /*
     * NCCL's CollNet connects, per head index, one collective communicator over the heads of every node
     * (transport/coll_net.cc: the CollNet peer of a head is "nRanks", backed by the plugin; the SHARP plugin's
     * sharp_coll_comm_init over those ranks). SHARP's Aggregation Manager builds an aggregation tree over the switches
     * between the group's HCAs (NVIDIA SHARP Rev 3.x, "Introduction": aggregation nodes in the switches, a tree per
     * group, results returned down the tree); the reduction happens at the lowest switch the group's ports share:
     *  - all the group's NICs under one leaf (a rail of up to 32 hosts at 1:1 on Quantum-2): that leaf aggregates, no
     *    data reaches a spine;
     *  - NICs under several leaves of the rail: the leaves aggregate their hosts and a spine, the tree's root, combines
     *    the leaves. ccsim maps the actor to that spine (spine (rail mod spines) of those the leaves share, so rails
     *    spread over the spines). What crosses a leaf's uplink is one stream per leaf where the leaf can combine or copy
     *    the data: a reduction going up (the leaf's partial sum), a result every head receives going down (the leaf
     *    replicates it). There the first head under each leaf (host order) connects through the uplink to the spine
     *    and the leaf's other heads connect to their leaf only (leafEntries), so the uplink carries one slice a leaf,
     *    as SHARP's tree does; the step at the switch still waits for every head's slice. Data that differs per host
     *    (an all-gather's windows going up, a reduce-scatter's going down) crosses the uplink once per head.
     * Quantum-2 runs several streaming aggregations at once, one active tree per port (NVIDIA SHARP Rev 3.13.0,
     * "General Information"), so the rails' groups do not serialize on a shared spine.
     */
    private SharpSwitches() { }

    /** The node attribute of a SHARP-capable switch (value {@code true}). */
    static final String SHARP = "sharp";

    /**
     * The network switch (node index) that aggregates for GPU nodes {@code heads} (one per host, one NIC rail).
     *
     * @throws IllegalArgumentException if a head has no NIC, or the switch that would aggregate is not SHARP-capable
     */
    static int aggregator(Topology topo, HostNics nics, int[] heads, int rail) {
        TreeSet<Integer> leaves = new TreeSet<>();
        for (int g : heads) leaves.add(leafOf(topo, nics, g));
        int sw;
        if (leaves.size() == 1) {
            sw = leaves.first();
        } else {
            List<Integer> common = null;
            for (int leaf : leaves) {
                List<Integer> up = switchesOf(topo, topo.nodes().get(leaf));
                if (common == null) common = new ArrayList<>(up);
                else common.retainAll(up);
            }
            if (common == null || common.isEmpty()) {
                throw new IllegalArgumentException("the leaves of rail " + rail + " of topology " + topo.name()
                        + " share no spine, so no switch can aggregate its CollNet group");
            }
            sw = common.get(rail % common.size());
        }
        Node n = topo.nodes().get(sw);
        if (!"true".equals(n.attr(SHARP))) {
            throw new IllegalArgumentException("CollNet needs SHARP-capable switches, but " + n.id() + " of topology "
                    + topo.name() + " is not (build the fat-tree with --sharp, or give its switches \"sharp\": \"true\")");
        }
        return sw;
    }

    /**
     * Per head ({@code heads[k]}, one per host in host order): the switch its connection with {@code aggregator} ends
     * at (going up) or starts at (going down) where its leaf combines or copies the data (block comment): the aggregator
     * for the first head under each leaf and wherever the aggregator is that leaf, else the head's leaf.
     */
    static int[] leafEntries(Topology topo, HostNics nics, int[] heads, int aggregator) {
        int[] entry = new int[heads.length];
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (int k = 0; k < heads.length; k++) {
            int leaf = leafOf(topo, nics, heads[k]);
            entry[k] = leaf == aggregator || seen.add(leaf) ? aggregator : leaf;
        }
        return entry;
    }

    /** The leaf switch (node index) of GPU {@code g}'s local NIC. */
    private static int leafOf(Topology topo, HostNics nics, int g) {
        int nic = nics.localNic(g);
        if (nic < 0) {
            throw new IllegalArgumentException("CollNet needs a NIC for GPU " + topo.nodes().get(g).id() + " of topology "
                    + topo.name());
        }
        return switchesOf(topo, topo.nodes().get(nic)).get(0);
    }

    /** The network switches linked to {@code node} (node indices, ascending). */
    private static List<Integer> switchesOf(Topology topo, Node node) {
        TreeSet<Integer> out = new TreeSet<>();
        for (Link l : topo.neighbours(node.id())) {
            if (l.kind() != LinkKind.INFINIBAND && l.kind() != LinkKind.ROCE) continue;
            Node o = topo.node(l.other(node.id()));
            if (o.kind() == NodeKind.NET_SWITCH) out.add(topo.nodeIndex(o.id()));
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(node.id() + " of topology " + topo.name() + " reaches no network switch");
        }
        return new ArrayList<>(out);
    }
}
