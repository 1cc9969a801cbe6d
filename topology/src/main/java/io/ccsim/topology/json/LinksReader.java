package io.ccsim.topology.json;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.ccsim.sim.Sharing;
import io.ccsim.topology.Link;
import io.ccsim.topology.LinkHealth;
import io.ccsim.topology.LinkKind;
import io.ccsim.topology.Topology;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Reads {@code $.links}: {@code id} (unique, non-blank), {@code a} and {@code b} (declared node ids),
 * {@code kind} (a lower-case {@link LinkKind}), {@code bandwidth_gbps} (GB/s per direction, > 0),
 * {@code latency_ns} (>= 0, at most 3 decimals: a whole number of picoseconds) and the optional
 * {@code sharing} (full_duplex), {@code lanes} (1), {@code pcie_gen} (0) and {@code health} (healthy).
 */
final class LinksReader {

    private LinksReader() {
    }

    /**
     * Adds every link of {@code root.links} to {@code b}.
     *
     * @param nodeIds the ids declared in {@code $.nodes}
     * @return endpoint {@code a} of every link id
     * @throws TopologyFormatException at the offending path, including what {@link Link} rejects
     */
    static Map<String, String> read(JsonObject root, JsonFields f, Topology.Builder b, Set<String> nodeIds) {
        JsonArray links = f.array(root, "links", "$");
        Map<String, String> linkPaths = new HashMap<>();
        Map<String, String> linkA = new HashMap<>();
        for (int i = 0; i < links.size(); i++) {
            String p = "$.links[" + i + "]";
            JsonObject o = f.object(links.get(i), p);
            String id = f.nonBlank(o, "id", p);
            String prev = linkPaths.putIfAbsent(id, p);
            if (prev != null) {
                throw f.error(p + ".id", "duplicate link id '" + id + "' (first at " + prev + "); ids must be unique");
            }
            String a = f.nonBlank(o, "a", p);
            String bb = f.nonBlank(o, "b", p);
            for (String[] end : new String[][] {{"a", a}, {"b", bb}}) {
                if (!nodeIds.contains(end[1])) {
                    throw f.error(p + "." + end[0], "link '" + id + "' refers to missing node '" + end[1]
                            + "'; endpoints must be ids declared in $.nodes");
                }
            }
            LinkKind kind = f.enumValue(LinkKind.class, f.nonBlank(o, "kind", p), p + ".kind");
            BigDecimal gbps = bandwidthGbps(o, f, p);
            long ps = latencyPs(o, f, p);
            Sharing sharing = o.has("sharing")
                    ? f.enumValue(Sharing.class, f.nonBlank(o, "sharing", p), p + ".sharing") : Sharing.FULL_DUPLEX;
            int lanes = o.has("lanes") ? f.wholeInt(o.get("lanes"), p + ".lanes") : 1;
            int gen = o.has("pcie_gen") ? f.wholeInt(o.get("pcie_gen"), p + ".pcie_gen") : 0;
            LinkHealth health = o.has("health") ? HealthReader.read(o.get("health"), f, p + ".health")
                    : LinkHealth.HEALTHY;
            try {
                b.link(new Link(id, a, bb, kind, gbps.movePointRight(9).doubleValue(), ps, sharing, lanes, gen,
                        health));
            } catch (IllegalArgumentException e) {
                throw f.error(p, e.getMessage());
            }
            linkA.put(id, a);
        }
        return linkA;
    }

    private static BigDecimal bandwidthGbps(JsonObject o, JsonFields f, String p) {
        BigDecimal gbps = f.decimal(f.required(o, "bandwidth_gbps", p), p + ".bandwidth_gbps");
        if (gbps.signum() <= 0) {
            throw f.error(p + ".bandwidth_gbps", "bandwidth must be > 0 GB/s per direction, got " + gbps);
        }
        return gbps;
    }

    private static long latencyPs(JsonObject o, JsonFields f, String p) {
        BigDecimal ns = f.decimal(f.required(o, "latency_ns", p), p + ".latency_ns");
        if (ns.signum() < 0) {
            throw f.error(p + ".latency_ns", "latency must be >= 0 ns, got " + ns);
        }
        try {
            return ns.movePointRight(3).longValueExact();
        } catch (ArithmeticException e) {
            throw f.error(p + ".latency_ns", "latency must be a whole number of picoseconds (at most 3"
                    + " decimals in ns) within range, got " + ns);
        }
    }
}
