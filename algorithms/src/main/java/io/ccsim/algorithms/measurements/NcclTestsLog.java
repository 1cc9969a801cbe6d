package io.ccsim.algorithms.measurements;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text that NVIDIA's nccl-tests print ({@code all_reduce_perf} and friends, src/common.cu and src/util.cu in
 * NVIDIA/nccl-tests), read back into rows so that measured clusters can be compared with the simulator.
 *
 * <p>Every format version is read (the test fixtures' SOURCES.md lists real logs of each): the table's columns come
 * from its column header where the log has one ({@link NcclTestsColumns}: {@code redop} and {@code root} present or
 * not, {@code #wrong}, {@code N/A} or the old {@code error}, {@code cputime}, the per-iteration columns of
 * {@code -I 1}, the timestamp of {@code -S 1}), else from the row's width (11, 12 or 13 fields). Rows from
 * {@code mpirun --tag-output} ({@code [1,0]<stdout>:} prefixes) are accepted; lines that are not rows (NCCL INFO lines,
 * MPI help messages, {@code ...}) are skipped. A row-looking line of another width is an error naming the line.
 *
 * <p>The device lines ({@code #  Rank  3 Group  0 Pid 1234 on host17 device  3 [0000:1b:00] NVIDIA H100 80GB HBM3};
 * without {@code Group} and with {@code [0x1b]} in older versions) give the ranks (the highest rank + 1, so that a
 * pasted excerpt still counts them), the hosts (distinct names) and the GPU models.
 *
 * <p>The collective comes from the log: a command line naming a {@code *_perf} binary, or
 * {@code # Collective test starting|concluded: NAME} (nccl-tests 2.16.7 on). A log may hold several tests one after
 * another: each such line starts a new section. Rows before any such line take the {@code defaultOp} given to
 * {@link #parse(String, String, CollectiveOp)} (from the file's name or the user); without one they are an error.
 * {@link NcclTestsRows} turns the out-of-place times into {@link MeasuredRow}s.
 *
 * @param source   where the text came from (file name), for messages
 * @param sections the tests in the log, in order
 */
record NcclTestsLog(String source, List<Section> sections) {

    /**
     * One row of the table.
     *
     * @param op            the collective
     * @param sizeBytes     nccl-tests' size column, bytes
     * @param count         elements
     * @param type          nccl-tests' type name as printed ({@code float}, {@code half}, {@code bfloat16}...)
     * @param dtype         the type, where ccsim knows it
     * @param redop         reduction as printed ({@code sum}, {@code none}), empty for formats without the column
     * @param root          root rank; -1 where the op has none or the format has no column
     * @param oop           out-of-place measurement
     * @param inPlace       in-place measurement
     * @param line          1-based line number in the source
     */
    record Row(CollectiveOp op, long sizeBytes, long count, String type, Optional<DataType> dtype, String redop,
                      int root, Measurement oop, Measurement inPlace, int line) { }

    /**
     * Time and bandwidths of one variant (out-of-place or in-place).
     *
     * @param timeUs    time per iteration, µs
     * @param algbwGBps algorithm bandwidth, GB/s (1e9 B/s)
     * @param busbwGBps bus bandwidth, GB/s
     * @param wrong     the {@code #wrong} column (number of wrong elements), -1 where the log has no such
     *                  column or prints N/A
     * @param maxError  the old {@code error} column, NaN where absent
     */
    record Measurement(double timeUs, double algbwGBps, double busbwGBps, long wrong, double maxError) { }

    /**
     * One test run in the log.
     *
     * @param op               the collective, from the binary's name or the default
     * @param ranks            the highest rank of the {@code # Rank} lines + 1 (0 if the log has none)
     * @param hosts            distinct host names of the rank lines (0 if none)
     * @param gpus             distinct device names of the rank lines, in order of appearance
     * @param rows             table rows
     * @param avgBusBandwidth  the {@code # Avg bus bandwidth} line, GB/s, if printed
     * @param outOfBounds      the {@code # Out of bounds values} count, -1 if not printed
     * @param graphLaunches    the header's {@code graph: N} ({@code -G N}: calls captured in CUDA graphs), 0 if eager
     *                         or not printed
     * @param processes        distinct process ids of the rank lines (0 if none)
     * @param graphRegisterOff whether NCCL's output in the log, up to this section, says NCCL_GRAPH_REGISTER=0 (its
     *                         {@code NCCL INFO NCCL_GRAPH_REGISTER set by environment to 0.}, printed with NCCL_DEBUG=INFO
     *                         and the ENV subsystem): NCCL then does not register the buffers of captured calls
     * @param gpusPerThread    the header's {@code nGpus N}: the GPUs each thread launches a call on ({@code -g N}), 0 if
     *                         not printed
     */
    record Section(CollectiveOp op, int ranks, int hosts, List<String> gpus, List<Row> rows, OptionalDouble avgBusBandwidth,
                   long outOfBounds, int graphLaunches, int processes, boolean graphRegisterOff, int gpusPerThread) { }

    /** Malformed nccl-tests text; the message names the source and line. */
    static final class FormatException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        FormatException(String message) { super(message); }
    }

    private static final Pattern BINARY = Pattern.compile("([a-z_]+?)_perf(?:_mpi)?\\b");
    private static final Pattern COLLECTIVE_LINE = Pattern.compile("#\\s*Collective test (?:starting|concluded):\\s*([a-z_]+?)_perf");
    private static final Pattern AVG = Pattern.compile("#\\s*Avg bus bandwidth\\s*:\\s*([0-9.eE+-]+)");
    private static final Pattern OOB = Pattern.compile("#\\s*Out of bounds values\\s*:\\s*(\\d+)");
    private static final Pattern RANK = Pattern.compile(
            "#?\\s*Rank\\s+(\\d+)\\s+(?:Group\\s+\\d+\\s+)?Pid\\s+(\\d+)\\s+on\\s+(\\S+)\\s+device\\s+\\d+\\s+\\[[^\\]]*\\]\\s*(.*)$");
    /** The run's header ({@code # nThread 1 nGpus 4 ... graph: 10 unalign: 0}): GPUs a thread, CUDA-graph launches. */
    private static final Pattern GRAPH = Pattern.compile("#\\s*nThread\\s+\\d+\\s+nGpus\\s+(\\d+).*\\bgraph:\\s*(\\d+)");
    /** NCCL's line for a parameter set in the environment (src/misc/param.cc ncclLoadParam). */
    private static final Pattern GRAPH_REGISTER = Pattern.compile("NCCL INFO NCCL_GRAPH_REGISTER set by environment to (-?\\d+)");
    /** The most ranks a log may name (NCCL's rank is an int; 2^24 is 100 times the largest jobs run). */
    private static final long MAX_RANKS = 1L << 24;
    private static final Pattern TAG = Pattern.compile("\\[\\d+(?:,\\d+)?\\](?:<std(?:out|err)>:)?");

    /** All rows of all sections, in order. */
    List<Row> rows() {
        List<Row> all = new ArrayList<>();
        for (Section s : sections) all.addAll(s.rows());
        return List.copyOf(all);
    }

    /** Parses a log that names its collective (see the class comment). */
    static NcclTestsLog parse(String text, String source) {
        return parse(text, source, null);
    }

    /**
     * Parses a log; rows before any line naming the test are taken as {@code defaultOp}
     * (may be null: then such rows are an error).
     *
     * @throws FormatException naming source, line and what is valid
     */
    static NcclTestsLog parse(String text, String source, CollectiveOp defaultOp) {
        if (text == null) throw new IllegalArgumentException("nccl-tests log text must not be null");
        String src = source == null ? "<text>" : source;
        List<Section> sections = new ArrayList<>();
        Builder cur = new Builder(defaultOp);
        boolean graphRegisterOff = false; // NCCL prints its environment once a process: it holds for later sections
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String raw = lines[i];
            int lineNo = i + 1;
            String line = TAG.matcher(raw).replaceAll(" ").trim();
            if (line.isEmpty()) continue;
            Matcher m;
            if ((m = GRAPH_REGISTER.matcher(line)).find()) {
                graphRegisterOff = parseLong(m.group(1), "NCCL_GRAPH_REGISTER", src, lineNo) == 0;
                cur.graphRegisterOff = graphRegisterOff;
                continue;
            }
            if ((m = COLLECTIVE_LINE.matcher(line)).find()) {
                CollectiveOp op = opOf(m.group(1), src, lineNo);
                if (line.contains("concluded")) {
                    if (cur.op == null) cur.op = op;
                    continue;
                }
                cur = switchSection(sections, cur, op);
                cur.graphRegisterOff |= graphRegisterOff;
                continue;
            }
            if (!line.startsWith("#") && (m = BINARY.matcher(line)).find() && !looksLikeRow(line)) {
                cur = switchSection(sections, cur, opOf(m.group(1), src, lineNo));
                cur.graphRegisterOff |= graphRegisterOff;
                continue;
            }
            if ((m = AVG.matcher(line)).find()) {
                cur.avg = OptionalDouble.of(parseDouble(m.group(1), "Avg bus bandwidth", src, lineNo));
                continue;
            }
            if ((m = OOB.matcher(line)).find()) {
                cur.oob = parseLong(m.group(1), "Out of bounds values", src, lineNo);
                continue;
            }
            if ((m = RANK.matcher(line)).find()) {
                long rank = parseLong(m.group(1), "Rank", src, lineNo);
                if (rank >= MAX_RANKS) {
                    throw new FormatException(src + ":" + lineNo + ": rank " + m.group(1) + " is not a rank of a job; valid: 0.."
                            + (MAX_RANKS - 1));
                }
                cur.rank((int) rank, m.group(2), m.group(3), m.group(4).trim());
                continue;
            }
            if ((m = GRAPH.matcher(line)).find()) {
                cur.gpusPerThread = (int) Math.min(Integer.MAX_VALUE, parseLong(m.group(1), "nGpus", src, lineNo));
                cur.graphLaunches = (int) Math.min(Integer.MAX_VALUE, parseLong(m.group(2), "graph", src, lineNo));
                continue;
            }
            java.util.Optional<NcclTestsColumns> header = NcclTestsColumns.ofHeader(line);
            if (header.isPresent()) {
                cur.columns = header.get();
                continue;
            }
            if (line.startsWith("#") || !looksLikeRow(line)) continue;
            String[] t = line.split("\\s+");
            NcclTestsColumns cols = cur.columns != null ? cur.columns : NcclTestsColumns.ofWidth(t.length).orElse(null);
            if (cols == null || t.length != cols.width()) {
                throw new FormatException(src + ":" + lineNo + ": a table row has " + t.length + " columns; "
                        + (cur.columns != null ? "the log's column header above names " + cur.columns.width()
                        : "nccl-tests rows have 11 (size count type + 2 × time algbw busbw error), 12 (with redop)"
                        + " or 13 (with redop and root)") + ": '" + raw.trim() + "'");
            }
            if (cur.op == null) {
                throw new FormatException(src + ":" + lineNo + ": table rows but the log names no test binary"
                        + " (e.g. './build/all_reduce_perf ...' or '# Collective test starting: all_reduce_perf');"
                        + " give the collective (validate --collective NAME) or name the file after it"
                        + " (all_gather_perf.log); valid: " + validBinaries());
            }
            cur.rows.add(row(t, cols, cur.op, src, lineNo));
        }
        if (!cur.rows.isEmpty() || cur.avg.isPresent() || cur.ranks > 0 || cur.named) sections.add(cur.build());
        if (sections.stream().allMatch(s -> s.rows().isEmpty())) {
            throw new FormatException(src + ": no nccl-tests table rows found (expected lines like"
                    + " '     1048576        262144     float     sum      -1    52.61   19.93   34.88      0 ...')");
        }
        return new NcclTestsLog(src, List.copyOf(sections));
    }

    private static Builder switchSection(List<Section> sections, Builder cur, CollectiveOp op) {
        if (cur.rows.isEmpty()) {
            cur.op = op;
            cur.named = true;
            return cur;
        }
        sections.add(cur.build());
        Builder b = new Builder(op);
        b.named = true;
        return b;
    }

    private static boolean looksLikeRow(String line) {
        String[] t = line.split("\\s+", 4);
        return t.length >= 3 && isLong(t[0]) && isLong(t[1]) && typeName(t[2]);
    }

    private static boolean typeName(String s) {
        if (s.equals("char") || s.equals("uchar")) return true;
        try {
            DataType.parse(s);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static Row row(String[] t, NcclTestsColumns c, CollectiveOp op, String src, int lineNo) {
        long size = parseLong(t[0], "size", src, lineNo);
        long count = parseLong(t[1], "count", src, lineNo);
        String type = t[2];
        Optional<DataType> dtype = Optional.ofNullable(dtypeOf(type));
        String redop = c.redop() < 0 ? "" : t[c.redop()];
        int root = c.root() < 0 ? -1 : (int) parseLong(t[c.root()], "root", src, lineNo);
        Measurement oop = measurement(t, c.oop(), src, lineNo);
        Measurement ip = measurement(t, c.inPlace(), src, lineNo);
        return new Row(op, size, count, type, dtype, redop, root, oop, ip, lineNo);
    }

    private static Measurement measurement(String[] t, int i, String src, int lineNo) {
        double time = parseDouble(t[i], "time", src, lineNo);
        double alg = parseDouble(t[i + 1], "algbw", src, lineNo);
        double bus = parseDouble(t[i + 2], "busbw", src, lineNo);
        String last = t[i + 3];
        long wrong = -1;
        double err = Double.NaN;
        if (last.equalsIgnoreCase("N/A")) {
            // validation disabled (-c 0)
        } else if (isLong(last)) {
            wrong = Long.parseLong(last);
        } else {
            err = parseDouble(last, "error", src, lineNo);
        }
        return new Measurement(time, alg, bus, wrong, err);
    }

    private static DataType dtypeOf(String type) {
        switch (type) {
            case "char": return DataType.INT8;
            case "uchar": return DataType.UINT8;
            default:
                try {
                    return DataType.parse(type);
                } catch (IllegalArgumentException e) {
                    return null;
                }
        }
    }

    /** Maps a binary's stem ({@code all_reduce}, {@code alltoall}...) to the collective. */
    static CollectiveOp opOf(String stem, String src, int lineNo) {
        return opOf(stem, src + ":" + lineNo);
    }

    /** As {@link #opOf(String, String, int)}, {@code where} naming the place in messages. */
    static CollectiveOp opOf(String stem, String where) {
        switch (stem.toLowerCase(Locale.ROOT)) {
            case "all_reduce": return CollectiveOp.ALL_REDUCE;
            case "all_gather": return CollectiveOp.ALL_GATHER;
            case "reduce_scatter": return CollectiveOp.REDUCE_SCATTER;
            case "broadcast": return CollectiveOp.BROADCAST;
            case "reduce": return CollectiveOp.REDUCE;
            case "alltoall": return CollectiveOp.ALL_TO_ALL;
            case "sendrecv": return CollectiveOp.SEND_RECV;
            default:
                throw new FormatException(where + ": nccl-tests binary '" + stem
                        + "_perf' is not a collective ccsim models; valid: " + validBinaries());
        }
    }

    /** Words of file names and their collectives, the longer first: {@code reduce} alone is matched last. */
    private static final List<Map.Entry<Pattern, CollectiveOp>> FILE_NAMES = List.of(
            Map.entry(word("reduce[_-]?scatter"), CollectiveOp.REDUCE_SCATTER), Map.entry(word("all[_-]?reduce"), CollectiveOp.ALL_REDUCE),
            Map.entry(word("all[_-]?gather"), CollectiveOp.ALL_GATHER), Map.entry(word("all[_-]?to[_-]?all"), CollectiveOp.ALL_TO_ALL),
            Map.entry(word("send[_-]?recv"), CollectiveOp.SEND_RECV), Map.entry(word("broadcast|bcast"), CollectiveOp.BROADCAST),
            Map.entry(word("reduce"), CollectiveOp.REDUCE));

    private static Pattern word(String regex) {
        return Pattern.compile("(?<![a-z])(?:" + regex + ")(?![a-z])");
    }

    /**
     * The collective a file's name names ({@code all_gather_perf.log}, {@code allreduce-8gpu.txt},
     * {@code run3_reduce_scatter.out}), or empty where it names none or several. Words are matched between non-letters;
     * {@code reduce} counts only outside {@code all_reduce} and {@code reduce_scatter}.
     */
    static Optional<CollectiveOp> opOfFileName(String path) {
        String name = path.substring(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1).toLowerCase(Locale.ROOT);
        java.util.Set<CollectiveOp> found = java.util.EnumSet.noneOf(CollectiveOp.class);
        for (Map.Entry<Pattern, CollectiveOp> e : FILE_NAMES) {
            Matcher m = e.getKey().matcher(name);
            if (m.find()) {
                found.add(e.getValue());
                name = m.replaceAll("#");
            }
        }
        return found.size() == 1 ? Optional.of(found.iterator().next()) : Optional.empty();
    }

    private static String validBinaries() {
        return "all_reduce_perf, all_gather_perf, reduce_scatter_perf, broadcast_perf, reduce_perf, alltoall_perf, sendrecv_perf";
    }

    private static boolean isLong(String s) {
        if (s.isEmpty()) return false;
        int start = s.charAt(0) == '-' ? 1 : 0;
        if (start == s.length() || s.length() - start > 18) return false;   // 18 digits always fit a long
        for (int i = start; i < s.length(); i++) if (!Character.isDigit(s.charAt(i))) return false;
        return true;
    }

    private static long parseLong(String s, String what, String src, int lineNo) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new FormatException(src + ":" + lineNo + ": column '" + what + "' must be an integer, got '" + s + "'");
        }
    }

    private static double parseDouble(String s, String what, String src, int lineNo) {
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw new FormatException(src + ":" + lineNo + ": column '" + what + "' must be a number, got '" + s + "'");
        }
    }

    private static final class Builder {
        CollectiveOp op;
        boolean named;
        int ranks;
        final java.util.Set<String> hosts = new java.util.HashSet<>();
        final java.util.Set<String> pids = new java.util.HashSet<>();
        int graphLaunches;
        int gpusPerThread;
        boolean graphRegisterOff;
        final java.util.Set<String> gpus = new java.util.LinkedHashSet<>();
        NcclTestsColumns columns;
        final List<Row> rows = new ArrayList<>();
        OptionalDouble avg = OptionalDouble.empty();
        long oob = -1;

        Builder(CollectiveOp op) { this.op = op; }

        void rank(int rank, String pid, String host, String gpu) {
            ranks = Math.max(ranks, rank + 1);
            pids.add(host + "/" + pid);
            hosts.add(host);
            if (!gpu.isEmpty()) gpus.add(gpu);
        }

        Section build() {
            return new Section(op, ranks, hosts.size(), List.copyOf(gpus), List.copyOf(rows), avg, oob, graphLaunches, pids.size(),
                    graphRegisterOff, gpusPerThread);
        }
    }
}
