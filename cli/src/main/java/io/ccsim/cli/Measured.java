package io.ccsim.cli;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.gpu.NcclTestsLog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * One measured collective call that {@code ccsim validate} compares with the simulator.
 *
 * @param where    file and line or JSON path, for messages
 * @param op       collective
 * @param bytes    nccl-tests size, bytes
 * @param dtype    element type
 * @param redop    reduction, or null where the op has none
 * @param root     root rank (0 where the op has none)
 * @param algo     algorithm that ran, or null when unknown (nccl-tests logs): then NCCL's default choice is simulated
 * @param proto    protocol that ran, or null when unknown
 * @param channels channels that ran, 0 when unknown
 * @param n        ranks, 0 when the file does not say
 * @param timeUs   measured time of one call, µs
 */
record Measured(String where, CollectiveOp op, long bytes, DataType dtype, ReduceOp redop, int root, Algorithm algo,
                Protocol proto, int channels, int n, double timeUs) {

    /** What {@link #read} found in one file: rows, and how many were left out and why (empty if none). */
    record FileRows(List<Measured> rows, String skipped) { }

    /**
     * Reads {@code text} of {@code file}: a JSON array of rows ({@code ccsim perf --format json}, or the CudaExecutor's
     * timing.json whose rows add {@code n}, {@code set} and {@code graph}), a CSV with {@code perf --format csv}'s
     * header (an {@code n} column is optional), or else an nccl-tests text log. Rows of timing files with
     * {@code "graph": false} (eager launches, host launch cost included) are left out unless {@code keepEager}.
     *
     * @throws UserException naming the file and line or JSON path, and what is valid
     */
    static FileRows read(Path file, String text, boolean keepEager) {
        String t = text.strip();
        if (t.startsWith("[") || t.startsWith("{")) return json(file.toString(), t, keepEager);
        String first = t.lines().findFirst().orElse("");
        if (first.startsWith("op,")) return csv(file.toString(), t);
        return ncclTests(file.toString(), text);
    }

    private static FileRows json(String src, String text, boolean keepEager) {
        JsonElement root;
        try {
            root = JsonParser.parseString(text);
        } catch (JsonParseException e) {
            throw new UserException(src + ": not valid JSON: " + e.getMessage(), e);
        }
        String prefix = "$";
        if (root.isJsonObject() && root.getAsJsonObject().has("rows") && root.getAsJsonObject().get("rows").isJsonArray()) {
            // calibration files (calibration/nccl-h200/*.json): {"source": {...}, "rows": [...]}
            root = root.getAsJsonObject().get("rows");
            prefix = "$.rows";
        }
        if (!root.isJsonArray()) {
            throw new UserException(src + ": expected a JSON array of rows ($[0] = {\"op\": ..., \"bytes\": ..., \"time_us\": ...})"
                    + " as 'ccsim perf --format json' writes, or an object with such a \"rows\" array; got a "
                    + (root.isJsonObject() ? "object" : "scalar"));
        }
        JsonArray a = root.getAsJsonArray();
        List<Measured> rows = new ArrayList<>();
        java.util.Map<String, List<Measured>> trials = new java.util.LinkedHashMap<>();
        int eager = 0;
        for (int i = 0; i < a.size(); i++) {
            String path = src + ": " + prefix + "[" + i + "]";
            if (!a.get(i).isJsonObject()) throw new UserException(path + ": a row must be a JSON object");
            JsonObject o = a.get(i).getAsJsonObject();
            if (o.has("graph") && !bool(o, "graph", path)) {
                eager++;
                if (!keepEager) continue;
            }
            Measured m = row(path, k -> {
                JsonElement e = o.get(k);
                return e == null || e.isJsonNull() ? null : e.isJsonPrimitive() ? e.getAsString() : e.toString();
            });
            if (o.has("trial")) {
                // repeats of one measurement (the device run's "trial" field): one row with the median time
                String key = m.op() + "/" + m.n() + "/" + m.algo() + "/" + m.proto() + "/" + m.channels() + "/" + m.bytes() + "/" + m.dtype();
                List<Measured> l = trials.computeIfAbsent(key, x -> new ArrayList<>());
                if (l.isEmpty()) rows.add(null); // placeholder keeps the file order
                l.add(m);
            } else {
                rows.add(m);
            }
        }
        java.util.Iterator<List<Measured>> merged = trials.values().iterator();
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i) == null) rows.set(i, median(merged.next()));
        }
        String skipped = eager > 0 && !keepEager ? eager + " rows with \"graph\": false (eager launches: host launch cost, which the"
                + " simulator does not model; --include-eager keeps them)" : "";
        return new FileRows(rows, skipped);
    }

    /** The trials of one measurement as one row: the median time (mean of the middle two for an even count). */
    static Measured median(List<Measured> l) {
        Measured f = l.get(0);
        if (l.size() == 1) return f;
        double m = io.ccsim.algorithms.fit.ErrorTable.median(l.stream().mapToDouble(Measured::timeUs).toArray());
        return new Measured(f.where() + " (median of " + l.size() + " trials)", f.op(), f.bytes(), f.dtype(), f.redop(), f.root(),
                f.algo(), f.proto(), f.channels(), f.n(), m);
    }

    private static boolean bool(JsonObject o, String key, String path) {
        JsonElement e = o.get(key);
        if (e.isJsonPrimitive() && e.getAsJsonPrimitive().isBoolean()) return e.getAsBoolean();
        throw new UserException(path + "." + key + ": must be true or false, got " + e);
    }

    private static FileRows csv(String src, String text) {
        List<String> lines = text.lines().collect(Collectors.toList());
        List<String> header = Arrays.asList(lines.get(0).split(",", -1));
        for (String need : List.of("op", "bytes", "dtype", "time_us")) {
            if (!header.contains(need)) {
                throw new UserException(src + ":1: the CSV header has no '" + need + "' column; expected perf --format csv's header "
                        + "op,bytes,count,dtype,redop,root,algo,proto,channels,time_us,algbw_gbps,busbw_gbps (n optional)");
            }
        }
        List<Measured> rows = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) continue;
            String[] f = lines.get(i).split(",", -1);
            String where = src + ":" + (i + 1);
            if (f.length != header.size()) {
                throw new UserException(where + ": " + f.length + " fields, the header has " + header.size());
            }
            rows.add(row(where, k -> {
                int j = header.indexOf(k);
                return j < 0 || f[j].isBlank() ? null : f[j].trim();
            }));
        }
        return new FileRows(rows, "");
    }

    /** A row from named fields (JSON keys or CSV columns). */
    private static Measured row(String where, java.util.function.Function<String, String> get) {
        CollectiveOp op = parse(where, "op", get.apply("op"), CollectiveOp::parse);
        long bytes = parse(where, "bytes", get.apply("bytes"), Long::parseLong);
        if (bytes <= 0) throw new UserException(where + ": bytes must be > 0, got " + bytes);
        String dt = get.apply("dtype");
        DataType dtype = dt == null ? DataType.FLOAT32 : parse(where, "dtype", dt, DataType::parse);
        String ro = get.apply("redop");
        ReduceOp redop = ro == null || ro.equals("none") ? null : parse(where, "redop", ro, ReduceOp::parse);
        String r = get.apply("root");
        int root = r == null ? 0 : Math.max(0, parse(where, "root", r, Integer::parseInt));
        String al = get.apply("algo");
        Algorithm algo = al == null ? null : parse(where, "algo", al, Measured::algorithm);
        String pr = get.apply("proto");
        Protocol proto = pr == null ? null : parse(where, "proto", pr, Measured::protocol);
        String ch = get.apply("channels");
        int channels = ch == null ? 0 : parse(where, "channels", ch, Integer::parseInt);
        String ns = get.apply("n");
        int n = ns == null ? 0 : parse(where, "n", ns, Integer::parseInt);
        if (channels < 0 || n < 0) throw new UserException(where + ": channels and n must be >= 0");
        double us = parse(where, "time_us", get.apply("time_us"), Double::parseDouble);
        if (!(us > 0) || Double.isInfinite(us)) throw new UserException(where + ".time_us: must be a time > 0 in us, got " + us);
        return new Measured(where, op, bytes, dtype, redop, root, algo, proto, channels, n, us);
    }

    private static <T> T parse(String where, String key, String value, java.util.function.Function<String, T> f) {
        if (value == null) throw new UserException(where + ": missing '" + key + "'");
        try {
            return f.apply(value);
        } catch (IllegalArgumentException e) {   // NumberFormatException included
            throw new UserException(where + "." + key + ": invalid '" + value + "': " + e.getMessage(), e);
        }
    }

    /** NCCL's algorithm name ({@code Ring}, {@code Tree}, {@code P2P}), case-insensitively. */
    static Algorithm algorithm(String s) {
        for (Algorithm a : Algorithm.values()) if (a.ncclName().equalsIgnoreCase(s.trim())) return a;
        throw new IllegalArgumentException("unknown algorithm; valid: "
                + Arrays.stream(Algorithm.values()).map(Algorithm::ncclName).collect(Collectors.joining(", ")));
    }

    /** NCCL's protocol name ({@code LL}, {@code LL128}, {@code Simple}), case-insensitively. */
    static Protocol protocol(String s) {
        for (Protocol p : Protocol.values()) if (p.ncclName().equalsIgnoreCase(s.trim())) return p;
        throw new IllegalArgumentException("unknown protocol; valid: "
                + Arrays.stream(Protocol.values()).map(Protocol::ncclName).collect(Collectors.joining(", ")));
    }

    /** nccl-tests text: out-of-place times; algorithm and protocol unknown; n from the log's rank lines. */
    private static FileRows ncclTests(String src, String text) {
        NcclTestsLog log;
        try {
            log = NcclTestsLog.parse(text, src);
        } catch (IllegalArgumentException e) {
            throw new UserException(e.getMessage() + " (not JSON or CSV either: expected a JSON array of perf rows, a CSV with"
                    + " header 'op,bytes,...', or nccl-tests output)", e);
        }
        List<Measured> rows = new ArrayList<>();
        int zero = 0;
        for (NcclTestsLog.Section s : log.sections()) {
            for (NcclTestsLog.Row r : s.rows()) {
                String where = src + ":" + r.line();
                if (r.sizeBytes() == 0 || !(r.oop().timeUs() > 0)) {
                    zero++;
                    continue;
                }
                DataType dt = r.dtype().orElseThrow(() -> new UserException(where + ": nccl-tests type '" + r.type()
                        + "' is not one ccsim models; valid: " + Arrays.stream(DataType.values()).map(DataType::ncclTestsName)
                        .collect(Collectors.joining(", "))));
                String ro = r.redop().toLowerCase(Locale.ROOT);
                ReduceOp redop = ro.isEmpty() || ro.equals("none") ? null : parse(where, "redop", ro, ReduceOp::parse);
                rows.add(new Measured(where, r.op(), r.sizeBytes(), dt, redop, Math.max(0, r.root()), null, null, 0, s.ranks(),
                        r.oop().timeUs()));
            }
        }
        return new FileRows(rows, zero > 0 ? zero + " rows of size 0 or time 0" : "");
    }
}
