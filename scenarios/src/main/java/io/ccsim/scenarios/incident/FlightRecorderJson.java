package io.ccsim.scenarios.incident;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a flight-recorder dump in its JSON form ({@code torch._C._distributed_c10d._dump_nccl_trace_json}, the form of
 * the {@code /handler/dump_nccl_trace_json} endpoint): the same keys as the pickle ({@link FlightRecorderDumps}), with
 * {@code process_group} as a list, pg_status values as strings and absent times as 0. A dump taken with
 * {@code onlyActive=True} lists only the pending entries and, on a rank with none, no {@code entries} at all.
 */
public final class FlightRecorderJson {
    private FlightRecorderJson() {}

    /** Whether a JSON object is a flight-recorder dump: it has {@code pg_config} and {@code version}. */
    public static boolean is(JsonObject o) {
        return o.has("pg_config") && o.has("version");
    }

    /**
     * The dump of a parsed JSON object.
     *
     * @throws IncidentFormatException naming the file, the JSON path and what was expected
     */
    public static FrDump read(String file, int rank, JsonObject root) {
        return FlightRecorderDumps.decode(file, rank, plain(root));
    }

    /** JSON as plain Java values: maps (in order), lists, longs (integral numbers), doubles, strings, booleans, null. */
    private static Object plain(JsonElement e) {
        if (e == null || e.isJsonNull()) return null;
        if (e instanceof JsonObject o) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (Map.Entry<String, JsonElement> x : o.entrySet()) m.put(x.getKey(), plain(x.getValue()));
            return m;
        }
        if (e instanceof JsonArray a) {
            List<Object> l = new ArrayList<>();
            for (JsonElement x : a) l.add(plain(x));
            return l;
        }
        JsonPrimitive p = e.getAsJsonPrimitive();
        if (p.isBoolean()) return p.getAsBoolean();
        if (p.isString()) return p.getAsString();
        BigDecimal d = p.getAsBigDecimal();
        try {
            return d.longValueExact();
        } catch (ArithmeticException notIntegral) {
            return d.doubleValue();
        }
    }
}
