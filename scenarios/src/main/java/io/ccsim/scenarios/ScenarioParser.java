package io.ccsim.scenarios;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads scenario files (JSON; the format is documented in scenarios/README.md). Strict: unknown
 * fields, wrong types and out-of-range values are errors that name the JSON path and what is valid.
 */
public final class ScenarioParser {
    private static final List<String> TOP = List.of("name", "description", "topology", "settings", "job", "faults", "expect");
    private static final List<String> STEP_KINDS = List.of("compute", "sleep", "collective", "barrier", "new_group", "abort",
            "destroy", "alloc", "free", "if", "repeat", "checkpoint");
    private static final List<String> FAULT_TYPES = List.of("link_degrade", "link_down", "link_flap", "rank_crash", "never_starts",
            "slow_gpu", "gpu_hang", "memory_pressure", "bit_flip_link", "bit_flip_gpu_memory", "store_key_collision");
    private static final List<String> CMPS = List.of("gt", "ge", "lt", "le", "eq", "ne");

    private final String source;
    private final java.nio.file.Path baseDir;
    private int worldSize;
    private Set<String> valueNames = Set.of();

    private ScenarioParser(String source, java.nio.file.Path baseDir) {
        this.source = source;
        this.baseDir = baseDir;
    }

    /**
     * Parses scenario JSON; {@code source} names the file in error messages. A topology file is
     * resolved against the current directory.
     */
    public static Scenario parse(String json, String source) {
        return parse(json, source, null);
    }

    /** Parses scenario JSON whose topology file, if any, is resolved against {@code baseDir} (null: current directory). */
    public static Scenario parse(String json, String source, java.nio.file.Path baseDir) {
        JsonElement root;
        try {
            root = JsonParser.parseString(json);
        } catch (JsonParseException e) {
            throw new ScenarioFormatException(source, "$", "not valid JSON: " + e.getMessage());
        }
        return new ScenarioParser(source, baseDir).scenario(root);
    }

    private ScenarioFormatException err(String path, String msg) { return new ScenarioFormatException(source, path, msg); }

    private JsonObject obj(JsonElement e, String path, List<String> allowed) {
        if (e == null || !e.isJsonObject()) throw err(path, "expected an object with fields " + allowed);
        JsonObject o = e.getAsJsonObject();
        for (String k : o.keySet()) {
            if (!allowed.contains(k)) throw err(path + "." + k, "unknown field '" + k + "'; valid fields: " + allowed);
        }
        return o;
    }

    private JsonElement req(JsonObject o, String f, String path) {
        JsonElement e = o.get(f);
        if (e == null || e.isJsonNull()) throw err(path + "." + f, "required field is missing");
        return e;
    }

    private String str(JsonElement e, String path, String valid) {
        if (e == null || !e.isJsonPrimitive() || !e.getAsJsonPrimitive().isString()) throw err(path, "expected a string; valid: " + valid);
        return e.getAsString();
    }

    private long integer(JsonElement e, String path, long min, long max) {
        if (e == null || !e.isJsonPrimitive() || !e.getAsJsonPrimitive().isNumber()) {
            throw err(path, "expected an integer in [" + min + ", " + max + "]");
        }
        double d = e.getAsDouble();
        if (d != Math.rint(d) || d < min || d > max) throw err(path, "expected an integer in [" + min + ", " + max + "], got " + e);
        return e.getAsLong();
    }

    private double number(JsonElement e, String path, double min, double max) {
        if (e == null || !e.isJsonPrimitive() || !e.getAsJsonPrimitive().isNumber()) {
            throw err(path, "expected a number in [" + min + ", " + max + "]");
        }
        double d = e.getAsDouble();
        if (!(d >= min && d <= max)) throw err(path, "expected a number in [" + min + ", " + max + "], got " + e);
        return d;
    }

    private boolean bool(JsonElement e, String path) {
        if (e == null || !e.isJsonPrimitive() || !e.getAsJsonPrimitive().isBoolean()) throw err(path, "expected true or false");
        return e.getAsBoolean();
    }

    private long duration(JsonElement e, String path) {
        String s = str(e, path, "a duration such as \"3s\", \"100ms\", \"10min\"");
        try {
            return Units.parseDuration(s);
        } catch (IllegalArgumentException ex) {
            throw err(path, ex.getMessage());
        }
    }

    private long bytes(JsonElement e, String path) {
        if (e != null && e.isJsonPrimitive() && e.getAsJsonPrimitive().isNumber()) return integer(e, path, 0, Long.MAX_VALUE);
        String s = str(e, path, "a size such as \"1GiB\", \"300MiB\" or a number of bytes");
        try {
            return Units.parseBytes(s);
        } catch (IllegalArgumentException ex) {
            throw err(path, ex.getMessage());
        }
    }

    private int rank(JsonElement e, String path) { return (int) integer(e, path, 0, worldSize - 1); }

    private List<Integer> rankList(JsonElement e, String path) {
        if (e == null || !e.isJsonArray()) throw err(path, "expected an array of ranks in [0, " + (worldSize - 1) + "]");
        List<Integer> out = new ArrayList<>();
        JsonArray a = e.getAsJsonArray();
        for (int i = 0; i < a.size(); i++) {
            int r = rank(a.get(i), path + "[" + i + "]");
            if (out.contains(r)) throw err(path + "[" + i + "]", "rank " + r + " is listed twice");
            out.add(r);
        }
        return out;
    }

    private Scenario scenario(JsonElement rootEl) {
        JsonObject o = obj(rootEl, "$", TOP);
        String name = str(req(o, "name", "$"), "$.name", "a short name");
        String description = o.has("description") ? str(o.get("description"), "$.description", "a text") : "";
        JsonObject topo = obj(req(o, "topology", "$"), "$.topology", List.of("name", "file", "nodes", "gpus_per_node"));
        if (topo.has("name") == topo.has("file")) {
            throw err("$.topology", "give exactly one of \"name\" (a topology catalog name: " + io.ccsim.topology.TopologyCatalog.names()
                    + ") or \"file\" (a topology JSON file)");
        }
        String topoName = null;
        java.nio.file.Path topoFile = null;
        if (topo.has("name")) {
            topoName = str(topo.get("name"), "$.topology.name", "a topology catalog name (hgx-h100, hgx-h200, ...)");
            if (!io.ccsim.topology.TopologyCatalog.contains(topoName)) {
                throw err("$.topology.name", "unknown topology '" + topoName + "'; valid: " + io.ccsim.topology.TopologyCatalog.names());
            }
        } else {
            String f = str(topo.get("file"), "$.topology.file", "a path to a topology JSON file, relative to the scenario file");
            topoFile = baseDir == null ? java.nio.file.Path.of(f) : baseDir.resolve(f);
            if (!java.nio.file.Files.isRegularFile(topoFile)) throw err("$.topology.file", "no such file: " + topoFile);
            if (topo.has("nodes") || topo.has("gpus_per_node")) {
                throw err("$.topology", "nodes and gpus_per_node apply to a catalog topology, not to a topology file");
            }
        }
        int nodes = topo.has("nodes") ? (int) integer(topo.get("nodes"), "$.topology.nodes", 1, 4096) : 1;
        int gpn = topo.has("gpus_per_node") ? (int) integer(topo.get("gpus_per_node"), "$.topology.gpus_per_node", 0, 72) : 0;
        Settings settings = settings(o.get("settings"));
        JsonSpec job = job(req(o, "job", "$"));
        List<Fault> faults = new ArrayList<>();
        if (o.has("faults")) {
            JsonElement fe = o.get("faults");
            if (!fe.isJsonArray()) throw err("$.faults", "expected an array of fault objects");
            JsonArray fa = fe.getAsJsonArray();
            for (int i = 0; i < fa.size(); i++) faults.add(fault(fa.get(i), "$.faults[" + i + "]"));
        }
        Scenario.Expectation expect = o.has("expect") ? expect(o.get("expect")) : null;
        return new Scenario(name, description, topoName, topoFile, nodes, gpn, job.spec, faults, settings, expect);
    }

    private Settings settings(JsonElement e) {
        Settings d = Settings.defaults();
        if (e == null) return d;
        List<String> fields = List.of("collective_timeout", "store_timeout", "heartbeat_timeout", "blocking_wait", "async_error_handling",
                "ranks_per_root", "scalable_init_keys", "retry_count", "store_latency", "bootstrap_latency", "channels", "ib_timeout",
                "ib_retry_count", "max_restarts", "restart_delay", "horizon", "nccl_env");
        JsonObject o = obj(e, "$.settings", fields);
        String p = "$.settings.";
        boolean scoped = d.scopedScalableKeys();
        if (o.has("scalable_init_keys")) {
            String v = str(o.get("scalable_init_keys"), p + "scalable_init_keys", "\"unscoped\" (before PR #178493) or \"scoped\"");
            if (!v.equals("unscoped") && !v.equals("scoped")) {
                throw err(p + "scalable_init_keys", "unknown value '" + v + "'; valid: unscoped, scoped");
            }
            scoped = v.equals("scoped");
        }
        try {
            return new Settings(
                    o.has("collective_timeout") ? duration(o.get("collective_timeout"), p + "collective_timeout") : d.collectiveTimeoutPs(),
                    o.has("store_timeout") ? duration(o.get("store_timeout"), p + "store_timeout") : d.storeTimeoutPs(),
                    o.has("heartbeat_timeout") ? duration(o.get("heartbeat_timeout"), p + "heartbeat_timeout") : d.heartbeatTimeoutPs(),
                    o.has("blocking_wait") ? bool(o.get("blocking_wait"), p + "blocking_wait") : d.blockingWait(),
                    o.has("async_error_handling") ? (int) integer(o.get("async_error_handling"), p + "async_error_handling", 0, 3) : d.asyncErrorHandling(),
                    o.has("ranks_per_root") ? (int) integer(o.get("ranks_per_root"), p + "ranks_per_root", 1, 1 << 20) : d.ranksPerRoot(),
                    scoped,
                    o.has("retry_count") ? (int) integer(o.get("retry_count"), p + "retry_count", 0, 1000) : d.retryCount(),
                    o.has("store_latency") ? duration(o.get("store_latency"), p + "store_latency") : d.storeLatencyPs(),
                    o.has("bootstrap_latency") ? duration(o.get("bootstrap_latency"), p + "bootstrap_latency") : d.bootstrapLatencyPs(),
                    o.has("channels") ? (int) integer(o.get("channels"), p + "channels", 1, 64) : d.channels(),
                    o.has("ib_timeout") ? (int) integer(o.get("ib_timeout"), p + "ib_timeout", 1, 31) : d.ibTimeout(),
                    o.has("ib_retry_count") ? (int) integer(o.get("ib_retry_count"), p + "ib_retry_count", 0, 7) : d.ibRetryCount(),
                    o.has("max_restarts") ? (int) integer(o.get("max_restarts"), p + "max_restarts", 0, 100) : d.maxRestarts(),
                    o.has("restart_delay") ? duration(o.get("restart_delay"), p + "restart_delay") : d.restartDelayPs(),
                    o.has("horizon") ? duration(o.get("horizon"), p + "horizon") : d.horizonPs(),
                    o.has("nccl_env") ? ncclEnv(o.get("nccl_env"), p + "nccl_env") : d.ncclEnv());
        } catch (ScenarioFormatException ex) {
            throw ex;
        } catch (IllegalArgumentException ex) {
            throw err("$.settings", ex.getMessage());
        }
    }

    /** {"NCCL_ALGO": "Ring", ...}: names must start with NCCL_, values are strings (checked by NcclEnv). */
    private Map<String, String> ncclEnv(JsonElement e, String path) {
        if (!e.isJsonObject()) throw err(path, "expected an object of NCCL_* variables, e.g. {\"NCCL_ALGO\": \"Ring\"}");
        Map<String, String> m = new java.util.TreeMap<>();
        for (Map.Entry<String, JsonElement> v : e.getAsJsonObject().entrySet()) {
            if (!v.getKey().startsWith("NCCL_")) throw err(path + "." + v.getKey(), "not an NCCL variable; valid: names starting with NCCL_");
            m.put(v.getKey(), str(v.getValue(), path + "." + v.getKey(), "a string"));
        }
        return m;
    }

    private record JsonSpec(JobSpec spec) {}

    private JsonSpec job(JsonElement e) {
        JsonObject o = obj(e, "$.job", List.of("world_size", "eager_init", "gpu_memory", "values", "program"));
        worldSize = (int) integer(req(o, "world_size", "$.job"), "$.job.world_size", 1, 1 << 20);
        boolean eager = o.has("eager_init") && bool(o.get("eager_init"), "$.job.eager_init");
        long mem = o.has("gpu_memory") ? bytes(o.get("gpu_memory"), "$.job.gpu_memory") : 0;
        Map<String, double[]> values = new HashMap<>();
        if (o.has("values")) {
            JsonElement ve = o.get("values");
            if (!ve.isJsonObject()) throw err("$.job.values", "expected an object: name -> {\"default\": number, \"ranks\": {\"3\": number}}");
            for (Map.Entry<String, JsonElement> v : ve.getAsJsonObject().entrySet()) {
                String p = "$.job.values." + v.getKey();
                JsonObject vo = obj(v.getValue(), p, List.of("default", "ranks"));
                double def = number(req(vo, "default", p), p + ".default", -Double.MAX_VALUE, Double.MAX_VALUE);
                double[] arr = new double[worldSize];
                Arrays.fill(arr, def);
                if (vo.has("ranks")) {
                    JsonElement re = vo.get("ranks");
                    if (!re.isJsonObject()) throw err(p + ".ranks", "expected an object: rank (as a string) -> number");
                    for (Map.Entry<String, JsonElement> rv : re.getAsJsonObject().entrySet()) {
                        int r;
                        try {
                            r = Integer.parseInt(rv.getKey());
                        } catch (NumberFormatException ex) {
                            throw err(p + ".ranks." + rv.getKey(), "keys must be ranks in [0, " + (worldSize - 1) + "]");
                        }
                        if (r < 0 || r >= worldSize) throw err(p + ".ranks." + rv.getKey(), "rank out of range [0, " + (worldSize - 1) + "]");
                        arr[r] = number(rv.getValue(), p + ".ranks." + rv.getKey(), -Double.MAX_VALUE, Double.MAX_VALUE);
                    }
                }
                values.put(v.getKey(), arr);
            }
        }
        valueNames = values.keySet();
        List<Step> program = steps(req(o, "program", "$.job"), "$.job.program");
        return new JsonSpec(new JobSpec(worldSize, program, values, mem, eager));
    }

    private List<Step> steps(JsonElement e, String path) {
        if (e == null || !e.isJsonArray()) throw err(path, "expected an array of steps; step kinds: " + STEP_KINDS);
        List<Step> out = new ArrayList<>();
        JsonArray a = e.getAsJsonArray();
        for (int i = 0; i < a.size(); i++) out.add(step(a.get(i), path + "[" + i + "]"));
        return out;
    }

    private Step step(JsonElement e, String path) {
        if (e == null || !e.isJsonObject()) throw err(path, "expected a step object with one of " + STEP_KINDS + " (and optionally \"ranks\")");
        JsonObject o = e.getAsJsonObject();
        String kind = null;
        for (String k : o.keySet()) {
            if (k.equals("ranks")) continue;
            if (!STEP_KINDS.contains(k)) throw err(path + "." + k, "unknown step kind '" + k + "'; valid: " + STEP_KINDS + " and \"ranks\"");
            if (kind != null) throw err(path, "a step has exactly one kind, got '" + kind + "' and '" + k + "'");
            kind = k;
        }
        if (kind == null) throw err(path, "missing the step kind; valid: " + STEP_KINDS);
        Set<Integer> only = o.has("ranks") ? new LinkedHashSet<>(rankList(o.get("ranks"), path + ".ranks")) : Set.of();
        JsonElement v = o.get(kind);
        String p = path + "." + kind;
        switch (kind) {
            case "compute": return new Step.Compute(duration(v, p), only);
            case "sleep": return new Step.Sleep(duration(v, p), only);
            case "checkpoint": {
                if (v != null && v.isJsonObject()) {
                    JsonObject co = obj(v, p, List.of("duration", "every"));
                    return new Step.Checkpoint(duration(req(co, "duration", p), p + ".duration"),
                            co.has("every") ? (int) integer(co.get("every"), p + ".every", 1, 1_000_000) : 1, only);
                }
                return new Step.Checkpoint(duration(v, p), 1, only);
            }
            case "barrier": return new Step.Barrier(groupName(v, p), only);
            case "abort": return new Step.Abort(groupName(v, p), only);
            case "destroy": return new Step.Destroy(groupName(v, p), only);
            case "free": return new Step.Free(bytes(v, p), only);
            case "alloc": {
                JsonObject ao = obj(v, p, List.of("bytes", "cache"));
                return new Step.Alloc(bytes(req(ao, "bytes", p), p + ".bytes"), ao.has("cache") ? bytes(ao.get("cache"), p + ".cache") : 0, only);
            }
            case "collective": return collective(v, p, only);
            case "new_group": return newGroup(v, p, only);
            case "repeat": {
                JsonObject ro = obj(v, p, List.of("times", "steps"));
                int times = (int) integer(req(ro, "times", p), p + ".times", 0, 1_000_000);
                return new Step.Repeat(times, steps(req(ro, "steps", p), p + ".steps"), only);
            }
            default: { // if
                List<String> fields = new ArrayList<>(List.of("value", "then", "else"));
                fields.addAll(CMPS);
                JsonObject io = obj(v, p, fields);
                String value = str(req(io, "value", p), p + ".value", "a name from job.values " + valueNames);
                if (!valueNames.contains(value)) throw err(p + ".value", "unknown value '" + value + "'; job.values defines " + valueNames);
                String cmp = null;
                for (String c : CMPS) {
                    if (io.has(c)) {
                        if (cmp != null) throw err(p, "exactly one comparison of " + CMPS + " is allowed");
                        cmp = c;
                    }
                }
                if (cmp == null) throw err(p, "missing the comparison; one of " + CMPS);
                double operand = number(io.get(cmp), p + "." + cmp, -Double.MAX_VALUE, Double.MAX_VALUE);
                List<Step> then = steps(req(io, "then", p), p + ".then");
                List<Step> otherwise = io.has("else") ? steps(io.get("else"), p + ".else") : List.of();
                return new Step.If(value, Step.Comparison.valueOf(cmp.toUpperCase(java.util.Locale.ROOT)), operand, then, otherwise, only);
            }
        }
    }

    private String groupName(JsonElement v, String p) {
        if (v != null && v.isJsonObject()) {
            JsonObject o = obj(v, p, List.of("group"));
            return str(req(o, "group", p), p + ".group", "a process group name");
        }
        return str(v, p, "a process group name (\"world\" or a new_group name)");
    }

    private Step collective(JsonElement v, String p, Set<Integer> only) {
        JsonObject o = obj(v, p, List.of("op", "group", "count", "bytes", "dtype", "comm", "checksum"));
        String opName = str(req(o, "op", p), p + ".op", "all_reduce, all_gather, reduce_scatter, broadcast, reduce, all_to_all");
        CollectiveOp op;
        try {
            op = CollectiveOp.parse(opName);
        } catch (IllegalArgumentException ex) {
            throw err(p + ".op", ex.getMessage());
        }
        if (op == CollectiveOp.SEND_RECV) throw err(p + ".op", "sendrecv is not a collective here; valid: all_reduce, all_gather, reduce_scatter, broadcast, reduce, all_to_all");
        DataType dt = DataType.FLOAT32;
        if (o.has("dtype")) {
            try {
                dt = DataType.parse(str(o.get("dtype"), p + ".dtype", "float32, bfloat16, float16, ..."));
            } catch (ScenarioFormatException ex) {
                throw ex;
            } catch (IllegalArgumentException ex) {
                throw err(p + ".dtype", ex.getMessage());
            }
        }
        long count;
        if (o.has("count") == o.has("bytes")) throw err(p, "give exactly one of \"count\" (elements per rank) or \"bytes\" (per rank)");
        if (o.has("count")) {
            count = integer(o.get("count"), p + ".count", 1, Long.MAX_VALUE / 16);
        } else {
            long b = bytes(o.get("bytes"), p + ".bytes");
            if (b < dt.bytes() || b % dt.bytes() != 0) throw err(p + ".bytes", "must be a positive multiple of the " + dt.bytes() + "-byte " + dt.longName());
            count = b / dt.bytes();
        }
        String group = o.has("group") ? str(o.get("group"), p + ".group", "a process group name") : "world";
        String comm = o.has("comm") ? str(o.get("comm"), p + ".comm", "a device key such as \"cuda:1\"") : "";
        boolean checksum = o.has("checksum") && bool(o.get("checksum"), p + ".checksum");
        return new Step.Collective(op, group, count, dt, comm, checksum, only);
    }

    private Step newGroup(JsonElement v, String p, Set<Integer> only) {
        JsonObject o = obj(v, p, List.of("name", "ranks", "stride", "block", "eager", "split_from"));
        String name = str(req(o, "name", p), p + ".name", "a group name");
        if (name.equals("world")) throw err(p + ".name", "'world' is the default group; choose another name");
        int given = (o.has("ranks") ? 1 : 0) + (o.has("stride") ? 1 : 0) + (o.has("block") ? 1 : 0);
        if (given != 1) throw err(p, "give exactly one of \"ranks\" (a list, or a list of lists), \"stride\" or \"block\"");
        List<List<Integer>> parts = new ArrayList<>();
        if (o.has("ranks")) {
            JsonElement re = o.get("ranks");
            if (!re.isJsonArray()) throw err(p + ".ranks", "expected a list of ranks or a list of lists of ranks");
            JsonArray ra = re.getAsJsonArray();
            if (ra.size() > 0 && ra.get(0).isJsonArray()) {
                for (int i = 0; i < ra.size(); i++) parts.add(rankList(ra.get(i), p + ".ranks[" + i + "]"));
            } else {
                parts.add(rankList(re, p + ".ranks"));
            }
        } else if (o.has("stride")) {
            int k = (int) integer(o.get("stride"), p + ".stride", 1, worldSize);
            if (worldSize % k != 0) throw err(p + ".stride", "must divide world_size " + worldSize);
            for (int i = 0; i < k; i++) {
                List<Integer> part = new ArrayList<>();
                for (int r = i; r < worldSize; r += k) part.add(r);
                parts.add(part);
            }
        } else {
            int k = (int) integer(o.get("block"), p + ".block", 1, worldSize);
            if (worldSize % k != 0) throw err(p + ".block", "must divide world_size " + worldSize);
            for (int b = 0; b < worldSize; b += k) {
                List<Integer> part = new ArrayList<>();
                for (int r = b; r < b + k; r++) part.add(r);
                parts.add(part);
            }
        }
        Set<Integer> seen = new LinkedHashSet<>();
        for (int i = 0; i < parts.size(); i++) {
            if (parts.get(i).isEmpty()) throw err(p + ".ranks[" + i + "]", "a group part must not be empty");
            for (int r : parts.get(i)) if (!seen.add(r)) throw err(p, "rank " + r + " is in two parts of group " + name);
        }
        boolean eager = o.has("eager") && bool(o.get("eager"), p + ".eager");
        String split = o.has("split_from") ? str(o.get("split_from"), p + ".split_from", "the parent group's name") : null;
        return new Step.NewGroup(name, parts, eager, split, only);
    }

    private Fault fault(JsonElement e, String p) {
        if (e == null || !e.isJsonObject()) throw err(p, "expected a fault object with a \"type\" of " + FAULT_TYPES);
        JsonObject raw = e.getAsJsonObject();
        String type = str(req(raw, "type", p), p + ".type", String.join(", ", FAULT_TYPES));
        if (raw.has("at_iteration")) {
            // an event trigger: the fault happens when its rank (rank 0 for link and store faults) starts that iteration
            if (type.equals("never_starts")) throw err(p + ".at_iteration", "never_starts has no time; remove at_iteration");
            if (raw.has("at")) throw err(p, "give at most one of \"at\" (a time) or \"at_iteration\" (an event)");
            int iteration = (int) integer(raw.get("at_iteration"), p + ".at_iteration", 0, Integer.MAX_VALUE);
            JsonObject copy = raw.deepCopy();
            copy.remove("at_iteration");
            Fault inner = fault(copy, p);
            int trigger = copy.has("rank") ? (int) copy.get("rank").getAsLong() : 0;
            return new Fault.OnIteration(trigger, iteration, inner);
        }
        switch (type) {
            case "link_degrade": {
                JsonObject o = obj(e, p, List.of("type", "link", "factor", "at"));
                return new Fault.LinkDegrade(link(o, p), number(req(o, "factor", p), p + ".factor", 1e-6, 1.0), at(o, p));
            }
            case "link_down": {
                JsonObject o = obj(e, p, List.of("type", "link", "at", "duration"));
                return new Fault.LinkDown(link(o, p), at(o, p), o.has("duration") ? duration(o.get("duration"), p + ".duration") : 0);
            }
            case "link_flap": {
                JsonObject o = obj(e, p, List.of("type", "link", "at", "down_for", "up_for", "count"));
                return new Fault.LinkFlap(link(o, p), at(o, p), duration(req(o, "down_for", p), p + ".down_for"),
                        duration(req(o, "up_for", p), p + ".up_for"), (int) integer(req(o, "count", p), p + ".count", 1, 10_000));
            }
            case "rank_crash": {
                JsonObject o = obj(e, p, List.of("type", "rank", "at"));
                return new Fault.RankCrash(rank(req(o, "rank", p), p + ".rank"), at(o, p));
            }
            case "never_starts": {
                JsonObject o = obj(e, p, List.of("type", "rank"));
                return new Fault.NeverStarts(rank(req(o, "rank", p), p + ".rank"));
            }
            case "slow_gpu": {
                JsonObject o = obj(e, p, List.of("type", "rank", "factor", "at"));
                return new Fault.SlowGpu(rank(req(o, "rank", p), p + ".rank"), number(req(o, "factor", p), p + ".factor", 1.0, 1e6),
                        o.has("at") ? at(o, p) : 0);
            }
            case "gpu_hang": {
                JsonObject o = obj(e, p, List.of("type", "rank", "at"));
                return new Fault.GpuHang(rank(req(o, "rank", p), p + ".rank"), at(o, p));
            }
            case "memory_pressure": {
                JsonObject o = obj(e, p, List.of("type", "rank", "bytes", "at"));
                return new Fault.MemoryPressure(rank(req(o, "rank", p), p + ".rank"), bytes(req(o, "bytes", p), p + ".bytes"),
                        o.has("at") ? at(o, p) : 0);
            }
            case "bit_flip_link": {
                JsonObject o = obj(e, p, List.of("type", "link", "at"));
                return new Fault.BitFlipLink(link(o, p), at(o, p));
            }
            case "bit_flip_gpu_memory": {
                JsonObject o = obj(e, p, List.of("type", "rank", "at"));
                return new Fault.BitFlipGpuMemory(rank(req(o, "rank", p), p + ".rank"), at(o, p));
            }
            case "store_key_collision": {
                JsonObject o = obj(e, p, List.of("type", "key", "value", "at"));
                return new Fault.StoreKeyCollision(str(req(o, "key", p), p + ".key", "a full store key such as \"default_pg/0\""),
                        str(req(o, "value", p), p + ".value", "the value written"), at(o, p));
            }
            default:
                throw err(p + ".type", "unknown fault type '" + type + "'; valid: " + FAULT_TYPES);
        }
    }

    private long at(JsonObject o, String p) { return o.has("at") ? duration(o.get("at"), p + ".at") : 0; }

    private String link(JsonObject o, String p) {
        return str(req(o, "link", p), p + ".link", "a topology link id such as \"n31.nic1~leaf.r1.0\"");
    }

    private Scenario.Expectation expect(JsonElement e) {
        JsonObject o = obj(e, "$.expect", List.of("outcome", "diagnosis"));
        Outcome outcome;
        try {
            outcome = Outcome.parse(str(req(o, "outcome", "$.expect"), "$.expect.outcome", "completed, hang, error, corrupted, degraded"));
        } catch (ScenarioFormatException ex) {
            throw ex;
        } catch (IllegalArgumentException ex) {
            throw err("$.expect.outcome", ex.getMessage());
        }
        List<Scenario.ExpectedDiagnosis> ds = new ArrayList<>();
        if (o.has("diagnosis")) {
            JsonElement de = o.get("diagnosis");
            if (!de.isJsonArray()) throw err("$.expect.diagnosis", "expected an array of {category, ranks, links}");
            JsonArray a = de.getAsJsonArray();
            for (int i = 0; i < a.size(); i++) {
                String p = "$.expect.diagnosis[" + i + "]";
                JsonObject d = obj(a.get(i), p, List.of("category", "ranks", "links"));
                String c = str(req(d, "category", p), p + ".category", Arrays.toString(Category.values()));
                Category cat;
                try {
                    cat = Category.valueOf(c);
                } catch (IllegalArgumentException ex) {
                    throw err(p + ".category", "unknown category '" + c + "'; valid: " + Arrays.toString(Category.values()));
                }
                List<Integer> ranks = d.has("ranks") ? rankList(d.get("ranks"), p + ".ranks") : List.of();
                List<String> links = new ArrayList<>();
                if (d.has("links")) {
                    JsonElement le = d.get("links");
                    if (!le.isJsonArray()) throw err(p + ".links", "expected an array of link ids");
                    for (int j = 0; j < le.getAsJsonArray().size(); j++) {
                        links.add(str(le.getAsJsonArray().get(j), p + ".links[" + j + "]", "a topology link id"));
                    }
                }
                ds.add(new Scenario.ExpectedDiagnosis(cat, ranks, links));
            }
        }
        return new Scenario.Expectation(outcome, ds);
    }

    @SuppressWarnings("unused")
    private static boolean isString(JsonElement e) { return e instanceof JsonPrimitive && ((JsonPrimitive) e).isString(); }
}
