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
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Reads the NCCL measurement fixtures written by tools/nccl-measure/measure.py
 * ({@code {"source": {...}, "rows": [...]}}, fields described in tools/nccl-measure/README.md).
 * Only graph-replay rows ({@code graph: true}) are returned: eager rows include the host launch
 * overhead that graph replay removes, which the simulator does not model.
 */
public final class NcclFixtures {
    private NcclFixtures() {}

    /**
     * The graph-replay rows of one fixture file, in file order.
     *
     * @throws IOException              if the file cannot be read
     * @throws IllegalArgumentException naming the file, the row and the field, for malformed content
     */
    public static List<FixtureRow> load(Path file) throws IOException {
        return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
    }

    /** The graph-replay rows of several files, in order. */
    public static List<FixtureRow> loadAll(List<Path> files) throws IOException {
        List<FixtureRow> out = new ArrayList<>();
        for (Path f : files) out.addAll(load(f));
        return List.copyOf(out);
    }

    /** Parses fixture JSON text; {@code sourceName} appears in error messages. */
    public static List<FixtureRow> parse(String json, String sourceName) {
        JsonObject root;
        try {
            JsonElement e = JsonParser.parseString(json);
            if (!e.isJsonObject()) throw new IllegalArgumentException(sourceName + ": expected a JSON object with \"rows\"");
            root = e.getAsJsonObject();
        } catch (JsonParseException e) {
            throw new IllegalArgumentException(sourceName + ": not valid JSON: " + e.getMessage(), e);
        }
        JsonElement rowsEl = root.get("rows");
        if (rowsEl == null || !rowsEl.isJsonArray()) {
            throw new IllegalArgumentException(sourceName + ": missing array \"rows\" (a measure.py fixture has {\"source\":{...},\"rows\":[...]})");
        }
        JsonArray rows = rowsEl.getAsJsonArray();
        List<FixtureRow> out = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            String where = sourceName + " rows[" + i + "]";
            if (!rows.get(i).isJsonObject()) throw new IllegalArgumentException(where + ": expected an object");
            JsonObject r = rows.get(i).getAsJsonObject();
            if (!bool(r, "graph", where)) continue;
            CollectiveOp op = JsonFields.op(r, where);
            int n = (int) num(r, "n", where);
            if (n < 1) throw new IllegalArgumentException(where + ".n: must be >= 1, got " + n);
            String mode = str(r, "mode", where);
            Optional<Algorithm> fa = Optional.empty();
            Optional<Protocol> fp = Optional.empty();
            if (!mode.equals("default")) {
                String[] m = mode.split("/");
                if (m.length != 2) {
                    throw new IllegalArgumentException(where + ".mode: '" + mode + "' is neither 'default' nor 'Algo/Proto' (e.g. Ring/LL128)");
                }
                fa = Optional.of(algo(m[0], where + ".mode"));
                fp = Optional.of(proto(m[1], where + ".mode"));
            }
            long bytes = (long) num(r, "bytes", where);
            if (bytes <= 0) throw new IllegalArgumentException(where + ".bytes: must be > 0, got " + bytes);
            double t = num(r, "time_us", where);
            if (!(t > 0) || Double.isInfinite(t)) throw new IllegalArgumentException(where + ".time_us: must be finite and > 0, got " + t);
            Optional<Algorithm> na = nullable(r, "nccl_reported_algo") == null ? Optional.empty()
                    : Optional.of(algo(nullable(r, "nccl_reported_algo").getAsString(), where + ".nccl_reported_algo"));
            Optional<Protocol> np = nullable(r, "nccl_reported_proto") == null ? Optional.empty()
                    : Optional.of(proto(nullable(r, "nccl_reported_proto").getAsString(), where + ".nccl_reported_proto"));
            OptionalInt nc = nullable(r, "nccl_reported_channels") == null ? OptionalInt.empty()
                    : OptionalInt.of(nullable(r, "nccl_reported_channels").getAsInt());
            out.add(new FixtureRow(where, op, n, fa, fp, bytes, t, na, np, nc));
        }
        return List.copyOf(out);
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
        throw new IllegalArgumentException(where + ": algorithm '" + s + "' is not one ccsim fits; valid: Ring, Tree");
    }

    static Protocol proto(String s, String where) {
        String t = s.trim().toUpperCase(Locale.ROOT);
        for (Protocol p : Protocol.values()) {
            if (p.name().equals(t)) return p;
        }
        throw new IllegalArgumentException(where + ": protocol '" + s + "' is unknown; valid: LL, LL128, Simple");
    }
}
