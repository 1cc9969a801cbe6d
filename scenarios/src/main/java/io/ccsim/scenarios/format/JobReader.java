package io.ccsim.scenarios.format;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code job} section: world size, eager init, GPU memory, the per-rank values conditionals
 * read, and the program ({@link StepReader}).
 */
final class JobReader {
    private static final List<String> FIELDS = List.of("world_size", "eager_init", "gpu_memory", "values", "program");

    private final JsonReader json;

    JobReader(JsonReader json) { this.json = json; }

    JobSpec read(JsonElement e) {
        JsonObject o = json.obj(e, "$.job", FIELDS);
        int worldSize = (int) json.integer(json.req(o, "world_size", "$.job"), "$.job.world_size", 1, 1 << 20);
        boolean eager = o.has("eager_init") && json.bool(o.get("eager_init"), "$.job.eager_init");
        long mem = o.has("gpu_memory") ? json.bytes(o.get("gpu_memory"), "$.job.gpu_memory") : 0;
        Map<String, double[]> values = o.has("values") ? values(o.get("values"), worldSize) : new HashMap<>();
        List<Step> program = new StepReader(json, worldSize, values.keySet()).steps(json.req(o, "program", "$.job"), "$.job.program");
        return new JobSpec(worldSize, program, values, mem, eager);
    }

    /** {@code name -> {"default": number, "ranks": {"3": number}}}: one value per rank. */
    private Map<String, double[]> values(JsonElement ve, int worldSize) {
        if (!ve.isJsonObject()) throw json.err("$.job.values", "expected an object: name -> {\"default\": number, \"ranks\": {\"3\": number}}");
        Map<String, double[]> values = new HashMap<>();
        for (Map.Entry<String, JsonElement> v : ve.getAsJsonObject().entrySet()) {
            String p = "$.job.values." + v.getKey();
            JsonObject vo = json.obj(v.getValue(), p, List.of("default", "ranks"));
            double def = json.number(json.req(vo, "default", p), p + ".default", -Double.MAX_VALUE, Double.MAX_VALUE);
            double[] arr = new double[worldSize];
            Arrays.fill(arr, def);
            if (vo.has("ranks")) {
                JsonElement re = vo.get("ranks");
                if (!re.isJsonObject()) throw json.err(p + ".ranks", "expected an object: rank (as a string) -> number");
                for (Map.Entry<String, JsonElement> rv : re.getAsJsonObject().entrySet()) {
                    int r;
                    try {
                        r = Integer.parseInt(rv.getKey());
                    } catch (NumberFormatException ex) {
                        throw json.err(p + ".ranks." + rv.getKey(), "keys must be ranks in [0, " + (worldSize - 1) + "]");
                    }
                    if (r < 0 || r >= worldSize) throw json.err(p + ".ranks." + rv.getKey(), "rank out of range [0, " + (worldSize - 1) + "]");
                    arr[r] = json.number(rv.getValue(), p + ".ranks." + rv.getKey(), -Double.MAX_VALUE, Double.MAX_VALUE);
                }
            }
            values.put(v.getKey(), arr);
        }
        return values;
    }
}
