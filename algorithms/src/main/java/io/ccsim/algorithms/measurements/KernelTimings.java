package io.ccsim.algorithms.measurements;

import static io.ccsim.algorithms.measurements.RowFields.bool;
import static io.ccsim.algorithms.measurements.RowFields.num;
import static io.ccsim.algorithms.measurements.RowFields.str;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;
import io.ccsim.topology.input.InputException;
import io.ccsim.topology.input.JsonTree;
import java.util.List;
import java.util.Locale;

/**
 * The CudaExecutor's own timings (timing.json, written by the device run: a JSON array of rows with {@code op, n, algo,
 * proto, channels, bytes, dtype, redop, root, graph, time_us} and optionally {@code trial}), read for a fit as rows of a
 * fixed plan: forced algorithm and protocol and the row's own channel count, so that a predictor simulates exactly the
 * plan that ran. Only graph-replay rows ({@code graph: true}) are returned: eager rows include the host launch cost,
 * which the simulator does not model. The timed calls are float32 sums with root 0; a row of another dtype, reduction
 * or root is an error rather than a silent mismatch. The trials of one measurement become one row with their median time.
 */
final class KernelTimings {
    private KernelTimings() {}

    /** @throws IllegalArgumentException naming {@code sourceName}, the row and the field, for malformed content */
    static List<MeasuredRow> parse(String json, String sourceName) {
        JsonElement rootEl = JsonTree.parse(json, "a JSON array of timing rows", (path, problem) -> new InputException(sourceName + ": "
                + path + ": " + problem));
        if (!rootEl.isJsonArray()) {
            throw new InputException(sourceName + ": expected a JSON array of timing rows ([{\"op\": ..., \"n\": ..., \"algo\": ...,"
                    + " \"proto\": ..., \"channels\": ..., \"bytes\": ..., \"time_us\": ..., \"graph\": ...}])");
        }
        JsonArray rows = rootEl.getAsJsonArray();
        Trials out = new Trials();
        for (int i = 0; i < rows.size(); i++) {
            String where = sourceName + " [" + i + "]";
            if (!rows.get(i).isJsonObject()) throw new InputException(where + ": expected an object");
            JsonObject r = rows.get(i).getAsJsonObject();
            if (!bool(r, "graph", where)) continue;
            MeasuredRow row = row(r, where);
            if (r.has("trial")) {
                num(r, "trial", where);
                out.addTrial(row.op() + "/" + row.n() + "/" + row.algo().get() + "/" + row.proto().get() + "/" + row.channels() + "/"
                        + row.bytes() + "/" + row.ncclPlaced(), row);
            } else {
                out.add(row);
            }
        }
        return out.rows();
    }

    private static MeasuredRow row(JsonObject r, String where) {
        CollectiveOp op = RowFields.op(r, where);
        int n = (int) num(r, "n", where);
        if (n < 2) throw new InputException(where + ".n: must be >= 2, got " + n);
        Algorithm algo = algo(str(r, "algo", where), where + ".algo");
        Protocol proto = CalibrationFixtures.proto(str(r, "proto", where), where + ".proto");
        int ch = (int) num(r, "channels", where);
        if (ch < 1) throw new InputException(where + ".channels: must be >= 1, got " + ch);
        long bytes = (long) num(r, "bytes", where);
        if (bytes <= 0) throw new InputException(where + ".bytes: must be > 0, got " + bytes);
        double t = num(r, "time_us", where);
        if (!(t > 0) || Double.isInfinite(t)) throw new InputException(where + ".time_us: must be finite and > 0, got " + t);
        expect(r, "dtype", where, "float", "float32");
        expect(r, "redop", where, "sum");
        if (r.has("root") && num(r, "root", where) != 0) {
            throw new InputException(where + ".root: only root 0 is predicted, got " + r.get("root"));
        }
        boolean placed = NamedFields.ncclPlaced(where, r.has("placement") ? str(r, "placement", where) : null);
        return MeasuredRow.fixedPlan(where, op, n, algo, proto, ch, bytes, t, placed);
    }

    /** Ring, Tree or P2P, as the CudaExecutor's rows spell them (case-insensitive). */
    static Algorithm algo(String s, String where) {
        for (Algorithm a : new Algorithm[] {Algorithm.RING, Algorithm.TREE, Algorithm.P2P}) {
            if (a.ncclName().equalsIgnoreCase(s.trim())) return a;
        }
        throw new InputException(where + ": algorithm '" + s + "' is not one ccsim fits; valid: Ring, Tree, P2P");
    }

    private static void expect(JsonObject r, String key, String where, String... valid) {
        if (!r.has(key) || r.get(key).isJsonNull()) return;
        String v = str(r, key, where).toLowerCase(Locale.ROOT);
        for (String ok : valid) if (ok.equals(v)) return;
        throw new InputException(where + "." + key + ": '" + v + "' is not predicted; valid: " + String.join(", ", valid));
    }
}
