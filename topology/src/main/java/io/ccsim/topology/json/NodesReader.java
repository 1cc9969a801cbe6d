package io.ccsim.topology.json;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.ccsim.topology.Node;
import io.ccsim.topology.NodeKind;
import io.ccsim.topology.Topology;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads {@code $.nodes}: {@code id} (unique, non-blank), {@code kind} (a lower-case {@link NodeKind}),
 * {@code host}, {@code local} (32-bit whole numbers) and optional {@code attrs} (an object of strings).
 */
final class NodesReader {

    /** The attribute of a GPU's memory, bytes as a decimal string. */
    static final String MEMORY = "memory_bytes";

    /** The largest GPU memory accepted, bytes (1 PiB: 3,500 times a B200's). */
    static final long MAX_MEMORY_BYTES = 1L << 50;

    private NodesReader() {
    }

    private static void memoryBytes(String value, JsonFields f, String path) {
        long v;
        try {
            v = Long.parseLong(value);
        } catch (NumberFormatException e) {
            v = -1;
        }
        if (v < 1 || v > MAX_MEMORY_BYTES) {
            throw f.error(path, "'" + value + "' is not a memory size; valid: a whole number of bytes as a string, 1 to "
                    + MAX_MEMORY_BYTES + " (1 PiB), e.g. \"85520809984\" for 79.65 GiB");
        }
    }

    /**
     * Adds every node of {@code root.nodes} to {@code b}.
     *
     * @return the ids of the nodes read
     * @throws TopologyFormatException at the offending path, including what {@link Node} rejects
     */
    static Set<String> read(JsonObject root, JsonFields f, Topology.Builder b) {
        JsonArray nodes = f.array(root, "nodes", "$");
        Map<String, String> nodePaths = new HashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            String p = "$.nodes[" + i + "]";
            JsonObject o = f.only(f.object(nodes.get(i), p), p, List.of("id", "kind", "host", "local", "attrs"));
            String id = f.nonBlank(o, "id", p);
            String prev = nodePaths.putIfAbsent(id, p);
            if (prev != null) {
                throw f.error(p + ".id", "duplicate node id '" + id + "' (first at " + prev + "); ids must be unique");
            }
            NodeKind kind = f.enumValue(NodeKind.class, f.nonBlank(o, "kind", p), p + ".kind");
            int host = f.wholeInt(f.required(o, "host", p), p + ".host");
            int local = f.wholeInt(f.required(o, "local", p), p + ".local");
            Map<String, String> attrs = new LinkedHashMap<>();
            if (o.has("attrs")) {
                JsonObject ao = f.object(o.get("attrs"), p + ".attrs");
                for (Map.Entry<String, JsonElement> e : ao.entrySet()) {
                    attrs.put(e.getKey(), f.string(e.getValue(), p + ".attrs." + e.getKey()));
                }
                if (attrs.containsKey(MEMORY)) memoryBytes(attrs.get(MEMORY), f, p + ".attrs." + MEMORY);
            }
            try {
                b.node(new Node(id, kind, host, local, attrs));
            } catch (IllegalArgumentException e) {
                throw f.error(p, e.getMessage());
            }
        }
        return nodePaths.keySet();
    }
}
