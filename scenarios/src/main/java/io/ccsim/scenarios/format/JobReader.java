package io.ccsim.scenarios.format;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code job} section: world size, eager init, GPU memory, the per-rank values conditionals
 * read, the modelled environment variables ({@link JobEnv}) and the program ({@link StepReader}).
 */
final class JobReader {
    private static final List<String> FIELDS = List.of("world_size", "eager_init", "gpu_memory", "values", "env", "program");
    private static final java.util.regex.Pattern NVFUSER_OPTION =
            java.util.regex.Pattern.compile(JobEnv.NVFUSER_SYMM_OPTION + "(?:\\(([A-Za-z0-9_]*)\\))?");

    private final JsonReader json;

    JobReader(JsonReader json) { this.json = json; }

    JobSpec read(JsonElement e) {
        JsonObject o = json.obj(e, "$.job", FIELDS);
        int worldSize = (int) json.integer(json.req(o, "world_size", "$.job"), "$.job.world_size", 1, 1 << 20);
        boolean eager = o.has("eager_init") && json.bool(o.get("eager_init"), "$.job.eager_init");
        long mem = o.has("gpu_memory") ? json.bytes(o.get("gpu_memory"), "$.job.gpu_memory") : 0;
        if (o.has("gpu_memory") && mem < 1) {
            throw json.err("$.job.gpu_memory", "a GPU of 0 bytes holds nothing; valid: a size >= 1 B such as \"80GiB\", or omit it"
                    + " for the memory of the topology's GPU");
        }
        Map<String, double[]> values = o.has("values") ? values(o.get("values"), worldSize) : new HashMap<>();
        List<Step> program = new StepReader(json, worldSize, values.keySet()).steps(json.req(o, "program", "$.job"), "$.job.program");
        JobEnv env = o.has("env") ? env(o.get("env")) : JobEnv.defaults();
        return new JobSpec(worldSize, program, values, mem, eager, env);
    }

    /**
     * {@code {"TORCH_SYMMMEM": "NCCL", "NVFUSER_ENABLE": "symmetric_memory_backend(pytorch_nccl)"}}: only the
     * variables ccsim models; TORCH_SYMMMEM must be one of PyTorch's backends; of NVFUSER_ENABLE only the
     * symmetric_memory_backend option is modelled, and its argument is kept as the job wrote it.
     */
    private JobEnv env(JsonElement e) {
        String p = "$.job.env";
        JsonObject o = json.obj(e, p, JobEnv.VARIABLES);
        SymmBackend torch = SymmBackend.CUDA;
        if (o.has("TORCH_SYMMMEM")) {
            String v = json.str(o.get("TORCH_SYMMMEM"), p + ".TORCH_SYMMMEM", String.join(", ", SymmBackend.TORCH_NAMES));
            try {
                torch = SymmBackend.parseTorch(v);
            } catch (IllegalArgumentException ex) {
                throw json.err(p + ".TORCH_SYMMMEM", ex.getMessage());
            }
        }
        String arg = null;
        if (o.has("NVFUSER_ENABLE")) {
            String v = json.str(o.get("NVFUSER_ENABLE"), p + ".NVFUSER_ENABLE", JobEnv.NVFUSER_SYMM_OPTION + "(ARG)");
            java.util.regex.Matcher m = NVFUSER_OPTION.matcher(v);
            if (!m.matches()) {
                throw json.err(p + ".NVFUSER_ENABLE", "'" + v + "': ccsim models only the option " + JobEnv.NVFUSER_SYMM_OPTION
                        + "(ARG) with ARG a word (letters, digits, _)");
            }
            arg = m.group(1) == null ? "" : m.group(1);
        }
        return new JobEnv(torch, arg);
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
