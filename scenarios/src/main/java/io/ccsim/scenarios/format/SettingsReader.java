package io.ccsim.scenarios.format;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.ccsim.scenarios.ScenarioFormatException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code settings} section: PyTorch's and NCCL's knobs, each field optional with the default of
 * {@link Settings#defaults()}. Values outside their domain are errors at {@code $.settings}.
 */
final class SettingsReader {
    private static final List<String> FIELDS = List.of("collective_timeout", "store_timeout", "heartbeat_timeout", "blocking_wait",
            "async_error_handling", "ranks_per_root", "scalable_init_keys", "retry_count", "store_latency", "bootstrap_latency",
            "channels", "ib_timeout", "ib_retry_count", "max_restarts", "restart_delay", "horizon", "nccl_env");
    private static final String P = "$.settings.";

    private final JsonReader json;

    SettingsReader(JsonReader json) { this.json = json; }

    /** The settings, or the defaults when the section is absent ({@code e} null). */
    Settings read(JsonElement e) {
        Settings d = Settings.defaults();
        if (e == null) return d;
        JsonObject o = json.obj(e, "$.settings", FIELDS);
        boolean scoped = d.scopedScalableKeys();
        if (o.has("scalable_init_keys")) {
            String v = json.str(o.get("scalable_init_keys"), P + "scalable_init_keys", "\"unscoped\" (before PR #178493) or \"scoped\"");
            if (!v.equals("unscoped") && !v.equals("scoped")) {
                throw json.err(P + "scalable_init_keys", "unknown value '" + v + "'; valid: unscoped, scoped");
            }
            scoped = v.equals("scoped");
        }
        try {
            return new Settings(
                    duration(o, "collective_timeout", d.collectiveTimeoutPs()),
                    duration(o, "store_timeout", d.storeTimeoutPs()),
                    duration(o, "heartbeat_timeout", d.heartbeatTimeoutPs()),
                    o.has("blocking_wait") ? json.bool(o.get("blocking_wait"), P + "blocking_wait") : d.blockingWait(),
                    integer(o, "async_error_handling", 0, 3, d.asyncErrorHandling()),
                    integer(o, "ranks_per_root", 1, 1 << 20, d.ranksPerRoot()),
                    scoped,
                    integer(o, "retry_count", 0, 1000, d.retryCount()),
                    duration(o, "store_latency", d.storeLatencyPs()),
                    duration(o, "bootstrap_latency", d.bootstrapLatencyPs()),
                    integer(o, "channels", 1, 64, d.channels()),
                    integer(o, "ib_timeout", 1, 31, d.ibTimeout()),
                    integer(o, "ib_retry_count", 0, 7, d.ibRetryCount()),
                    integer(o, "max_restarts", 0, 100, d.maxRestarts()),
                    duration(o, "restart_delay", d.restartDelayPs()),
                    duration(o, "horizon", d.horizonPs()),
                    o.has("nccl_env") ? ncclEnv(o.get("nccl_env"), P + "nccl_env") : d.ncclEnv());
        } catch (ScenarioFormatException ex) {
            throw ex;
        } catch (IllegalArgumentException ex) {
            throw json.err("$.settings", ex.getMessage());
        }
    }

    private long duration(JsonObject o, String field, long dflt) {
        return o.has(field) ? json.duration(o.get(field), P + field) : dflt;
    }

    private int integer(JsonObject o, String field, int min, int max, int dflt) {
        return o.has(field) ? (int) json.integer(o.get(field), P + field, min, max) : dflt;
    }

    /** {"NCCL_ALGO": "Ring", ...}: names must start with NCCL_, values are strings (checked by NcclEnv). */
    private Map<String, String> ncclEnv(JsonElement e, String path) {
        if (!e.isJsonObject()) throw json.err(path, "expected an object of NCCL_* variables, e.g. {\"NCCL_ALGO\": \"Ring\"}");
        Map<String, String> m = new TreeMap<>();
        for (Map.Entry<String, JsonElement> v : e.getAsJsonObject().entrySet()) {
            if (!v.getKey().startsWith("NCCL_")) throw json.err(path + "." + v.getKey(), "not an NCCL variable; valid: names starting with NCCL_");
            m.put(v.getKey(), json.str(v.getValue(), path + "." + v.getKey(), "a string"));
        }
        return m;
    }
}
