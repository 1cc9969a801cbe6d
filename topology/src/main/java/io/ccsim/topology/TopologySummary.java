package io.ccsim.topology;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Figures for humans (the CLI): counts and per-GPU bandwidths in bytes/s per direction.
 *
 * <p>Bisection bandwidth of the GPU set (bytes/s per direction across the cut), computed structurally:
 * <ul>
 * <li>one host whose GPUs all have a striped NVLink group (NVSwitch board): the switch is non-blocking, so
 *     {@code (n/2) x min per-GPU NVLink capacity};</li>
 * <li>one host otherwise (PCIe box, point-to-point NVLink): the max flow (Edmonds-Karp, link capacities in
 *     both directions) between the first and second half of the GPUs in rank order — the cut of that
 *     bisection, not the minimum over all bisections;</li>
 * <li>several hosts under the rail-optimized fat-tree: half the hosts talk to the other half through their
 *     NICs, {@code (hosts/2) x NIC bandwidth per host}, reduced by the leaf oversubscription
 *     {@code min(1, up/down)} when a rail has several leaves (with one leaf per rail, rail traffic never
 *     reaches a spine).</li>
 * </ul>
 *
 * @param name            the topology's name
 * @param hosts           number of hosts, >= 1
 * @param nodeCounts      nodes per kind (kinds without nodes absent), in kind order
 * @param linkCounts      links per kind (kinds without links absent), in kind order
 * @param nvlinkPerGpu    NVLink bandwidth of the first GPU: its striped group's nominal capacity, else the sum
 *                        of its NVLinks; bytes/s per direction, 0 without GPUs
 * @param pciePerGpu      sum of the first GPU's PCIe links, bytes/s per direction
 * @param networkPerGpu   NIC line rate of the first GPU's host divided by its GPUs, bytes/s per direction
 * @param bisection       bisection bandwidth of the GPUs as above, bytes/s per direction
 * @param bisectionMethod which of the three computations gave {@code bisection}, for humans
 * @param routing         how routes choose among equal network paths ({@link Topology#routing()})
 */
public record TopologySummary(String name, int hosts, Map<NodeKind, Integer> nodeCounts,
                              Map<LinkKind, Integer> linkCounts, double nvlinkPerGpu, double pciePerGpu,
                              double networkPerGpu, double bisection, String bisectionMethod, Routing routing) {

    public TopologySummary {
        nodeCounts = Collections.unmodifiableMap(new EnumMap<>(nodeCounts));
        linkCounts = Collections.unmodifiableMap(new EnumMap<>(linkCounts));
    }

    /** Summarizes {@code t}. Per-GPU figures are those of the first GPU in rank order (0 if none). */
    public static TopologySummary of(Topology t) {
        Map<NodeKind, Integer> nodes = new EnumMap<>(NodeKind.class);
        for (Node n : t.nodes()) {
            nodes.merge(n.kind(), 1, Integer::sum);
        }
        Map<LinkKind, Integer> links = new EnumMap<>(LinkKind.class);
        for (Link l : t.links()) {
            links.merge(l.kind(), 1, Integer::sum);
        }
        List<Node> gpus = t.gpus();
        double nvl = 0;
        double pcie = 0;
        double net = 0;
        if (!gpus.isEmpty()) {
            nvl = nvlinkOf(t, gpus.get(0));
            for (Link l : t.neighbours(gpus.get(0).id())) {
                if (l.kind() == LinkKind.PCIE) {
                    pcie += l.bandwidthBytesPerSecPerDirection();
                }
            }
            int host = gpus.get(0).host();
            double nicBw = 0;
            long gpusInHost = gpus.stream().filter(g -> g.host() == host).count();
            for (Node n : t.nodes()) {
                if (n.kind() == NodeKind.NIC && n.host() == host) {
                    nicBw += nicRate(t, n);
                }
            }
            net = nicBw / gpusInHost;
        }
        double bis;
        String method;
        if (gpus.size() < 2) {
            bis = 0;
            method = "fewer than 2 GPUs";
        } else if (t.hosts() == 1 && gpus.stream().allMatch(g -> stripedNvlink(t, g) != null)) {
            double min = gpus.stream().mapToDouble(g -> stripedNvlink(t, g).nominalCapacityBytesPerSec()).min()
                    .orElse(0);
            bis = (gpus.size() / 2) * min;
            method = "NVSwitch non-blocking: (n/2) x per-GPU NVLink";
        } else if (t.hosts() == 1) {
            bis = maxFlow(t, gpus);
            method = "max flow between the rank-order halves";
        } else {
            bis = fatTree(t, gpus);
            method = "fat-tree: (hosts/2) x NIC bandwidth per host x min(1, leaf up/down)";
        }
        return new TopologySummary(t.name(), t.hosts(), nodes, links, nvl, pcie, net, bis, method, t.routing());
    }

    private static LinkGroup stripedNvlink(Topology t, Node gpu) {
        for (Link l : t.neighbours(gpu.id())) {
            if (l.kind() == LinkKind.NVLINK) {
                LinkGroup g = t.groupOf(l.id());
                if (g.striped()) {
                    return g;
                }
            }
        }
        return null;
    }

    private static double nvlinkOf(Topology t, Node gpu) {
        LinkGroup g = stripedNvlink(t, gpu);
        if (g != null) {
            return g.nominalCapacityBytesPerSec();
        }
        double sum = 0;
        for (Link l : t.neighbours(gpu.id())) {
            if (l.kind() == LinkKind.NVLINK) {
                sum += l.bandwidthBytesPerSecPerDirection();
            }
        }
        return sum;
    }

    private static double nicRate(Topology t, Node nic) {
        String rate = nic.attr("rate_gbps");
        if (rate != null) {
            return Double.parseDouble(rate) * 1e9 / 8;
        }
        double bw = 0;
        for (Link l : t.neighbours(nic.id())) {
            if (l.kind() == LinkKind.INFINIBAND || l.kind() == LinkKind.ROCE) {
                bw += l.bandwidthBytesPerSecPerDirection();
            }
        }
        return bw;
    }

    private static double fatTree(Topology t, List<Node> gpus) {
        double perHost = 0;
        for (Node n : t.nodes()) {
            if (n.kind() == NodeKind.NIC && n.host() == 0) {
                perHost += nicRate(t, n);
            }
        }
        int down = 0;
        int up = 0;
        int leavesPerRail = 0;
        for (Node n : t.nodes()) {
            if (n.kind() == NodeKind.NET_SWITCH && "leaf".equals(n.attr("tier"))) {
                if ("0".equals(n.attr("rail"))) {
                    leavesPerRail++;
                }
                if (n.localIndex() == 0) {
                    for (Link l : t.neighbours(n.id())) {
                        Node o = t.node(l.other(n.id()));
                        if (o.kind() == NodeKind.NIC) {
                            down++;
                        } else if (o.kind() == NodeKind.NET_SWITCH) {
                            up++;
                        }
                    }
                }
            }
        }
        double factor = leavesPerRail <= 1 || down == 0 ? 1.0 : Math.min(1.0, (double) up / down);
        return (t.hosts() / 2) * perHost * factor;
    }

    private static double maxFlow(Topology t, List<Node> gpus) {
        int n = t.nodes().size() + 2;
        int s = n - 2;
        int sink = n - 1;
        double[][] cap = new double[n][n];
        for (Link l : t.links()) {
            int a = t.nodeIndex(l.a());
            int b = t.nodeIndex(l.b());
            cap[a][b] += l.bandwidthBytesPerSecPerDirection();
            cap[b][a] += l.bandwidthBytesPerSecPerDirection();
        }
        int half = gpus.size() / 2;
        for (int i = 0; i < gpus.size(); i++) {
            int g = t.nodeIndex(gpus.get(i).id());
            if (i < half) {
                cap[s][g] = Double.POSITIVE_INFINITY;
            } else if (i < 2 * half) {
                cap[g][sink] = Double.POSITIVE_INFINITY;
            }
        }
        double flow = 0;
        int[] prev = new int[n];
        while (true) {
            Arrays.fill(prev, -1);
            prev[s] = s;
            ArrayDeque<Integer> q = new ArrayDeque<>();
            q.add(s);
            while (!q.isEmpty() && prev[sink] == -1) {
                int u = q.poll();
                for (int v = 0; v < n; v++) {
                    if (prev[v] == -1 && cap[u][v] > 1e-6) {
                        prev[v] = u;
                        q.add(v);
                    }
                }
            }
            if (prev[sink] == -1) {
                return flow;
            }
            double push = Double.POSITIVE_INFINITY;
            for (int v = sink; v != s; v = prev[v]) {
                push = Math.min(push, cap[prev[v]][v]);
            }
            for (int v = sink; v != s; v = prev[v]) {
                cap[prev[v]][v] -= push;
                cap[v][prev[v]] += push;
            }
            flow += push;
        }
    }

    /** A human-readable rendering, GB/s = 10^9 bytes/s per direction. */
    public String toText() {
        StringBuilder sb = new StringBuilder();
        sb.append("topology ").append(name).append(" (").append(hosts).append(hosts == 1 ? " host" : " hosts")
                .append(")\n");
        sb.append("nodes:");
        nodeCounts.forEach((k, v) -> sb.append(' ').append(k.name().toLowerCase(Locale.ROOT)).append('=').append(v));
        sb.append("\nlinks:");
        linkCounts.forEach((k, v) -> sb.append(' ').append(k.name().toLowerCase(Locale.ROOT)).append('=').append(v));
        sb.append('\n');
        sb.append(String.format(Locale.ROOT, "per-GPU NVLink:  %10.3f GB/s per direction%n", nvlinkPerGpu / 1e9));
        sb.append(String.format(Locale.ROOT, "per-GPU PCIe:    %10.3f GB/s per direction%n", pciePerGpu / 1e9));
        sb.append(String.format(Locale.ROOT, "per-GPU network: %10.3f GB/s per direction%n", networkPerGpu / 1e9));
        sb.append(String.format(Locale.ROOT, "bisection:       %10.3f GB/s per direction (%s)%n", bisection / 1e9,
                bisectionMethod));
        if (linkCounts.containsKey(LinkKind.INFINIBAND) || linkCounts.containsKey(LinkKind.ROCE)) {
            sb.append("routing:         ").append(routing.cliName()).append(routing == Routing.DESTINATION
                    ? " (by destination, as InfiniBand's subnet manager routes a fat-tree)"
                    : " (a hash per connection and channel, as RoCE switches spread)").append('\n');
        }
        return sb.toString();
    }
}
