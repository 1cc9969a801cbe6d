package io.ccsim.algorithms.measurements;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Where the fields of an nccl-tests table row are. Every version prints {@code size count type}, then
 * {@code redop} (since ~2.x) and {@code root} (NCCL 2.4 era on), then per half (out-of-place, in-place)
 * {@code time} ({@code cputime} with {@code -C 1}) {@code algbw busbw} and {@code #wrong} (or, in old versions, the
 * maximum error {@code error}); 2.19 adds {@code i_min i_max i_p99 i_cv%} per half with {@code -I 1}, and
 * {@code -S 1} a {@code timestamp} after the in-place half (a date and a time: two fields of a row). The column
 * header ({@code #  size  count  type  redop  root  time ...}) names them; a log pasted without it is read by its
 * width: 11, 12 or 13 fields.
 *
 * @param width   fields of a row
 * @param redop   index of {@code redop}, or -1
 * @param root    index of {@code root}, or -1
 * @param oop     index of the out-of-place time; algbw, busbw and #wrong follow it
 * @param inPlace index of the in-place time
 */
record NcclTestsColumns(int width, int redop, int root, int oop, int inPlace) {

    /** The columns a header line names, or empty where {@code line} is no column header. */
    static Optional<NcclTestsColumns> ofHeader(String line) {
        if (!line.startsWith("#")) return Optional.empty();
        List<String> t = Arrays.asList(line.substring(1).trim().split("\\s+"));
        if (t.size() < 3 || !t.get(0).equals("size") || !t.get(1).equals("count") || !t.get(2).equals("type")) return Optional.empty();
        int oop = -1;
        int ip = -1;
        for (int i = 3; i < t.size(); i++) {
            if (t.get(i).equals("time") || t.get(i).equals("cputime")) {
                if (oop < 0) oop = i;
                else if (ip < 0) ip = i;
            }
        }
        if (oop < 0 || ip < 0 || ip + 4 > t.size()) return Optional.empty();
        int width = t.size() + (t.get(t.size() - 1).equals("timestamp") ? 1 : 0);
        return Optional.of(new NcclTestsColumns(width, t.indexOf("redop"), t.indexOf("root"), oop, ip));
    }

    /** The columns of a row of {@code width} fields in a log without a column header: 11, 12 or 13; else empty. */
    static Optional<NcclTestsColumns> ofWidth(int width) {
        switch (width) {
            case 11: return Optional.of(new NcclTestsColumns(11, -1, -1, 3, 7));
            case 12: return Optional.of(new NcclTestsColumns(12, 3, -1, 4, 8));
            case 13: return Optional.of(new NcclTestsColumns(13, 3, 4, 5, 9));
            default: return Optional.empty();
        }
    }
}
