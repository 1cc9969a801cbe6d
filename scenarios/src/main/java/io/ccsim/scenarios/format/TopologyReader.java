package io.ccsim.scenarios.format;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.ccsim.topology.TopologyCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The {@code topology} section: a catalog name with {@code nodes} and {@code gpus_per_node}, or a
 * topology JSON {@code file} relative to the scenario file.
 */
final class TopologyReader {
    private static final List<String> FIELDS = List.of("name", "file", "nodes", "gpus_per_node");

    /**
     * What the section says.
     *
     * @param name        a catalog name, or null with {@code file}
     * @param file        a topology file, or null with {@code name}
     * @param nodes       hosts, 1..4096 (1 when absent)
     * @param gpusPerNode GPUs per board, 0..72 (0 = the board's)
     */
    record Section(String name, Path file, int nodes, int gpusPerNode) {}

    private final JsonReader json;
    private final Path baseDir;

    /** @param baseDir the directory a topology file is relative to (null: the current directory) */
    TopologyReader(JsonReader json, Path baseDir) {
        this.json = json;
        this.baseDir = baseDir;
    }

    Section read(JsonElement e) {
        JsonObject topo = json.obj(e, "$.topology", FIELDS);
        if (topo.has("name") == topo.has("file")) {
            throw json.err("$.topology", "give exactly one of \"name\" (a topology catalog name: " + TopologyCatalog.names()
                    + ") or \"file\" (a topology JSON file)");
        }
        String topoName = null;
        Path topoFile = null;
        if (topo.has("name")) {
            topoName = json.str(topo.get("name"), "$.topology.name", "a topology catalog name (hgx-h100, hgx-h200, ...)");
            if (!TopologyCatalog.contains(topoName)) {
                throw json.err("$.topology.name", "unknown topology '" + topoName + "'; valid: " + TopologyCatalog.names());
            }
        } else {
            String f = json.str(topo.get("file"), "$.topology.file", "a path to a topology JSON file, relative to the scenario file");
            topoFile = baseDir == null ? Path.of(f) : baseDir.resolve(f);
            if (!Files.isRegularFile(topoFile)) throw json.err("$.topology.file", "no such file: " + topoFile);
            if (topo.has("nodes") || topo.has("gpus_per_node")) {
                throw json.err("$.topology", "nodes and gpus_per_node apply to a catalog topology, not to a topology file");
            }
        }
        int nodes = topo.has("nodes") ? (int) json.integer(topo.get("nodes"), "$.topology.nodes", 1, 4096) : 1;
        int gpn = topo.has("gpus_per_node") ? (int) json.integer(topo.get("gpus_per_node"), "$.topology.gpus_per_node", 0, 72) : 0;
        return new Section(topoName, topoFile, nodes, gpn);
    }
}
