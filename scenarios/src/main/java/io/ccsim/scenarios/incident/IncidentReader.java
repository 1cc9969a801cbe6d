package io.ccsim.scenarios.incident;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import io.ccsim.algorithms.measurements.MeasuredFile;
import io.ccsim.algorithms.measurements.Measurements;
import java.io.IOException;
import java.io.StringReader;
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
    /** Files above this size are not incident files (a flight-recorder dump of 20,000 entries is ~10 MB). */
    static final long MAX_FILE_BYTES = 512L << 20;
    private static final Pattern NCCL_LINE = Pattern.compile("[A-Za-z][\\w.-]*:\\d+:\\d+ \\[\\d+\\] NCCL (?:INFO|WARN|TRACE) ");
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

    private IncidentReader() {}

    /**
     * Reads files and directories.
     *
     * @throws IncidentFormatException for a path that does not exist, a file that is not an incident file (named on the
     *                                 command line) or is a broken one, or when nothing was recognised at all
     * @throws IOException             if a file cannot be read
     */
    public static Incident read(List<Path> paths) throws IOException {
        IncidentReader r = new IncidentReader();
        if (paths.isEmpty()) throw new IncidentFormatException("no PATH given: name the files or the directory of the incident");
        for (Path p : paths) {
            if (Files.isDirectory(p)) {
                List<Path> inside;
                try (Stream<Path> s = Files.walk(p, 3)) {
                    inside = s.filter(Files::isRegularFile).sorted().toList();
                }
                int before = r.files.size();
                for (Path f : inside) r.readFile(f, false);
                if (r.files.size() == before) {
                    throw new IncidentFormatException(p + ": no incident files in this directory" + (inside.isEmpty() ? " (it is empty)"
                            : " (" + inside.size() + " file(s), none recognised)") + "; expected " + KNOWN);
                }
            } else if (Files.isRegularFile(p)) {
                r.readFile(p, true);
            } else {
                throw new IncidentFormatException(p + ": no such file or directory");
            }
        }
        return new Incident(r.dumps, r.ncclLogs, r.torchLogs, r.ras, r.tests, r.files, r.ignored);
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
        if (size > MAX_FILE_BYTES) {
            if (named) throw new IncidentFormatException(file + ": " + size + " bytes, more than an incident file holds (at most "
                    + (MAX_FILE_BYTES >> 20) + " MiB); expected " + KNOWN);
            ignored.add(file + " (" + size + " bytes, too large)");
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
        JsonElement root;
        try {
            JsonReader jr = new JsonReader(new StringReader(text));
            jr.setStrictness(Strictness.STRICT);
            root = JsonParser.parseReader(jr);
        } catch (JsonParseException | StackOverflowError e) {
            String why = e.getMessage() == null ? "" : e.getMessage().replaceAll("^[\\w.]+Exception: ", "");
            throw new IncidentFormatException(file + ": not valid JSON (" + why + "); expected " + KNOWN);
        }
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
        MeasuredFile mf = Measurements.read(file, withoutNcclLines(text), false);
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
            Matcher m = NCCL_LINE.matcher(line);
            String kept = m.find() ? line.substring(0, m.start()) : line;
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
