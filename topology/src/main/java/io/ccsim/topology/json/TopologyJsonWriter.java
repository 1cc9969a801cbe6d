package io.ccsim.topology.json;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import io.ccsim.topology.Flap;
import io.ccsim.topology.Link;
import io.ccsim.topology.LinkGroup;
import io.ccsim.topology.LinkHealth;
import io.ccsim.topology.LinkListing;
import io.ccsim.topology.Node;
import io.ccsim.topology.Topology;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.TreeMap;

/**
 * Writes the format of {@link TopologyJson}: every field of every node and link (attributes sorted by
 * key, {@code health} only when not healthy) and the striped groups.
 */
final class TopologyJsonWriter {

    private TopologyJsonWriter() {
    }

    /** {@code t} as pretty-printed JSON. */
    static String write(Topology t) {
        JsonObject root = new JsonObject();
        root.addProperty("name", t.name());
        root.addProperty("seed", t.seed());
        JsonArray nodes = new JsonArray();
        t.nodes().forEach(n -> nodes.add(node(n)));
        root.add("nodes", nodes);
        JsonArray links = new JsonArray();
        t.links().forEach(l -> links.add(link(l)));
        root.add("links", links);
        JsonArray groups = new JsonArray();
        for (LinkGroup g : t.fabric()) {
            if (g.striped()) {
                groups.add(group(g));
            }
        }
        root.add("groups", groups);
        return new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create().toJson(root);
    }

    /**
     * The links of {@code listing}: {@code {"topology": name, "total_links": n, "links": [...]}}, each link as in the
     * topology format plus {@code group}, its striped group's id where it has one.
     */
    static String writeLinks(LinkListing listing) {
        JsonObject root = new JsonObject();
        root.addProperty("topology", listing.topology().name());
        root.addProperty("total_links", listing.topology().links().size());
        JsonArray links = new JsonArray();
        for (Link l : listing.links()) {
            JsonObject o = link(l);
            LinkGroup g = listing.topology().groupOf(l.id());
            if (g.striped()) o.addProperty("group", g.id());
            links.add(o);
        }
        root.add("links", links);
        return new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create().toJson(root);
    }

    private static JsonObject node(Node n) {
        JsonObject o = new JsonObject();
        o.addProperty("id", n.id());
        o.addProperty("kind", n.kind().name().toLowerCase(Locale.ROOT));
        o.addProperty("host", n.host());
        o.addProperty("local", n.localIndex());
        if (!n.attrs().isEmpty()) {
            JsonObject attrs = new JsonObject();
            new TreeMap<>(n.attrs()).forEach(attrs::addProperty);
            o.add("attrs", attrs);
        }
        return o;
    }

    /* Bandwidth and latency are written as the shortest decimal that reads back to the same value:
       Double.toString gives the shortest repr of the double in bytes/s, moved 9 places to GB/s exactly;
       picoseconds move 3 places to ns exactly. */
    private static JsonObject link(Link l) {
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
            o.add("health", health(l.health()));
        }
        return o;
    }

    private static JsonObject health(LinkHealth h) {
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
        return ho;
    }

    private static JsonObject group(LinkGroup g) {
        JsonObject o = new JsonObject();
        o.addProperty("id", g.id());
        JsonArray members = new JsonArray();
        g.members().forEach(m -> members.add(m.id()));
        o.add("members", members);
        o.addProperty("striped", true);
        return o;
    }
}
