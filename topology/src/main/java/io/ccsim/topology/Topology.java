package io.ccsim.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An immutable hardware graph: nodes, links, the flow-network constraints ({@link #fabric()}), and routes.
 *
 * <p>Build one with {@link #builder(String, long)}. Structural data (indices, adjacency, the route cache)
 * is shared between a topology and the copies made by {@link #withLinkHealth}, because routes do not depend
 * on health: a degraded or down link keeps its routes (NCCL does not re-route around a failed link either;
 * the flow network sees the reduced capacity, a down link stalls its flows).
 */
public final class Topology {

    private final String name;
    private final long seed;
    private final List<Node> nodes;
    private final List<Link> links;
    private final List<LinkGroup> fabric;
    private final Structure s;

    /** Index data shared by all health variants of one topology. */
    static final class Structure {
        final Map<String, Integer> nodeIndex;
        final Map<String, Integer> linkIndex;
        final Map<String, Integer> groupIndex;
        final int[] linkA;
        final int[] linkB;
        /** Latency of each link in picoseconds (health does not change it). */
        final long[] linkLatency;
        final int[] groupOfLink;
        final int[][] groupMembers;
        final boolean[] groupStriped;
        final String[] groupIds;
        final int[] adjStart;
        final int[] adjLink;
        final List<Node> gpus;
        final int hosts;
        final Router router;

        Structure(Map<String, Integer> nodeIndex, Map<String, Integer> linkIndex, Map<String, Integer> groupIndex,
                  int[] linkA, int[] linkB, long[] linkLatency, int[] groupOfLink, int[][] groupMembers,
                  boolean[] groupStriped,
                  String[] groupIds, int[] adjStart, int[] adjLink, List<Node> gpus, int hosts, Router router) {
            this.nodeIndex = nodeIndex;
            this.linkIndex = linkIndex;
            this.groupIndex = groupIndex;
            this.linkA = linkA;
            this.linkB = linkB;
            this.linkLatency = linkLatency;
            this.groupOfLink = groupOfLink;
            this.groupMembers = groupMembers;
            this.groupStriped = groupStriped;
            this.groupIds = groupIds;
            this.adjStart = adjStart;
            this.adjLink = adjLink;
            this.gpus = gpus;
            this.hosts = hosts;
            this.router = router;
        }
    }

    private Topology(String name, long seed, List<Node> nodes, List<Link> links, Structure s) {
        this.name = name;
        this.seed = seed;
        this.nodes = nodes;
        this.links = links;
        this.s = s;
        List<LinkGroup> groups = new ArrayList<>(s.groupIds.length);
        for (int g = 0; g < s.groupIds.length; g++) {
            int[] m = s.groupMembers[g];
            List<Link> members;
            if (m.length == 1) {
                members = List.of(links.get(m[0]));
            } else {
                Link[] arr = new Link[m.length];
                for (int k = 0; k < m.length; k++) {
                    arr[k] = links.get(m[k]);
                }
                members = List.of(arr);
            }
            groups.add(new LinkGroup(g, s.groupIds[g], members, s.groupStriped[g], members.get(0).sharing()));
        }
        this.fabric = Collections.unmodifiableList(groups);
    }

    /** A builder for a topology called {@code name} whose ECMP choices are seeded by {@code seed}. */
    public static Builder builder(String name, long seed) {
        return new Builder(name, seed);
    }

    /** Name, e.g. {@code hgx-h200}. */
    public String name() {
        return name;
    }

    /** Seed of the ECMP hash. */
    public long seed() {
        return seed;
    }

    /** All nodes, in insertion order; the position is {@link #nodeIndex}. */
    public List<Node> nodes() {
        return nodes;
    }

    /** All links, in insertion order; the position is {@link #linkIndex}. */
    public List<Link> links() {
        return links;
    }

    /** The flow-network constraints: every link belongs to exactly one group. Ordered by first member. */
    public List<LinkGroup> fabric() {
        return fabric;
    }

    /** GPUs in rank order: by host, then local index, then id. */
    public List<Node> gpus() {
        return s.gpus;
    }

    /** Number of hosts: 1 + the largest host index of any node. */
    public int hosts() {
        return s.hosts;
    }

    /** The node with this id; error naming the id if none. */
    public Node node(String id) {
        return nodes.get(nodeIndex(id));
    }

    /** The link with this id; error naming the id if none. */
    public Link link(String id) {
        return links.get(linkIndex(id));
    }

    /** Whether a node with this id exists. */
    public boolean hasNode(String id) {
        return s.nodeIndex.containsKey(id);
    }

    /** Position of the node in {@link #nodes()}. */
    public int nodeIndex(String id) {
        Integer i = s.nodeIndex.get(id);
        if (i == null) {
            throw new IllegalArgumentException("topology '" + name + "' has no node '" + id + "' ("
                    + nodes.size() + " nodes, e.g. " + sample(nodes.stream().map(Node::id).toList()) + ")");
        }
        return i;
    }

    /** Position of the link in {@link #links()}. */
    public int linkIndex(String id) {
        Integer i = s.linkIndex.get(id);
        if (i == null) {
            throw new IllegalArgumentException("topology '" + name + "' has no link '" + id + "' ("
                    + links.size() + " links, e.g. " + sample(links.stream().map(Link::id).toList()) + ")");
        }
        return i;
    }

    /** The group of {@link #fabric()} that contains the link. */
    public LinkGroup groupOf(String linkId) {
        return fabric.get(s.groupOfLink[linkIndex(linkId)]);
    }

    /** The group with this id. */
    public LinkGroup group(String groupId) {
        Integer g = s.groupIndex.get(groupId);
        if (g == null) {
            Integer li = s.linkIndex.get(groupId);
            if (li != null && !s.groupStriped[s.groupOfLink[li]]) {
                return fabric.get(s.groupOfLink[li]);
            }
            throw new IllegalArgumentException("topology '" + name + "' has no link group '" + groupId + "'");
        }
        return fabric.get(g);
    }

    /** Links incident to the node, in insertion order. */
    public List<Link> neighbours(String nodeId) {
        int v = nodeIndex(nodeId);
        List<Link> out = new ArrayList<>(s.adjStart[v + 1] - s.adjStart[v]);
        for (int e = s.adjStart[v]; e < s.adjStart[v + 1]; e++) {
            out.add(links.get(s.adjLink[e]));
        }
        return out;
    }

    /** A copy whose link {@code linkId} has health {@code h}; everything else (indices, routes) is shared. */
    public Topology withLinkHealth(String linkId, LinkHealth h) {
        Objects.requireNonNull(h, "health");
        int li = linkIndex(linkId);
        Link[] copy = links.toArray(new Link[0]);
        copy[li] = copy[li].withHealth(h);
        return new Topology(name, seed, nodes, List.of(copy), s);
    }

    /**
     * The shortest route from {@code srcNodeId} to {@code dstNodeId}: fewest hops, then least latency; among
     * equal paths the choice is an ECMP hash of (seed, src, dst, flowKey). See {@link Router}.
     */
    public Route route(String srcNodeId, String dstNodeId, long flowKey) {
        return s.router.route(this, nodeIndex(srcNodeId), nodeIndex(dstNodeId), flowKey);
    }

    /** {@link #route(String, String, long)} by node index. */
    public Route route(int srcIndex, int dstIndex, long flowKey) {
        if (srcIndex < 0 || srcIndex >= nodes.size() || dstIndex < 0 || dstIndex >= nodes.size()) {
            throw new IllegalArgumentException("node index out of range [0, " + nodes.size() + "): src "
                    + srcIndex + ", dst " + dstIndex);
        }
        return s.router.route(this, srcIndex, dstIndex, flowKey);
    }

    Structure structure() {
        return s;
    }

    private static String sample(List<String> ids) {
        return ids.subList(0, Math.min(4, ids.size())).toString();
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Topology t)) {
            return false;
        }
        return name.equals(t.name) && seed == t.seed && nodes.equals(t.nodes) && links.equals(t.links)
                && fabricShape().equals(t.fabricShape());
    }

    private List<Object> fabricShape() {
        List<Object> shape = new ArrayList<>();
        for (int g = 0; g < s.groupIds.length; g++) {
            shape.add(s.groupIds[g]);
            shape.add(s.groupStriped[g]);
            shape.add(Arrays.toString(s.groupMembers[g]));
        }
        return shape;
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, seed, nodes.size(), links.size());
    }

    @Override
    public String toString() {
        return "Topology[" + name + ", " + nodes.size() + " nodes, " + links.size() + " links, "
                + fabric.size() + " groups]";
    }

    /** Collects nodes, links and striped groups, then validates everything in {@link #build()}. */
    public static final class Builder {
        private final String name;
        private final long seed;
        private final List<Node> nodes = new ArrayList<>();
        private final List<Link> links = new ArrayList<>();
        private final List<String> groupIds = new ArrayList<>();
        private final List<List<String>> groupMembers = new ArrayList<>();

        private Builder(String name, long seed) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("topology name must be non-blank");
            }
            this.name = name;
            this.seed = seed;
        }

        /** Adds a node. */
        public Builder node(Node n) {
            nodes.add(Objects.requireNonNull(n, "node"));
            return this;
        }

        /** Adds a link. */
        public Builder link(Link l) {
            links.add(Objects.requireNonNull(l, "link"));
            return this;
        }

        /** Declares a striped group over the named links (all must share endpoint a). */
        public Builder stripedGroup(String id, List<String> memberLinkIds) {
            if (id == null || id.isBlank()) {
                throw new IllegalArgumentException("topology '" + name + "': group id must be non-blank");
            }
            groupIds.add(id);
            groupMembers.add(List.copyOf(memberLinkIds));
            return this;
        }

        /** Validates and builds; errors name the offending id and what is valid. */
        public Topology build() {
            int n = nodes.size();
            Map<String, Integer> nodeIndex = new HashMap<>(n * 2);
            for (int i = 0; i < n; i++) {
                Integer prev = nodeIndex.putIfAbsent(nodes.get(i).id(), i);
                if (prev != null) {
                    throw new IllegalArgumentException("topology '" + name + "': duplicate node id '"
                            + nodes.get(i).id() + "' (nodes #" + prev + " and #" + i + "); node ids must be unique");
                }
            }
            int m = links.size();
            Map<String, Integer> linkIndex = new HashMap<>(m * 2);
            int[] linkA = new int[m];
            int[] linkB = new int[m];
            long[] linkLatency = new long[m];
            int[] degree = new int[n + 1];
            for (int i = 0; i < m; i++) {
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
                degree[a]++;
                degree[b]++;
            }
            int[] adjStart = new int[n + 1];
            for (int v = 0; v < n; v++) {
                adjStart[v + 1] = adjStart[v] + degree[v];
            }
            int[] fill = Arrays.copyOf(adjStart, n);
            int[] adjLink = new int[2 * m];
            for (int i = 0; i < m; i++) {
                adjLink[fill[linkA[i]]++] = i;
                adjLink[fill[linkB[i]]++] = i;
            }
            // groups: striped ones as declared, every other link its own group; ordered by first member
            int[] groupOfLinkTmp = new int[m];
            Arrays.fill(groupOfLinkTmp, -1);
            List<int[]> stripedMembers = new ArrayList<>();
            for (int g = 0; g < groupIds.size(); g++) {
                String gid = groupIds.get(g);
                List<String> ids = groupMembers.get(g);
                if (ids.isEmpty()) {
                    throw new IllegalArgumentException("topology '" + name + "': group '" + gid
                            + "' has no members; a group needs at least one link");
                }
                int[] mem = new int[ids.size()];
                for (int k = 0; k < ids.size(); k++) {
                    Integer li = linkIndex.get(ids.get(k));
                    if (li == null) {
                        throw new IllegalArgumentException("topology '" + name + "': group '" + gid
                                + "' names missing link '" + ids.get(k) + "'");
                    }
                    if (groupOfLinkTmp[li] != -1) {
                        throw new IllegalArgumentException("topology '" + name + "': link '" + ids.get(k)
                                + "' is in two groups ('" + groupIds.get(groupOfLinkTmp[li]) + "' and '" + gid
                                + "'); a link belongs to at most one group");
                    }
                    groupOfLinkTmp[li] = g;
                    mem[k] = li;
                    Link first = links.get(mem[0]);
                    Link l = links.get(li);
                    if (!l.a().equals(first.a())) {
                        throw new IllegalArgumentException("topology '" + name + "': striped group '" + gid
                                + "': every member must start at the same node (endpoint a); '" + l.id()
                                + "' starts at '" + l.a() + "', '" + first.id() + "' at '" + first.a() + "'");
                    }
                    if (l.sharing() != first.sharing()) {
                        throw new IllegalArgumentException("topology '" + name + "': striped group '" + gid
                                + "': members must have the same sharing; '" + l.id() + "' is " + l.sharing()
                                + ", '" + first.id() + "' is " + first.sharing());
                    }
                }
                stripedMembers.add(mem);
            }
            record G(String id, int[] members, boolean striped, int first) { }
            List<G> gs = new ArrayList<>();
            for (int g = 0; g < stripedMembers.size(); g++) {
                int[] mem = stripedMembers.get(g);
                gs.add(new G(groupIds.get(g), mem, true, Arrays.stream(mem).min().orElseThrow()));
            }
            for (int i = 0; i < m; i++) {
                if (groupOfLinkTmp[i] == -1) {
                    gs.add(new G(links.get(i).id(), new int[] {i}, false, i));
                }
            }
            gs.sort(Comparator.comparingInt(G::first));
            int gc = gs.size();
            // only striped groups are indexed by id; a plain group's id is its link's id (looked up via linkIndex)
            Map<String, Integer> groupIndex = new HashMap<>();
            int[] groupOfLink = new int[m];
            int[][] members = new int[gc][];
            boolean[] striped = new boolean[gc];
            String[] gids = new String[gc];
            for (int g = 0; g < gc; g++) {
                G x = gs.get(g);
                Integer prev = x.striped ? groupIndex.putIfAbsent(x.id, g) : null;
                if (x.striped && prev == null && linkIndex.containsKey(x.id)) {
                    prev = linkIndex.get(x.id);
                }
                if (prev != null) {
                    throw new IllegalArgumentException("topology '" + name + "': group id '" + x.id
                            + "' is used twice (a plain link's group has the link's id); group ids must be unique");
                }
                members[g] = x.members;
                striped[g] = x.striped;
                gids[g] = x.id;
                for (int li : x.members) {
                    groupOfLink[li] = g;
                }
            }
            List<Node> gpus = new ArrayList<>();
            int maxHost = 0;
            for (Node node : nodes) {
                maxHost = Math.max(maxHost, node.host());
                if (node.kind() == NodeKind.GPU) {
                    gpus.add(node);
                }
            }
            gpus.sort(Comparator.comparingInt(Node::host).thenComparingInt(Node::localIndex)
                    .thenComparing(Node::id));
            Structure st = new Structure(nodeIndex, linkIndex, groupIndex, linkA, linkB, linkLatency, groupOfLink,
                    members,
                    striped, gids, adjStart, adjLink, List.copyOf(gpus), maxHost + 1, new Router(n));
            return new Topology(name, seed, List.copyOf(nodes), List.copyOf(links), st);
        }
    }
}
