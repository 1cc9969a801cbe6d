package io.ccsim.algorithms.tuner;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Writes a table of choices per size as the tuning file of NCCL's example tuner plugin ({@link TunerConfig}), so
 * that what {@code ccsim tune} found can be deployed with {@code NCCL_TUNER_PLUGIN} and
 * {@code NCCL_TUNER_CONFIG_FILE}.
 *
 * <p>Rows: consecutive sizes with the same (algorithm, protocol, channels) merge into one row. A row starts at its
 * first size (the first row at 0) and ends one byte before the next row's first size (the last row at 2^64 − 1):
 * sizes between two simulated sizes take the choice of the smaller. Every row names its channel count, because
 * the plugin returns one channel where a row says -1 ({@link TunerConfig}); nNodes and nRanks are the simulated
 * communicator's, numPipeOps and regBuff -1 (any).
 *
 * <p>Comments: the plugin reads the file with {@code fgets} into a 256-byte buffer ({@code MAX_LINE_LENGTH},
 * ext-tuner/example/plugin.c at v2.28.9-1) and skips a line whose first byte is {@code #}. A longer line comes back
 * in pieces, and a piece that does not start with {@code #} is read as a row. So every comment line starts with
 * {@code #} in its first column and is at most {@link #MAX_COMMENT_LINE} characters with its newline; a longer
 * comment is wrapped at spaces onto several such lines (cut where a word alone is longer).
 */
public final class TunerConfigWriter {
    private TunerConfigWriter() {}

    /** The longest comment line written, in characters without its newline: {@code fgets} into 256 bytes reads 255. */
    public static final int MAX_COMMENT_LINE = 254;

    /**
     * One simulated size and its choice.
     *
     * @param bytes     NCCL's nBytes ({@link TuneInput#bytes()})
     * @param algorithm the chosen algorithm
     * @param protocol  the chosen protocol
     * @param channels  the channel count it ran with, >= 1
     */
    public record Choice(long bytes, Algorithm algorithm, Protocol protocol, int channels) {
        public Choice {
            Objects.requireNonNull(algorithm);
            Objects.requireNonNull(protocol);
            if (channels < 1) throw new IllegalArgumentException("channels must be >= 1, got " + channels);
        }
    }

    /**
     * The file's text: {@code comments} (each prefixed {@code # }), the column header as a comment, then the rows.
     *
     * @param choices in increasing order of bytes, at least one
     * @throws IllegalArgumentException for a collective or algorithm the plugin cannot name (send/recv,
     *                                  all-to-all, P2P), or sizes out of order
     */
    public static String write(CollectiveOp op, int nNodes, int nRanks, List<Choice> choices, List<String> comments) {
        if (NcclFunc.of(op).isEmpty()) {
            throw new IllegalArgumentException("NCCL's tuner plugins tune broadcast, reduce, all_gather,"
                    + " reduce_scatter and all_reduce, not " + op.cliName());
        }
        if (choices.isEmpty()) throw new IllegalArgumentException("no size to write");
        List<TunerConfig.Row> rows = new ArrayList<>();
        int start = 0;
        for (int i = 1; i <= choices.size(); i++) {
            Choice a = choices.get(start);
            if (i < choices.size()) {
                Choice b = choices.get(i);
                if (b.bytes() <= choices.get(i - 1).bytes()) {
                    throw new IllegalArgumentException("sizes must increase: " + b.bytes() + " after "
                            + choices.get(i - 1).bytes());
                }
                if (b.algorithm() == a.algorithm() && b.protocol() == a.protocol() && b.channels() == a.channels()) continue;
            }
            if (!TunerConfig.nameable(a.algorithm())) {
                throw new IllegalArgumentException("NCCL's tuner plugin cannot select " + a.algorithm().ncclName());
            }
            long min = start == 0 ? 0 : a.bytes();
            long max = i == choices.size() ? Long.MAX_VALUE : choices.get(i).bytes() - 1;
            rows.add(new TunerConfig.Row(rows.size() + 1, op, min, max, a.algorithm(), a.protocol(), a.channels(),
                    nNodes, nRanks, -1, -1));
            start = i;
        }
        StringBuilder sb = new StringBuilder();
        for (String c : comments) for (String l : wrapComment(c)) sb.append(l).append('\n');
        sb.append("# ").append(TunerConfig.HEADER).append('\n');
        for (TunerConfig.Row r : rows) sb.append(r.format()).append('\n');
        return sb.toString();
    }

    /** {@code comment} as lines {@code # ...} of at most {@link #MAX_COMMENT_LINE} characters, broken at spaces. */
    static List<String> wrapComment(String comment) {
        int room = MAX_COMMENT_LINE - 2;
        List<String> lines = new ArrayList<>();
        String rest = comment.strip();
        while (rest.length() > room) {
            int cut = rest.lastIndexOf(' ', room);
            if (cut <= 0) cut = room;
            lines.add("# " + rest.substring(0, cut).stripTrailing());
            rest = rest.substring(cut).stripLeading();
        }
        lines.add("# " + rest);
        return lines;
    }
}
