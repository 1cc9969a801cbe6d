package io.ccsim.topology;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A what-if applied to a built topology: the line rate of its network cables or of its NVLinks changed, links
 * degraded or down. The graph stays as it is (same nodes, links, groups and routes); only rates and health change,
 * so a what-if applies to catalog builds and topology files alike.
 *
 * <p>Every edit carries its {@code origin}, the text a user gave it as ({@code --degrade n5.nic3~*=0.1}, a JSON path),
 * and every error names it: an edit that names no link (with the nearest ids), a rate for a technology the topology
 * lacks, two edits on one link.
 *
 * @param nicRate    line rate of every network cable (InfiniBand and RoCE: NIC to leaf and switch to switch), or null
 * @param nvlinkRate rate of one NVLink (one lane) per direction, or null
 * @param degrades   links slowed to a fraction of their nominal rate
 * @param downs      links that carry no traffic
 */
public record WhatIf(NicRate nicRate, NvlinkRate nvlinkRate, List<Degrade> degrades, List<Down> downs) {

    /*
     * Units follow the tools users read them from. A NIC's rate is in Gb/s, as `ibstat` prints it ("Rate: 400") and as
     * NVIDIA names the parts (ConnectX-7 NDR 400 Gb/s); ccsim's network links carry it in bytes/s, Gb/s / 8. An NVLink's
     * rate is per link (NVIDIA's "NVLink", one of a GPU's 18 on Hopper; ccsim's lane) and per direction in GB/s, as
     * `nvidia-smi nvlink --status` prints it ("Link 0: 26.562 GB/s" on H100) and as NCCL's topology counts it
     * (src/graph/topo.h, SM90_NVLINK_BW = 20.6 GB/s per link, the usable share); a link of k lanes gets k times it.
     * NCCL's tuner keeps reading its own per-architecture constant, so a changed NVLink rate changes what the
     * simulated links carry, not NCCL's choice; a NIC's rate NCCL reads from the port, so its choice follows.
     *
     * Health reuses LinkHealth, the model that topology files (health.degrade, health.down) and scenario faults
     * (link_degrade, link_down) already share: a degrade factor of the nominal rate, a down link at rate 0. A down
     * member of a striped NVLink group removes its lanes (the fabric re-stripes); any other down link stalls the flows
     * routed over it, since routes do not depend on health (NCCL does not route around a failed link either).
     */

    /** No change. */
    public static final WhatIf NONE = new WhatIf(null, null, List.of(), List.of());

    /** Network cables at {@code gbps} Gb/s per direction, > 0 and finite. */
    public record NicRate(double gbps, String origin) {
        public NicRate {
            if (!(gbps > 0) || Double.isInfinite(gbps)) {
                throw new IllegalArgumentException(origin + ": invalid rate " + num(gbps) + "; valid: Gb/s > 0, e.g. 200, 400, 800");
            }
        }
    }

    /** NVLinks at {@code gbytesPerSec} GB/s per link and direction, > 0 and finite. */
    public record NvlinkRate(double gbytesPerSec, String origin) {
        public NvlinkRate {
            if (!(gbytesPerSec > 0) || Double.isInfinite(gbytesPerSec)) {
                throw new IllegalArgumentException(origin + ": invalid rate " + num(gbytesPerSec)
                        + "; valid: GB/s per NVLink and direction > 0, e.g. 26.562 (NVLink4), 50 (NVLink5)");
            }
        }
    }

    /** The links {@code links} at {@code factor} of their nominal rate, factor in (0, 1]. */
    public record Degrade(LinkPattern links, double factor, String origin) {
        public Degrade {
            if (!(factor > 0 && factor <= 1)) {
                throw new IllegalArgumentException(origin + ": invalid factor " + num(factor)
                        + "; valid: (0, 1], the fraction of the link's rate left (0.1 = one tenth)");
            }
        }
    }

    /** The links {@code links} down. */
    public record Down(LinkPattern links, String origin) { }

    public WhatIf {
        degrades = List.copyOf(degrades);
        downs = List.copyOf(downs);
    }

    /**
     * A degrade written {@code LINK=FACTOR} ({@code n30.nic7~leaf.r7.0=0.1}), named {@code origin} in errors.
     *
     * @throws IllegalArgumentException naming {@code origin} for a missing link or factor, or a factor outside (0, 1]
     */
    public static Degrade parseDegrade(String text, String origin) {
        int eq = text.lastIndexOf('=');
        String link = eq < 0 ? "" : text.substring(0, eq).strip();
        String factor = eq < 0 ? "" : text.substring(eq + 1).strip();
        if (link.isEmpty() || factor.isEmpty()) {
            throw new IllegalArgumentException(origin + ": expected LINK=FACTOR, e.g. n30.nic7~leaf.r7.0=0.1 (one tenth of"
                    + " its rate); LINK is an id or a glob as 'ccsim topology T --links' lists them");
        }
        double f;
        try {
            f = Double.parseDouble(factor);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(origin + ": factor '" + factor + "' is not a number; valid: (0, 1], e.g. 0.1", e);
        }
        return new Degrade(new LinkPattern(link), f, origin);
    }

    /** Whether this changes nothing. */
    public boolean isNone() {
        return nicRate == null && nvlinkRate == null && degrades.isEmpty() && downs.isEmpty();
    }

    /**
     * The topology with this what-if, and one line per edit saying what it changed.
     *
     * @param topology the changed topology (the same object if nothing changed)
     * @param changes  per edit, in order (rates, degrades, downs): {@code origin: what changed}
     */
    public record Result(Topology topology, List<String> changes) {
        public Result {
            changes = List.copyOf(changes);
        }
    }

    /**
     * Applies this what-if to {@code t}.
     *
     * @throws IllegalArgumentException naming the edit's origin: a pattern that names no link (with the nearest ids), a
     *                                  rate for links {@code t} does not have, or a link named by two health edits
     */
    public Result apply(Topology t) {
        if (isNone()) return new Result(t, List.of());
        List<Node> nodes = new ArrayList<>(t.nodes());
        List<Link> links = new ArrayList<>(t.links());
        List<String> changes = new ArrayList<>();
        if (nicRate != null) changes.add(applyNicRate(t, nodes, links));
        if (nvlinkRate != null) changes.add(applyNvlinkRate(t, links));
        Map<Integer, String> claimed = new HashMap<>();
        for (Degrade d : degrades) {
            List<Integer> hit = claim(t, d.links(), d.origin(), claimed);
            for (int i : hit) {
                LinkHealth h = links.get(i).health();
                links.set(i, links.get(i).withHealth(new LinkHealth(d.factor(), h.down(), h.flaps(), h.bitErrorRate())));
            }
            Topology after = t.withReplaced(nodes, links);
            changes.add(d.origin() + ": " + describe(hit, links, String.format(Locale.ROOT, "at %s of the nominal rate", num(d.factor())),
                    i -> degradeEffect(after, links.get(i))));
        }
        for (Down d : downs) {
            List<Integer> hit = claim(t, d.links(), d.origin(), claimed);
            for (int i : hit) {
                LinkHealth h = links.get(i).health();
                links.set(i, links.get(i).withHealth(new LinkHealth(h.degradeFactor(), true, h.flaps(), h.bitErrorRate())));
            }
            Topology after = t.withReplaced(nodes, links);
            changes.add(d.origin() + ": " + describe(hit, links, "down", i -> downEffect(after, links.get(i))));
        }
        return new Result(t.withReplaced(nodes, links), changes);
    }

    private String applyNicRate(Topology t, List<Node> nodes, List<Link> links) {
        double bw = nicRate.gbps() * 1e9 / 8;
        int n = 0;
        for (int i = 0; i < links.size(); i++) {
            Link l = links.get(i);
            if (l.kind() == LinkKind.INFINIBAND || l.kind() == LinkKind.ROCE) {
                links.set(i, l.withBandwidth(bw));
                n++;
            }
        }
        if (n == 0) {
            throw new IllegalArgumentException(nicRate.origin() + ": topology " + t.name() + " has no network cable"
                    + " (InfiniBand or RoCE link); NICs carry traffic between nodes only: valid with --nodes >= 2 or a"
                    + " topology file with network links");
        }
        for (int i = 0; i < nodes.size(); i++) {
            Node v = nodes.get(i);
            if (v.kind() == NodeKind.NIC && v.attr("rate_gbps") != null) {
                Map<String, String> attrs = new HashMap<>(v.attrs());
                attrs.put("rate_gbps", num(nicRate.gbps()));
                nodes.set(i, new Node(v.id(), v.kind(), v.host(), v.localIndex(), attrs));
            }
        }
        return String.format(Locale.ROOT, "%s: %d network cables (NIC to leaf, switch to switch) at %s Gb/s (%s per"
                + " direction)", nicRate.origin(), n,
                num(nicRate.gbps()), gbs(bw));
    }

    private String applyNvlinkRate(Topology t, List<Link> links) {
        double perLane = nvlinkRate.gbytesPerSec() * 1e9;
        int n = 0;
        int allLanes = 0;
        for (int i = 0; i < links.size(); i++) {
            Link l = links.get(i);
            if (l.kind() == LinkKind.NVLINK) {
                links.set(i, l.withBandwidth(perLane * l.lanes()));
                n++;
                allLanes += l.lanes();
            }
        }
        if (n == 0) {
            throw new IllegalArgumentException(nvlinkRate.origin() + ": topology " + t.name() + " has no NVLink (its GPUs"
                    + " talk over PCIe); valid on a topology with NVLink links, e.g. hgx-h100, hgx-b200, gb200-nvl72");
        }
        int lanes = 0;
        if (!t.gpus().isEmpty()) {
            for (Link l : t.neighbours(t.gpus().get(0).id())) if (l.kind() == LinkKind.NVLINK) lanes += l.lanes();
        }
        return String.format(Locale.ROOT, "%s: every NVLink at %s GB/s per direction (%d NVLinks in %d links%s)",
                nvlinkRate.origin(), num(nvlinkRate.gbytesPerSec()), allLanes, n, lanes == 0 ? ""
                        : String.format(Locale.ROOT, "; GPU 0: %d NVLinks, %s per direction", lanes, gbs(perLane * lanes)));
    }

    /** The links {@code p} names, each recorded in {@code claimed} as named by {@code origin}. */
    private static List<Integer> claim(Topology t, LinkPattern p, String origin, Map<Integer, String> claimed) {
        List<Integer> hit = p.match(t);
        if (hit.isEmpty()) {
            throw new IllegalArgumentException(origin + ": " + (p.isGlob() ? "the glob '" + p.text() + "' matches no link"
                    : "no link '" + p.text() + "'") + " in topology " + t.name() + " (" + t.links().size() + " links); valid: an id"
                    + " or glob of 'ccsim topology ... --links', nearest: " + String.join(", ", p.nearest(t)));
        }
        for (int i : hit) {
            String before = claimed.putIfAbsent(i, origin);
            if (before != null) {
                throw new IllegalArgumentException(origin + ": link " + t.links().get(i).id() + " is also named by " + before
                        + "; name each link in one --degrade or --down");
            }
        }
        return hit;
    }

    /** A degraded link's rate, and for a striped member its group's, which the slowest lane paces. */
    private static String degradeEffect(Topology after, Link l) {
        String rate = gbs(l.effectiveBandwidth()) + " of " + gbs(l.bandwidthBytesPerSecPerDirection()) + " per direction";
        LinkGroup g = after.groupOf(l.id());
        if (!g.striped()) return rate;
        return rate + "; its striped group " + g.id() + " runs every lane at that pace: " + gbs(g.capacityBytesPerSec())
                + " of " + gbs(g.nominalCapacityBytesPerSec());
    }

    /** What a down link does: a striped member removes its lanes, any other link stalls what is routed over it. */
    private static String downEffect(Topology after, Link l) {
        LinkGroup g = after.groupOf(l.id());
        if (g.striped()) {
            int total = 0;
            for (Link m : g.members()) total += m.lanes();
            return String.format(Locale.ROOT, "%s keeps %d of %d lanes, %s per direction", g.id(), g.liveLanes(), total,
                    gbs(g.capacityBytesPerSec()));
        }
        return "carries nothing: a collective routed over it never completes";
    }

    private static String describe(List<Integer> hit, List<Link> links, String what,
                                   java.util.function.IntFunction<String> detail) {
        if (hit.size() == 1) return links.get(hit.get(0)).id() + " " + what + " (" + detail.apply(hit.get(0)) + ")";
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%d links %s:", hit.size(), what));
        for (int k = 0; k < hit.size() && k < 3; k++) sb.append(k == 0 ? " " : ", ").append(links.get(hit.get(k)).id());
        if (hit.size() > 3) sb.append(String.format(Locale.ROOT, " and %d more", hit.size() - 3));
        return sb.toString();
    }

    /** {@code 0.1}, {@code 400}, {@code 26.562}: the shortest form of a number. */
    static String num(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) return Double.toString(v);
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return Long.toString((long) v);
        return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }

    /** Bytes/s as {@code 5 GB/s}, {@code 478.116 GB/s}. */
    static String gbs(double bytesPerSec) {
        return num(Math.round(bytesPerSec / 1e6) / 1e3) + " GB/s";
    }
}
