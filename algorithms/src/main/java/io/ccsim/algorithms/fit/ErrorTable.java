package io.ccsim.algorithms.fit;

import io.ccsim.algorithms.measurements.MeasuredRow;
import io.ccsim.algorithms.measurements.Median;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Median relative time errors of predictions, per (op, algorithm/protocol, n, size class): sizes of at least the
 * boundary ({@link #LARGE_BYTES} for NCCL's fixtures, {@link #KERNEL_LARGE_BYTES} for the CudaExecutor's timings) and
 * sizes below it are separate classes. Default-mode rows are grouped under the (algorithm, protocol) NCCL reported for
 * them (P2P for point-to-point ops) with the prefix {@code default:}, forced rows under their forced mode.
 */
public final class ErrorTable {
    /** The size class boundary of the NCCL fixtures' check, bytes (64 KiB). */
    public static final long LARGE_BYTES = 64 * 1024;

    /**
     * One group.
     *
     * @param op          collective (CLI name)
     * @param mode        {@code Ring/LL} … for forced rows, {@code default:Ring/LL} … for default rows
     * @param nRanks      ranks
     * @param large       sizes ≥ the boundary (true) or below (false)
     * @param rows        rows in the group
     * @param medianError median of |pred − meas| / meas
     * @param maxError    largest |pred − meas| / meas
     * @param boundary    the size class boundary, bytes
     */
    public record Group(String op, String mode, int nRanks, boolean large, int rows, double medianError, double maxError, long boundary) {
        /** A stable key, e.g. {@code all_reduce Ring/LL n=4 >=64KiB} (or {@code >=1MiB} with the kernel boundary). */
        public String key() { return op + " " + mode + " n=" + nRanks + " " + sizeClass(); }

        /** {@code >=64KiB} or {@code <64KiB} (the boundary in KiB or MiB). */
        public String sizeClass() { return (large ? ">=" : "<") + sizeLabel(boundary); }
    }

    /** The size class boundary of the fidelity check on the CudaExecutor's timings, bytes (1 MiB). */
    public static final long KERNEL_LARGE_BYTES = 1L << 20;

    /**
     * The fidelity bounds on a group's median relative error: below {@link #KERNEL_LARGE_BYTES} (15 %), and from it
     * (5 %).
     */
    public static final double KERNEL_BOUND_SMALL = 0.15, KERNEL_BOUND_LARGE = 0.05;

    static String sizeLabel(long b) {
        return b % (1L << 20) == 0 ? (b >> 20) + "MiB" : b % 1024 == 0 ? (b >> 10) + "KiB" : b + "B";
    }

    private final List<Group> groups;

    private ErrorTable(List<Group> groups) { this.groups = List.copyOf(groups); }

    /** Groups the predictions and computes each group's median and maximum relative error. */
    static ErrorTable of(List<Prediction> predictions) { return of(predictions, LARGE_BYTES); }

    /**
     * As {@link #of(List)}, with size classes split at {@code boundary} bytes.
     *
     * @throws IllegalArgumentException if {@code boundary < 1}
     */
    static ErrorTable of(List<Prediction> predictions, long boundary) {
        if (boundary < 1) throw new IllegalArgumentException("size class boundary must be >= 1 B, got " + boundary);
        Map<String, List<Prediction>> by = new TreeMap<>();
        for (Prediction p : predictions) {
            MeasuredRow r = p.row();
            String mode = r.forced() ? r.mode() : "default:" + r.algoProto();
            boolean large = r.bytes() >= boundary;
            by.computeIfAbsent(r.op().cliName() + "\u0000" + mode + "\u0000" + r.n() + "\u0000" + large, k -> new ArrayList<>()).add(p);
        }
        List<Group> out = new ArrayList<>();
        for (List<Prediction> l : by.values()) {
            MeasuredRow r = l.get(0).row();
            double[] e = l.stream().mapToDouble(Prediction::relativeError).toArray();
            out.add(new Group(r.op().cliName(), r.forced() ? r.mode() : "default:" + r.algoProto(), r.n(),
                    r.bytes() >= boundary, e.length, Median.of(e), Arrays.stream(e).max().orElse(0), boundary));
        }
        return new ErrorTable(out);
    }

    /** The groups, sorted by op, mode, n, size class. */
    public List<Group> groups() { return groups; }

    /** The table as text, one group per line. */
    public String format() {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-15s %-20s %3s %-8s %5s %9s %9s%n",
                "op", "mode", "n", "sizes", "rows", "median%", "max%"));
        for (Group g : groups) {
            sb.append(String.format(Locale.ROOT, "%-15s %-20s %3d %-8s %5d %9.1f %9.1f%n", g.op(), g.mode(), g.nRanks(),
                    g.sizeClass(), g.rows(), 100 * g.medianError(), 100 * g.maxError()));
        }
        return sb.toString();
    }
}
