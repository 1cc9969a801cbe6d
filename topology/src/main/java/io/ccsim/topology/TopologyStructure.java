package io.ccsim.topology;

import io.ccsim.sim.RunControl;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The index data of a topology, shared by all its health variants ({@link Topology#withLinkHealth}): id
 * maps, link endpoints and latencies by index, the adjacency in compressed sparse rows, the groups, the
 * GPUs in rank order and the route cache. Built once by {@link Topology.Builder#build()}; immutable except
 * for the router's cache.
 */
final class TopologyStructure {

    final Map<String, Integer> nodeIndex;
    final Map<String, Integer> linkIndex;
    /** Node index of each link's endpoint a, by link index. */
    final int[] linkA;
    /** Node index of each link's endpoint b, by link index. */
    final int[] linkB;
    /** One-way latency of each link in picoseconds (health does not change it). */
    final long[] linkLatency;
    /** The links incident to node v are {@code adjLink[adjStart[v] .. adjStart[v+1])}, in link order. */
    final int[] adjStart;
    final int[] adjLink;
    final GroupTable groups;
    /** GPUs by host, then local index, then id. */
    final List<Node> gpus;
    /** 1 + the largest host index of any node. */
    final int hosts;
    /** routes by ECMP hash ({@link Routing#ECMP}) */
    final Router router;
    /** routes by destination ({@link Routing#DESTINATION}) */
    final Router destinationRouter;

    /**
     * Indexes {@code nodes} and {@code links} and resolves the groups.
     *
     * @throws IllegalArgumentException naming the topology and the id: a duplicate node or link id, a link to
     *                                  a missing node, or a group error of {@link GroupTable#of}
     */
    TopologyStructure(String name, List<Node> nodes, List<Link> links, List<String> stripedIds,
                      List<List<String>> stripedMembers, RunControl control) {
        int n = nodes.size();
        int m = links.size();
        nodeIndex = indexNodes(name, nodes, control);
        linkIndex = new HashMap<>(m * 2);
        linkA = new int[m];
        linkB = new int[m];
        linkLatency = new long[m];
        indexLinks(name, links, control);
        adjStart = new int[n + 1];
        adjLink = new int[2 * m];
        fillAdjacency(n, m);
        poll(control, 0);
        groups = GroupTable.of(name, links, linkIndex, stripedIds, stripedMembers, control);
        poll(control, 0);
        List<Node> byRank = new ArrayList<>();
        int maxHost = 0;
        for (Node node : nodes) {
            maxHost = Math.max(maxHost, node.host());
            if (node.kind() == NodeKind.GPU) {
                byRank.add(node);
            }
        }
        byRank.sort(Comparator.comparingInt(Node::host).thenComparingInt(Node::localIndex).thenComparing(Node::id));
        gpus = List.copyOf(byRank);
        hosts = maxHost + 1;
        router = new Router(n, Routing.ECMP);
        destinationRouter = new Router(n, Routing.DESTINATION);
    }

    /** The router of {@code r}. */
    Router router(Routing r) {
        return r == Routing.DESTINATION ? destinationRouter : router;
    }

    /** Stops the build if {@code control} asks, every 65,536th item {@code i} (none without a control). */
    static void poll(RunControl control, int i) {
        if (control != null && (i & 0xFFFF) == 0) control.checkpoint();
    }

    private static Map<String, Integer> indexNodes(String name, List<Node> nodes, RunControl control) {
        Map<String, Integer> index = new HashMap<>(nodes.size() * 2);
        for (int i = 0; i < nodes.size(); i++) {
            poll(control, i);
            Integer prev = index.putIfAbsent(nodes.get(i).id(), i);
            if (prev != null) {
                throw new IllegalArgumentException("topology '" + name + "': duplicate node id '"
                        + nodes.get(i).id() + "' (nodes #" + prev + " and #" + i + "); node ids must be unique");
            }
        }
        return index;
    }

    private void indexLinks(String name, List<Link> links, RunControl control) {
        for (int i = 0; i < links.size(); i++) {
            poll(control, i);
            Link l = links.get(i);
            Integer prev = linkIndex.putIfAbsent(l.id(), i);
            if (prev != null) {
                throw new IllegalArgumentException("topology '" + name + "': duplicate link id '" + l.id()
                        + "' (links #" + prev + " and #" + i + "); link ids must be unique");
            }
            Integer a = nodeIndex.get(l.a());
            Integer b = nodeIndex.get(l.b());
            if (a == null || b == null) {
                throw new IllegalArgumentException("topology '" + name + "': link '" + l.id()
                        + "' refers to missing node '" + (a == null ? l.a() : l.b())
                        + "'; endpoints must be ids of declared nodes");
            }
            linkA[i] = a;
            linkB[i] = b;
            linkLatency[i] = l.latencyPs();
        }
    }

    private void fillAdjacency(int n, int m) {
        int[] degree = new int[n + 1];
        for (int i = 0; i < m; i++) {
            degree[linkA[i]]++;
            degree[linkB[i]]++;
        }
        for (int v = 0; v < n; v++) {
            adjStart[v + 1] = adjStart[v] + degree[v];
        }
        int[] fill = Arrays.copyOf(adjStart, n);
        for (int i = 0; i < m; i++) {
            adjLink[fill[linkA[i]]++] = i;
            adjLink[fill[linkB[i]]++] = i;
        }
    }
}
