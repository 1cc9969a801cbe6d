package io.ccsim.algorithms.measurements;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

/**
 * Measured rows from JSON: an array of rows as {@code ccsim perf --format json} writes them (either backend), the
 * CudaExecutor's timing.json (whose rows add {@code n}, {@code graph} and {@code trial}), or a calibration fixture
 * ({@code {"source": {...}, "rows": [...]}}), each row read by {@link NamedFields}. Rows with {@code "graph": false}
 * (eager launches, host launch cost included) are left out unless kept; the trials of one measurement become one row
 * with their median time.
 */
final class JsonRows {
    private JsonRows() {}

    /** @throws IllegalArgumentException naming {@code src} and the JSON path, and what is valid */
    static MeasuredFile read(String src, JsonElement root, boolean keepEager) {
        String prefix = "$";
        if (root.isJsonObject() && root.getAsJsonObject().has("rows") && root.getAsJsonObject().get("rows").isJsonArray()) {
            root = root.getAsJsonObject().get("rows");
            prefix = "$.rows";
        }
        if (!root.isJsonArray()) {
            throw new IllegalArgumentException(src + ": expected a JSON array of rows ($[0] = {\"op\": ..., \"bytes\": ..., \"time_us\": ...})"
                    + " as 'ccsim perf --format json' writes, an object with such a \"rows\" array, or nccl-tests' -J file"
                    + " (an object with \"results\" and \"config\"); got a "
                    + (root.isJsonObject() ? "object" : "scalar"));
        }
        JsonArray a = root.getAsJsonArray();
        Trials rows = new Trials();
        int eager = 0;
        for (int i = 0; i < a.size(); i++) {
            String path = src + ": " + prefix + "[" + i + "]";
            if (!a.get(i).isJsonObject()) throw new IllegalArgumentException(path + ": a row must be a JSON object");
            JsonObject o = a.get(i).getAsJsonObject();
            if (o.has("graph") && !bool(o, "graph", path)) {
                eager++;
                if (!keepEager) continue;
            }
            MeasuredRow m = NamedFields.row(path, k -> text(o, k));
            if (o.has("trial")) {
                rows.addTrial(m.op() + "/" + m.n() + "/" + m.algo().orElse(null) + "/" + m.proto().orElse(null) + "/" + m.channels()
                        + "/" + m.bytes() + "/" + m.dtype() + "/" + m.ncclPlaced(), m);
            } else {
                rows.add(m);
            }
        }
        String skipped = eager > 0 && !keepEager ? eager + " rows with \"graph\": false (eager launches: host launch cost, which the"
                + " simulator does not model; --include-eager keeps them)" : "";
        return new MeasuredFile(rows.rows(), skipped);
    }

    /** A field as text: a primitive's string, another element's JSON; null where absent or null. */
    private static String text(JsonObject o, String key) {
        JsonElement e = o.get(key);
        return e == null || e.isJsonNull() ? null : e.isJsonPrimitive() ? e.getAsString() : e.toString();
    }

    private static boolean bool(JsonObject o, String key, String path) {
        JsonElement e = o.get(key);
        if (e.isJsonPrimitive() && e.getAsJsonPrimitive().isBoolean()) return e.getAsBoolean();
        throw new IllegalArgumentException(path + "." + key + ": must be true or false, got " + e);
    }
}
