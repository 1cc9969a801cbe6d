package io.ccsim.cli;

import io.ccsim.algorithms.perf.PerfRow;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * nccl-tests' text output, character for character (src/util.cu at NVIDIA/nccl-tests v2.19.6:
 * {@code writeDeviceReport}, {@code writeResultHeader}, {@code writeBenchmarkLinePreamble},
 * {@code writeBenchmarkLineBody}, {@code writeResultFooter}, {@code finalizeFooter}, {@code writeErrors}), so that
 * whatever reads nccl-tests' logs reads these: the 13 columns {@code size count type redop root} and, out-of-place
 * then in-place, {@code time algbw busbw #wrong}, {@code #wrong} being {@code N/A} as nccl-tests prints it without a
 * data check. Lines of ccsim's own start with {@code # ccsim} among nccl-tests' header comments.
 */
final class NcclTestsReport {
    /** The nccl-tests release whose output format this is. */
    static final String FORMAT_VERSION = "2.19.6";

    /** NCCL's version code ({@code NCCL_VERSION(X,Y,Z)} = X·10000 + Y·100 + Z) of the release ccsim models. */
    static final int NCCL_CODE = 22809;

    private final PrintWriter out;

    NcclTestsReport(PrintWriter out) {
        this.out = out;
    }

    /**
     * One rank's device line: {@code #  Rank  0 Group  0 Pid      0 on         n0 device  0 [0000:00:00] NVIDIA H200}.
     *
     * @param busId the PCI id inside the brackets
     * @param name  the device name
     */
    record RankLine(int rank, int group, int pid, String host, int device, String busId, String name) {
        String text() {
            return String.format(Locale.ROOT, "#  Rank %2d Group %2d Pid %6d on %10s device %2d [%s] %s", rank, group, pid, host, device,
                    busId, name);
        }
    }

    /**
     * One table row: both halves are the same simulated call.
     *
     * @param size   nccl-tests' size column, bytes
     * @param count  elements per rank (the whole buffer for all-reduce, broadcast, reduce, send/recv)
     * @param type   nccl-tests' type name
     * @param redop  nccl-tests' reduction name, {@code none} for the ops without one
     * @param root   the root rank, -1 for the ops without one
     * @param timeUs simulated time of one call, µs (0 where the count is 0: NCCL launches nothing)
     * @param algbw  size / time, GB/s (0 where the time is 0)
     * @param busbw  algbw × nccl-tests' bus factor, GB/s
     * @param sim    the simulated row (algorithm, protocol, channels), or null where nothing ran
     */
    record Line(long size, long count, String type, String redop, int root, double timeUs, double algbw, double busbw, PerfRow sim) { }

    /** {@code # Writing JSON output to FILE}, nccl-tests' first line with {@code -J}. */
    void jsonTarget(String file) {
        out.println("# Writing JSON output to " + file);
    }

    /**
     * The lines before the device list: versions, the test's name, the parameters, nccl-tests' notes on blocking, then
     * {@code notes} (ccsim's), then {@code #}.
     */
    void header(String program, NcclTestsConfig c, List<String> notes) {
        out.printf(Locale.ROOT, "# nccl-tests version %s nccl-headers=%d nccl-library=%d%n", FORMAT_VERSION, NCCL_CODE, NCCL_CODE);
        out.println("# Collective test starting: " + program);
        boolean byFactor = c.stepFactor() > 1;
        out.printf(Locale.ROOT, "# nThread %d nGpus %d minBytes %d maxBytes %d step: %d(%s) warmup iters: %d iters: %d agg iters: %d"
                        + " validation: %d graph: %d unalign: %d%n", c.nThreads(), c.nGpus(), c.minBytes(), c.maxBytes(),
                byFactor ? c.stepFactor() : c.stepBytes(), byFactor ? "factor" : "bytes", c.warmupIters(), c.iters(), c.aggIters(), 0,
                c.cudaGraph(), c.unalign());
        if (c.blocking() == 1) out.println("# Blocking Enabled: wait and barrier after each inner iteration (-m) ");
        if (c.blocking() == 2) out.println("# Blocking Enabled: wait after each inner iteration (-m), no barrier ");
        if (c.blocking() == 3) out.println("# Blocking Enabled: wait and barrier after each outer iteration (-n); time excludes barrier ");
        if (c.parallelInit() != 0) out.println("# Parallel Init Enabled: threads call into NcclInitRank concurrently ");
        for (String n : notes) out.println(n);
        out.println("#");
    }

    /** {@code # Using devices} and one line per rank. */
    void devices(List<RankLine> ranks) {
        out.println("# Using devices");
        for (RankLine r : ranks) out.println(r.text());
    }

    /** nccl-tests' note where the GPUs' memory cannot hold {@code -e}'s buffers. */
    void maxBytesReduced(long maxBytes) {
        out.println("#");
        out.printf(Locale.ROOT, "# Reducing maxBytes to %d due to memory limitation%n", maxBytes);
    }

    /** The three lines above the rows ({@code cputime} for {@code time} with {@code -C 1}). */
    void tableHeader(boolean cpuTime) {
        String time = cpuTime ? "cputime" : "time";
        out.println("#");
        out.printf(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s           out-of-place                       in-place          %n", "", "", "", "",
                "");
        out.printf(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s %s%n", "size", "count", "type", "redop",
                "root", time, "algbw", "busbw", "#wrong", time, "algbw", "busbw", "#wrong", "");
        out.printf(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s %s%n", "(B)", "(elements)", "", "", "",
                "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", "", "");
        out.flush();
    }

    /** One row, out-of-place and in-place the same. */
    void row(Line l) {
        String half = String.format(Locale.ROOT, "  %7s  %6s  %6s    N/A", CFormat.field(l.timeUs(), 7), CFormat.field(l.algbw(), 6),
                CFormat.field(l.busbw(), 6));
        out.printf(Locale.ROOT, "%12d  %12d  %8s  %6s  %6s%s%s%n", l.size(), l.count(), l.type(), l.redop(),
                String.format(Locale.ROOT, "%6d", l.root()), half, half);
        out.flush();
    }

    /**
     * The summary lines and the end: out-of-bounds values (none checked), the mean bus bandwidth with nccl-tests'
     * verdict on it ({@code bandwidthOk}: null where {@code NCCL_TESTS_MIN_BW} is not set), the test's name.
     */
    void footer(String program, double avgBusBw, Boolean bandwidthOk) {
        out.printf(Locale.ROOT, "# %-20s : %d %s%n", "Out of bounds values", 0, "OK");
        out.printf(Locale.ROOT, "# %-20s : %s %s%n", "Avg bus bandwidth", CFormat.general(avgBusBw),
                bandwidthOk == null ? "" : bandwidthOk ? "OK" : "FAILED");
        out.println("#");
        out.println("# Collective test concluded: " + program);
        out.println("#");
        out.println();
        out.flush();
    }
}
