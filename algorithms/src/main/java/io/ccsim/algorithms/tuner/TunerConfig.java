package io.ccsim.algorithms.tuner;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A tuning file of NCCL's example tuner plugin ({@code NCCL_TUNER_CONFIG_FILE}), read and applied as the plugin
 * does, so that a table found in simulation can be deployed on a cluster and what a deployed file does can be
 * simulated. Immutable.
 *
 * <h2>The format and the plugin's rules (NVIDIA/nccl v2.28.9-1, ext-tuner/example: README.md, plugin.c)</h2>
 * <pre>
 * collective_type,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks[,numPipeOps[,regBuff]]
 * </pre>
 * <ul>
 *   <li>One row per line; a line starting with {@code #} and an empty line are skipped; fields are split at
 *       commas and trimmed of spaces and tabs. 8 fields match any numPipeOps and regBuff, 9 any regBuff.</li>
 *   <li>collective_type {@code broadcast reduce allgather reducescatter allreduce}; algorithm {@code tree ring
 *       collnet_direct collnet_chain nvls nvls_tree pat}; protocol {@code ll ll128 simple} (compared with
 *       {@code strcmp}: lower case).</li>
 *   <li>A row matches a call when the collective is the same, {@code min_bytes <= nBytes <= max_bytes} (nBytes:
 *       NCCL's, {@link TuneInput#bytes()}: the whole gathered/scattered buffer for all-gather/reduce-scatter,
 *       enqueue.cc getAlgoInfo), and nNodes, nRanks, numPipeOps, regBuff are equal or -1.</li>
 *   <li>pluginGetCollInfo walks the rows in file order. At the first matching row whose (algorithm, protocol)
 *       NCCL has not marked {@code NCCL_ALGO_PROTO_IGNORE} (disabled or impossible here: ccsim's non-candidates),
 *       it sets that pair's cost to 0, so NCCL picks it, and the channel count to the row's unless the row says
 *       -1; then it returns. Rows whose pair is ignored are passed over.</li>
 *   <li>Before looking, the plugin sets the channel count to 1 ({@code *nChannels = 1}), and NCCL takes any
 *       non-zero count the plugin returns as the collective's channel count (enqueue.cc getAlgoInfo:
 *       {@code info->nMaxChannels = nMaxChannels == 0 ? info->nMaxChannels : nMaxChannels}). So where the
 *       matching row says -1, or no row matches, the collective runs on <b>one channel</b>, whatever the
 *       README says about keeping NCCL's default (the plugin's own test asserts the 1: test/test_plugin.c;
 *       RCCL changed it to 0 in ROCm/rccl#1985). Unchanged up to v2.30.7. ccsim reproduces it and says so.</li>
 * </ul>
 * ccsim is stricter than the plugin about the file: where the plugin skips a malformed line or a misspelt name
 * in silence (the row then never matches), ccsim refuses the file, naming the file, the line, the field and
 * the valid values.
 */
public final class TunerConfig {
    /** The plugin's collective names, in {@link NcclFunc} order. */
    private static final String[] COLLECTIVES = {"broadcast", "reduce", "allgather", "reducescatter", "allreduce"};
    private static final String[] ALGORITHMS = {"tree", "ring", "collnet_direct", "collnet_chain", "nvls", "nvls_tree",
            "pat"};
    private static final Algorithm[] ALGORITHM_VALUES = {Algorithm.TREE, Algorithm.RING, Algorithm.COLLNET_DIRECT,
            Algorithm.COLLNET_CHAIN, Algorithm.NVLS, Algorithm.NVLS_TREE, Algorithm.PAT};
    private static final String[] PROTOCOLS = {"ll", "ll128", "simple"};
    private static final Protocol[] PROTOCOL_VALUES = {Protocol.LL, Protocol.LL128, Protocol.SIMPLE};
    /** The header line the plugin's README suggests and {@link #format} writes. */
    public static final String HEADER =
            "collective_type,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks,numPipeOps,regBuff";

    /**
     * One row.
     *
     * @param line       1-based line in the file
     * @param collective the collective it applies to
     * @param minBytes   smallest nBytes it matches
     * @param maxBytes   largest nBytes it matches ({@code Long.MAX_VALUE} for anything larger than 2^63 − 1)
     * @param algorithm  the algorithm it selects
     * @param protocol   the protocol it selects
     * @param channels   the channel count it sets, or -1 (the plugin then returns 1)
     * @param nNodes     nodes it matches, or -1 for any
     * @param nRanks     ranks it matches, or -1 for any
     * @param numPipeOps pipelined operations it matches, or -1 for any
     * @param regBuff    1 registered buffers, 0 not, -1 either
     */
    public record Row(int line, CollectiveOp collective, long minBytes, long maxBytes, Algorithm algorithm,
                      Protocol protocol, int channels, int nNodes, int nRanks, int numPipeOps, int regBuff) {
        boolean matches(CollectiveOp op, long nBytes, int nodes, int ranks, int pipeOps, int reg) {
            return collective == op && nBytes >= minBytes && nBytes <= maxBytes && (nNodes == -1 || nNodes == nodes)
                    && (nRanks == -1 || nRanks == ranks) && (numPipeOps == -1 || numPipeOps == pipeOps)
                    && (regBuff == -1 || regBuff == reg);
        }

        /** The row as the plugin's file holds it. */
        public String format() {
            return String.join(",", COLLECTIVES[NcclFunc.of(collective).orElseThrow().ordinal()],
                    Long.toString(minBytes), maxBytes == Long.MAX_VALUE ? "18446744073709551615" : Long.toString(maxBytes),
                    ALGORITHMS[indexOf(ALGORITHM_VALUES, algorithm)], PROTOCOLS[indexOf(PROTOCOL_VALUES, protocol)],
                    Integer.toString(channels), Integer.toString(nNodes), Integer.toString(nRanks),
                    Integer.toString(numPipeOps), Integer.toString(regBuff));
        }
    }

    /** What the plugin decided for one call: the row that applied (if any) and the channel count it returns. */
    public record Decision(Optional<Row> row, int channels) { }

    private final String source;
    private final List<Row> rows;

    private TunerConfig(String source, List<Row> rows) {
        this.source = source;
        this.rows = List.copyOf(rows);
    }

    /** Where the rows came from (the file name). */
    public String source() { return source; }

    /** The rows in file order. */
    public List<Row> rows() { return rows; }

    /**
     * Reads {@code file} (UTF-8).
     *
     * @throws TunerConfigException if it cannot be read or a line is not a valid row
     */
    public static TunerConfig read(Path file) {
        String text;
        try {
            byte[] bytes = Files.readAllBytes(file);
            text = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (NoSuchFileException e) {
            throw new TunerConfigException("NCCL_TUNER_CONFIG_FILE=" + file + ": no such file (NCCL's example plugin"
                    + " would run with no rows, every collective on one channel; ccsim refuses instead)");
        } catch (CharacterCodingException e) {
            throw new TunerConfigException("NCCL_TUNER_CONFIG_FILE=" + file + ": not UTF-8 text");
        } catch (IOException e) {
            throw new TunerConfigException("NCCL_TUNER_CONFIG_FILE=" + file + ": cannot read it ("
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + ")");
        }
        return parse(text, file.toString());
    }

    /**
     * Parses the rows of {@code text}; {@code source} names it in errors.
     *
     * @throws TunerConfigException naming {@code source}, the line, the field and the valid values
     */
    public static TunerConfig parse(String text, String source) {
        Objects.requireNonNull(text, "text");
        List<Row> rows = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = i == 0 && lines[i].startsWith("\uFEFF") ? lines[i].substring(1) : lines[i];
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) continue;
            rows.add(row(trimmed, source, i + 1));
        }
        return new TunerConfig(source, rows);
    }

    private static Row row(String line, String source, int n) {
        String where = source + ":" + n + ": ";
        String[] f = line.split(",", -1);
        if (f.length < 8 || f.length > 10) {
            throw new TunerConfigException(where + "expected 8 to 10 comma-separated fields (" + HEADER
                    + "; the last two optional), got " + f.length);
        }
        for (int k = 0; k < f.length; k++) {
            f[k] = f[k].strip();
            if (f[k].isEmpty()) throw new TunerConfigException(where + "field " + (k + 1) + " (" + HEADER.split(",")[k]
                    + ") is empty");
        }
        int c = name(f[0], COLLECTIVES, where, "collective_type");
        long min = bytes(f[1], where, "min_bytes");
        long max = bytes(f[2], where, "max_bytes");
        if (min > max) {
            throw new TunerConfigException(where + "min_bytes " + f[1] + " exceeds max_bytes " + f[2]);
        }
        Algorithm a = ALGORITHM_VALUES[name(f[3], ALGORITHMS, where, "algorithm")];
        Protocol p = PROTOCOL_VALUES[name(f[4], PROTOCOLS, where, "protocol")];
        int channels = count(f[5], where, "channels", NcclEnv.MAX_CHANNELS);
        int nodes = count(f[6], where, "nNodes", Integer.MAX_VALUE);
        int ranks = count(f[7], where, "nRanks", Integer.MAX_VALUE);
        int pipe = f.length > 8 ? count(f[8], where, "numPipeOps", Integer.MAX_VALUE) : -1;
        int reg = -1;
        if (f.length > 9) {
            if (!f[9].equals("-1") && !f[9].equals("0") && !f[9].equals("1")) {
                throw new TunerConfigException(where + "regBuff '" + f[9] + "' is not valid; valid: 1 (registered"
                        + " buffers), 0 (not registered), -1 (either)");
            }
            reg = Integer.parseInt(f[9]);
        }
        return new Row(n, NcclFunc.values()[c].op(), min, max, a, p, channels, nodes, ranks, pipe, reg);
    }

    private static int name(String v, String[] valid, String where, String field) {
        for (int i = 0; i < valid.length; i++) if (valid[i].equals(v)) return i;
        String hint = "";
        for (String s : valid) {
            if (s.replace("_", "").equalsIgnoreCase(v.replace("_", ""))) {
                hint = " (did you mean '" + s + "'? the plugin compares names exactly, in lower case)";
            }
        }
        throw new TunerConfigException(where + field + " '" + v + "' is not valid" + hint + "; valid: "
                + String.join(", ", valid));
    }

    private static long bytes(String v, String where, String field) {
        if (!v.chars().allMatch(Character::isDigit)) {
            throw new TunerConfigException(where + field + " '" + v + "' is not a non-negative integer number of"
                    + " bytes (e.g. 0, 65536, 4294967295)");
        }
        if (v.length() > 20 || new java.math.BigInteger(v).compareTo(new java.math.BigInteger("18446744073709551615")) > 0) {
            throw new TunerConfigException(where + field + " '" + v + "' exceeds 18446744073709551615 (2^64 - 1)");
        }
        java.math.BigInteger b = new java.math.BigInteger(v);
        return b.bitLength() > 63 ? Long.MAX_VALUE : b.longValue();
    }

    private static int count(String v, String where, String field, int max) {
        long n;
        try {
            n = Long.parseLong(v);
        } catch (NumberFormatException e) {
            n = 0;
        }
        if (n == -1 || (n >= 1 && n <= max)) return (int) n;
        throw new TunerConfigException(where + field + " '" + v + "' is not valid; valid: -1 (any"
                + (field.equals("channels") ? ": the plugin then returns 1 channel" : "") + ") or 1.."
                + (max == Integer.MAX_VALUE ? "" : Integer.toString(max)));
    }

    /**
     * The plugin's decision for a call of {@code in}: the first row that matches and whose pair is among
     * {@code allowed} (NCCL's non-ignored entries), and the channel count it returns (the row's, or 1).
     *
     * @param numPipeOps operations in the NCCL group being tuned together (1 for one collective)
     * @param regBuff    1 if both buffers are registered, else 0
     */
    public Decision decide(TuneInput in, List<Candidate> allowed, int numPipeOps, int regBuff) {
        for (Row r : rows) {
            if (!r.matches(in.op(), in.bytes(), in.nNodes(), in.nRanks(), numPipeOps, regBuff)) continue;
            for (Candidate c : allowed) {
                if (c.algorithm() == r.algorithm() && c.protocol() == r.protocol()) {
                    return new Decision(Optional.of(r), r.channels() == -1 ? 1 : r.channels());
                }
            }
        }
        return new Decision(Optional.empty(), 1);
    }

    private static <T> int indexOf(T[] values, T v) {
        for (int i = 0; i < values.length; i++) if (values[i] == v) return i;
        throw new IllegalArgumentException("NCCL's example tuner plugin has no name for " + v);
    }

    /** Whether the plugin can name {@code a} (it has no P2P). */
    public static boolean nameable(Algorithm a) {
        for (Algorithm x : ALGORITHM_VALUES) if (x == a) return true;
        return false;
    }
}
