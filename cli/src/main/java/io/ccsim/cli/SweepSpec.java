package io.ccsim.cli;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import io.ccsim.topology.input.InputException;
import io.ccsim.topology.input.JsonTree;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A study file: the axes of a grid (every combination of their values) or of a random sample of it. Every axis takes
 * one value or a list; an absent axis has its default. JSON keys:
 * <pre>
 * topology          catalog name or topology file             (required)
 * gpus              GPUs per board, 0 = the board's           (default 0)
 * nodes             nodes                                     (default 1)
 * nics_per_node     NICs per board, 0 = the board's           (default 0)
 * oversubscription  fat-tree down:up ratio, &gt;= 1            (default 1)
 * sharp             SHARP switches                            (default false)
 * what_if           what-if sets, each an object of: degrade ["LINK=F"...], down ["LINK"...], nic_gbps G,
 *                   nvlink_gbps G, routing "ecmp"|"dmodk" (absent: the fabric's), and "each": "GLOB" with
 *                   "factor": F (one point per link the glob matches,
 *                   degraded to F) or "down": true (each link down in turn)         (default [{}]: none)
 * ops               collectives, as perf --op                 (required)
 * sizes             sizes ["1M", 4096] or {"min": "8", "max": "1G", "factor": 2}   (required)
 * dtypes            nccl-tests type names                     (default "float")
 * env               {"NCCL_ALGO": ["Ring", "Tree"], ...}: a grid over each variable's values (default none)
 * seeds             simulation seeds                          (default 0)
 * sim_mode          folded|full|extrapolated|auto             (default folded)
 * sample            {"count": N, "seed": S}: N points drawn from the grid without replacement (default: all)
 * </pre>
 * A bad value is refused with one line naming the file, the JSON path and what is valid.
 *
 * @param axes   each axis's values, JSON elements as written (lists of one element for a scalar)
 * @param whatIf the what-if sets, as objects
 * @param sizes  the message sizes, bytes
 * @param env    each NCCL variable's values, in the file's order
 * @param sample points to draw (0 = the whole grid) and the seed of the draw
 * @param file   the file named in messages
 */
record SweepSpec(Map<String, List<JsonElement>> axes, List<JsonObject> whatIf, long[] sizes,
                 Map<String, List<String>> env, int sample, long sampleSeed, String file) {

    static final Set<String> KEYS = Set.of("topology", "gpus", "nodes", "nics_per_node", "oversubscription", "sharp",
            "what_if", "ops", "sizes", "dtypes", "env", "seeds", "sim_mode", "sample");
    static final List<String> KEY_ORDER = List.of("topology", "gpus", "nodes", "nics_per_node", "oversubscription", "sharp",
            "what_if", "ops", "sizes", "dtypes", "env", "seeds", "sim_mode", "sample");
    private static final Map<String, JsonElement> DEFAULTS = Map.of("gpus", new JsonPrimitive(0), "nodes", new JsonPrimitive(1),
            "nics_per_node", new JsonPrimitive(0), "oversubscription", new JsonPrimitive(1.0), "sharp", new JsonPrimitive(false),
            "dtypes", new JsonPrimitive("float"), "seeds", new JsonPrimitive(0), "sim_mode", new JsonPrimitive("folded"));

    /** The values of scalar axis {@code key}. */
    List<JsonElement> axis(String key) {
        return axes.get(key);
    }

    /**
     * Parses a study from {@code text}: YAML where {@code file} ends in {@code .yaml} or {@code .yml}
     * ({@link StudyYaml}), else JSON.
     *
     * @throws UserException naming {@code file}, the JSON path and what is valid
     */
    static SweepSpec parse(String text, String file) {
        if (StudyYaml.isYaml(file)) return StudyYaml.parse(text, file);
        return of(JsonTree.parse(text, "a study object with keys " + KEY_ORDER, (path, problem) -> bad(file, path, problem)), file);
    }

    /**
     * The study of the document tree {@code root} (JSON's, or YAML's read into the same tree).
     *
     * @throws SpecException naming {@code file}, the path and what is valid
     */
    static SweepSpec of(JsonElement root, String file) {
        if (root == null || !root.isJsonObject()) throw bad(file, "$", "a study is an object (JSON) or a mapping (YAML) with keys " + KEY_ORDER);
        JsonObject o = root.getAsJsonObject();
        for (String k : o.keySet()) {
            if (!KEYS.contains(k)) throw bad(file, "$." + k, "unknown key; valid keys: " + String.join(", ", KEY_ORDER));
        }
        for (String k : List.of("topology", "ops", "sizes")) {
            if (!o.has(k)) throw bad(file, "$." + k, "missing; a study needs topology, ops and sizes");
        }
        Map<String, List<JsonElement>> axes = new LinkedHashMap<>();
        for (String k : List.of("topology", "gpus", "nodes", "nics_per_node", "oversubscription", "sharp", "ops", "dtypes",
                "seeds", "sim_mode")) {
            List<JsonElement> values = o.has(k) ? list(o.get(k), file, "$." + k) : List.of(DEFAULTS.get(k));
            for (int i = 0; i < values.size(); i++) check(k, values.get(i), file, "$." + k + (o.has(k) && o.get(k).isJsonArray() ? "[" + i + "]" : ""));
            axes.put(k, values);
        }
        List<JsonObject> whatIf = new ArrayList<>();
        if (o.has("what_if")) {
            List<JsonElement> ws = list(o.get("what_if"), file, "$.what_if");
            for (int i = 0; i < ws.size(); i++) whatIf.add(SweepWhatIf.check(ws.get(i), file, "$.what_if[" + i + "]"));
        } else {
            whatIf.add(new JsonObject());
        }
        long[] sizes = sizes(o.get("sizes"), file);
        Map<String, List<String>> env = new LinkedHashMap<>();
        if (o.has("env")) {
            if (!o.get("env").isJsonObject()) throw bad(file, "$.env", "an object of NCCL variables, e.g. {\"NCCL_ALGO\": [\"Ring\", \"Tree\"]}");
            for (Map.Entry<String, JsonElement> e : o.getAsJsonObject("env").entrySet()) {
                String path = "$.env." + e.getKey();
                if (!e.getKey().startsWith("NCCL_")) throw bad(file, path, "not an NCCL variable; valid: names starting with NCCL_");
                List<String> vs = new ArrayList<>();
                for (JsonElement v : list(e.getValue(), file, path)) {
                    if (!v.isJsonPrimitive()) throw bad(file, path, "a value or a list of values (strings or numbers)");
                    vs.add(v.getAsString());
                }
                env.put(e.getKey(), vs);
            }
        }
        int sample = 0;
        long sampleSeed = 0;
        if (o.has("sample")) {
            JsonElement s = o.get("sample");
            if (!s.isJsonObject() || !isInt(s.getAsJsonObject().get("count")) || s.getAsJsonObject().get("count").getAsLong() < 1) {
                throw bad(file, "$.sample", "{\"count\": N, \"seed\": S} with N >= 1");
            }
            sample = s.getAsJsonObject().get("count").getAsInt();
            JsonElement sd = s.getAsJsonObject().get("seed");
            if (sd != null && !isInt(sd)) throw bad(file, "$.sample.seed", "an integer");
            sampleSeed = sd == null ? 0 : sd.getAsLong();
        }
        return new SweepSpec(axes, whatIf, sizes, env, sample, sampleSeed, file);
    }

    private static List<JsonElement> list(JsonElement e, String file, String path) {
        List<JsonElement> out = new ArrayList<>();
        if (e.isJsonArray()) {
            e.getAsJsonArray().forEach(out::add);
            if (out.isEmpty()) throw bad(file, path, "an empty list gives no point; give at least one value");
        } else {
            out.add(e);
        }
        return out;
    }

    private static void check(String key, JsonElement v, String file, String path) {
        boolean ok = switch (key) {
            case "topology", "ops", "dtypes" -> v.isJsonPrimitive() && v.getAsJsonPrimitive().isString();
            case "gpus", "nics_per_node" -> isInt(v) && v.getAsLong() >= 0;
            case "nodes" -> isInt(v) && v.getAsLong() >= 1;
            case "seeds" -> isInt(v);
            case "oversubscription" -> v.isJsonPrimitive() && v.getAsJsonPrimitive().isNumber() && v.getAsDouble() >= 1;
            case "sharp" -> v.isJsonPrimitive() && v.getAsJsonPrimitive().isBoolean();
            case "sim_mode" -> v.isJsonPrimitive() && Set.of("folded", "full", SweepEngine.EXTRAPOLATED, SweepEngine.AUTO)
                    .contains(v.getAsString());
            default -> true;
        };
        if (!ok) throw bad(file, path, "invalid " + v + "; valid: " + valid(key));
    }

    private static String valid(String key) {
        return switch (key) {
            case "topology" -> "a catalog name or topology file (string)";
            case "ops" -> "a collective name, e.g. \"all_reduce\"";
            case "dtypes" -> "an nccl-tests type name, e.g. \"float\", \"bfloat16\"";
            case "gpus", "nics_per_node" -> "an integer >= 0 (0: the board's)";
            case "nodes" -> "an integer >= 1";
            case "seeds" -> "an integer";
            case "oversubscription" -> "a number >= 1";
            case "sharp" -> "true or false";
            default -> "\"folded\", \"full\", \"extrapolated\" or \"auto\"";
        };
    }

    static boolean isInt(JsonElement v) {
        if (v == null || !v.isJsonPrimitive() || !v.getAsJsonPrimitive().isNumber()) return false;
        double d = v.getAsDouble();
        return d == Math.rint(d) && Math.abs(d) < 9e15;
    }

    private static long[] sizes(JsonElement e, String file) {
        if (e.isJsonObject()) {
            JsonObject r = e.getAsJsonObject();
            for (String k : r.keySet()) {
                if (!Set.of("min", "max", "factor").contains(k)) throw bad(file, "$.sizes." + k, "unknown key; valid: min, max, factor");
            }
            if (!r.has("min") || !r.has("max")) throw bad(file, "$.sizes", "a range needs min and max, e.g. {\"min\": \"8\", \"max\": \"1G\", \"factor\": 2}");
            long min = size(r.get("min"), file, "$.sizes.min");
            long max = size(r.get("max"), file, "$.sizes.max");
            JsonElement f = r.get("factor");
            if (f != null && (!isInt(f) || f.getAsLong() < 2)) throw bad(file, "$.sizes.factor", "an integer >= 2");
            if (max < min) throw bad(file, "$.sizes", "max " + max + " < min " + min + "; valid: min <= max");
            return SimSetup.sizes(min, max, f == null ? 2L : f.getAsLong(), null);
        }
        JsonArray a = new JsonArray();
        if (e.isJsonArray()) a = e.getAsJsonArray();
        else a.add(e);
        if (a.isEmpty()) throw bad(file, "$.sizes", "an empty list gives no point; give at least one size");
        long[] out = new long[a.size()];
        for (int i = 0; i < out.length; i++) out[i] = size(a.get(i), file, "$.sizes" + (e.isJsonArray() ? "[" + i + "]" : ""));
        return out;
    }

    private static long size(JsonElement v, String file, String path) {
        if (isInt(v) && v.getAsLong() >= 0) return v.getAsLong();
        if (v.isJsonPrimitive() && v.getAsJsonPrimitive().isString()) {
            try {
                return Sizes.parse(path, v.getAsString());
            } catch (RuntimeException ex) {
                throw bad(file, path, "invalid size '" + v.getAsString() + "'; valid: bytes with an optional K, M or G suffix (\"64K\")");
            }
        }
        throw bad(file, path, "invalid size " + v + "; valid: bytes with an optional K, M or G suffix (\"64K\") or a number");
    }

    /** The one-line error: {@code FILE: PATH: what}. */
    static SpecException bad(String file, String path, String what) {
        return new SpecException(file, path, what);
    }

    /** A bad value of a study: {@code FILE: PATH: what}, its parts kept for a reader that knows lines ({@link StudyYaml}). */
    static final class SpecException extends UserException {
        private static final long serialVersionUID = 1L;
        private final String path;
        private final String what;

        SpecException(String file, String path, String what) {
            super(InputException.oneLine(file + ": " + path + ": " + what));
            this.path = path;
            this.what = what;
        }

        /** The JSON path of the value, {@code $.gpus[1]}. */
        String path() { return path; }

        /** What is wrong and what is valid. */
        String what() { return what; }
    }
}
