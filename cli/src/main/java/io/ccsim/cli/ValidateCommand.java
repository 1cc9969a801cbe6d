package io.ccsim.cli;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.fit.ErrorTable;
import io.ccsim.algorithms.measurements.MeasuredFile;
import io.ccsim.algorithms.measurements.MeasuredRow;
import io.ccsim.algorithms.measurements.Measurements;
import io.ccsim.algorithms.measurements.Median;
import io.ccsim.algorithms.perf.PerfRow;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.tuner.Candidate;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.topology.Topology;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import io.ccsim.sim.RunStoppedException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code ccsim validate}: simulated against measured times. Each measured row ({@link Measurements#read}) is simulated with
 * the same op, size, dtype, rank count, algorithm, protocol and channels by a {@link PerfRunner} on the topology
 * (default {@code hgx-h200} with the row's n GPUs) and the profile; rows whose algorithm/protocol are unknown
 * (nccl-tests logs) are simulated with NCCL's default choice (the tuner). The table gives, per (op, algorithm,
 * protocol, n), the median and maximum of |t_sim − t_meas| / t_meas below 1 MiB and from 1 MiB, and whether the
 * fidelity bounds hold (median ≤ 15 % below 1 MiB, ≤ 5 % from 1 MiB). {@code --chart} draws busbw against size.
 */
@Command(name = "validate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Compare simulated with measured collective times: an error table, and a busbw chart (PNG or SVG).",
                "Measured files: 'ccsim perf [--backend cuda] --format json|csv' output, gpu-backend timing.json rows,",
                "or NVIDIA nccl-tests text logs (algorithm/protocol unknown: NCCL's default choice is simulated)."})
final class ValidateCommand implements Callable<Integer>, Main.NeedsEnv, Main.NeedsSession {
    @Spec CommandSpec spec;
    private Map<String, String> env = Map.of();
    private Main.Session session;
    @Mixin ProgressOption progressOption = new ProgressOption();
    /** The profile of the first topology built (all rows are simulated with it). */
    private CalibrationProfile prof;

    @Option(names = "--profile", paramLabel = "FILE|NAME",
            description = "calibration profile JSON, or a built-in name (h100, h200); default: built-in for the topology's GPU")
    String profile;
    @Option(names = "--measured", required = true, arity = "1..*", paramLabel = "FILE", description = "measured rows (JSON, CSV or nccl-tests text)")
    List<Path> measured;
    @Option(names = "--chart", paramLabel = "FILE", description = "write a busbw-vs-size chart here (.png or .svg)")
    Path chart;
    @Option(names = "--topology", defaultValue = "hgx-h200", paramLabel = "NAME|FILE", description = "topology to simulate on (default: ${DEFAULT-VALUE})")
    String topology;
    @Option(names = "--gpus", paramLabel = "N", description = "ranks for rows that do not say (nccl-tests logs without rank lines, perf output)")
    Integer gpus;
    @Option(names = "--include-eager", description = "keep timing rows with \"graph\": false (host launch cost included)")
    boolean includeEager;
    @Option(names = "--detail", description = "also print every row: measured and simulated time and the error")
    boolean detail;
    @Option(names = "--seed", defaultValue = "0", description = "simulation seed (default: ${DEFAULT-VALUE})")
    long seed;

    @Override
    public void setEnv(Map<String, String> env) { this.env = env; }

    @Override
    public void setSession(Main.Session session) { this.session = session; }

    /** One compared row. {@code simAlgo}/{@code simProto}/{@code simChannels} are what was simulated. */
    record Compared(MeasuredRow m, int n, Algorithm simAlgo, Protocol simProto, int simChannels, double simUs) {
        double relErr() { return (simUs - m.timeUs()) / m.timeUs(); }

        /** Group label: the measured algorithm/protocol, or "auto" where the file did not say. */
        String algoLabel() { return m.algo().map(Algorithm::ncclName).orElse("auto"); }

        String protoLabel() { return m.proto().map(Protocol::ncclName).orElse("auto"); }

        double busbw(double us) { return m.bytes() / (us * 1e3) * m.op().busBwFactor(n); }
    }

    @Override
    public Integer call() {
        if (gpus != null && gpus < 1) throw new UserException("--gpus: must be >= 1, got " + gpus);
        if (chart != null) ChartFile.check("--chart", chart);
        PrintWriter out = spec.commandLine().getOut();
        List<MeasuredRow> rows = new ArrayList<>();
        for (Path f : measured) {
            MeasuredFile fr = Measurements.read(f.toString(), TopologyArgs.readText(f, "measured file"), includeEager);
            if (fr.rows().isEmpty()) throw new UserException(f + ": no measured rows");
            rows.addAll(fr.rows());
            out.printf(Locale.ROOT, "# %s: %d rows%s%n", f, fr.rows().size(), fr.skipped().isEmpty() ? "" : "; left out " + fr.skipped());
        }
        List<Compared> cmp = new ArrayList<>();
        RunStoppedException stopped = compareAll(rows, SimSetup.ncclEnv(env), cmp);
        if (stopped != null && cmp.isEmpty()) throw stopped;
        out.printf(Locale.ROOT, "# ccsim validate: %d rows, topology %s, profile %s, NCCL %s model%n", cmp.size(), topology,
                profileLabel(), CalibrationProfile.NCCL_VERSION);
        if (detail) printDetail(out, cmp);
        printTable(out, cmp);
        if (chart != null) {
            ValidationChart.Summary s = ValidationChart.write(chart, cmp, "topology " + topology + ", profile " + profileLabel());
            out.printf(Locale.ROOT, "# chart: %s (%s, %d panel%s%s)%n", chart, s.file().describe(), s.panels(), s.panels() == 1 ? "" : "s",
                    s.leftOut() > 0 ? ", " + s.leftOut() + " single-size panels left out" : "");
        }
        if (stopped != null) {
            out.printf(Locale.ROOT, "# interrupted by %s at row %d of %d: the table holds the %d rows before it%n", stopped.reason(),
                    cmp.size() + 1, rows.size(), cmp.size());
        }
        out.flush();
        if (stopped == null) return 0;
        PrintWriter err = spec.commandLine().getErr();
        err.printf(Locale.ROOT, "ccsim: validate stopped by %s at row %d of %d%n", stopped.reason(), cmp.size() + 1, rows.size());
        err.flush();
        return StopSignals.exitCode(stopped.reason());
    }

    private String profileLabel() {
        return profile == null || CalibrationProfile.BUILTIN_NAMES.contains(profile) ? SimSetup.profileLabel(null, prof)
                : prof.gpu() + " (" + profile + ")";
    }

    /**
     * Simulates every measured row in order into {@code cmp}, with progress (the profile chosen on the way is kept in
     * {@link #prof}); returns the stop request that ended it early (the rows done so far are in {@code cmp}), or null.
     */
    private RunStoppedException compareAll(List<MeasuredRow> rows, NcclEnv nccl, List<Compared> cmp) {
        Map<Integer, PerfRunner> runners = new TreeMap<>();
        session.stoppable();
        Progress progress = progressOption.open(spec.commandLine().getErr(), session);
        long[] work = new long[rows.size()];
        Arrays.fill(work, 1);
        Progress.Items items = new Progress.Items(work);
        try {
            for (MeasuredRow m : rows) {
                int i = cmp.size();
                String what = String.format(Locale.ROOT, "validate row %d/%d: %s %s", i + 1, rows.size(), m.op().cliName(),
                        Sizes.human(m.bytes()));
                progress.show(what, items.fraction(i, 0));
                int n = m.n() > 0 ? m.n() : gpus != null ? gpus : 0;
                if (n == 0) {
                    throw new UserException(m.where() + ": the file does not say how many ranks ran (no 'n' field or '# Rank' lines);"
                            + " pass --gpus N");
                }
                PerfRunner runner = runners.get(n);
                if (runner == null) {
                    runner = runner(m, n, nccl);
                    runners.put(n, runner);
                }
                PerfRunner r = runner;
                session.control().setWatcher(sim -> progress.show(what + String.format(Locale.ROOT, ": %.0f %%", 100 * r.runningFraction()),
                        items.fraction(i, r.runningFraction())));
                cmp.add(simulate(runner, m, n));
            }
            return null;
        } catch (RunStoppedException e) {
            return e;
        } finally {
            session.control().setWatcher(null);
            progress.clear();
        }
    }

    /** The runner of {@code n} ranks on the topology (the first one also fixes the profile). */
    private PerfRunner runner(MeasuredRow m, int n, NcclEnv nccl) {
        Topology topo = TopologyArgs.resolve(topology, TopologyArgs.isCatalog(topology) ? n : 0, 1, 1.0, seed);
        if (topo.gpus().size() < n) {
            throw new UserException(m.where() + ": " + n + " ranks, but topology " + topo.name() + " has " + topo.gpus().size() + " GPUs");
        }
        if (prof == null) prof = profile(topo);
        PerfRunner runner = new PerfRunner(topo, n, prof, nccl, seed);
        runner.setRunControl(session.control());
        return runner;
    }

    private CalibrationProfile profile(Topology topo) {
        if (profile != null && CalibrationProfile.BUILTIN_NAMES.contains(profile.toLowerCase(Locale.ROOT))
                && !java.nio.file.Files.exists(Path.of(profile))) {
            return CalibrationProfile.builtin(profile.toLowerCase(Locale.ROOT));
        }
        return SimSetup.profile(profile == null ? null : Path.of(profile), topo);
    }

    private static Compared simulate(PerfRunner runner, MeasuredRow m, int n) {
        long count = runner.countFor(m.op(), m.bytes(), m.dtype());
        if (count == 0) throw new UserException(m.where() + ": " + m.bytes() + " B is less than one " + m.dtype() + " per rank of " + n);
        ReduceOp redop = m.redop().orElse(ReduceOp.SUM);
        int root = m.root() < n ? m.root() : 0;
        try {
            PerfRow r;
            if (m.forced()) {
                Algorithm algo = m.algo().get();
                Protocol proto = m.proto().get();
                // a row with its own channel count is the CudaExecutor's (timing.json, perf --backend cuda): its time is
                // the mean of back-to-back graph replays, which the simulation reproduces call after call (plus the
                // later ranks' host graph launches, sim.graph_launch_us and sim.graph_call_launch_us)
                if (m.planChannels().isPresent()) {
                    r = runner.simulateGraphReplay(m.op(), count, m.dtype(), redop, root, algo, proto, m.planChannels().getAsInt());
                } else {
                    Candidate c = runner.tune(m.op(), m.bytes()).candidate(algo, proto).orElseThrow(() -> new UserException(
                            m.where() + ": the tuner has no candidate " + algo + "/" + proto + " for " + m.op() + "; give 'channels'"));
                    r = runner.simulate(m.op(), count, m.dtype(), redop, root, algo, proto, c.channels(), 1);
                }
            } else {
                r = runner.run(m.op(), m.bytes(), m.dtype(), redop, root);
            }
            return new Compared(m, n, r.algo(), r.proto(), r.channels(), r.timeUs());
        } catch (IllegalArgumentException e) {   // TunerException included
            throw new UserException(m.where() + ": cannot simulate " + m.op() + " " + m.bytes() + " B: " + e.getMessage(), e);
        }
    }

    private static void printDetail(PrintWriter out, List<Compared> cmp) {
        out.println("#");
        out.println("# op              n        bytes   algo/proto/ch (simulated)   measured_us  simulated_us   error");
        for (Compared c : cmp) {
            out.printf(Locale.ROOT, "  %-14s %2d %12d   %-27s %11.2f  %12.2f  %+6.1f%%%n", c.m().op().cliName(), c.n(), c.m().bytes(),
                    c.simAlgo().ncclName() + "/" + c.simProto().ncclName() + "/" + c.simChannels(), c.m().timeUs(), c.simUs(), 100 * c.relErr());
        }
    }

    /** Per (op, algo, proto, n): counts, median and max |error| below and from 1 MiB, and the verdict. */
    static void printTable(PrintWriter out, List<Compared> cmp) {
        Map<String, List<Compared>> groups = new LinkedHashMap<>();
        cmp.stream().sorted(Comparator.comparing((Compared c) -> c.m().op()).thenComparing(Compared::algoLabel)
                        .thenComparing(Compared::protoLabel).thenComparingInt(Compared::n))
                .forEach(c -> groups.computeIfAbsent(c.m().op().cliName() + "|" + c.algoLabel() + "|" + c.protoLabel() + "|" + c.n(),
                        k -> new ArrayList<>()).add(c));
        out.println("#");
        out.println("# relative error |t_sim - t_meas| / t_meas; fidelity bounds (docs/calibration.md): median <= 15 % below 1 MiB, <= 5 % from 1 MiB");
        out.println("#                                              ----- < 1 MiB -----   ----- >= 1 MiB ----");
        out.println("# op              algo    proto    n  sizes    rows median    max    rows median    max   bias   within");
        int groupsOk = 0;
        for (List<Compared> g : groups.values()) {
            Compared f = g.get(0);
            double[] small = absErrors(g, false);
            double[] large = absErrors(g, true);
            double bias = median(g.stream().mapToDouble(Compared::relErr).toArray());
            long lo = g.stream().mapToLong(c -> c.m().bytes()).min().orElse(0);
            long hi = g.stream().mapToLong(c -> c.m().bytes()).max().orElse(0);
            boolean ok = (small.length == 0 || median(small) <= ErrorTable.KERNEL_BOUND_SMALL)
                    && (large.length == 0 || median(large) <= ErrorTable.KERNEL_BOUND_LARGE);
            if (ok) groupsOk++;
            out.printf(Locale.ROOT, "  %-14s  %-6s  %-6s %2d  %-8s %4s %6s %6s    %4s %6s %6s %+6.1f%%  %s%n", f.m().op().cliName(), f.algoLabel(),
                    f.protoLabel(), f.n(), Sizes.human(lo) + ".." + Sizes.human(hi), small.length, pct(median(small)), pct(max(small)),
                    large.length, pct(median(large)), pct(max(large)), 100 * bias, ok ? "yes" : "NO");
        }
        double[] allSmall = absErrors(cmp, false);
        double[] allLarge = absErrors(cmp, true);
        out.printf(Locale.ROOT, "# all rows: < 1 MiB median %s max %s (%d rows); >= 1 MiB median %s max %s (%d rows); %d of %d groups within bounds%n",
                pct(median(allSmall)), pct(max(allSmall)), allSmall.length, pct(median(allLarge)), pct(max(allLarge)), allLarge.length,
                groupsOk, groups.size());
    }

    /** |relative error| of the rows below the fidelity check's size boundary ({@link ErrorTable#KERNEL_LARGE_BYTES}), or from it. */
    private static double[] absErrors(List<Compared> rows, boolean large) {
        return rows.stream().filter(c -> (c.m().bytes() >= ErrorTable.KERNEL_LARGE_BYTES) == large)
                .mapToDouble(c -> Math.abs(c.relErr())).toArray();
    }

    static String pct(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * v);
    }

    static double median(double[] v) {
        return v.length == 0 ? Double.NaN : Median.of(v);
    }

    static double max(double[] v) {
        return v.length == 0 ? Double.NaN : Arrays.stream(v).max().getAsDouble();
    }
}
