package io.ccsim.scenarios.incident;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.ccsim.algorithms.measurements.MeasuredFile;
import io.ccsim.algorithms.measurements.Measurements;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads the files an incident left behind, recognising each by its content (a file's name only gives the rank of a
 * per-rank file): a pickle that starts with the PROTO opcode is a flight-recorder dump; a JSON object is a
 * flight-recorder dump ({@code pg_config}, {@code version}), an ncclras report ({@code communicators},
 * {@code nccl_version}) or nccl-tests {@code -J} output ({@code results}, {@code config}); a text is nccl-tests output
 * ({@code # Collective test starting} or {@code nccl-tests version}), an ncclras report ({@code Job summary}), an
 * {@code NCCL_DEBUG=INFO} log ({@code NCCL INFO}/{@code NCCL WARN} lines) or a PyTorch rank's output
 * ({@code [rankN]:[E...]} lines, {@code DistBackendError}).
 *
 * <p>A file named on the command line must be one of these; in a directory (read to a depth of 3, in name order),
 * files none of the readers recognise are listed as ignored, but one that starts as a dump and is broken is an error.
 */
public final class IncidentReader {
    /**
     * Limits on what is read, checked before reading: a file's size ({@link Files#size}) and a directory's count of
     * files (walked up to {@code maxFiles + 1}).
     *
     * @param maxFileBytes largest file read, bytes (a file is held in memory about four times over while read)
     * @param maxFiles     most files read from one directory
     */
    public record Limits(long maxFileBytes, int maxFiles) {
        /** 256 MiB per file (a flight-recorder dump of 20,000 entries is ~10 MB), 10,000 files per directory. */
        public static final Limits DEFAULT = new Limits(256L << 20, 10_000);

        public Limits {
            if (maxFileBytes <= 0 || maxFiles <= 0) throw new IllegalArgumentException("limits must be > 0");
        }

        String fileSize() {
            return maxFileBytes % (1 << 20) == 0 ? (maxFileBytes >> 20) + " MiB" : maxFileBytes + " bytes";
        }
    }

    private static final Pattern NCCL_TAIL = Pattern.compile(":\\d+:\\d+ \\[\\d+\\] NCCL (?:INFO|WARN|TRACE) ");
    private static final Pattern FILE_RANK = Pattern.compile("rank[_-]?(\\d{1,7})", Pattern.CASE_INSENSITIVE);
    private static final String KNOWN = "PyTorch flight-recorder dumps (pickle or JSON), NCCL_DEBUG=INFO logs, PyTorch rank"
            + " output, ncclras reports (text or JSON) or nccl-tests output (text or -J JSON)";

    private final List<FrDump> dumps = new ArrayList<>();
    private final List<NcclLog> ncclLogs = new ArrayList<>();
    private final List<TorchLog> torchLogs = new ArrayList<>();
    private final List<NcclRas> ras = new ArrayList<>();
    private final List<Incident.TestRun> tests = new ArrayList<>();
    private final List<Incident.FileRead> files = new ArrayList<>();
    private final List<String> ignored = new ArrayList<>();
    private final Limits limits;

    private IncidentReader(Limits limits) { this.limits = limits; }

    /** Reads files and directories within {@link Limits#DEFAULT}; see {@link #read(List, Limits)}. */
    public static Incident read(List<Path> paths) throws IOException {
        return read(paths, Limits.DEFAULT);
    }

    /**
     * Reads files and directories.
     *
     * @throws IncidentFormatException for a path that does not exist, a file that is not an incident file (named on the
     *                                 command line), is a broken one or is above the size limit, a directory above the
     *                                 file-count limit, or when nothing was recognised at all
     * @throws IOException             if a file cannot be read
     */
    public static Incident read(List<Path> paths, Limits limits) throws IOException {
        IncidentReader r = new IncidentReader(limits);
        if (paths.isEmpty()) throw new IncidentFormatException("no PATH given: name the files or the directory of the incident");
        for (Path p : paths) {
            if (Files.isDirectory(p)) {
                List<Path> inside = regularFiles(p, limits.maxFiles() + 1L, Files::walk);
                if (inside.size() > limits.maxFiles()) {
                    throw new IncidentFormatException(p + ": more than " + limits.maxFiles() + " files, the limit (raise it with --max-files)");
                }
                inside = inside.stream().sorted().toList();
                int before = r.files.size();
                for (Path f : inside) r.readFile(f, false);
                if (r.files.size() == before) {
                    throw new IncidentFormatException(p + ": no incident files in this directory" + (inside.isEmpty() ? " (it is empty)"
                            : " (" + inside.size() + " file(s), none recognised)") + "; expected " + KNOWN);
                }
            } else if (Files.isRegularFile(p)) {
                r.readFile(p, true);
            } else if (Files.exists(p)) {
                throw new IncidentFormatException(p + ": not a regular file or directory (a device, pipe or socket); expected " + KNOWN);
            } else {
                throw new IncidentFormatException(p + ": no such file or directory");
            }
        }
        return new Incident(r.dumps, r.ncclLogs, r.torchLogs, r.ras, r.tests, r.files, r.ignored);
    }

    /** A walk of a directory tree to a depth, as {@link Files#walk(Path, int, java.nio.file.FileVisitOption...)}. */
    @FunctionalInterface
    interface Walk {
        Stream<Path> of(Path dir, int depth) throws IOException;
    }

    /**
     * The first {@code max} regular files of {@code walk} of {@code dir} to depth 3.
     *
     * @throws IOException for a directory that cannot be listed (an unreadable subdirectory: the walk reports it as an
     *                     unchecked exception while it is read), its message the path
     */
    static List<Path> regularFiles(Path dir, long max, Walk walk) throws IOException {
        try (Stream<Path> s = walk.of(dir, 3)) {
            return s.filter(Files::isRegularFile).limit(max).toList();
        } catch (java.io.UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** The rank a file's name names ({@code nccl_trace_rank_3}, {@code fr_end_rank1.pkl}), or -1. */
    static int rankOfName(Path f) {
        Matcher m = FILE_RANK.matcher(f.getFileName().toString());
        int rank = -1;
        while (m.find()) rank = Integer.parseInt(m.group(1));
        return rank;
    }

    private void readFile(Path f, boolean named) throws IOException {
        String file = f.toString();
        long size = Files.size(f);
        if (size > limits.maxFileBytes()) {
            String limit = "above the limit of " + limits.fileSize() + " per file (raise it with --max-file-mib)";
            if (named) throw new IncidentFormatException(file + ": " + size + " bytes, " + limit);
            ignored.add(file + " (" + size + " bytes, " + limit + ")");
            return;
        }
        byte[] data = Files.readAllBytes(f);
        int fileRank = rankOfName(f);
        if (FlightRecorderPickle.looksLike(data)) {
            FrDump d = FlightRecorderPickle.read(file, requireRank(file, fileRank), data);
            addDump(d, "flight recorder (pickle)");
            return;
        }
        String text = new String(data, StandardCharsets.UTF_8);
        if (text.startsWith("\ufeff")) text = text.substring(1);
        String t = text.strip();
        if (t.startsWith("{")) {
            readJson(f, file, fileRank, text, named);
            return;
        }
        if (t.contains("# Collective test starting") || t.contains("# nccl-tests version")) {
            readTests(file, text);
        } else if (NcclRas.isText(t)) {
            NcclRas r = NcclRas.readText(file, text);
            ras.add(r);
            files.add(new Incident.FileRead(file, "ncclras report (text)", -1, r.counts().size() + " ranks with operation counts"));
        } else if (NcclLog.is(text)) {
            NcclLog l = NcclLog.read(file, fileRank, text);
            ncclLogs.add(l);
            files.add(new Incident.FileRead(file, "NCCL log", l.rank(), l.warns().size() + " WARN line(s)"
                    + (l.initStart() == null ? ", no init" : l.initDone() == null ? ", init not complete" : ", init complete")));
        } else if (TorchLog.is(text)) {
            TorchLog l = TorchLog.read(file, fileRank, text);
            torchLogs.add(l);
            files.add(new Incident.FileRead(file, "PyTorch output", l.rank(), l.timeouts().size() + " watchdog timeout(s), "
                    + l.errors().size() + " NCCL error(s)"));
        } else if (named) {
            throw new IncidentFormatException(file + ": not an incident file I know; expected " + KNOWN);
        } else {
            ignored.add(file);
        }
    }

    private void readJson(Path f, String file, int fileRank, String text, boolean named) {
        // strict JSON as every ccsim reader: no comments, each key once, nesting capped; errors name line and path
        JsonElement root = io.ccsim.topology.input.JsonTree.parse(text, KNOWN, (path, problem) ->
                new IncidentFormatException(file + ": not valid JSON: " + path + ": " + problem
                        + (problem.contains("valid:") ? "" : "; expected " + KNOWN)));
        if (!root.isJsonObject()) throw new IncidentFormatException(file + ": a JSON " + (root.isJsonArray() ? "list" : "value")
                + ", not an object; expected " + KNOWN);
        JsonObject o = root.getAsJsonObject();
        if (FlightRecorderJson.is(o)) {
            addDump(FlightRecorderJson.read(file, requireRank(file, fileRank), o), "flight recorder (JSON)");
        } else if (NcclRas.isJson(o)) {
            NcclRas r = NcclRas.readJson(file, o);
            ras.add(r);
            files.add(new Incident.FileRead(file, "ncclras report (JSON)", -1, r.counts().size() + " ranks with operation counts"));
        } else if (o.has("results") && o.has("config")) {
            readTests(file, text);
        } else if (named || o.has("entries")) {
            throw new IncidentFormatException(file + ": a JSON object that is not a flight-recorder dump (no 'pg_config' and"
                    + " 'version'), an ncclras report ('communicators') or nccl-tests -J output ('results', 'config'); its keys: "
                    + String.join(", ", o.keySet().stream().limit(8).toList()));
        } else {
            ignored.add(file);
        }
    }

    private void readTests(String file, String text) {
        // NCCL_DEBUG=INFO lines of the run: its transports
        java.util.Set<String> via = NcclLog.is(text) ? NcclLog.read(file, -1, text).transports() : java.util.Set.of();
        MeasuredFile mf;
        try {
            mf = Measurements.read(file, withoutNcclLines(text), false);
        } catch (IllegalArgumentException e) {   // the measurement readers' one-line message, naming the file
            throw new IncidentFormatException(String.valueOf(e.getMessage()), e);
        }
        if (mf.rows().isEmpty()) throw new IncidentFormatException(file + ": nccl-tests output without a single result row");
        tests.add(new Incident.TestRun(file, mf.rows(), via));
        files.add(new Incident.FileRead(file, "nccl-tests", -1, mf.rows().size() + " rows, " + mf.rows().get(0).op().cliName()));
    }

    /**
     * nccl-tests output without the NCCL_DEBUG lines printed into it: NCCL's lines ({@code host:pid:tid [dev] NCCL INFO
     * ...}) are dropped, and a result row they cut (printed after its first columns) is joined with its continuation on
     * the next line, so that the row is whole again (a host name is taken to start with a letter, as the cut leaves the
     * row's last digits before it). Line numbers of later rows shift accordingly.
     */
    static String withoutNcclLines(String text) {
        StringBuilder out = new StringBuilder();
        boolean cut = false;
        for (String line : text.split("\r?\n", -1)) {
            int at = ncclPrefix(line);
            String kept = at >= 0 ? line.substring(0, at) : line;
            boolean wasCut = kept.length() < line.length();
            if (wasCut && kept.isBlank()) continue;
            if (cut) out.append(' ').append(kept.strip());
            else {
                if (out.length() > 0) out.append('\n');
                out.append(kept);
            }
            cut = wasCut;
        }
        return out.toString();
    }

    /**
     * Where NCCL's prefix {@code host:pid:tid [dev] NCCL INFO} starts in a line, or -1: the first match of the part
     * from the colon on, then back over the host's characters to the first letter of the run (time linear in the line).
     */
    private static int ncclPrefix(String line) {
        Matcher m = NCCL_TAIL.matcher(line);
        while (m.find()) {
            int from = m.start();
            while (from > 0 && hostChar(line.charAt(from - 1))) from--;
            for (int i = from; i < m.start(); i++) if (Character.isLetter(line.charAt(i)) && line.charAt(i) < 128) return i;
        }
        return -1;
    }

    private static boolean hostChar(char c) {
        return c < 128 && (Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == '-');
    }

    private void addDump(FrDump d, String kind) {
        dumps.add(d);
        long pending = d.entries().stream().filter(e -> !e.state().equals("completed")).count();
        files.add(new Incident.FileRead(d.file(), kind, d.rank(), d.withEntries()
                ? String.format(Locale.ROOT, "%d entries, %d pending", d.entries().size(), pending) : "no entries (status only)"));
    }

    private static int requireRank(String file, int rank) {
        if (rank >= 0) return rank;
        throw new IncidentFormatException(file + ": a flight-recorder dump does not say which rank wrote it, and its name does not"
                + " either; name it as PyTorch does (nccl_trace_rank_<N>) or with rank<N> in it");
    }
}
