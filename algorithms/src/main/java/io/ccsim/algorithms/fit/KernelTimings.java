package io.ccsim.algorithms.fit;

import static io.ccsim.algorithms.fit.JsonFields.bool;
import static io.ccsim.algorithms.fit.JsonFields.num;
import static io.ccsim.algorithms.fit.JsonFields.req;
import static io.ccsim.algorithms.fit.JsonFields.str;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Reads the CudaExecutor's own timings (gpu-backend/results/h200x4/timing.json, written by the device run:
 * a JSON array of rows with {@code op, n, algo, proto, channels, bytes, dtype, redop, root, graph, time_us}) as
 * {@link FixtureRow}s with a fixed plan: forced algorithm and protocol and the row's own channel count, so that
 * {@link FixturePredictor} simulates exactly the plan that ran. Only graph-replay rows ({@code graph: true}) are
 * returned: eager rows include the host launch cost, which the simulator does not model. The timed calls are
 * float32 sums with root 0, which is what the predictor simulates; a row of another dtype, reduction or root is
 * an error rather than a silent mismatch.
 */
public final class KernelTimings {
    private KernelTimings() {}

    /** The graph-replay rows of one timing file, in file order. */
    public static List<FixtureRow> load(Path file) throws IOException {
        return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
    }

    /** Parses timing JSON text; {@code sourceName} appears in error messages. */
    public static List<FixtureRow> parse(String json, String sourceName) {
        JsonElement rootEl;
        try {
            rootEl = JsonParser.parseString(json);
        } catch (JsonParseException e) {
            throw new IllegalArgumentException(sourceName + ": not valid JSON: " + e.getMessage(), e);
        }
        if (!rootEl.isJsonArray()) {
            throw new IllegalArgumentException(sourceName + ": expected a JSON array of timing rows ([{\"op\": ..., \"n\": ..., \"algo\": ...,"
                    + " \"proto\": ..., \"channels\": ..., \"bytes\": ..., \"time_us\": ..., \"graph\": ...}])");
        }
        JsonArray rows = rootEl.getAsJsonArray();
        List<FixtureRow> out = new ArrayList<>();
        // rows with a "trial" field are repeats of one measurement: merged into one row with the median time
        Map<String, List<FixtureRow>> trials = new LinkedHashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            String where = sourceName + " [" + i + "]";
            if (!rows.get(i).isJsonObject()) throw new IllegalArgumentException(where + ": expected an object");
            JsonObject r = rows.get(i).getAsJsonObject();
            if (!bool(r, "graph", where)) continue;
            CollectiveOp op = JsonFields.op(r, where);
            int n = (int) num(r, "n", where);
            if (n < 2) throw new IllegalArgumentException(where + ".n: must be >= 2, got " + n);
            Algorithm algo = algo(str(r, "algo", where), where + ".algo");
            Protocol proto = NcclFixtures.proto(str(r, "proto", where), where + ".proto");
            int ch = (int) num(r, "channels", where);
            if (ch < 1) throw new IllegalArgumentException(where + ".channels: must be >= 1, got " + ch);
            long bytes = (long) num(r, "bytes", where);
            if (bytes <= 0) throw new IllegalArgumentException(where + ".bytes: must be > 0, got " + bytes);
            double t = num(r, "time_us", where);
            if (!(t > 0) || Double.isInfinite(t)) throw new IllegalArgumentException(where + ".time_us: must be finite and > 0, got " + t);
            expect(r, "dtype", where, "float", "float32");
            expect(r, "redop", where, "sum");
            if (r.has("root") && num(r, "root", where) != 0) {
                throw new IllegalArgumentException(where + ".root: only root 0 is predicted, got " + r.get("root"));
            }
            FixtureRow row = new FixtureRow(where, op, n, Optional.of(algo), Optional.of(proto), bytes, t, Optional.empty(), Optional.empty(),
                    OptionalInt.empty(), OptionalInt.of(ch));
            if (r.has("trial")) {
                num(r, "trial", where);
                String key = op + "/" + n + "/" + algo + "/" + proto + "/" + ch + "/" + bytes;
                List<FixtureRow> l = trials.computeIfAbsent(key, k -> new ArrayList<>());
                if (l.isEmpty()) out.add(null); // placeholder keeps the file order
                l.add(row);
            } else {
                out.add(row);
            }
        }
        Iterator<List<FixtureRow>> merged = trials.values().iterator();
        for (int i = 0; i < out.size(); i++) {
            if (out.get(i) == null) out.set(i, median(merged.next()));
        }
        return List.copyOf(out);
    }

    /** One row for the trials of a measurement: the median time (the mean of the middle two for an even count). */
    static FixtureRow median(List<FixtureRow> l) {
        FixtureRow first = l.get(0);
        if (l.size() == 1) return first;
        double m = ErrorTable.median(l.stream().mapToDouble(FixtureRow::timeUs).toArray());
        String src = first.source() + " (median of " + l.size() + " trials)";
        return new FixtureRow(src, first.op(), first.nRanks(), first.forcedAlgo(), first.forcedProto(), first.bytes(), m,
                first.ncclAlgo(), first.ncclProto(), first.ncclChannels(), first.planChannels());
    }

    /** Ring, Tree or P2P, as the CudaExecutor's rows spell them (case-insensitive). */
    static Algorithm algo(String s, String where) {
        for (Algorithm a : new Algorithm[] {Algorithm.RING, Algorithm.TREE, Algorithm.P2P}) {
            if (a.ncclName().equalsIgnoreCase(s.trim())) return a;
        }
        throw new IllegalArgumentException(where + ": algorithm '" + s + "' is not one ccsim fits; valid: Ring, Tree, P2P");
    }

    private static void expect(JsonObject r, String key, String where, String... valid) {
        if (!r.has(key) || r.get(key).isJsonNull()) return;
        String v = str(r, key, where).toLowerCase(Locale.ROOT);
        for (String ok : valid) if (ok.equals(v)) return;
        throw new IllegalArgumentException(where + "." + key + ": '" + v + "' is not predicted; valid: " + String.join(", ", valid));
    }
}
