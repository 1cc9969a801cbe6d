package io.ccsim.cli;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.ccsim.algorithms.perf.PerfRow;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * perf's rows for programs: one JSON object or CSV record per row, nccl-tests' fields with their units in the key
 * ({@code time_us}, {@code algbw_gbps}), then the {@link Provenance} and any mode's own keys. Shared by {@code perf}
 * (simulated, measured, extrapolated) and the study outputs that round times as perf does.
 */
final class PerfRowFormats {
    private PerfRowFormats() { }

    /** Row {@code r}'s fields, times and bandwidths rounded to 3 decimals. */
    static JsonObject rowJson(PerfRow r) {
        JsonObject o = new JsonObject();
        o.addProperty("op", r.op().cliName());
        o.addProperty("bytes", r.bytes());
        o.addProperty("count", r.count());
        o.addProperty("dtype", r.dtype().ncclTestsName());
        o.addProperty("redop", r.redop() == null ? "none" : r.redop().ncclTestsName());
        o.addProperty("root", r.root());
        o.addProperty("algo", r.algo().ncclName());
        o.addProperty("proto", r.proto().ncclName());
        o.addProperty("channels", r.channels());
        o.addProperty("time_us", round(r.timeUs(), 3));
        o.addProperty("algbw_gbps", round(r.algbwGbps(), 3));
        o.addProperty("busbw_gbps", round(r.busbwGbps(), 3));
        return o;
    }

    /** {@code v} rounded half up to {@code digits} decimals (JSON and CSV numbers). */
    static double round(double v, int digits) {
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }

    static void printJson(PrintWriter out, List<PerfRow> rows, Provenance provenance) {
        printJson(out, rows, provenance, List.of(), i -> List.of());
    }

    /** As {@link #printJson(PrintWriter, List, Provenance)}, row i with {@code extra.apply(i)} under {@code keys}. */
    static void printJson(PrintWriter out, List<PerfRow> rows, Provenance provenance, List<String> keys,
                          java.util.function.IntFunction<List<String>> extra) {
        JsonArray a = new JsonArray();
        for (int i = 0; i < rows.size(); i++) {
            JsonObject o = rowJson(rows.get(i));
            provenance.addTo(o);
            List<String> v = extras(keys, extra, i);
            for (int k = 0; k < keys.size(); k++) o.addProperty(keys.get(k), v.get(k));
            a.add(o);
        }
        out.println(new GsonBuilder().setPrettyPrinting().create().toJson(a));
    }

    /** The rows as CSV (RFC 4180: a value with a comma or quote is quoted), with the provenance columns. */
    static void printCsv(PrintWriter out, List<PerfRow> rows, Provenance provenance) {
        printCsv(out, rows, provenance, List.of(), i -> List.of());
    }

    /** As {@link #printCsv(PrintWriter, List, Provenance)}, with the columns {@code keys}, row i's {@code extra.apply(i)}. */
    static void printCsv(PrintWriter out, List<PerfRow> rows, Provenance provenance, List<String> keys,
                         java.util.function.IntFunction<List<String>> extra) {
        List<String> header = new ArrayList<>(List.of("op", "bytes", "count", "dtype", "redop", "root", "algo", "proto", "channels",
                "time_us", "algbw_gbps", "busbw_gbps"));
        header.addAll(Provenance.COLUMNS);
        header.addAll(keys);
        try {
            org.apache.commons.csv.CSVPrinter csv = org.apache.commons.csv.CSVFormat.DEFAULT.builder()
                    .setRecordSeparator(System.lineSeparator()).get().print(out);
            csv.printRecord(header);
            for (int i = 0; i < rows.size(); i++) {
                JsonObject o = rowJson(rows.get(i));
                List<String> values = new ArrayList<>();
                for (String k : o.keySet()) values.add(o.get(k).getAsString());
                values.addAll(provenance.csvValues());
                values.addAll(extras(keys, extra, i));
                csv.printRecord(values);
            }
            csv.flush();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Row i's values of the extra {@code keys}, one a key. */
    private static List<String> extras(List<String> keys, java.util.function.IntFunction<List<String>> extra, int i) {
        List<String> v = extra.apply(i);
        if (v.size() != keys.size()) {
            throw new IllegalStateException("row " + i + " has " + v.size() + " extra values for the " + keys.size() + " keys " + keys);
        }
        return v;
    }
}
