package io.ccsim.cli;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
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
import java.util.concurrent.Callable;
import io.ccsim.sim.RunStoppedException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code ccsim validate}: simulated against measured times. Each measured row ({@link Measurements#read}: perf's JSON,
 * CSV and text, gpu-backend timings, NCCL fixtures, nccl-tests logs of every version and their {@code -J} JSON) is
 * simulated with the same op, size, dtype, rank count, algorithm, protocol and channels by a {@link PerfRunner} on the
 * row's topology ({@link MeasuredTarget}: {@code --topology}, else the board of the GPU model the file names with the
 * row's ranks on its hosts, else {@code hgx-h200}) and the profile ({@code --profile}, else the built-in one of the
 * board's GPU); rows whose algorithm/protocol are unknown (nccl-tests logs) are simulated with NCCL's default choice
 * (the tuner). The table gives, per (op, algorithm, protocol, ranks), the median and maximum of
 * |t_sim − t_meas| / t_meas below 1 MiB and from 1 MiB, and whether the fidelity bounds hold (median ≤ 15 % below
 * 1 MiB, ≤ 5 % from 1 MiB). {@code --chart} draws busbw against size.
 */
@Command(name = "validate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Compare simulated with measured collective times: an error table, and a busbw chart (PNG or SVG).",
                "Measured files: 'ccsim perf [--backend cuda]' output (text, json, csv), gpu-backend timing.json rows, or NVIDIA",
                "nccl-tests output, any version, text or -J JSON (algorithm/protocol unknown: NCCL's default choice is simulated).",
                "Rows are simulated on the board of the GPU the file names, on as many nodes as its hosts."})
final class ValidateCommand implements Callable<Integer>, Main.NeedsEnv, Main.NeedsSession {
    @Spec CommandSpec spec;
    private Map<String, String> env = Map.of();
    private Main.Session session;
    @Mixin ProgressOption progressOption = new ProgressOption();
    /** The topologies simulated on and their profiles' labels, in the order first used. */
    private final Map<String, String> simulatedOn = new LinkedHashMap<>();
    /** The provenance of each communicator simulated, by topology and ranks, in the order first simulated. */
    private final Map<String, Provenance> provenances = new LinkedHashMap<>();
    /** What the footer says of the files: measured on another GPU than the topology's, registered buffers. */
    private final java.util.Set<String> fileNotes = new java.util.LinkedHashSet<>();

    @Option(names = "--profile", paramLabel = "FILE|NAME",
            description = "calibration profile JSON, or a built-in name (h100, h200); default: built-in for the topology's GPU")
    String profile;
    @Option(names = "--measured", required = true, arity = "1..*", paramLabel = "FILE", description = "measured rows (JSON, CSV or nccl-tests text)")
    List<Path> measured;
    @Option(names = "--chart", paramLabel = "FILE", description = "write a busbw-vs-size chart here (.png or .svg)")
    Path chart;
    @Option(names = "--topology", paramLabel = "NAME|FILE", description = "topology to simulate on (default: the board of the GPU"
            + " model the file names, on as many nodes as its hosts; else hgx-h200)")
    String topology;
    @Option(names = "--collective", paramLabel = "OP", description = "the collective of nccl-tests output that names no binary"
            + " (logs before nccl-tests 2.16.7 without their command line): all_reduce, all_gather, ... (default: the one the"
            + " file's name names, as all_gather_perf.log)")
    String collective;
    @Option(names = "--gpus", paramLabel = "N", description = "ranks for rows that do not say (nccl-tests logs without rank lines, perf output; default: the file's count)")
    Integer gpus;
    @Option(names = "--include-eager", description = "keep timing rows with \"graph\": false (host launch cost included)")
    boolean includeEager;
    @Option(names = "--detail", description = "also print every row: measured and simulated time and the error")
    boolean detail;
    @Option(names = "--seed", defaultValue = "0", paramLabel = "S", description = "simulation seed (default: ${DEFAULT-VALUE})")
    long seed;

    @Override
    public void setEnv(Map<String, String> env) { this.env = env; }

    @Override
    public void setSession(Main.Session session) { this.session = session; }

    /** One compared row. {@code simAlgo}/{@code simProto}/{@code simChannels} are what was simulated. */
    record Compared(MeasuredRow m, int n, int nodes, Algorithm simAlgo, Protocol simProto, int simChannels, double simUs) {
        /** The ranks as the table shows them: {@code 8}, or {@code 2x8} on several nodes. */
        String ranksLabel() { return nodes > 1 ? nodes + "x" + n / nodes : Integer.toString(n); }

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
        CollectiveOp named = null;
        if (collective != null) {
            try {
                named = CollectiveOp.parse(collective.replaceFirst("_perf$", "").replace("alltoall", "all_to_all"));
            } catch (IllegalArgumentException e) {
                throw new UserException("--collective: " + e.getMessage(), e);
            }
        }
        for (Path f : measured) {
            MeasuredFile fr = Measurements.read(f.toString(), TopologyArgs.readText(f, "measured file"), includeEager, named);
            if (fr.rows().isEmpty()) throw new UserException(f + ": no measured rows");
            rows.addAll(fr.rows());
            out.printf(Locale.ROOT, "# %s: %d rows%s%n", f, fr.rows().size(), fr.skipped().isEmpty() ? "" : "; left out " + fr.skipped());
            for (String note : fr.notes()) out.printf(Locale.ROOT, "# note: %s: %s%n", f, note);
        }
        List<Compared> cmp = new ArrayList<>();
        RunStoppedException stopped = compareAll(rows, SimSetup.ncclEnv(env), cmp);
        if (stopped != null && cmp.isEmpty()) throw stopped;
        out.printf(Locale.ROOT, "# ccsim validate: %d rows, topology %s, profile %s, NCCL %s model%n", cmp.size(),
                String.join(", ", simulatedOn.keySet()), String.join(", ", new java.util.LinkedHashSet<>(simulatedOn.values())),
                CalibrationProfile.NCCL_VERSION);
        for (Provenance p : provenances.values()) out.println("# provenance: " + p.text());
        for (String note : fileNotes) out.println(note);
        if (detail) printDetail(out, cmp);
        printTable(out, cmp);
        if (chart != null) {
            ValidationChart.Summary s = ValidationChart.write(chart, cmp, "topology " + String.join(", ", simulatedOn.keySet())
                    + ", profile " + String.join(", ", new java.util.LinkedHashSet<>(simulatedOn.values())));
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

    /**
     * Simulates every measured row in order into {@code cmp}, with progress (the profile chosen on the way is kept in
     * {@link #prof}); returns the stop request that ended it early (the rows done so far are in {@code cmp}), or null.
     */
    private RunStoppedException compareAll(List<MeasuredRow> rows, NcclEnv nccl, List<Compared> cmp) {
        Map<RunnerKey, PerfRunner> runners = new java.util.HashMap<>();
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
                MeasuredTarget target = MeasuredTarget.of(m, n, topology);
                PerfRunner runner = runners.computeIfAbsent(new RunnerKey(target, m.registered(), m.ownCalls()),
                        k -> runner(m, k.target(), nccl));
                if (target.differsFrom(m.gpu())) {
                    fileNotes.add("# note: " + fileOf(m) + " was measured on " + m.gpu()
                            + "; simulated on " + runner.graph().nRanks() + " ranks of " + target.topology() + " as --topology asks");
                }
                session.control().setWatcher(sim -> progress.show(what + String.format(Locale.ROOT, ": %.0f %%", 100 * runner.runningFraction()),
                        items.fraction(i, runner.runningFraction())));
                cmp.add(simulate(runner, m, n, runner.graph().nNodes()));
            }
            return null;
        } catch (RunStoppedException e) {
            return e;
        } finally {
            session.control().setWatcher(null);
            progress.clear();
        }
    }

    /** What sets a row's runner apart: its ranks' target, registered buffers, NCCL's own captured calls. */
    private record RunnerKey(MeasuredTarget target, boolean registered, boolean ownCalls) { }

    /** The runner of {@code t}'s ranks on its topology, with the profile given or the built-in one of its GPU model. */
    private PerfRunner runner(MeasuredRow m, MeasuredTarget t, NcclEnv nccl) {
        Topology topo = TopologyArgs.resolve(t.topology(), t.gpusPerNode(), t.nodes(), 1.0, seed);
        if (topo.gpus().size() < t.ranks()) {
            throw new UserException(m.where() + ": " + t.ranks() + " ranks, but topology " + topo.name() + " has " + topo.gpus().size()
                    + " GPUs");
        }
        CalibrationProfile prof = profile(topo);
        simulatedOn.putIfAbsent(topo.name(), profile == null || CalibrationProfile.BUILTIN_NAMES.contains(profile)
                ? SimSetup.profileLabel(null, prof) : prof.gpu() + " (" + profile + ")");
        PerfRunner runner = new PerfRunner(topo, t.ranks(), prof, nccl, seed);
        runner.setRunControl(session.control());
        if (m.registered()) { // NCCL registered the buffers: simulated so where ccsim can, else said
            String why = runner.registeredP2pRefusal();
            if (why == null) runner.setRegisteredP2p(true);
            fileNotes.add("# note: " + fileOf(m) + ": send/recv or all-to-all captured in CUDA graphs by one process: NCCL"
                    + " registered the user buffers, " + (why == null ? "simulated so (a sender writes each channel's part into the"
                    + " receiver's buffer; sim.p2p.Simple.registered_channel_bw_gbps)" : "not simulated (" + why + "): these rows"
                    + " are simulated unregistered"));
        }
        if (m.ownCalls() && prof.sim().frameworkCallUs() > 0) { // nccl-tests -G: NCCL's own captured calls
            runner.setOwnCalls(true);
            fileNotes.add(String.format(Locale.ROOT, "# note: %s: nccl-tests under -G, NCCL's own captured calls: each"
                    + " simulated %.1f us less than the profile's PyTorch-captured calls (sim.framework_call_us)%s", fileOf(m),
                    prof.sim().frameworkCallUs(), m.registered() ? ", but registered send/recv and all-to-all" : ""));
        }
        Path file = profile == null || builtinNamed() != null ? null : Path.of(profile);
        provenances.putIfAbsent(topo.name() + " " + t.ranks(), Provenance.of(file, prof, topo, runner.graph(), seed));
        return runner;
    }

    private CalibrationProfile profile(Topology topo) {
        CalibrationProfile named = builtinNamed();
        return named != null ? named : SimSetup.profile(profile == null ? null : Path.of(profile), topo);
    }

    /** The file a row came from: its {@code where} without the line number or JSON path. */
    private static String fileOf(MeasuredRow m) {
        return m.where().replaceFirst("(:\\s*\\$.*|:\\d+)$", "");
    }

    /** The built-in profile {@code --profile} names (where no file of that name exists), or null. */
    private CalibrationProfile builtinNamed() {
        if (profile != null && CalibrationProfile.BUILTIN_NAMES.contains(profile.toLowerCase(Locale.ROOT))
                && !java.nio.file.Files.exists(Path.of(profile))) {
            return CalibrationProfile.builtin(profile.toLowerCase(Locale.ROOT));
        }
        return null;
    }

    private static Compared simulate(PerfRunner runner, MeasuredRow m, int n, int nodes) {
        long count = runner.countOf(m.op(), m.bytes(), m.dtype());
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
                    r = runner.simulateGraphReplay(m.op(), count, m.dtype(), redop, root, algo, proto, m.planChannels().getAsInt(),
                            m.ncclPlaced());
                } else {
                    Candidate c = runner.tune(m.op(), m.bytes()).candidate(algo, proto).orElseThrow(() -> new UserException(
                            m.where() + ": the tuner has no candidate " + algo + "/" + proto + " for " + m.op() + "; give 'channels'"));
                    r = runner.simulate(m.op(), count, m.dtype(), redop, root, algo, proto, c.channels(), 1);
                }
            } else {
                r = runner.runCount(m.op(), count, m.dtype(), redop, root, 1);
            }
            return new Compared(m, n, nodes, r.algo(), r.proto(), r.channels(), r.timeUs());
        } catch (IllegalArgumentException e) {   // TunerException included
            throw new UserException(m.where() + ": cannot simulate " + m.op() + " " + m.bytes() + " B: " + e.getMessage(), e);
        }
    }

    private static void printDetail(PrintWriter out, List<Compared> cmp) {
        out.println("#");
        out.println("# op              n        bytes   algo/proto/ch (simulated)   measured_us  simulated_us   error");
        for (Compared c : cmp) {
            out.printf(Locale.ROOT, "  %-14s %2s %12d   %-27s %11.2f  %12.2f  %+6.1f%%%n", c.m().op().cliName(), c.ranksLabel(), c.m().bytes(),
                    c.simAlgo().ncclName() + "/" + c.simProto().ncclName() + "/" + c.simChannels(), c.m().timeUs(), c.simUs(), 100 * c.relErr());
        }
    }

    /** Per (op, algo, proto, n): counts, median and max |error| below and from 1 MiB, and the verdict. */
    static void printTable(PrintWriter out, List<Compared> cmp) {
        Map<String, List<Compared>> groups = new LinkedHashMap<>();
        cmp.stream().sorted(Comparator.comparing((Compared c) -> c.m().op()).thenComparing(Compared::algoLabel)
                        .thenComparing(Compared::protoLabel).thenComparingInt(Compared::n).thenComparingInt(Compared::nodes))
                .forEach(c -> groups.computeIfAbsent(c.m().op().cliName() + "|" + c.algoLabel() + "|" + c.protoLabel() + "|" + c.ranksLabel(),
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
            out.printf(Locale.ROOT, "  %-14s  %-6s  %-6s %2s  %-8s %4s %6s %6s    %4s %6s %6s %+6.1f%%  %s%n", f.m().op().cliName(), f.algoLabel(),
                    f.protoLabel(), f.ranksLabel(), Sizes.human(lo) + ".." + Sizes.human(hi), small.length, pct(median(small)), pct(max(small)),
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
