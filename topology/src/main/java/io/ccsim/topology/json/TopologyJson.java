package io.ccsim.topology.json;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import com.google.gson.stream.JsonReader;
import io.ccsim.sim.Sharing;
import io.ccsim.topology.Flap;
import io.ccsim.topology.Link;
import io.ccsim.topology.LinkGroup;
import io.ccsim.topology.LinkHealth;
import io.ccsim.topology.LinkKind;
import io.ccsim.topology.Node;
import io.ccsim.topology.NodeKind;
import io.ccsim.topology.Topology;
import java.io.StringReader;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
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
 * number of picoseconds). Kinds and sharing are lower case. {@code attrs}, {@code sharing} (default
 * full_duplex), {@code lanes} (1), {@code pcie_gen} (0), {@code health} (healthy) and {@code groups} are
 * optional; only striped groups are listed, every other link is its own group. Numbers are written in the
 * shortest decimal form that reads back to the same double, so write -> read is exact.
 */
public final class TopologyJson {

    private TopologyJson() {
    }

    /** Serializes {@code t} (pretty-printed). */
    public static String write(Topology t) {
        JsonObject root = new JsonObject();
        root.addProperty("name", t.name());
        root.addProperty("seed", t.seed());
        JsonArray nodes = new JsonArray();
        for (Node n : t.nodes()) {
            JsonObject o = new JsonObject();
            o.addProperty("id", n.id());
            o.addProperty("kind", n.kind().name().toLowerCase(Locale.ROOT));
            o.addProperty("host", n.host());
            o.addProperty("local", n.localIndex());
            if (!n.attrs().isEmpty()) {
                JsonObject attrs = new JsonObject();
                new java.util.TreeMap<>(n.attrs()).forEach(attrs::addProperty);
                o.add("attrs", attrs);
            }
            nodes.add(o);
        }
        root.add("nodes", nodes);
        JsonArray links = new JsonArray();
        for (Link l : t.links()) {
            JsonObject o = new JsonObject();
            o.addProperty("id", l.id());
            o.addProperty("a", l.a());
            o.addProperty("b", l.b());
            o.addProperty("kind", l.kind().name().toLowerCase(Locale.ROOT));
            o.add("bandwidth_gbps", new JsonPrimitive(
                    new BigDecimal(Double.toString(l.bandwidthBytesPerSecPerDirection())).movePointLeft(9)
                            .stripTrailingZeros()));
            o.add("latency_ns", new JsonPrimitive(BigDecimal.valueOf(l.latencyPs(), 3).stripTrailingZeros()));
            o.addProperty("sharing", l.sharing().name().toLowerCase(Locale.ROOT));
            o.addProperty("lanes", l.lanes());
            o.addProperty("pcie_gen", l.pcieGen());
            if (!l.health().isHealthy()) {
                LinkHealth h = l.health();
                JsonObject ho = new JsonObject();
                ho.addProperty("degrade", h.degradeFactor());
                ho.addProperty("down", h.down());
                ho.addProperty("bit_error_rate", h.bitErrorRate());
                JsonArray flaps = new JsonArray();
                for (Flap f : h.flaps()) {
                    JsonObject fo = new JsonObject();
                    fo.addProperty("start_ps", f.startPs());
                    fo.addProperty("duration_ps", f.durationPs());
                    fo.addProperty("period_ps", f.periodPs());
                    fo.addProperty("count", f.count());
                    flaps.add(fo);
                }
                ho.add("flaps", flaps);
                o.add("health", ho);
            }
            links.add(o);
        }
        root.add("links", links);
        JsonArray groups = new JsonArray();
        for (LinkGroup g : t.fabric()) {
            if (!g.striped()) {
                continue;
            }
            JsonObject o = new JsonObject();
            o.addProperty("id", g.id());
            JsonArray members = new JsonArray();
            g.members().forEach(m -> members.add(m.id()));
            o.add("members", members);
            o.addProperty("striped", true);
            groups.add(o);
        }
        root.add("groups", groups);
        return new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create().toJson(root);
    }

    /**
     * Parses and validates a topology.
     *
     * @param json       the document
     * @param sourceName file name used in error messages
     * @throws TopologyFormatException naming the file, the JSON path, the problem and what is valid
     */
    public static Topology read(String json, String sourceName) {
        return new Reader(sourceName).read(json);
    }

    private static final class Reader {
        private final String src;

        Reader(String src) {
            this.src = src;
        }

        TopologyFormatException err(String path, String problem) {
            return new TopologyFormatException(src, path, problem);
        }

        Topology read(String json) {
            JsonElement rootEl;
            try {
                JsonReader r = new JsonReader(new StringReader(json));
                r.setStrictness(com.google.gson.Strictness.STRICT); // RFC 8259: no comments, no [,], no 'quotes'
                rootEl = JsonParser.parseReader(r);
                if (r.peek() != com.google.gson.stream.JsonToken.END_DOCUMENT) {
                    throw err("$", "malformed JSON: extra content after the document");
                }
            } catch (JsonParseException | java.io.IOException e) {
                String msg = e.getCause() != null && e.getCause().getMessage() != null ? e.getCause().getMessage()
                        : String.valueOf(e.getMessage());
                java.util.regex.Matcher m = java.util.regex.Pattern
                        .compile("(.*?)\\s*at line (\\d+) column (\\d+) path (\\S+)", java.util.regex.Pattern.DOTALL)
                        .matcher(msg);
                if (m.find()) {
                    String reason = m.group(1).startsWith("Use JsonReader") ? "syntax that strict JSON (RFC 8259) does"
                            + " not allow (comments, single quotes, missing values, unquoted names...)" : m.group(1);
                    throw err("$", "malformed JSON at line " + m.group(2) + " column " + m.group(3) + " (near "
                            + m.group(4) + "): " + reason);
                }
                throw err("$", "malformed JSON: " + msg);
            }
            JsonObject root = obj(rootEl, "$");
            String name = str(root, "name", "$", true);
            long seed = root.has("seed") ? lng(root.get("seed"), "$.seed") : 0L;
            Topology.Builder b = Topology.builder(name, seed);
            JsonArray nodes = arr(root, "nodes", "$");
            Map<String, String> nodePaths = new HashMap<>();
            for (int i = 0; i < nodes.size(); i++) {
                String p = "$.nodes[" + i + "]";
                JsonObject o = obj(nodes.get(i), p);
                String id = str(o, "id", p, true);
                String prev = nodePaths.putIfAbsent(id, p);
                if (prev != null) {
                    throw err(p + ".id", "duplicate node id '" + id + "' (first at " + prev + "); ids must be unique");
                }
                NodeKind kind = enumValue(NodeKind.class, str(o, "kind", p, true), p + ".kind");
                int host = integer(req(o, "host", p), p + ".host");
                int local = integer(req(o, "local", p), p + ".local");
                Map<String, String> attrs = new LinkedHashMap<>();
                if (o.has("attrs")) {
                    JsonObject ao = obj(o.get("attrs"), p + ".attrs");
                    for (Map.Entry<String, JsonElement> e : ao.entrySet()) {
                        attrs.put(e.getKey(), string(e.getValue(), p + ".attrs." + e.getKey()));
                    }
                }
                try {
                    b.node(new Node(id, kind, host, local, attrs));
                } catch (IllegalArgumentException e) {
                    throw err(p, e.getMessage());
                }
            }
            JsonArray links = arr(root, "links", "$");
            Map<String, String> linkPaths = new HashMap<>();
            Map<String, String> linkA = new HashMap<>();
            for (int i = 0; i < links.size(); i++) {
                String p = "$.links[" + i + "]";
                JsonObject o = obj(links.get(i), p);
                String id = str(o, "id", p, true);
                String prev = linkPaths.putIfAbsent(id, p);
                if (prev != null) {
                    throw err(p + ".id", "duplicate link id '" + id + "' (first at " + prev + "); ids must be unique");
                }
                String a = str(o, "a", p, true);
                String bb = str(o, "b", p, true);
                for (String[] end : new String[][] {{"a", a}, {"b", bb}}) {
                    if (!nodePaths.containsKey(end[1])) {
                        throw err(p + "." + end[0], "link '" + id + "' refers to missing node '" + end[1]
                                + "'; endpoints must be ids declared in $.nodes");
                    }
                }
                LinkKind kind = enumValue(LinkKind.class, str(o, "kind", p, true), p + ".kind");
                BigDecimal gbps = decimal(req(o, "bandwidth_gbps", p), p + ".bandwidth_gbps");
                if (gbps.signum() <= 0) {
                    throw err(p + ".bandwidth_gbps", "bandwidth must be > 0 GB/s per direction, got " + gbps);
                }
                BigDecimal ns = decimal(req(o, "latency_ns", p), p + ".latency_ns");
                if (ns.signum() < 0) {
                    throw err(p + ".latency_ns", "latency must be >= 0 ns, got " + ns);
                }
                long ps;
                try {
                    ps = ns.movePointRight(3).longValueExact();
                } catch (ArithmeticException e) {
                    throw err(p + ".latency_ns", "latency must be a whole number of picoseconds (at most 3"
                            + " decimals in ns) within range, got " + ns);
                }
                Sharing sharing = o.has("sharing")
                        ? enumValue(Sharing.class, str(o, "sharing", p, true), p + ".sharing") : Sharing.FULL_DUPLEX;
                int lanes = o.has("lanes") ? integer(o.get("lanes"), p + ".lanes") : 1;
                int gen = o.has("pcie_gen") ? integer(o.get("pcie_gen"), p + ".pcie_gen") : 0;
                LinkHealth health = o.has("health") ? health(o.get("health"), p + ".health") : LinkHealth.HEALTHY;
                try {
                    b.link(new Link(id, a, bb, kind, gbps.movePointRight(9).doubleValue(), ps, sharing, lanes, gen,
                            health));
                } catch (IllegalArgumentException e) {
                    throw err(p, e.getMessage());
                }
                linkA.put(id, a);
            }
            if (root.has("groups")) {
                JsonArray groups = arr(root, "groups", "$");
                Set<String> grouped = new HashSet<>();
                Set<String> groupIds = new HashSet<>();
                for (int i = 0; i < groups.size(); i++) {
                    String p = "$.groups[" + i + "]";
                    JsonObject o = obj(groups.get(i), p);
                    String id = str(o, "id", p, true);
                    if (!groupIds.add(id) || (linkPaths.containsKey(id))) {
                        throw err(p + ".id", "duplicate group id '" + id + "'; a group id must differ from other"
                                + " groups and from link ids");
                    }
                    JsonArray mem = arr(o, "members", p);
                    if (mem.isEmpty()) {
                        throw err(p + ".members", "a group needs at least one member link id");
                    }
                    boolean striped = !o.has("striped") || bool(o.get("striped"), p + ".striped");
                    if (!striped) {
                        throw err(p + ".striped", "only striped groups are listed (striped: true); a link not in"
                                + " a group is its own group");
                    }
                    List<String> ids = new ArrayList<>();
                    for (int j = 0; j < mem.size(); j++) {
                        String mp = p + ".members[" + j + "]";
                        String lid = string(mem.get(j), mp);
                        if (!linkPaths.containsKey(lid)) {
                            throw err(mp, "group '" + id + "' names missing link '" + lid + "'");
                        }
                        if (!grouped.add(lid)) {
                            throw err(mp, "link '" + lid + "' is already in another group; a link belongs to at"
                                    + " most one group");
                        }
                        if (!linkA.get(lid).equals(linkA.get(string(mem.get(0), p + ".members[0]")))) {
                            throw err(mp, "all members of a striped group must have the same endpoint a; '" + lid
                                    + "' starts at '" + linkA.get(lid) + "'");
                        }
                        ids.add(lid);
                    }
                    b.stripedGroup(id, ids);
                }
            }
            try {
                return b.build();
            } catch (IllegalArgumentException e) {
                throw err("$", e.getMessage());
            }
        }

        LinkHealth health(JsonElement el, String p) {
            JsonObject o = obj(el, p);
            double degrade = o.has("degrade") ? number(o.get("degrade"), p + ".degrade") : 1.0;
            if (!(degrade > 0 && degrade <= 1)) {
                throw err(p + ".degrade", "degrade must be in (0, 1] (1 = healthy, 0.1 = one tenth of the rate),"
                        + " got " + degrade);
            }
            boolean down = o.has("down") && bool(o.get("down"), p + ".down");
            double ber = o.has("bit_error_rate") ? number(o.get("bit_error_rate"), p + ".bit_error_rate") : 0.0;
            if (!(ber >= 0 && ber < 1)) {
                throw err(p + ".bit_error_rate", "bit_error_rate must be in [0, 1), got " + ber);
            }
            List<Flap> flaps = new ArrayList<>();
            if (o.has("flaps")) {
                JsonArray fa = arr(o, "flaps", p);
                for (int i = 0; i < fa.size(); i++) {
                    String fp = p + ".flaps[" + i + "]";
                    JsonObject fo = obj(fa.get(i), fp);
                    try {
                        flaps.add(new Flap(lng(req(fo, "start_ps", fp), fp + ".start_ps"),
                                lng(req(fo, "duration_ps", fp), fp + ".duration_ps"),
                                lng(req(fo, "period_ps", fp), fp + ".period_ps"),
                                integer(req(fo, "count", fp), fp + ".count")));
                    } catch (IllegalArgumentException e) {
                        if (e instanceof TopologyFormatException tfe) {
                            throw tfe;
                        }
                        throw err(fp, e.getMessage());
                    }
                }
            }
            return new LinkHealth(degrade, down, flaps, ber);
        }

        JsonElement req(JsonObject o, String field, String p) {
            JsonElement e = o.get(field);
            if (e == null || e.isJsonNull()) {
                throw err(p + "." + field, "missing required field '" + field + "'");
            }
            return e;
        }

        JsonObject obj(JsonElement e, String p) {
            if (e == null || !e.isJsonObject()) {
                throw err(p, "expected an object, got " + describe(e));
            }
            return e.getAsJsonObject();
        }

        JsonArray arr(JsonObject o, String field, String p) {
            JsonElement e = req(o, field, p);
            if (!e.isJsonArray()) {
                throw err(p + "." + field, "expected an array, got " + describe(e));
            }
            return e.getAsJsonArray();
        }

        String str(JsonObject o, String field, String p, boolean required) {
            JsonElement e = req(o, field, p);
            String s = string(e, p + "." + field);
            if (s.isBlank()) {
                throw err(p + "." + field, "must be a non-blank string");
            }
            return s;
        }

        String string(JsonElement e, String p) {
            if (e == null || !e.isJsonPrimitive() || !e.getAsJsonPrimitive().isString()) {
                throw err(p, "expected a string, got " + describe(e));
            }
            return e.getAsString();
        }

        boolean bool(JsonElement e, String p) {
            if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isBoolean()) {
                throw err(p, "expected true or false, got " + describe(e));
            }
            return e.getAsBoolean();
        }

        BigDecimal decimal(JsonElement e, String p) {
            if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isNumber()) {
                throw err(p, "expected a number, got " + describe(e));
            }
            try {
                return e.getAsBigDecimal();
            } catch (NumberFormatException ex) {
                throw err(p, "expected a number, got " + e);
            }
        }

        double number(JsonElement e, String p) {
            return decimal(e, p).doubleValue();
        }

        long lng(JsonElement e, String p) {
            try {
                return decimal(e, p).longValueExact();
            } catch (ArithmeticException ex) {
                throw err(p, "expected a whole number (64-bit), got " + e);
            }
        }

        int integer(JsonElement e, String p) {
            try {
                return decimal(e, p).intValueExact();
            } catch (ArithmeticException ex) {
                throw err(p, "expected a whole number (32-bit), got " + e);
            }
        }

        <E extends Enum<E>> E enumValue(Class<E> type, String v, String p) {
            for (E c : type.getEnumConstants()) {
                if (c.name().toLowerCase(Locale.ROOT).equals(v)) {
                    return c;
                }
            }
            throw err(p, "unknown " + type.getSimpleName() + " '" + v + "'; valid: " + Arrays.stream(
                    type.getEnumConstants()).map(c -> c.name().toLowerCase(Locale.ROOT)).toList());
        }

        static String describe(JsonElement e) {
            if (e == null || e.isJsonNull()) {
                return "null";
            }
            if (e.isJsonObject()) {
                return "an object";
            }
            if (e.isJsonArray()) {
                return "an array";
            }
            JsonPrimitive pr = e.getAsJsonPrimitive();
            return (pr.isString() ? "string " : pr.isNumber() ? "number " : "boolean ") + pr;
        }
    }
}
