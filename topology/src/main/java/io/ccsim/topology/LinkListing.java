package io.ccsim.topology;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The links of a topology a user asks for, by kind and by node, with what a user needs to name one in a what-if
 * ({@link WhatIf}): id, kind, endpoints, nominal rate per direction, lanes, striped group and health.
 *
 * @param topology the topology listed
 * @param links    the links selected, in {@link Topology#links()} order
 */
public record LinkListing(Topology topology, List<Link> links) {

    public LinkListing {
        links = List.copyOf(links);
    }

    /**
     * The kind a user names: a {@link LinkKind} in lower case ({@code nvlink}, {@code pcie}, {@code smp},
     * {@code infiniband}, {@code roce}, {@code c2c}), or {@code ib} for InfiniBand.
     *
     * @throws IllegalArgumentException naming the text and the valid kinds
     */
    public static LinkKind kind(String text) {
        String k = text.strip().toLowerCase(Locale.ROOT);
        if (k.equals("ib")) return LinkKind.INFINIBAND;
        for (LinkKind lk : LinkKind.values()) {
            if (lk.name().toLowerCase(Locale.ROOT).equals(k)) return lk;
        }
        throw new IllegalArgumentException("unknown link kind '" + text + "'; valid: ib, infiniband, roce, nvlink, pcie, smp, c2c");
    }

    /**
     * The links of {@code t} of one of {@code kinds} (empty: every kind) with an endpoint that is {@code node} or lies
     * under it ({@code n5} selects {@code n5.gpu0}, {@code n5.nic3} and so on; {@code leaf.r3} selects
     * {@code leaf.r3.0}); null selects every node.
     *
     * @throws IllegalArgumentException if {@code node} is neither a node nor the prefix of one, naming a few valid ones
     */
    public static LinkListing select(Topology t, Set<LinkKind> kinds, String node) {
        Set<LinkKind> ks = kinds.isEmpty() ? EnumSet.allOf(LinkKind.class) : EnumSet.copyOf(kinds);
        if (node != null && !t.hasNode(node) && t.nodes().stream().noneMatch(v -> under(v.id(), node))) {
            int hosts = 1 + t.nodes().stream().mapToInt(Node::host).max().orElse(0);
            String eg = t.gpus().isEmpty() ? t.nodes().get(0).id() : t.gpus().get(0).id();
            throw new IllegalArgumentException("no node '" + node + "' and no node under it in topology " + t.name()
                    + "; valid: a node id (e.g. " + eg + ") or a host " + (hosts == 1 ? "n0" : "n0..n" + (hosts - 1)));
        }
        List<Link> out = new ArrayList<>();
        for (Link l : t.links()) {
            if (!ks.contains(l.kind())) continue;
            if (node != null && !under(l.a(), node) && !under(l.b(), node)) continue;
            out.add(l);
        }
        return new LinkListing(t, out);
    }

    private static boolean under(String id, String node) {
        return id.equals(node) || id.startsWith(node) && id.length() > node.length() && id.charAt(node.length()) == '.';
    }

    /**
     * A table: a header line ({@code # <n> of <total> links of <topology>; rate per direction}), the column names, then
     * one line per link with its id, kind, endpoints, rate in GB/s (and Gb/s for network cables), lanes, striped group
     * ({@code -} for none) and health ({@code ok}, {@code x0.1} for degraded to a tenth, {@code down}).
     */
    public String toText() {
        String[] head = {"id", "kind", "a", "b", "GB/s", "Gb/s", "lanes", "group", "health"};
        List<String[]> rows = new ArrayList<>();
        for (Link l : links) {
            LinkGroup g = topology.groupOf(l.id());
            boolean net = l.kind() == LinkKind.INFINIBAND || l.kind() == LinkKind.ROCE;
            rows.add(new String[] {l.id(), l.kind().name().toLowerCase(Locale.ROOT), l.a(), l.b(),
                    WhatIf.num(Math.round(l.bandwidthBytesPerSecPerDirection() / 1e6) / 1e3),
                    net ? WhatIf.num(Math.round(l.bandwidthBytesPerSecPerDirection() * 8 / 1e6) / 1e3) : "-",
                    Integer.toString(l.lanes()), g.striped() ? g.id() : "-", health(l.health())});
        }
        int[] w = new int[head.length];
        for (int c = 0; c < head.length; c++) {
            w[c] = head[c].length();
            for (String[] r : rows) w[c] = Math.max(w[c], r[c].length());
        }
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "# %d of %d links of %s; GB/s and Gb/s per direction,"
                + " nominal (health applies on top)%n", links.size(), topology.links().size(), topology.name()));
        line(sb, head, w, true);
        for (String[] r : rows) line(sb, r, w, false);
        return sb.toString();
    }

    private static void line(StringBuilder sb, String[] cells, int[] w, boolean header) {
        sb.append(header ? "# " : "  ");
        for (int c = 0; c < cells.length; c++) {
            boolean right = c >= 4 && c <= 6;
            sb.append(c == 0 ? "" : "  ").append(String.format(Locale.ROOT, "%" + (right ? "" : "-") + w[c] + "s", cells[c]));
        }
        int end = sb.length();
        while (end > 0 && sb.charAt(end - 1) == ' ') end--;
        sb.setLength(end);
        sb.append('\n');
    }

    /** {@code ok}, {@code x0.1} (degraded to a tenth), {@code down}, or {@code x0.5 down}; flaps and bit errors noted. */
    static String health(LinkHealth h) {
        StringBuilder sb = new StringBuilder();
        if (h.degradeFactor() != 1.0) sb.append('x').append(WhatIf.num(h.degradeFactor()));
        if (h.down()) sb.append(sb.length() == 0 ? "" : " ").append("down");
        if (!h.flaps().isEmpty()) sb.append(sb.length() == 0 ? "" : " ").append(h.flaps().size()).append(" flaps");
        if (h.bitErrorRate() > 0) sb.append(sb.length() == 0 ? "" : " ").append("ber ").append(h.bitErrorRate());
        return sb.length() == 0 ? "ok" : sb.toString();
    }
}
