package io.ccsim.algorithms.measurements;

import com.google.gson.JsonElement;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import io.ccsim.algorithms.CollectiveOp;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads every measured format into {@link MeasuredRow}s: the one entry point for {@code ccsim validate}, the fitters and
 * the tests.
 * <ul>
 *   <li>{@link #read}: any measured file, its format detected from the text: JSON ({@code ccsim perf --format json} of
 *   either backend, the CudaExecutor's timing.json, a calibration fixture's {@code {"rows": [...]}}), CSV with
 *   {@code ccsim perf --format csv}'s header, or else an nccl-tests text log. Each row is taken as it names itself:
 *   one that names its algorithm and protocol is {@link MeasuredRow#forced() forced}.</li>
 *   <li>{@link #calibrationFixture}: an NCCL calibration fixture as the NCCL fit reads it, where a row in NCCL's default
 *   mode is NCCL's choice (with what NCCL logged) rather than forced.</li>
 *   <li>{@link #kernelTimings}: the CudaExecutor's timing.json as the kernel fit reads it, every row a fixed plan of a
 *   float32 sum with root 0.</li>
 * </ul>
 * Every reader throws {@link IllegalArgumentException} for malformed content, naming the file, the row (line or JSON
 * path) and the field, and what is valid.
 */
public final class Measurements {
    private Measurements() {}

    /**
     * The rows of a measured file's {@code text}, its format detected: JSON if it starts with {@code {} or with
     * {@code [} and an object: nccl-tests' {@code -J} file (an object with {@code results} and {@code config}), else rows as
     * {@code ccsim perf --format json} writes them (either backend), the CudaExecutor's timing.json or a calibration
     * fixture's {@code {"rows": [...]}}; CSV if its first line starts with {@code op,} (quoted or not); the text of
     * {@code ccsim perf}; else an nccl-tests text log of any version. Rows of timing files with {@code "graph": false}
     * (eager launches, host launch cost included) are left out unless {@code keepEager}; the trials of one measurement
     * (rows with a {@code trial} field) become one row with their median time.
     *
     * @param source    the file's name, for messages
     * @param text      the file's content
     * @param keepEager whether to keep eager-launch rows
     * @param collective the collective of nccl-tests output that does not name its binary (logs before nccl-tests
     *                  2.16.7 pasted without their command line); null: the one the file's name names
     *                  ({@code all_gather_perf.log}), else such rows are an error
     * @throws IllegalArgumentException naming {@code source} and the line or JSON path, and what is valid
     */
    public static MeasuredFile read(String source, String text, boolean keepEager, CollectiveOp collective) {
        String t = text.strip();
        if (t.startsWith("\ufeff")) t = t.substring(1).strip();
        CollectiveOp defaultOp = collective != null ? collective : NcclTestsLog.opOfFileName(source).orElse(null);
        if (t.startsWith("{") || t.startsWith("[") && t.substring(1).strip().matches("(?s)[{\\]].*")) {   // not mpirun's [1,0] tags
            JsonElement root;
            try {
                root = JsonParser.parseString(t);
            } catch (JsonParseException e) {
                throw new IllegalArgumentException(source + ": not valid JSON: " + e.getMessage(), e);
            }
            if (NcclTestsJsonRows.is(root)) return NcclTestsJsonRows.read(source, root.getAsJsonObject(), defaultOp);
            return JsonRows.read(source, root, keepEager);
        }
        String first = t.lines().findFirst().orElse("");
        if (first.startsWith("op,") || first.startsWith("\"op\",")) return CsvRows.read(source, t);
        if (CcsimPerfText.is(t)) return CcsimPerfText.read(source, t);
        return NcclTestsRows.read(source, text, defaultOp);
    }

    /** As {@link #read(String, String, boolean, CollectiveOp)}, the collective of unnamed nccl-tests rows from the file's name. */
    public static MeasuredFile read(String source, String text, boolean keepEager) {
        return read(source, text, keepEager, null);
    }

    /**
     * The graph-replay rows of an NCCL calibration fixture (experiments/nccl-h200/*.json), in file order.
     *
     * @throws IOException              if the file cannot be read
     * @throws IllegalArgumentException naming the file, the row and the field, for malformed content
     */
    public static List<MeasuredRow> calibrationFixture(Path file) throws IOException {
        return calibrationFixture(Files.readString(file, StandardCharsets.UTF_8), file.toString());
    }

    /** As {@link #calibrationFixture(Path)} for several files, in order. */
    public static List<MeasuredRow> calibrationFixtures(List<Path> files) throws IOException {
        List<MeasuredRow> out = new ArrayList<>();
        for (Path f : files) out.addAll(calibrationFixture(f));
        return List.copyOf(out);
    }

    /** As {@link #calibrationFixture(Path)} for fixture JSON text; {@code sourceName} appears in error messages. */
    public static List<MeasuredRow> calibrationFixture(String json, String sourceName) {
        return CalibrationFixtures.parse(json, sourceName);
    }

    /**
     * The graph-replay rows of a CudaExecutor timing file (timing.json), in file order, trials merged.
     *
     * @throws IOException              if the file cannot be read
     * @throws IllegalArgumentException naming the file, the row and the field, for malformed content or a row of
     *                                  another dtype, reduction or root than a float32 sum with root 0
     */
    public static List<MeasuredRow> kernelTimings(Path file) throws IOException {
        return kernelTimings(Files.readString(file, StandardCharsets.UTF_8), file.toString());
    }

    /** As {@link #kernelTimings(Path)} for timing JSON text; {@code sourceName} appears in error messages. */
    public static List<MeasuredRow> kernelTimings(String json, String sourceName) {
        return KernelTimings.parse(json, sourceName);
    }
}
