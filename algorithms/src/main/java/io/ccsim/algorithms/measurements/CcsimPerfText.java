package io.ccsim.algorithms.measurements;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Measured rows from the text of {@code ccsim perf} (either backend): its header
 * ({@code # ccsim [VERSION] perf (simulated, ...): all_reduce_perf on hgx-h200-4g, nRanks 4 nNodes 1, profile H200 ...})
 * gives the collective, the ranks, the nodes and the GPU model (the profile's); each row
 * {@code size count type redop root time algbw busbw algo proto nch} names the algorithm, protocol and channels that
 * ran, as {@code perf --format json} does.
 */
final class CcsimPerfText {
    private CcsimPerfText() {}

    private static final Pattern HEADER = Pattern.compile(
            "^#\\s*ccsim\\b.*?\\bperf \\((?:simulated|measured)[^)]*\\): ([a-z_]+?)_perf on (\\S+), nRanks (\\d+) nNodes (\\d+)(?:, .*?profile (\\S+))?");

    /** Whether {@code text} starts with perf's header line. */
    static boolean is(String text) {
        return HEADER.matcher(text.lines().findFirst().orElse("")).find();
    }

    /** @throws IllegalArgumentException naming {@code src} and the line, and what is valid */
    static MeasuredFile read(String src, String text) {
        List<String> lines = text.lines().toList();
        Matcher h = HEADER.matcher(lines.get(0));
        if (!h.find()) throw new IllegalArgumentException(src + ":1: not a 'ccsim perf' header");
        CollectiveOp op = NamedFields.parse(src + ":1", "op", h.group(1), CollectiveOp::parse);
        int ranks = Integer.parseInt(h.group(3));
        int nodes = Integer.parseInt(h.group(4));
        String gpu = h.group(5) == null ? "" : h.group(5);
        List<MeasuredRow> rows = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (line.isEmpty() || line.startsWith("#")) continue;
            String where = src + ":" + (i + 1);
            String[] t = line.split("\\s+");
            if (t.length != 11) {
                throw new IllegalArgumentException(where + ": a 'ccsim perf' row has 11 columns (size count type redop root time algbw busbw"
                        + " algo proto nch), got " + t.length + ": '" + line + "'");
            }
            long bytes = NamedFields.parse(where, "size", t[0], Long::parseLong);
            DataType dt = NamedFields.parse(where, "type", t[2], DataType::parse);
            Optional<ReduceOp> redop = NamedFields.redop(where, t[3]);
            int root = Math.max(0, NamedFields.parse(where, "root", t[4], Integer::parseInt));
            double us = NamedFields.parse(where, "time", t[5], Double::parseDouble);
            rows.add(new MeasuredRow(where, op, ranks, bytes, dt, redop, root, Optional.of(NamedFields.parse(where, "algo", t[8],
                    NamedFields::algorithm)), Optional.of(NamedFields.parse(where, "proto", t[9], NamedFields::protocol)),
                    NamedFields.parse(where, "nch", t[10], Integer::parseInt), Optional.empty(), Optional.empty(), OptionalInt.empty(), us,
                    nodes, gpu));
        }
        return new MeasuredFile(rows, "");
    }
}
