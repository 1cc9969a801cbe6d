package io.ccsim.topology.json;

import com.google.gson.JsonElement;
import io.ccsim.topology.input.JsonTree;

/** Parses a topology document as strict JSON ({@link JsonTree}: RFC 8259, no duplicate keys, bounded nesting). */
final class StrictJson {

    private StrictJson() {
    }

    /**
     * The single value of {@code json}.
     *
     * @throws TopologyFormatException at the JSON path of the problem: an empty document, malformed JSON (line and
     *                                 column), a key twice in one object, too deep a nesting, extra content
     */
    static JsonElement parse(String json, JsonFields fields) {
        return JsonTree.parse(json, "a topology object {\"name\": ..., \"nodes\": [...], \"links\": [...]}", fields::error);
    }
}
