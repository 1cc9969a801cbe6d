package io.ccsim.algorithms.ddp;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import io.ccsim.algorithms.DataType;
import io.ccsim.topology.input.InputException;
import io.ccsim.topology.input.JsonTree;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * Reads a {@link StepProfile} from the JSON that {@code tools/ddp-measure/ddp_buckets.py} writes:
 *
 * <pre>
 * { "world_size": 4, "dtype": "float32",
 *   "forward_ms": 5.96, "backward_compute_ms": 15.33,
 *   "params": [ {"name": "0.weight", "bytes": 16777216, "ready_ms": 15.32}, ... ],
 *   "runs": [ {"bucket_cap_mb": 25, "iteration_ms_median": 25.7, "iteration_ms_p10": 25.6, "iteration_ms_p90": 25.8}, ... ] }
 * </pre>
 *
 * {@code params} (in registration order), {@code forward_ms} and {@code backward_compute_ms} are required;
 * {@code world_size}, {@code dtype} (default float32) and {@code runs} (measured iteration times) are optional; other
 * keys are ignored. The JSON is strict ({@link JsonTree}: no comments, no key twice). Errors are one line naming the
 * source, the JSON path and what is valid.
 */
public final class StepProfileJson {
    private StepProfileJson() {}

    /** Parses {@code text}; {@code source} names it in errors (a file name). */
    public static StepProfile parse(String text, String source) {
        JsonElement root = JsonTree.parse(text, "an object with \"params\"", (path, problem) -> new InputException(source + ": " + path
                + ": " + problem));
        if (!root.isJsonObject()) throw new InputException(source + ": $: expected an object with \"params\"");
        JsonObject o = root.getAsJsonObject();
        DataType dtype = DataType.FLOAT32;
        if (o.has("dtype")) {
            try {
                dtype = DataType.parse(string(o, "dtype", source, "$.dtype"));
            } catch (IllegalArgumentException e) {
                throw new InputException(source + ": $.dtype: " + e.getMessage());
            }
        }
        OptionalInt world = o.has("world_size") ? OptionalInt.of((int) number(o, "world_size", source, "$", 1)) : OptionalInt.empty();
        long forward = ps(number(o, "forward_ms", source, "$", 0));
        long backward = ps(number(o, "backward_compute_ms", source, "$", 0));
        List<Gradient> grads = gradients(o, source);
        List<MeasuredRun> runs = runs(o, source);
        try {
            return new StepProfile(grads, forward, backward, dtype, world, runs);
        } catch (IllegalArgumentException e) {
            throw new InputException(source + ": " + e.getMessage());
        }
    }

    private static List<Gradient> gradients(JsonObject o, String source) {
        JsonArray a = array(o, "params", source, true);
        if (a.isEmpty()) throw new InputException(source + ": $.params: empty; valid: one object per parameter");
        List<Gradient> out = new ArrayList<>(a.size());
        for (int i = 0; i < a.size(); i++) {
            String at = "$.params[" + i + "]";
            if (!a.get(i).isJsonObject()) throw new InputException(source + ": " + at + ": expected an object");
            JsonObject p = a.get(i).getAsJsonObject();
            String name = p.has("name") ? string(p, "name", source, at + ".name") : "param" + i;
            double bytes = number(p, "bytes", source, at, 1);
            if (bytes != Math.rint(bytes)) throw new InputException(source + ": " + at + ".bytes: " + bytes + " is not a whole number");
            long ready = ps(number(p, "ready_ms", source, at, 0));
            try {
                out.add(new Gradient(name, (long) bytes, ready));
            } catch (IllegalArgumentException e) {
                throw new InputException(source + ": " + at + ": " + e.getMessage() + "; valid: a name, bytes >= 1 and ready_ms >= 0");
            }
        }
        return out;
    }

    private static List<MeasuredRun> runs(JsonObject o, String source) {
        List<MeasuredRun> out = new ArrayList<>();
        JsonArray a = array(o, "runs", source, false);
        if (a == null) return out;
        for (int i = 0; i < a.size(); i++) {
            String at = "$.runs[" + i + "]";
            if (!a.get(i).isJsonObject()) throw new InputException(source + ": " + at + ": expected an object");
            JsonObject r = a.get(i).getAsJsonObject();
            double cap = number(r, "bucket_cap_mb", source, at, 0);
            if (cap == 0) throw new InputException(source + ": " + at + ".bucket_cap_mb: 0 is out of range; valid: a number > 0");
            double median = number(r, "iteration_ms_median", source, at, 0);
            double p10 = r.has("iteration_ms_p10") ? number(r, "iteration_ms_p10", source, at, 0) : median;
            double p90 = r.has("iteration_ms_p90") ? number(r, "iteration_ms_p90", source, at, 0) : median;
            out.add(new MeasuredRun(cap, median, p10, p90));
        }
        return out;
    }

    private static long ps(double ms) {
        return Math.round(ms * 1e9);
    }

    private static JsonArray array(JsonObject o, String key, String source, boolean required) {
        JsonElement e = o.get(key);
        if (e == null) {
            if (required) throw new InputException(source + ": $." + key + ": missing; valid: an array");
            return null;
        }
        if (!e.isJsonArray()) throw new InputException(source + ": $." + key + ": expected an array");
        return e.getAsJsonArray();
    }

    private static String string(JsonObject o, String key, String source, String path) {
        JsonElement e = o.get(key);
        if (e == null || !e.isJsonPrimitive() || !((JsonPrimitive) e).isString()) {
            throw new InputException(source + ": " + path + ": expected a string");
        }
        return e.getAsString();
    }

    /** The number at {@code path.key}, at least {@code min}. */
    private static double number(JsonObject o, String key, String source, String path, double min) {
        JsonElement e = o.get(key);
        String at = path + "." + key;
        if (e == null) throw new InputException(source + ": " + at + ": missing; valid: a number >= " + fmt(min));
        if (!e.isJsonPrimitive() || !((JsonPrimitive) e).isNumber()) {
            throw new InputException(source + ": " + at + ": " + e + " is not a number");
        }
        double v = e.getAsDouble();
        if (!(v >= min) || Double.isInfinite(v)) {
            throw new InputException(source + ": " + at + ": " + e + " is out of range; valid: a number >= " + fmt(min));
        }
        return v;
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
