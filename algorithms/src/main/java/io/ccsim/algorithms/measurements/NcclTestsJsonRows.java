package io.ccsim.algorithms.measurements;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Measured rows from nccl-tests' {@code -J} JSON file (src/util.cu of NVIDIA/nccl-tests 2.17.4 on; format versions
 * 1–3): {@code results[i]} with {@code size}, {@code type}, {@code redop}, {@code root} (a string) and the
 * {@code out_of_place} half's {@code time} ({@code cpu_time} with {@code -C 1}; the {@code in_place} half where the
 * out-of-place one is null).
 *
 * <p>The collective is the {@code *_perf} binary named in {@code args} (its first such argument), else the default.
 * The ranks: nccl-tests writes one {@code config.devices} entry per process (its first GPU's line), so there are
 * processes × {@code nthreads} × {@code ngpus}; the hosts are the entries' distinct {@code hostname}s, the GPU model
 * their {@code device_info}.
 */
final class NcclTestsJsonRows {
    private NcclTestsJsonRows() {}

    private static final Pattern BINARY = Pattern.compile("(?:^|/)([a-z_]+?)_perf(?:_mpi)?$");

    /** Whether {@code root} is an nccl-tests JSON file: an object with {@code results} and {@code config}. */
    static boolean is(JsonElement root) {
        return root.isJsonObject() && root.getAsJsonObject().has("results") && root.getAsJsonObject().has("config");
    }

    /** @throws IllegalArgumentException naming {@code src} and the JSON path, and what is valid */
    static MeasuredFile read(String src, JsonObject o, CollectiveOp defaultOp) {
        CollectiveOp op = collective(src, o, defaultOp);
        JsonObject config = RowFields.req(o, "config", src + ": $").getAsJsonObject();
        int ranks = 0;
        Set<String> hosts = new LinkedHashSet<>();
        Set<String> gpus = new LinkedHashSet<>();
        JsonElement devices = config.get("devices");
        if (devices != null && devices.isJsonArray()) {
            JsonArray d = devices.getAsJsonArray();
            int perProcess = (int) RowFields.num(config, "nthreads", src + ": $.config") * (int) RowFields.num(config, "ngpus", src + ": $.config");
            ranks = d.size() * perProcess;
            for (int i = 0; i < d.size(); i++) {
                JsonObject dev = d.get(i).getAsJsonObject();
                String where = src + ": $.config.devices[" + i + "]";
                hosts.add(RowFields.str(dev, "hostname", where));
                gpus.add(RowFields.str(dev, "device_info", where).trim());
            }
        }
        JsonElement res = RowFields.req(o, "results", src + ": $");
        if (!res.isJsonArray()) throw new IllegalArgumentException(src + ": $.results: expected an array of nccl-tests results");
        JsonArray results = res.getAsJsonArray();
        List<MeasuredRow> rows = new ArrayList<>();
        int zero = 0;
        for (int i = 0; i < results.size(); i++) {
            String where = src + ": $.results[" + i + "]";
            NcclTestsLog.Row r = row(where, results.get(i).getAsJsonObject(), op);
            if (r.sizeBytes() == 0 || !(r.oop().timeUs() > 0)) {
                zero++;
                continue;
            }
            rows.add(NcclTestsRows.row(where, r, ranks, hosts.size(), String.join(" + ", gpus)));
        }
        return new MeasuredFile(rows, zero > 0 ? zero + " rows of size 0 or time 0" : "");
    }

    private static CollectiveOp collective(String src, JsonObject o, CollectiveOp defaultOp) {
        JsonElement args = o.get("args");
        if (args != null && args.isJsonArray()) {
            for (JsonElement a : args.getAsJsonArray()) {
                Matcher m = BINARY.matcher(a.getAsString());
                if (m.find()) return NcclTestsLog.opOf(m.group(1), src + ": $.args");
            }
        }
        if (defaultOp != null) return defaultOp;
        throw new IllegalArgumentException(src + ": $.args names no nccl-tests binary (e.g. \"./build/all_reduce_perf\"); give the"
                + " collective (validate --collective NAME) or name the file after it (all_gather_perf.json)");
    }

    private static NcclTestsLog.Row row(String where, JsonObject r, CollectiveOp op) {
        long size = (long) RowFields.num(r, "size", where);
        long count = (long) RowFields.num(r, "count", where);
        String type = RowFields.str(r, "type", where);
        Optional<DataType> dtype;
        try {
            dtype = Optional.of(DataType.parse(type));
        } catch (IllegalArgumentException e) {
            dtype = Optional.empty();
        }
        String redop = RowFields.str(r, "redop", where);
        int root;
        try {
            root = Integer.parseInt(RowFields.str(r, "root", where).trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(where + ".root: expected a rank as nccl-tests writes it (\"    -1\"), got " + r.get("root"), e);
        }
        NcclTestsLog.Measurement ip = half(r, "in_place", where);
        NcclTestsLog.Measurement oop = half(r, "out_of_place", where);
        if (oop == null) oop = ip;
        if (oop == null) throw new IllegalArgumentException(where + ": neither out_of_place nor in_place holds a time");
        return new NcclTestsLog.Row(op, size, count, type, dtype, redop, root, oop, ip == null ? oop : ip, 0);
    }

    /** One half's time and bandwidths, or null where it is absent or null. */
    private static NcclTestsLog.Measurement half(JsonObject r, String key, String where) {
        JsonElement e = r.get(key);
        if (e == null || e.isJsonNull()) return null;
        JsonObject h = e.getAsJsonObject();
        String w = where + "." + key;
        double time = RowFields.num(h, h.has("time") ? "time" : "cpu_time", w);
        JsonElement wrong = h.get("nwrong");
        long nwrong = wrong == null || wrong.isJsonNull() ? -1 : wrong.getAsLong();
        return new NcclTestsLog.Measurement(time, RowFields.num(h, "alg_bw", w), RowFields.num(h, "bus_bw", w), nwrong, Double.NaN);
    }
}
