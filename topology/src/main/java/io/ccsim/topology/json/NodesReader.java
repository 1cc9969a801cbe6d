package io.ccsim.topology.json;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.ccsim.topology.Node;
import io.ccsim.topology.NodeKind;
import io.ccsim.topology.Topology;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Reads {@code $.nodes}: {@code id} (unique, non-blank), {@code kind} (a lower-case {@link NodeKind}),
 * {@code host}, {@code local} (32-bit whole numbers) and optional {@code attrs} (an object of strings).
 */
final class NodesReader {

    private NodesReader() {
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
            JsonObject o = f.object(nodes.get(i), p);
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
