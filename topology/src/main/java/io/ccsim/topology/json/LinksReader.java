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
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads {@code $.links}: {@code id} (unique, non-blank), {@code a} and {@code b} (declared node ids),
 * {@code kind} (a lower-case {@link LinkKind}), {@code bandwidth_gbps} (GB/s per direction, > 0),
 * {@code latency_ns} (>= 0, at most 3 decimals: a whole number of picoseconds) and the optional
 * {@code sharing} (full_duplex), {@code lanes} (1), {@code pcie_gen} (0) and {@code health} (healthy).
 */
final class LinksReader {

    /*
     * The rate bounds keep transfer times on the picosecond clock: at 1 kB/s a 1 GiB transfer takes 1.1e18 ps, within
     * 2^63 ps (106 days), while a rate such as 1e-300 GB/s stalls even one NCCL chunk for ever. 10^6 GB/s is 1,000
     * times the NVLink rate of a GB200 GPU.
     */
    /** The least link rate, GB/s per direction (1 kB/s). */
    static final BigDecimal MIN_GBPS = new BigDecimal("0.000001");
    /** The greatest link rate, GB/s per direction. */
    static final BigDecimal MAX_GBPS = new BigDecimal("1000000");

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
            JsonObject o = f.only(f.object(links.get(i), p), p, List.of("id", "a", "b", "kind", "bandwidth_gbps", "latency_ns",
                    "sharing", "lanes", "pcie_gen", "health"));
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
        if (gbps.compareTo(MIN_GBPS) < 0 || gbps.compareTo(MAX_GBPS) > 0) {
            throw f.error(p + ".bandwidth_gbps", "bandwidth " + gbps.toString() + " GB/s per direction is out of range; valid: "
                    + MIN_GBPS.toPlainString() + " (1 kB/s) to " + MAX_GBPS.toPlainString() + " GB/s");
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
