package io.ccsim.cli;

import com.google.gson.JsonElement;
import com.google.gson.JsonPrimitive;
import com.google.gson.stream.JsonWriter;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * nccl-tests' {@code -J} JSON file (src/util.cu at NVIDIA/nccl-tests v2.19.6, {@code JSON_FILE_VERSION} 3), key for
 * key: {@code version, start_time, args, env, nccl_version, config} (with {@code devices}), {@code results} (per row
 * {@code size, count, type, redop, root} (a string, {@code "%6i"}), {@code out_of_place} and {@code in_place} with
 * {@code time, alg_bw, bus_bw, nwrong} (null: no data check), {@code actual_iterations, experiment_name}),
 * {@code out_of_bounds, average_bus_bandwidth, errors, end_time}. Numbers are printed as nccl-tests' {@code %lf};
 * booleans of {@code config} as the strings {@code "true"}/{@code "false"}, as nccl-tests writes them; {@code devices}
 * has one entry per process (nccl-tests parses the first line of each process's device report).
 *
 * <p>ccsim adds a {@code ccsim} object at the top (the {@link Provenance} and the notes of the text header) and one
 * per result (the algorithm, protocol and channels simulated); readers of nccl-tests' keys skip them. {@code env}
 * holds the NCCL_* variables only, not the whole environment.
 */
final class NcclTestsJson {
    private NcclTestsJson() {}

    /**
     * Claims {@code file} as nccl-tests does: created new; if it exists, {@code file.0}, {@code file.1}, ... in turn.
     *
     * @return the path created (empty)
     * @throws UserException if {@code file} does not end in {@code .json} (nccl-tests writes nothing then) or cannot be
     *                       created
     */
    static Path claim(String file) {
        int dot = file.lastIndexOf('.');
        if (dot < 0 || dot < file.lastIndexOf('/') || !file.substring(dot + 1).equalsIgnoreCase("json")) {
            throw new UserException("-J/--output_file " + file + ": nccl-tests writes JSON only to a file named *.json; valid: a .json name");
        }
        Path p = Path.of(file);
        for (int i = 0; ; i++) {
            try {
                return Files.createFile(p);
            } catch (FileAlreadyExistsException e) {
                p = Path.of(file + "." + i);
            } catch (IOException e) {
                throw new UserException("-J/--output_file: cannot create " + p + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * Everything the file holds.
     *
     * @param args       the command line, program first
     * @param env        the NCCL_* variables
     * @param config     the flags read
     * @param ranks      the device lines
     * @param lines      the rows printed, in order (every cycle's)
     * @param avgBusBw   the mean bus bandwidth of the footer
     * @param bandwidthOk whether it reaches 0.9 × {@code NCCL_TESTS_MIN_BW}; null where that is not set
     * @param provenance where the numbers come from
     * @param notes      ccsim's header notes
     * @param startTime  {@code %Y-%m-%d %H:%M:%S} local time at the start
     * @param endTime    the same at the end
     */
    record Content(List<String> args, Map<String, String> env, NcclTestsConfig config, List<NcclTestsReport.RankLine> ranks,
                   List<NcclTestsReport.Line> lines, double avgBusBw, Boolean bandwidthOk, Provenance provenance, List<String> notes, String startTime,
                   String endTime) { }

    /** Writes {@code c} into {@code path} (claimed by {@link #claim}). */
    static void write(Path path, Content c) {
        try {
            Files.writeString(path, text(c), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserException("-J/--output_file: cannot write " + path + ": " + e.getMessage(), e);
        }
    }

    /** The file's text: one line of compact JSON, as nccl-tests writes it. */
    static String text(Content c) {
        StringWriter s = new StringWriter();
        try (JsonWriter w = new JsonWriter(s)) {
            w.setSerializeNulls(true);
            w.beginObject();
            w.name("version").value(3);
            w.name("start_time").value(c.startTime());
            w.name("args").beginArray();
            for (String a : c.args()) w.value(a);
            w.endArray();
            w.name("env").beginArray();
            for (Map.Entry<String, String> e : c.env().entrySet()) w.value(e.getKey() + "=" + e.getValue());
            w.endArray();
            w.name("nccl_version").value(NcclTestsReport.NCCL_CODE);
            config(w, c.config(), c.ranks());
            w.name("ccsim");
            ccsim(w, c.provenance(), c.notes());
            w.name("results").beginArray();
            for (NcclTestsReport.Line l : c.lines()) result(w, l, c.config());
            w.endArray();
            w.name("out_of_bounds").beginObject().name("count").value(0).name("okay").value("true").endObject();
            w.name("average_bus_bandwidth").beginObject().name("bandwidth");
            number(w, c.avgBusBw());
            w.name("okay").value(c.bandwidthOk() == null ? "unchecked" : c.bandwidthOk().toString()).endObject();
            w.name("errors").beginArray().endArray();
            w.name("end_time").value(c.endTime());
            w.endObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return s.toString();
    }

    private static void config(JsonWriter w, NcclTestsConfig c, List<NcclTestsReport.RankLine> ranks) throws IOException {
        w.name("config").beginObject();
        w.name("nthreads").value(c.nThreads());
        w.name("ngpus").value(c.nGpus());
        w.name("minimum_bytes").value(c.minBytes());
        w.name("maximum_bytes").value(c.maxBytes());
        if (c.stepFactor() > 1) w.name("step_factor").value(c.stepFactor());
        else w.name("step_bytes").value(c.stepBytes());
        w.name("warmup_iters").value(c.warmupIters());
        w.name("iterations").value(c.iters());
        w.name("aggregated_iterations").value(c.aggIters());
        w.name("validation").value(0);
        w.name("graph").value(c.cudaGraph());
        w.name("blocking_collectives").value(c.blocking() != 0 ? "true" : "false");
        w.name("per_iter_timing").value(c.perIterTiming() != 0 ? "true" : "false");
        w.name("per_iter_skip").value(c.perIterSkip());
        w.name("parallel_init").value(c.parallelInit() != 0 ? "true" : "false");
        // nccl-tests parses one line of each process's device report (its first GPU's): one entry per process
        w.name("devices").beginArray();
        for (NcclTestsReport.RankLine r : ranks) {
            if (r.rank() % (c.nThreads() * c.nGpus()) != 0) continue;
            w.beginObject().name("rank").value(r.rank()).name("group").value(r.group()).name("pid").value(r.pid())
                    .name("hostname").value(r.host()).name("device").value(r.device()).name("device_hex").value(r.busId())
                    .name("device_info").value(r.name()).endObject();
        }
        w.endArray();
        w.endObject();
    }

    private static void ccsim(JsonWriter w, Provenance p, List<String> notes) throws IOException {
        w.beginObject();
        for (Map.Entry<String, JsonElement> e : p.toJson().entrySet()) {
            JsonPrimitive v = e.getValue().getAsJsonPrimitive();
            w.name(e.getKey());
            if (v.isBoolean()) w.value(v.getAsBoolean());
            else if (v.isNumber()) w.value(v.getAsNumber());
            else w.value(v.getAsString());
        }
        w.name("notes").beginArray();
        for (String n : notes) w.value(n.startsWith("# ") ? n.substring(2) : n);
        w.endArray();
        w.endObject();
    }

    private static void result(JsonWriter w, NcclTestsReport.Line l, NcclTestsConfig c) throws IOException {
        w.beginObject();
        w.name("size").value(l.size()).name("count").value(l.count()).name("type").value(l.type()).name("redop").value(l.redop())
                .name("root").value(String.format(Locale.ROOT, "%6d", l.root()));
        for (String half : List.of("out_of_place", "in_place")) {
            w.name(half).beginObject().name(c.cpuTime() ? "cpu_time" : "time");
            number(w, l.timeUs());
            w.name("alg_bw");
            number(w, l.algbw());
            w.name("bus_bw");
            number(w, l.busbw());
            w.name("nwrong").nullValue();
            w.endObject();
        }
        w.name("actual_iterations").value(c.iters());
        w.name("experiment_name").value("");
        if (l.sim() != null) {
            w.name("ccsim").beginObject().name("algo").value(l.sim().algo().ncclName()).name("proto").value(l.sim().proto().ncclName())
                    .name("channels").value(l.sim().channels()).endObject();
        }
        w.endObject();
    }

    /** nccl-tests' {@code jsonDouble}: {@code %lf}, NaN as the string {@code "nan"}. */
    private static void number(JsonWriter w, double v) throws IOException {
        if (Double.isNaN(v)) w.value("nan");
        else w.jsonValue(CFormat.fixed(v, 6));
    }
}
