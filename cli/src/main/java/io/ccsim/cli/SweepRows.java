package io.ccsim.cli;

import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.ccsim.algorithms.perf.PerfRow;
import java.util.List;

/**
 * The row of a study point: its columns, and its text as a JSON line and as a CSV line (RFC 4180: a field with a
 * comma or a quote is quoted, quotes doubled; no field holds a line break). A column without a value (the numbers
 * of a point that did not run) is JSON null and an empty CSV field.
 */
public final class SweepRows {
    private SweepRows() {}

    /** The columns, in order: point, provenance, the point's setting, then the numbers and the error. */
    public static final List<String> COLUMNS = List.of("point", "id", "ccsim_version", "nccl_model", "profile", "calibrated",
            "topology", "ranks", "nodes", "nics_per_node", "oversubscription", "sharp", "what_if", "env", "seed", "sim_mode",
            "op", "dtype", "bytes", "count", "time_us", "algbw_gbps", "busbw_gbps", "algo", "proto", "channels", "events",
            "error");

    /** Adds the numbers of {@code row} (null: not run) to {@code o}: time (us), algbw and busbw (GB/s), choice, events. */
    static void perf(JsonObject o, PerfRow row, long events) {
        if (row == null) {
            for (String k : List.of("time_us", "algbw_gbps", "busbw_gbps", "algo", "proto", "channels", "events")) {
                o.add(k, JsonNull.INSTANCE);
            }
            return;
        }
        o.addProperty("time_us", PerfCommand.round(row.timeUs(), 3));
        o.addProperty("algbw_gbps", PerfCommand.round(row.algbwGbps(), 3));
        o.addProperty("busbw_gbps", PerfCommand.round(row.busbwGbps(), 3));
        o.addProperty("algo", row.algo().ncclName());
        o.addProperty("proto", row.proto().ncclName());
        o.addProperty("channels", row.channels());
        o.addProperty("events", events);
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
        JsonObject o = JsonParser.parseString(json).getAsJsonObject();
        StringBuilder sb = new StringBuilder();
        for (String c : COLUMNS) {
            if (sb.length() > 0 || !c.equals(COLUMNS.get(0))) sb.append(',');
            JsonElement v = o.get(c);
            String s = v == null || v.isJsonNull() ? "" : v.getAsString();
            if (s.indexOf(',') >= 0 || s.indexOf('"') >= 0) s = '"' + s.replace("\"", "\"\"") + '"';
            sb.append(s);
        }
        return sb.toString();
    }

    /** The point id of a row's JSON line, or null if it is not a complete row. */
    static String idOfJson(String line) {
        try {
            JsonElement e = JsonParser.parseString(line);
            if (!e.isJsonObject() || !e.getAsJsonObject().has("id") || !e.getAsJsonObject().has("error")) return null;
            return e.getAsJsonObject().get("id").getAsString();
        } catch (RuntimeException e) {
            return null;
        }
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

    /** The point index of a row's JSON line. */
    static int indexOfJson(String line) {
        return JsonParser.parseString(line).getAsJsonObject().get("point").getAsInt();
    }
}
