package io.ccsim.scenarios.format;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.scenarios.ScenarioFormatException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The steps of {@code job.program} (and of the {@code repeat} and {@code if} blocks in it): one kind
 * per step object, optionally limited to {@code "ranks"}.
 */
final class StepReader {
    private static final List<String> STEP_KINDS = List.of("compute", "sleep", "collective", "barrier", "new_group", "abort",
            "destroy", "alloc", "free", "if", "repeat", "checkpoint", "register_process_group", "symm_mem_alloc", "symm_mem_set_backend",
            "symm_mem_rendezvous", "symm_mem_all_reduce");
    private static final List<String> CMPS = List.of("gt", "ge", "lt", "le", "eq", "ne");

    private final JsonReader json;
    private final int worldSize;
    private final Set<String> valueNames;

    /**
     * @param worldSize  the job's ranks (for rank lists and group partitions)
     * @param valueNames the names of {@code job.values} that conditionals may read
     */
    StepReader(JsonReader json, int worldSize, Set<String> valueNames) {
        this.json = json;
        this.worldSize = worldSize;
        this.valueNames = valueNames;
    }

    /** An array of steps at {@code path}. */
    List<Step> steps(JsonElement e, String path) {
        if (e == null || !e.isJsonArray()) throw json.err(path, "expected an array of steps; step kinds: " + STEP_KINDS);
        List<Step> out = new ArrayList<>();
        JsonArray a = e.getAsJsonArray();
        for (int i = 0; i < a.size(); i++) out.add(step(a.get(i), path + "[" + i + "]"));
        return out;
    }

    private Step step(JsonElement e, String path) {
        if (e == null || !e.isJsonObject()) throw json.err(path, "expected a step object with one of " + STEP_KINDS + " (and optionally \"ranks\")");
        JsonObject o = e.getAsJsonObject();
        String kind = null;
        for (String k : o.keySet()) {
            if (k.equals("ranks")) continue;
            if (!STEP_KINDS.contains(k)) throw json.err(path + "." + k, "unknown step kind '" + k + "'; valid: " + STEP_KINDS + " and \"ranks\"");
            if (kind != null) throw json.err(path, "a step has exactly one kind, got '" + kind + "' and '" + k + "'");
            kind = k;
        }
        if (kind == null) throw json.err(path, "missing the step kind; valid: " + STEP_KINDS);
        Set<Integer> only = o.has("ranks") ? new LinkedHashSet<>(json.rankList(o.get("ranks"), path + ".ranks", worldSize)) : Set.of();
        return step(kind, o.get(kind), path + "." + kind, only);
    }

    private Step step(String kind, JsonElement v, String p, Set<Integer> only) {
        switch (kind) {
            case "compute": return new Step.Compute(json.duration(v, p), only);
            case "sleep": return new Step.Sleep(json.duration(v, p), only);
            case "checkpoint": return checkpoint(v, p, only);
            case "barrier": return new Step.Barrier(groupName(v, p), only);
            case "abort": return new Step.Abort(groupName(v, p), only);
            case "destroy": return new Step.Destroy(groupName(v, p), only);
            case "free": return new Step.Free(json.bytes(v, p), only);
            case "alloc": {
                JsonObject ao = json.obj(v, p, List.of("bytes", "cache"));
                return new Step.Alloc(json.bytes(json.req(ao, "bytes", p), p + ".bytes"),
                        ao.has("cache") ? json.bytes(ao.get("cache"), p + ".cache") : 0, only);
            }
            case "collective": return collective(v, p, only);
            case "new_group": return newGroup(v, p, only);
            case "register_process_group":
            case "symm_mem_alloc":
            case "symm_mem_set_backend":
            case "symm_mem_rendezvous":
            case "symm_mem_all_reduce": return new SymmStepReader(json).step(kind, v, p, only);
            case "repeat": {
                JsonObject ro = json.obj(v, p, List.of("times", "steps"));
                int times = (int) json.integer(json.req(ro, "times", p), p + ".times", 0, 1_000_000);
                return new Step.Repeat(times, steps(json.req(ro, "steps", p), p + ".steps"), only);
            }
            default: return conditional(v, p, only);
        }
    }

    private Step checkpoint(JsonElement v, String p, Set<Integer> only) {
        if (v != null && v.isJsonObject()) {
            JsonObject co = json.obj(v, p, List.of("duration", "every"));
            return new Step.Checkpoint(json.duration(json.req(co, "duration", p), p + ".duration"),
                    co.has("every") ? (int) json.integer(co.get("every"), p + ".every", 1, 1_000_000) : 1, only);
        }
        return new Step.Checkpoint(json.duration(v, p), 1, only);
    }

    private Step conditional(JsonElement v, String p, Set<Integer> only) {
        List<String> fields = new ArrayList<>(List.of("value", "then", "else"));
        fields.addAll(CMPS);
        JsonObject io = json.obj(v, p, fields);
        String value = json.str(json.req(io, "value", p), p + ".value", "a name from job.values " + valueNames);
        if (!valueNames.contains(value)) throw json.err(p + ".value", "unknown value '" + value + "'; job.values defines " + valueNames);
        String cmp = null;
        for (String c : CMPS) {
            if (io.has(c)) {
                if (cmp != null) throw json.err(p, "exactly one comparison of " + CMPS + " is allowed");
                cmp = c;
            }
        }
        if (cmp == null) throw json.err(p, "missing the comparison; one of " + CMPS);
        double operand = json.number(io.get(cmp), p + "." + cmp, -Double.MAX_VALUE, Double.MAX_VALUE);
        List<Step> then = steps(json.req(io, "then", p), p + ".then");
        List<Step> otherwise = io.has("else") ? steps(io.get("else"), p + ".else") : List.of();
        return new Step.If(value, Step.Comparison.valueOf(cmp.toUpperCase(Locale.ROOT)), operand, then, otherwise, only);
    }

    private String groupName(JsonElement v, String p) {
        if (v != null && v.isJsonObject()) {
            JsonObject o = json.obj(v, p, List.of("group"));
            return json.str(json.req(o, "group", p), p + ".group", "a process group name");
        }
        return json.str(v, p, "a process group name (\"world\" or a new_group name)");
    }

    private Step collective(JsonElement v, String p, Set<Integer> only) {
        JsonObject o = json.obj(v, p, List.of("op", "group", "count", "bytes", "dtype", "comm", "checksum"));
        String opName = json.str(json.req(o, "op", p), p + ".op", "all_reduce, all_gather, reduce_scatter, broadcast, reduce, all_to_all");
        CollectiveOp op;
        try {
            op = CollectiveOp.parse(opName);
        } catch (IllegalArgumentException ex) {
            throw json.err(p + ".op", ex.getMessage());
        }
        if (op == CollectiveOp.SEND_RECV) {
            throw json.err(p + ".op", "sendrecv is not a collective here; valid: all_reduce, all_gather, reduce_scatter, broadcast, reduce, all_to_all");
        }
        DataType dt = DataType.FLOAT32;
        if (o.has("dtype")) {
            try {
                dt = DataType.parse(json.str(o.get("dtype"), p + ".dtype", "float32, bfloat16, float16, ..."));
            } catch (ScenarioFormatException ex) {
                throw ex;
            } catch (IllegalArgumentException ex) {
                throw json.err(p + ".dtype", ex.getMessage());
            }
        }
        long count;
        if (o.has("count") == o.has("bytes")) throw json.err(p, "give exactly one of \"count\" (elements per rank) or \"bytes\" (per rank)");
        if (o.has("count")) {
            count = json.integer(o.get("count"), p + ".count", 1, Long.MAX_VALUE / 16);
        } else {
            long b = json.bytes(o.get("bytes"), p + ".bytes");
            if (b < dt.bytes() || b % dt.bytes() != 0) {
                throw json.err(p + ".bytes", "must be a positive multiple of the " + dt.bytes() + "-byte " + dt.longName());
            }
            count = b / dt.bytes();
        }
        String group = o.has("group") ? json.str(o.get("group"), p + ".group", "a process group name") : "world";
        String comm = o.has("comm") ? json.str(o.get("comm"), p + ".comm", "a device key such as \"cuda:1\"") : "";
        boolean checksum = o.has("checksum") && json.bool(o.get("checksum"), p + ".checksum");
        return new Step.Collective(op, group, count, dt, comm, checksum, only);
    }

    private Step newGroup(JsonElement v, String p, Set<Integer> only) {
        JsonObject o = json.obj(v, p, List.of("name", "ranks", "stride", "block", "eager", "split_from", "register"));
        String name = json.str(json.req(o, "name", p), p + ".name", "a group name");
        if (name.equals("world")) throw json.err(p + ".name", "'world' is the default group; choose another name");
        int given = (o.has("ranks") ? 1 : 0) + (o.has("stride") ? 1 : 0) + (o.has("block") ? 1 : 0);
        if (given != 1) throw json.err(p, "give exactly one of \"ranks\" (a list, or a list of lists), \"stride\" or \"block\"");
        List<List<Integer>> parts = partition(o, p);
        Set<Integer> seen = new LinkedHashSet<>();
        for (int i = 0; i < parts.size(); i++) {
            if (parts.get(i).isEmpty()) throw json.err(p + ".ranks[" + i + "]", "a group part must not be empty");
            for (int r : parts.get(i)) if (!seen.add(r)) throw json.err(p, "rank " + r + " is in two parts of group " + name);
        }
        boolean eager = o.has("eager") && json.bool(o.get("eager"), p + ".eager");
        String split = o.has("split_from") ? json.str(o.get("split_from"), p + ".split_from", "the parent group's name") : null;
        boolean register = !o.has("register") || json.bool(o.get("register"), p + ".register");
        return new Step.NewGroup(name, parts, eager, split, register, only);
    }

    /** The group's parts from exactly one of "ranks" (a list or a list of lists), "stride" or "block". */
    private List<List<Integer>> partition(JsonObject o, String p) {
        List<List<Integer>> parts = new ArrayList<>();
        if (o.has("ranks")) {
            JsonElement re = o.get("ranks");
            if (!re.isJsonArray()) throw json.err(p + ".ranks", "expected a list of ranks or a list of lists of ranks");
            JsonArray ra = re.getAsJsonArray();
            if (ra.size() > 0 && ra.get(0).isJsonArray()) {
                for (int i = 0; i < ra.size(); i++) parts.add(json.rankList(ra.get(i), p + ".ranks[" + i + "]", worldSize));
            } else {
                parts.add(json.rankList(re, p + ".ranks", worldSize));
            }
        } else if (o.has("stride")) {
            int k = (int) json.integer(o.get("stride"), p + ".stride", 1, worldSize);
            if (worldSize % k != 0) throw json.err(p + ".stride", "must divide world_size " + worldSize);
            for (int i = 0; i < k; i++) {
                List<Integer> part = new ArrayList<>();
                for (int r = i; r < worldSize; r += k) part.add(r);
                parts.add(part);
            }
        } else {
            int k = (int) json.integer(o.get("block"), p + ".block", 1, worldSize);
            if (worldSize % k != 0) throw json.err(p + ".block", "must divide world_size " + worldSize);
            for (int b = 0; b < worldSize; b += k) {
                List<Integer> part = new ArrayList<>();
                for (int r = b; r < b + k; r++) part.add(r);
                parts.add(part);
            }
        }
        return parts;
    }
}
