package io.ccsim.topology.json;

import com.google.gson.JsonObject;
import io.ccsim.topology.Topology;
import java.util.Map;
import java.util.Set;

/**
 * The JSON topology format:
 * <pre>
 * {"name": "hgx-h200", "seed": 0,
 *  "nodes": [{"id": "n0.gpu0", "kind": "gpu", "host": 0, "local": 0, "attrs": {"model": "H200"}}],
 *  "links": [{"id": "n0.gpu0~n0.nvs0", "a": "n0.gpu0", "b": "n0.nvs0", "kind": "nvlink",
 *             "bandwidth_gbps": 132.81, "latency_ns": 300, "sharing": "full_duplex", "lanes": 5,
 *             "pcie_gen": 0, "health": {"degrade": 1, "down": false, "bit_error_rate": 0,
 *             "flaps": [{"start_ps": 0, "duration_ps": 1, "period_ps": 1, "count": 1}]}}],
 *  "groups": [{"id": "n0.gpu0.nvl", "members": ["n0.gpu0~n0.nvs0"], "striped": true}]}
 * </pre>
 * {@code bandwidth_gbps} is GB/s (10^9 bytes/s) per direction, {@code latency_ns} nanoseconds (a whole
 * number of picoseconds). Kinds and sharing are lower case. {@code seed} (default 0), {@code attrs},
 * {@code sharing} (default full_duplex), {@code lanes} (1), {@code pcie_gen} (0), {@code health} (healthy)
 * and {@code groups} are optional; only striped groups are listed, every other link is its own group.
 * Numbers are written in the shortest decimal form that reads back to the same double (BigDecimal
 * notation: 300 ns is {@code 3E+2}), so write -> read is exact.
 */
public final class TopologyJson {

    /*
     * Reading goes section by section, each reader adding to one Topology.Builder: NodesReader ($.nodes),
     * LinksReader ($.links, with HealthReader for $.links[i].health), GroupsReader ($.groups); the builder
     * then checks what spans sections. JsonFields turns every wrong type or missing field into an error at
     * its JSON path; StrictJson rejects anything RFC 8259 does not allow.
     */

    private TopologyJson() {
    }

    /** Serializes {@code t}, pretty-printed; {@link #read} gives back an equal topology. */
    public static String write(Topology t) {
        return TopologyJsonWriter.write(t);
    }

    /** The links of {@code listing} as JSON (see {@code TopologyJsonWriter#writeLinks}): the format's link objects. */
    public static String writeLinks(io.ccsim.topology.LinkListing listing) {
        return TopologyJsonWriter.writeLinks(listing);
    }

    /**
     * Parses and validates a topology.
     *
     * @param json       the document
     * @param sourceName file name used in error messages
     * @throws TopologyFormatException naming the file, the JSON path, the problem and what is valid
     */
    public static Topology read(String json, String sourceName) {
        JsonFields f = new JsonFields(sourceName);
        JsonObject root = f.object(StrictJson.parse(json, f), "$");
        String name = f.nonBlank(root, "name", "$");
        long seed = root.has("seed") ? f.wholeLong(root.get("seed"), "$.seed") : 0L;
        Topology.Builder b = Topology.builder(name, seed);
        Set<String> nodeIds = NodesReader.read(root, f, b);
        Map<String, String> linkA = LinksReader.read(root, f, b, nodeIds);
        GroupsReader.read(root, f, b, linkA);
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            throw f.error("$", e.getMessage());
        }
    }
}
