package io.ccsim.topology;

import io.ccsim.sim.RunControl;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * An immutable hardware graph: nodes, links, the flow-network constraints ({@link #fabric()}), and routes.
 *
 * <p>Build one with {@link #builder(String, long)}. Routes do not depend on health: a degraded or down link
 * keeps its routes, so the copies made by {@link #withLinkHealth} share the indices, adjacency and route
 * cache of the original. Thread-safe.
 */
public final class Topology {

    /* Keeping routes through a failed link matches NCCL, which does not re-route around one either: the
       flow network sees the reduced capacity, and a down link stalls its flows. */

    private final String name;
    private final long seed;
    private final Routing routing;
    private final List<Node> nodes;
    private final List<Link> links;
    private final List<LinkGroup> fabric;
    private final TopologyStructure s;

    private Topology(String name, long seed, Routing routing, List<Node> nodes, List<Link> links, TopologyStructure s,
                     RunControl control) {
        this.name = name;
        this.seed = seed;
        this.routing = routing;
        this.nodes = nodes;
        this.links = links;
        this.s = s;
        GroupTable table = s.groups;
        List<LinkGroup> groups = new ArrayList<>(table.size());
        for (int g = 0; g < table.size(); g++) {
            TopologyStructure.poll(control, g);
            int[] m = table.members[g];
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
            groups.add(new LinkGroup(g, table.ids[g], members, table.striped[g], members.get(0).sharing()));
        }
        this.fabric = Collections.unmodifiableList(groups);
    }

    /**
     * A builder for a topology called {@code name} whose ECMP choices are seeded by {@code seed}.
     *
     * @throws IllegalArgumentException if {@code name} is null or blank
     */
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

    /**
     * How routes choose among equal shortest paths: the fabric's own ({@link Routing#ofFabric}: by destination on
     * InfiniBand, ECMP on RoCE) unless {@link #withRouting} set another.
     */
    public Routing routing() {
        return routing;
    }

    /**
     * A copy whose routes choose among equal shortest paths by {@code r}; nodes, links, health and indices are shared,
     * routes are those of {@code r}.
     */
    public Topology withRouting(Routing r) {
        Objects.requireNonNull(r, "routing");
        return r == routing ? this : new Topology(name, seed, r, nodes, links, s, null);
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
    int hosts() {
        return s.hosts;
    }

    /**
     * The node with this id.
     *
     * @throws IllegalArgumentException naming the id and a few valid ones, if there is none
     */
    public Node node(String id) {
        return nodes.get(nodeIndex(id));
    }

    /**
     * The link with this id.
     *
     * @throws IllegalArgumentException naming the id and a few valid ones, if there is none
     */
    public Link link(String id) {
        return links.get(linkIndex(id));
    }

    /** Whether a node with this id exists. */
    public boolean hasNode(String id) {
        return s.nodeIndex.containsKey(id);
    }

    /**
     * Position of the node in {@link #nodes()}.
     *
     * @throws IllegalArgumentException naming the id and a few valid ones, if there is none
     */
    public int nodeIndex(String id) {
        Integer i = s.nodeIndex.get(id);
        if (i == null) {
            throw new IllegalArgumentException("topology '" + name + "' has no node '" + id + "' ("
                    + nodes.size() + " nodes, e.g. " + sample(nodes.stream().map(Node::id).toList()) + ")");
        }
        return i;
    }

    /**
     * Position of the link in {@link #links()}.
     *
     * @throws IllegalArgumentException naming the id and a few valid ones, if there is none
     */
    public int linkIndex(String id) {
        Integer i = s.linkIndex.get(id);
        if (i == null) {
            throw new IllegalArgumentException("topology '" + name + "' has no link '" + id + "' ("
                    + links.size() + " links, e.g. " + sample(links.stream().map(Link::id).toList()) + ")");
        }
        return i;
    }

    /**
     * The group of {@link #fabric()} that contains the link.
     *
     * @throws IllegalArgumentException if there is no such link
     */
    public LinkGroup groupOf(String linkId) {
        return fabric.get(s.groups.ofLink[linkIndex(linkId)]);
    }

    /**
     * The group with this id: a striped group's id, or the id of a link in no striped group.
     *
     * @throws IllegalArgumentException if there is no such group
     */
    public LinkGroup group(String groupId) {
        Integer g = s.groups.stripedIndex.get(groupId);
        if (g == null) {
            Integer li = s.linkIndex.get(groupId);
            if (li != null && !s.groups.striped[s.groups.ofLink[li]]) {
                return fabric.get(s.groups.ofLink[li]);
            }
            throw new IllegalArgumentException("topology '" + name + "' has no link group '" + groupId + "'");
        }
        return fabric.get(g);
    }

    /** The number of links incident to the node at index {@code v} ({@link #nodeIndex}). */
    public int degree(int v) {
        return s.adjStart[v + 1] - s.adjStart[v];
    }

    /**
     * The {@code i}-th link incident to the node at index {@code v}, as an index into {@link #links()}, in the order
     * {@link #neighbours} lists them ({@code 0 <= i < degree(v)}).
     */
    public int neighbourLink(int v, int i) {
        return s.adjLink[s.adjStart[v] + i];
    }

    /** The index of link {@code link}'s {@link Link#a()} end. */
    public int linkA(int link) {
        return s.linkA[link];
    }

    /** The index of the end of link {@code link} that is not node {@code v} (one of its ends). */
    public int otherEnd(int link, int v) {
        return s.linkA[link] == v ? s.linkB[link] : s.linkA[link];
    }

    /** The index in {@link #fabric()} of the group that contains link {@code link}. */
    public int groupIndexOfLink(int link) {
        return s.groups.ofLink[link];
    }

    /**
     * Links incident to the node, in insertion order.
     *
     * @throws IllegalArgumentException if there is no such node
     */
    public List<Link> neighbours(String nodeId) {
        int v = nodeIndex(nodeId);
        List<Link> out = new ArrayList<>(s.adjStart[v + 1] - s.adjStart[v]);
        for (int e = s.adjStart[v]; e < s.adjStart[v + 1]; e++) {
            out.add(links.get(s.adjLink[e]));
        }
        return out;
    }

    /**
     * A copy whose link {@code linkId} has health {@code h}; everything else (indices, routes) is shared.
     *
     * @throws IllegalArgumentException if there is no such link
     */
    public Topology withLinkHealth(String linkId, LinkHealth h) {
        Objects.requireNonNull(h, "health");
        int li = linkIndex(linkId);
        Link[] copy = links.toArray(new Link[0]);
        copy[li] = copy[li].withHealth(h);
        return new Topology(name, seed, routing, nodes, List.of(copy), s, null);
    }

    /**
     * A copy with nodes and links replaced one for one (same ids, kinds and endpoints, in the same order), for
     * changes of attributes, rates or health that leave the graph as it is: indices, groups and routes are shared.
     *
     * @throws IllegalArgumentException if a replacement changes an id, a kind or an endpoint, or the counts differ
     */
    Topology withReplaced(List<Node> newNodes, List<Link> newLinks) {
        if (newNodes.size() != nodes.size() || newLinks.size() != links.size()) {
            throw new IllegalArgumentException("topology '" + name + "': a replacement keeps the " + nodes.size()
                    + " nodes and " + links.size() + " links, got " + newNodes.size() + " and " + newLinks.size());
        }
        for (int i = 0; i < nodes.size(); i++) {
            Node o = nodes.get(i);
            Node n = newNodes.get(i);
            if (!o.id().equals(n.id()) || o.kind() != n.kind() || o.host() != n.host()) {
                throw new IllegalArgumentException("topology '" + name + "': node " + i + " replaced by another node ("
                        + o.id() + " -> " + n.id() + ")");
            }
        }
        for (int i = 0; i < links.size(); i++) {
            Link o = links.get(i);
            Link n = newLinks.get(i);
            if (!o.id().equals(n.id()) || !o.a().equals(n.a()) || !o.b().equals(n.b()) || o.kind() != n.kind()
                    || o.sharing() != n.sharing()) {
                throw new IllegalArgumentException("topology '" + name + "': link " + o.id() + " replaced by another link ("
                        + n.id() + ")");
            }
        }
        return new Topology(name, seed, routing, List.copyOf(newNodes), List.copyOf(newLinks), s, null);
    }

    /**
     * The shortest route from {@code srcNodeId} to {@code dstNodeId}: fewest hops, then least latency; among
     * equal paths the choice is an ECMP hash of (seed, src, dst, flowKey), or the destination's (see
     * {@link #routing()}), the same on every call. Routes
     * are cached: use a few flow keys per connection, not one per message.
     *
     * @throws IllegalArgumentException for an unknown node, or if {@code dstNodeId} cannot be reached
     */
    public Route route(String srcNodeId, String dstNodeId, long flowKey) {
        return s.router(routing).route(this, nodeIndex(srcNodeId), nodeIndex(dstNodeId), flowKey);
    }

    /**
     * {@link #route(String, String, long)} by node index.
     *
     * @throws IllegalArgumentException for an index outside {@code [0, nodes().size())}, or if {@code dstIndex}
     *                                  cannot be reached
     */
    public Route route(int srcIndex, int dstIndex, long flowKey) {
        if (srcIndex < 0 || srcIndex >= nodes.size() || dstIndex < 0 || dstIndex >= nodes.size()) {
            throw new IllegalArgumentException("node index out of range [0, " + nodes.size() + "): src "
                    + srcIndex + ", dst " + dstIndex);
        }
        return s.router(routing).route(this, srcIndex, dstIndex, flowKey);
    }

    TopologyStructure structure() {
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
        return name.equals(t.name) && seed == t.seed && routing == t.routing && nodes.equals(t.nodes) && links.equals(t.links)
                && fabricShape().equals(t.fabricShape());
    }

    private List<Object> fabricShape() {
        List<Object> shape = new ArrayList<>();
        for (int g = 0; g < s.groups.size(); g++) {
            shape.add(s.groups.ids[g]);
            shape.add(s.groups.striped[g]);
            shape.add(Arrays.toString(s.groups.members[g]));
        }
        return shape;
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, seed, routing, nodes.size(), links.size());
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
        private RunControl control;

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

        /**
         * Declares a striped group over the named links (all must share endpoint a and sharing; checked by
         * {@link #build()}).
         *
         * @throws IllegalArgumentException if {@code id} is null or blank
         */
        public Builder stripedGroup(String id, List<String> memberLinkIds) {
            if (id == null || id.isBlank()) {
                throw new IllegalArgumentException("topology '" + name + "': group id must be non-blank");
            }
            groupIds.add(id);
            groupMembers.add(List.copyOf(memberLinkIds));
            return this;
        }

        /**
         * Lets {@code c} stop {@link #build()}: a stop requested there ends it with
         * {@link io.ccsim.sim.RunStoppedException} within a fraction of a second (checked every 65,536 nodes, links
         * or groups). Null, the default, checks nothing.
         */
        public Builder stopWith(RunControl c) {
            this.control = c;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @throws IllegalArgumentException naming the topology and the offending id: a duplicate node, link or
         *                                  group id, a link to a missing node, a striped group without members,
         *                                  with a missing link, a link in two groups, or members that differ in
         *                                  endpoint a or sharing
         */
        public Topology build() {
            TopologyStructure st = new TopologyStructure(name, nodes, links, groupIds, groupMembers, control);
            return new Topology(name, seed, Routing.ofFabric(links), List.copyOf(nodes), List.copyOf(links), st, control);
        }
    }
}
