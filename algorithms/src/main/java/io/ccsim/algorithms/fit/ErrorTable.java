package io.ccsim.algorithms.fit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Median relative time errors of predictions, per (op, algorithm/protocol, n, size class), the check
 * of issue 3: sizes of at least {@link #LARGE_BYTES} and sizes below it are separate classes.
 * Default-mode rows are grouped under the (algorithm, protocol) NCCL reported for them (P2P for
 * point-to-point ops) with the prefix {@code default:}, forced rows under their forced mode.
 */
public final class ErrorTable {
    /** The size class boundary, bytes (64 KiB). */
    public static final long LARGE_BYTES = 64 * 1024;

    /**
     * One group.
     *
     * @param op          collective (CLI name)
     * @param mode        {@code Ring/LL} … for forced rows, {@code default:Ring/LL} … for default rows
     * @param nRanks      ranks
     * @param large       sizes ≥ 64 KiB (true) or below (false)
     * @param rows        rows in the group
     * @param medianError median of |pred − meas| / meas
     * @param maxError    largest |pred − meas| / meas
     */
    public record Group(String op, String mode, int nRanks, boolean large, int rows, double medianError, double maxError) {
        /** A stable key, e.g. {@code all_reduce Ring/LL n=4 >=64KiB}. */
        public String key() { return op + " " + mode + " n=" + nRanks + (large ? " >=64KiB" : " <64KiB"); }
    }

    private final List<Group> groups;

    private ErrorTable(List<Group> groups) { this.groups = List.copyOf(groups); }

    /** Groups the predictions and computes each group's median and maximum relative error. */
    public static ErrorTable of(List<Prediction> predictions) {
        Map<String, List<Prediction>> by = new TreeMap<>();
        for (Prediction p : predictions) {
            FixtureRow r = p.row();
            String mode = r.forced() ? r.mode() : "default:" + r.algoProto();
            boolean large = r.bytes() >= LARGE_BYTES;
            by.computeIfAbsent(r.op().cliName() + "\u0000" + mode + "\u0000" + r.nRanks() + "\u0000" + large, k -> new ArrayList<>()).add(p);
        }
        List<Group> out = new ArrayList<>();
        for (List<Prediction> l : by.values()) {
            FixtureRow r = l.get(0).row();
            double[] e = l.stream().mapToDouble(Prediction::relativeError).toArray();
            out.add(new Group(r.op().cliName(), r.forced() ? r.mode() : "default:" + r.algoProto(), r.nRanks(),
                    r.bytes() >= LARGE_BYTES, e.length, median(e), Arrays.stream(e).max().orElse(0)));
        }
        return new ErrorTable(out);
    }

    /** Median of {@code v} (mean of the two middle values for an even count). */
    static double median(double[] v) {
        if (v.length == 0) throw new IllegalArgumentException("median of no values");
        double[] s = v.clone();
        Arrays.sort(s);
        int m = s.length / 2;
        return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
    }

    /** The groups, sorted by op, mode, n, size class. */
    public List<Group> groups() { return groups; }

    /** The table as text, one group per line. */
    public String format() {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-15s %-20s %3s %-8s %5s %9s %9s%n",
                "op", "mode", "n", "sizes", "rows", "median%", "max%"));
        for (Group g : groups) {
            sb.append(String.format(Locale.ROOT, "%-15s %-20s %3d %-8s %5d %9.1f %9.1f%n", g.op(), g.mode(), g.nRanks(),
                    g.large() ? ">=64KiB" : "<64KiB", g.rows(), 100 * g.medianError(), 100 * g.maxError()));
        }
        return sb.toString();
    }
}
