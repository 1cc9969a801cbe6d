package io.ccsim.cli;

import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import io.ccsim.topology.input.JsonTree;
import io.ccsim.algorithms.perf.PerfRow;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The row of a study point: its columns, and its text as a JSON line and as a CSV line (RFC 4180: a field with a
 * comma or a quote is quoted, quotes doubled; no field holds a line break). A column without a value (the numbers
 * of a point that did not run) is JSON null and an empty CSV field.
 */
public final class SweepRows {
    private SweepRows() {}

    /**
     * The columns, in order: point and id, the {@link Provenance} columns (one source for every output), the point's
     * setting, then the numbers and the error.
     */
    public static final List<String> COLUMNS = columns();

    private static List<String> columns() {
        List<String> c = new ArrayList<>(List.of("point", "id"));
        c.addAll(Provenance.COLUMNS);
        c.addAll(List.of("nics_per_node", "oversubscription", "sharp", "what_if", "env", "sim_mode", "op", "dtype", "bytes",
                "count", "time_us", "algbw_gbps", "busbw_gbps", "algo", "proto", "channels", "events", "law", "error_bound_pct",
                "error"));
        return List.copyOf(c);
    }

    /** Adds the numbers of {@code row} (null: not run) to {@code o}: time (us), algbw and busbw (GB/s), choice, events. */
    static void perf(JsonObject o, PerfRow row, long events) {
        if (row == null) {
            for (String k : List.of("time_us", "algbw_gbps", "busbw_gbps", "algo", "proto", "channels", "events")) {
                o.add(k, JsonNull.INSTANCE);
            }
            return;
        }
        o.addProperty("time_us", PerfRowFormats.round(row.timeUs(), 3));
        o.addProperty("algbw_gbps", PerfRowFormats.round(row.algbwGbps(), 3));
        o.addProperty("busbw_gbps", PerfRowFormats.round(row.busbwGbps(), 3));
        o.addProperty("algo", row.algo().ncclName());
        o.addProperty("proto", row.proto().ncclName());
        o.addProperty("channels", row.channels());
        o.addProperty("events", events);
    }

    /**
     * Adds how an extrapolated row was found to {@code o}: its law and the law's measured error bound, in per cent;
     * both null for a simulated row (null {@code e}), which is exact.
     */
    static void law(JsonObject o, io.ccsim.algorithms.scale.Extrapolation e) {
        if (e == null) {
            o.add("law", JsonNull.INSTANCE);
            o.add("error_bound_pct", JsonNull.INSTANCE);
            return;
        }
        o.addProperty("law", e.law().name());
        o.addProperty("error_bound_pct", e.errorBoundPct());
    }

    /** {@code o} as one line of JSON, nulls kept. */
    public static String json(JsonObject o) {
        return o.toString();
    }

    /** The CSV header line. */
    public static String csvHeader() {
        return String.join(",", COLUMNS);
    }

    /** The CSV line of the row in JSON line {@code json}. */
    public static String csvLine(String json) {
        JsonObject o = row(json, "a sweep row");
        StringBuilder sb = new StringBuilder();
        for (String c : COLUMNS) {
            if (sb.length() > 0 || !c.equals(COLUMNS.get(0))) sb.append(',');
            JsonElement v = o.get(c);
            String s = text(v);
            if (s.indexOf(',') >= 0 || s.indexOf('"') >= 0) s = '"' + s.replace("\"", "\"\"") + '"';
            sb.append(s);
        }
        return sb.toString();
    }

    /** The rows of JSON lines {@code rows} (nulls skipped), each as its columns' text values (empty where null). */
    static List<Map<String, String>> values(List<String> rows) {
        List<Map<String, String>> out = new ArrayList<>();
        for (String r : rows) {
            if (r == null) continue;
            JsonObject o = row(r, "a sweep row");
            Map<String, String> m = new LinkedHashMap<>();
            for (String c : COLUMNS) {
                JsonElement v = o.get(c);
                m.put(c, text(v));
            }
            out.add(m);
        }
        return out;
    }

    /** The complete rows of a sweep's output file ({@code .csv} with its header, else JSON lines), as {@link #values}. */
    static List<Map<String, String>> valuesOf(Path file) {
        try {
            List<String> lines = io.ccsim.topology.input.TextFile.read(file, "--out").lines().toList();
            if (!file.toString().endsWith(".csv")) {
                List<String> json = new ArrayList<>();
                for (int i = 0; i < lines.size(); i++) if (idOfJson(lines.get(i), file + ": line " + (i + 1)) != null) json.add(lines.get(i));
                return values(json);
            }
            List<Map<String, String>> out = new ArrayList<>();
            org.apache.commons.csv.CSVFormat f = org.apache.commons.csv.CSVFormat.DEFAULT.builder().setHeader(COLUMNS.toArray(new String[0]))
                    .get();
            for (String l : lines) {
                if (idOfCsv(l) == null) continue;
                for (org.apache.commons.csv.CSVRecord r : f.parse(new java.io.StringReader(l))) out.add(r.toMap());
            }
            return out;
        } catch (java.io.IOException e) {
            throw new UserException("--chart: cannot read the rows of " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * The point id of a row's JSON line, or null if the line is blank or a JSON object that is not a complete row (no
     * {@code id} string or no {@code error}).
     *
     * @param where the file and line, for errors ({@code out.jsonl: line 3})
     * @throws UserException naming {@code where} and the JSON path, for a line that is not strict JSON (a duplicate key
     *                       included): ccsim writes none, so the file was edited or is another program's
     */
    static String idOfJson(String line, String where) {
        if (line.isBlank()) return null;
        JsonElement e = JsonTree.parse(line, "a sweep row", (path, problem) -> new UserException(io.ccsim.topology.input.InputException
                .oneLine(where + ": " + path + ": " + problem + "; --out takes the rows of an interrupted run of the same study, or a"
                        + " new file")));
        if (!e.isJsonObject() || !e.getAsJsonObject().has("id") || !e.getAsJsonObject().has("error")) return null;
        JsonElement id = e.getAsJsonObject().get("id");
        return id.isJsonPrimitive() && id.getAsJsonPrimitive().isString() ? id.getAsString() : null;
    }

    /**
     * A column's text: empty for null; a number as ccsim wrote it (a whole number plainly, a double as
     * {@link Double#toString}), which the exact decimal that {@link JsonTree} keeps would spell otherwise ("1.0E+10").
     */
    private static String text(JsonElement v) {
        if (v == null || v.isJsonNull()) return "";
        if (v.isJsonPrimitive() && v.getAsJsonPrimitive().isNumber()) {
            java.math.BigDecimal d = v.getAsBigDecimal();
            return d.scale() == 0 ? d.toPlainString() : Double.toString(d.doubleValue());
        }
        return v.getAsString();
    }

    /** The JSON object of a row ccsim wrote ({@link #json}); {@code what} names it in the error. */
    private static JsonObject row(String json, String what) {
        JsonElement e = JsonTree.parse(json, what, (path, problem) -> new UserException(io.ccsim.topology.input.InputException
                .oneLine(what + ": " + path + ": " + problem)));
        if (!e.isJsonObject()) throw new UserException(what + ": $: expected a JSON object");
        return e.getAsJsonObject();
    }

    /** The point id of a row's CSV line (the second field; ids have no comma), or null if it is not a complete row. */
    static String idOfCsv(String line) {
        String[] f = line.split(",", 3);
        if (f.length < 3 || !f[1].matches("[0-9a-f]{16}")) return null;
        int fields = 1;
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char ch = line.charAt(i);
            if (ch == '"') quoted = !quoted;
            else if (ch == ',' && !quoted) fields++;
        }
        return fields == COLUMNS.size() && !quoted ? f[1] : null;
    }
}
