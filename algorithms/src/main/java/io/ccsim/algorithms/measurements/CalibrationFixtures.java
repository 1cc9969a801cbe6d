package io.ccsim.algorithms.measurements;

import static io.ccsim.algorithms.measurements.RowFields.bool;
import static io.ccsim.algorithms.measurements.RowFields.num;
import static io.ccsim.algorithms.measurements.RowFields.str;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.topology.input.InputException;
import io.ccsim.topology.input.JsonTree;
import io.ccsim.algorithms.ReduceOp;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The NCCL calibration fixtures written by tools/nccl-measure/measure.py ({@code {"source": {...}, "rows": [...]}}, fields
 * described in tools/nccl-measure/README.md), read for a fit: a row's {@code mode} ({@code default} or
 * {@code Algo/Proto}) says whether NCCL chose (the row names no algorithm, and NCCL's logged choice goes to
 * {@code ncclAlgo}/{@code ncclProto}/{@code ncclChannels}) or NCCL_ALGO/NCCL_PROTO forced it (algorithm and protocol
 * named, channels NCCL's). The fixtures are float32 sums with root 0. Only graph-replay rows ({@code graph: true}) are
 * returned: eager rows include the host launch overhead that graph replay removes, which the simulator does not model.
 */
final class CalibrationFixtures {
    private CalibrationFixtures() {}

    /** @throws IllegalArgumentException naming {@code sourceName}, the row and the field, for malformed content */
    static List<MeasuredRow> parse(String json, String sourceName) {
        JsonElement e = JsonTree.parse(json, "a JSON object with \"rows\"", (path, problem) -> new InputException(sourceName + ": "
                + path + ": " + problem));
        if (!e.isJsonObject()) throw new InputException(sourceName + ": $: expected a JSON object with \"rows\"");
        JsonObject root = e.getAsJsonObject();
        JsonElement rowsEl = root.get("rows");
        if (rowsEl == null || !rowsEl.isJsonArray()) {
            throw new InputException(sourceName + ": missing array \"rows\" (a measure.py fixture has {\"source\":{...},\"rows\":[...]})");
        }
        JsonArray rows = rowsEl.getAsJsonArray();
        List<MeasuredRow> out = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            String where = sourceName + " rows[" + i + "]";
            if (!rows.get(i).isJsonObject()) throw new InputException(where + ": expected an object");
            JsonObject r = rows.get(i).getAsJsonObject();
            if (bool(r, "graph", where)) out.add(row(r, where));
        }
        return List.copyOf(out);
    }

    private static MeasuredRow row(JsonObject r, String where) {
        CollectiveOp op = RowFields.op(r, where);
        int n = (int) num(r, "n", where);
        if (n < 1) throw new InputException(where + ".n: must be >= 1, got " + n);
        String mode = str(r, "mode", where);
        Optional<Algorithm> fa = Optional.empty();
        Optional<Protocol> fp = Optional.empty();
        if (!mode.equals("default")) {
            String[] m = mode.split("/");
            if (m.length != 2) {
                throw new InputException(where + ".mode: '" + mode + "' is neither 'default' nor 'Algo/Proto' (e.g. Ring/LL128)");
            }
            fa = Optional.of(algo(m[0], where + ".mode"));
            fp = Optional.of(proto(m[1], where + ".mode"));
        }
        long bytes = (long) num(r, "bytes", where);
        if (bytes <= 0) throw new InputException(where + ".bytes: must be > 0, got " + bytes);
        double t = num(r, "time_us", where);
        if (!(t > 0) || Double.isInfinite(t)) throw new InputException(where + ".time_us: must be finite and > 0, got " + t);
        Optional<Algorithm> na = nullable(r, "nccl_reported_algo") == null ? Optional.empty()
                : Optional.of(algo(str(r, "nccl_reported_algo", where), where + ".nccl_reported_algo"));
        Optional<Protocol> np = nullable(r, "nccl_reported_proto") == null ? Optional.empty()
                : Optional.of(proto(str(r, "nccl_reported_proto", where), where + ".nccl_reported_proto"));
        OptionalInt nc = nullable(r, "nccl_reported_channels") == null ? OptionalInt.empty() : OptionalInt.of(channels(r, where));
        return new MeasuredRow(where, op, n, bytes, DataType.FLOAT32, Optional.of(ReduceOp.SUM), 0, fa, fp, 0, na, np, nc, t);
    }

    /** NCCL's logged channel count: a whole number from 1 to 64 (NCCL's MAXCHANNELS). */
    private static int channels(JsonObject r, String where) {
        double c = num(r, "nccl_reported_channels", where);
        if (!(c >= 1 && c <= 64) || c != Math.rint(c)) {
            throw new InputException(where + ".nccl_reported_channels: " + r.get("nccl_reported_channels") + " is out of range; valid: a whole"
                    + " number from 1 to 64");
        }
        return (int) c;
    }

    private static JsonElement nullable(JsonObject r, String key) {
        JsonElement e = r.get(key);
        return e == null || e.isJsonNull() ? null : e;
    }

    /** NCCL algorithm names as NCCL logs them (RING, TREE) or as NCCL_ALGO spells them (Ring, Tree). */
    static Algorithm algo(String s, String where) {
        for (Algorithm a : new Algorithm[] {Algorithm.RING, Algorithm.TREE}) {
            if (a.ncclName().equalsIgnoreCase(s.trim())) return a;
        }
        throw new InputException(where + ": algorithm '" + s + "' is not one ccsim fits; valid: Ring, Tree");
    }

    /** NCCL protocol names, case-insensitively (LL, LL128, Simple). */
    static Protocol proto(String s, String where) {
        String t = s.trim().toUpperCase(Locale.ROOT);
        for (Protocol p : Protocol.values()) {
            if (p.name().equals(t)) return p;
        }
        throw new InputException(where + ": protocol '" + s + "' is unknown; valid: LL, LL128, Simple");
    }
}
