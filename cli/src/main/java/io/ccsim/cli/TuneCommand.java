package io.ccsim.cli;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.perf.ParallelRuns;
import io.ccsim.algorithms.perf.PerfRow;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.tuner.Candidate;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.algorithms.tuner.TuneResult;
import io.ccsim.algorithms.tuner.TunerConfigWriter;
import io.ccsim.algorithms.tuner.TunerException;
import io.ccsim.algorithms.tuner.Unavailable;
import io.ccsim.sim.RunStoppedException;
import io.ccsim.topology.Topology;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ccsim tune}: for each size, the simulated time of every allowed (algorithm, protocol) at the
 * channel count NCCL would use for it, the fastest marked, NCCL's own pick (its cost model) beside it, and
 * the crossover sizes where the fastest changes — the table to set NCCL_ALGO/NCCL_PROTO or write a tuner
 * plugin from.
 */
@Command(name = "tune", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Crossover tuning: the simulated time of every allowed algorithm/protocol per size, and the fastest.",
                "NCCL's default pick beside it, and the sizes where the fastest changes. NCCL_* variables restrict the candidates."})
final class TuneCommand implements Callable<Integer>, Main.NeedsEnv, Main.NeedsSession {
    enum Format { text, json, csv }

    @Spec CommandSpec spec;
    private Map<String, String> env = Map.of();
    private Main.Session session;

    @Option(names = "--topology", required = true, paramLabel = "NAME|FILE",
            description = "catalog name (see 'ccsim topology --help') or topology JSON file")
    String topology;
    @Option(names = "--gpus", paramLabel = "N", description = "GPUs of one board (default: all of the board's)") int gpus;
    @Option(names = "--nodes", paramLabel = "M", defaultValue = "1", description = "nodes of a cluster (default: ${DEFAULT-VALUE})")
    int nodes;
    @Mixin WhatIfOptions whatIf = new WhatIfOptions();
    @Option(names = "--sharp", description = "SHARP-capable leaf and spine switches (NVIDIA Quantum-2 SHARPv3), for CollNet;"
            + " needs --nodes >= 2")
    boolean sharp;
    @Option(names = "--profile", paramLabel = "FILE|NAME",
            description = "calibration profile JSON, or a built-in name (h100, h200, l40s, b200); default: built-in for the GPU model")
    Path profile;
    @Option(names = "--op", required = true, paramLabel = "OP",
            description = "all_reduce|all_gather|reduce_scatter|broadcast|reduce|all_to_all|sendrecv")
    String op;
    @Mixin SizeOptions sizeOptions = new SizeOptions();
    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json|csv",
            description = "text: the table and crossovers; json: one document; csv: one row per size with the provenance"
                    + " columns (default: ${DEFAULT-VALUE})")
    Format format;
    @Option(names = "--tuner-config", paramLabel = "FILE",
            description = "also write the fastest choice per size as the CSV of NCCL's example tuner plugin"
                    + " (deploy with NCCL_TUNER_PLUGIN and NCCL_TUNER_CONFIG_FILE=FILE; ccsim reads it back the same way)")
    Path tunerConfig;
    @Option(names = "--chart", paramLabel = "FILE",
            description = "also draw the crossover map (size x candidate, fastest and NCCL's pick marked) into FILE, .png or .svg")
    Path chart;
    @Option(names = "--seed", defaultValue = "0", paramLabel = "S", description = "simulation seed (default: ${DEFAULT-VALUE})") long seed;
    @Option(names = "--jobs", paramLabel = "N", defaultValue = "0",
            description = "candidates simulated at once (of one size or several), each on its own thread (same results"
                    + " as one at a time; default: the machine's processors)")
    int jobs;
    @Option(names = "--sim-mode", defaultValue = "folded", paramLabel = "folded|extrapolated|auto",
            description = {"folded: every candidate simulated on all GPUs (exact, ranks folded by symmetry);"
                    + " extrapolated: each candidate simulated on fewer of the same nodes and read at --nodes by its scaling"
                    + " law (healthy catalog clusters; error bound per law printed); auto: folded up to "
                    + PerfCommand.AUTO_FOLDED_MAX_GPUS + " GPUs, extrapolated beyond (default: ${DEFAULT-VALUE})"})
    SimMode simMode;
    @Mixin ProgressOption progressOption = new ProgressOption();

    enum SimMode { folded, extrapolated, auto }

    /** Whether {@code --sim-mode auto} fell back to folded (no candidate has a law at the target). */
    private boolean autoFolded;

    @Override
    public void setEnv(Map<String, String> env) { this.env = env; }

    @Override
    public void setSession(Main.Session session) { this.session = session; }

    /**
     * One candidate of one size: its time, µs, simulated, or read at the target by its scaling law
     * ({@code extrapolation}, null where simulated).
     */
    record Cell(String label, Algorithm algorithm, Protocol protocol, int channels, double timeUs,
                io.ccsim.algorithms.scale.Extrapolation extrapolation) {
        Cell(String label, Algorithm algorithm, Protocol protocol, int channels, double timeUs) {
            this(label, algorithm, protocol, channels, timeUs, null);
        }
    }

    record Line(long bytes, long ncclBytes, List<Cell> cells, String best, String nccl) {
        Cell bestCell() {
            for (Cell c : cells) if (c.label().equals(best)) return c;
            throw new IllegalStateException("no cell " + best);
        }
    }

    @Override
    public Integer call() {
        CollectiveOp cop;
        DataType dt;
        try {
            cop = CollectiveOp.parse(op);
            dt = sizeOptions.dataType();
        } catch (IllegalArgumentException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        if (jobs < 0) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--jobs: invalid " + jobs
                    + "; valid: 1 or more candidates at once, or 0 for one per processor");
        }
        long[] sizes = sizeOptions.sizes(null);
        if (chart != null) ChartFile.check("--chart", chart);
        int threads = jobs == 0 ? ParallelRuns.defaultThreads() : jobs;
        session.stoppable();
        NcclEnv nccl = SimSetup.ncclEnv(env);
        if (extrapolates()) {
            try {
                ExtrapolatedTune.Result x = new ExtrapolatedTune(this, session).run(cop, dt, sizes, nccl, threads);
                return output(cop, x.provenance(), x.profileLabel(), x.lines(), x.labels(), x.unavailable(), x,
                        x.stopped(), x.missing(), x.sizes());
            } catch (ExtrapolatedTune.NoLaw e) {
                if (simMode != SimMode.auto) {
                    throw new UserException("tune --sim-mode extrapolated: " + e.getMessage() + "; valid here:"
                            + " --sim-mode folded or auto", e);
                }
                spec.commandLine().getErr().println("ccsim: note: --sim-mode auto: " + e.getMessage() + "; every"
                        + " candidate is simulated folded");
                spec.commandLine().getErr().flush();
                autoFolded = true;
            }
        }
        Topology topo = whatIf.resolve(topology, gpus, nodes, seed, sharp,
                new TopologyArgs.Guard(session.control(), session.budget(), nccl.net(), threads, "", true,
                        cop == CollectiveOp.ALL_TO_ALL));
        CalibrationProfile prof = SimSetup.profile(profile, topo);
        if (sizes.length > 0) SimSetup.checkBuffers(topo, topo.gpus().size(), sizes[sizes.length - 1]);
        java.util.function.Supplier<PerfRunner> runners = () -> {
            PerfRunner r = new PerfRunner(topo, topo.gpus().size(), prof, nccl, seed);
            r.setRunControl(session.control());
            return r;
        };
        PerfRunner runner = runners.get();
        List<Sized> todo = sized(runner, cop, dt, sizes);
        if (todo.isEmpty()) throw SimSetup.nothingToRun(sizeOptions.minBytes, sizeOptions.maxBytes, cop, dt, topo.gpus().size());
        String scale = scaleNote();
        if (scale != null) {
            spec.commandLine().getErr().println(scale);
            spec.commandLine().getErr().flush();
        }
        List<Plan> all = new ArrayList<>();
        for (Sized z : todo) all.addAll(z.plans());
        if (!all.isEmpty()) {
            session.budget().check("tune " + cop.cliName(), k -> RunBudget.plans(topo, all, k, true), Math.min(threads, all.size()),
                    nodes);
            for (Sized z : todo) {   // its runs fold ranks as perf's do
                for (Plan p : z.plans()) {
                    PerfSizes.checkFoldingReads(what(cop, z.size(), p), p, nodes);
                }
            }
        }
        Progress progress = progressOption.open(spec.commandLine().getErr(), session);
        // every candidate of every size is its own simulation: both cores work on one size's candidates
        List<Job> sims = new ArrayList<>();
        for (int i = 0; i < todo.size(); i++) {
            for (int k = 0; k < todo.get(i).plans().size(); k++) sims.add(new Job(i, k));
        }
        // sizes in order, a size's plans with the most steps first: a rough proxy for their cost (a ring has the most
        // but folds to a few workers and ends at once), which at 1,024 GPUs starts NVLSTree, the longest, seconds earlier
        // than NCCL's candidate order (10.5-11.5 s wall against 13.0-13.9, alternated)
        sims.sort(java.util.Comparator.comparingInt(Job::size)
                .thenComparingLong(j -> -j.plan(todo).totalSteps()));
        long[] work = new long[sims.size()];
        for (int j = 0; j < work.length; j++) {
            work[j] = progress.enabled() ? sims.get(j).plan(todo).totalSteps() : 1;
        }
        Sweep<Job, Cell> sweep = new Sweep<>(sims, work, j -> {
            Job job = sims.get(j);
            Sized z = todo.get(job.size());
            return String.format(Locale.ROOT, "tune %s %s (%d/%d) %s", cop.cliName(), Sizes.human(z.size()), job.size() + 1,
                    todo.size(), z.result().candidates().get(job.candidate()).label());
        }, progress, session.control());
        final CollectiveOp fop = cop;
        final DataType fdt = dt;
        List<Cell> cells;
        try {
            int concurrent = Math.max(1, Math.min(threads, sims.size()));
            cells = sweep.run(runners, threads, (r, job, part) -> {
                Sized z = todo.get(job.size());
                r.setFoldedCheck(session.budget().foldedCheck(topo, p -> what(fop, z.size(), p), concurrent, nodes));
                return simulate(r, z, job.candidate(), fop, fdt);
            });
        } catch (io.ccsim.algorithms.perf.StalledRunException e) {
            throw whatIf.stalled(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserException("tune: interrupted", e);
        }
        List<Line> tuned = lines(todo, sims, cells);
        List<Line> lines = new ArrayList<>();
        Set<String> labels = new LinkedHashSet<>();
        List<Unavailable> unavailable = List.of();
        List<Long> missing = new ArrayList<>();
        for (int i = 0; i < tuned.size(); i++) {
            Line t = tuned.get(i);
            if (t == null) {
                missing.add(todo.get(i).size());
                continue;
            }
            lines.add(t);
            for (Cell c : t.cells()) labels.add(c.label());
            unavailable = todo.get(i).result().unavailable();
        }
        return output(cop, Provenance.of(profile, prof, topo, runner.graph(), seed),
                SimSetup.profileLabel(profile, runner.tuner().profile()), lines, new ArrayList<>(labels), unavailable,
                null, sweep.stopped(), missing, todo.size());
    }

    /**
     * Prints the table of {@code lines} (and writes the tuner config and chart asked for), with what the extrapolation
     * {@code x} found (null where simulated); the exit code: 0, or the stop's where {@code stopped} left {@code missing}
     * of {@code sizes} sizes undone.
     */
    private int output(CollectiveOp cop, Provenance provenance, String profileLabel, List<Line> lines, List<String> labels,
                       List<Unavailable> unavailable, ExtrapolatedTune.Result x, RunStoppedException stopped,
                       List<Long> missing, int sizes) {
        List<String[]> crossovers = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            Line a = lines.get(i - 1);
            Line b = lines.get(i);
            if (!a.best().equals(b.best())) crossovers.add(new String[] {a.best(), b.best(), Long.toString(a.bytes()), Long.toString(b.bytes())});
        }
        String note = stopped == null ? null : "by " + stopped.reason() + ": " + PerfCommand.notDone("sizes", sizes, missing);
        PrintWriter out = spec.commandLine().getOut();
        if (tunerConfig != null && !lines.isEmpty()) writeTunerConfig(cop, provenance, profileLabel, lines);
        if (format == Format.csv) printCsv(out, lines, labels, provenance, x != null);
        else if (format == Format.json) printJson(out, cop, provenance, whatIf.lines(), lines, crossovers, x);
        else printText(out, cop, provenance, profileLabel, lines, labels, crossovers, unavailable);
        if (format == Format.text && x != null) ExtrapolatedTune.footer(x).forEach(out::println);
        if (note != null && format == Format.text) out.println("# interrupted " + note);
        if (chart != null && !lines.isEmpty()) {
            int n = provenance.nodes();
            String title = cop.cliName() + " crossover map on " + provenance.topology() + ": " + provenance.ranks()
                    + " ranks, " + n + (n == 1 ? " node, " : " nodes, ") + "profile " + profileLabel;
            ChartFile.Written w = CrossoverChart.write(chart, title, lines, labels);
            if (format == Format.text) out.printf(Locale.ROOT, "# chart: %s (%s)%n", chart, w.describe());
        }
        out.flush();
        if (stopped == null) return 0;
        PrintWriter err = spec.commandLine().getErr();
        err.println("ccsim: tune stopped " + note);
        err.flush();
        return StopSignals.exitCode(stopped.reason());
    }

    /**
     * Whether the candidates are extrapolated: {@code --sim-mode extrapolated}, or {@code auto} on a healthy catalog
     * cluster of more than {@link PerfCommand#AUTO_FOLDED_MAX_GPUS} GPUs (counted without building it), as perf's auto.
     */
    private boolean extrapolates() {
        if (autoFolded) return false;
        if (simMode == SimMode.extrapolated) return true;
        return simMode == SimMode.auto && TopologyArgs.isCatalog(topology) && nodes >= 2 && whatIf.degrade.isEmpty()
                && whatIf.down.isEmpty() && PerfCommand.beyondAutoFolded(topology, catalogOptions());
    }

    /** The build options of this run's catalog cluster (to count its GPUs without building it). */
    private io.ccsim.topology.BuildOptions catalogOptions() {
        return new io.ccsim.topology.BuildOptions(gpus, nodes, whatIf.oversubscription, seed, whatIf.nicsPerNode, sharp);
    }

    /**
     * For a healthy catalog cluster beyond {@link PerfCommand#AUTO_FOLDED_MAX_GPUS} GPUs (counted without building it)
     * tuned folded by default (no {@code --sim-mode}): the note that every candidate is simulated folded, which may take
     * long, and that {@code --sim-mode auto} reads each from fewer nodes; null otherwise.
     */
    private String scaleNote() {
        io.ccsim.topology.BuildOptions options = catalogOptions();
        if (spec.commandLine().getParseResult().hasMatchedOption("--sim-mode") || !whatIf.degrade.isEmpty()
                || !whatIf.down.isEmpty() || !PerfCommand.beyondAutoFolded(topology, options)) {
            return null;
        }
        long total = PerfCommand.catalogGpus(topology, options);
        return String.format(Locale.ROOT, "ccsim: note: tune simulates every candidate on all %,d GPUs folded (exact), which"
                + " may take long where ranks do not fold (trees, chains); --sim-mode auto reads each candidate that has a"
                + " scaling law from fewer nodes in seconds", total);
    }

    /** One size of the table: its nccl-tests size and per-rank count, NCCL's candidates, the plan of each, their steps. */
    record Sized(long size, long count, TuneResult result, List<Plan> plans) { }

    /**
     * The sizes nccl-tests runs (one element per rank at least), each tuned and its candidates planned (cheap: plans
     * generate their steps), so that the run can be refused before it starts and its progress weighed.
     */
    private static List<Sized> sized(PerfRunner runner, CollectiveOp cop, DataType dt, long[] sizes) {
        List<Sized> out = new ArrayList<>();
        for (long s : sizes) {
            long count = runner.countFor(cop, s, dt);
            if (count == 0 && s != 0) continue;
            long size = runner.sizeFor(cop, count, dt);
            TuneResult tr;
            try {
                tr = runner.tune(cop, size);
            } catch (TunerException e) {
                throw new UserException(e.getMessage(), e);
            }
            List<Plan> plans = new ArrayList<>();
            for (Candidate c : tr.candidates()) {
                plans.add(runner.plan(cop, count, dt, ReduceOp.SUM, 0, c.algorithm(), c.protocol(), c.channels()));
            }
            out.add(new Sized(size, count, tr, plans));
        }
        return out;
    }

    /** Candidate {@code candidate} of size {@code size}: one simulation of the tune. */
    record Job(int size, int candidate) {
        /** This job's plan among {@code todo}'s. */
        Plan plan(List<Sized> todo) {
            return todo.get(size).plans().get(candidate);
        }
    }

    /** {@code tune all_reduce at 1073741824 B (Tree/Simple x16)}: one simulation of the tune, for refusals. */
    private static String what(CollectiveOp cop, long size, Plan plan) {
        return "tune " + cop.cliName() + " at " + size + " B (" + plan.label() + ")";
    }

    /** Candidate {@code k} of {@code z} simulated at NCCL's channel count. */
    private static Cell simulate(PerfRunner runner, Sized z, int k, CollectiveOp cop, DataType dt) {
        Candidate c = z.result().candidates().get(k);
        PerfRow r = runner.simulate(cop, z.count(), dt, ReduceOp.SUM, 0, c.algorithm(), c.protocol(), c.channels());
        return new Cell(c.label(), c.algorithm(), c.protocol(), c.channels(), r.timeUs());
    }

    /**
     * One line per size in order, from the cells of {@code jobs} (in any order): its candidates in order, the fastest
     * the first of the least time; null for a size a stop left a cell of undone.
     */
    private static List<Line> lines(List<Sized> todo, List<Job> jobs, List<Cell> cells) {
        List<Cell[]> bySize = new ArrayList<>();
        for (Sized z : todo) bySize.add(new Cell[z.plans().size()]);
        for (int j = 0; j < jobs.size(); j++) bySize.get(jobs.get(j).size())[jobs.get(j).candidate()] = cells.get(j);
        List<Line> out = new ArrayList<>();
        for (int i = 0; i < todo.size(); i++) {
            List<Cell> line = java.util.Arrays.asList(bySize.get(i));
            Cell best = null;
            for (Cell cell : line) {
                if (cell == null) {
                    best = null;
                    break;
                }
                if (best == null || cell.timeUs() < best.timeUs()) best = cell;
            }
            Sized z = todo.get(i);
            out.add(best == null ? null : new Line(z.size(), z.result().input().bytes(), line, best.label(),
                    z.result().winner().label()));
        }
        return out;
    }

    private void printText(PrintWriter out, CollectiveOp cop, Provenance provenance, String profileLabel,
                           List<Line> lines, List<String> labels, List<String[]> crossovers, List<Unavailable> unavailable) {
        out.printf(Locale.ROOT, "# ccsim tune: %s on %s (%d ranks, %d node(s)); %s time in us at NCCL's channel count per candidate%n",
                cop.cliName(), provenance.topology(), provenance.ranks(), provenance.nodes(),
                extrapolates() ? "extrapolated" : "simulated");
        out.println("# provenance: " + provenance.text());
        out.printf(Locale.ROOT, "# profile %s; NCCL %s model%n", profileLabel, CalibrationProfile.NCCL_VERSION);
        for (String line : SimSetup.ncclEnvLines(env)) out.println(line);
        for (String line : whatIf.header()) out.println(line);
        out.println("# '*' marks the fastest; 'nccl' is what NCCL's cost model (the tuner) picks by default");
        StringBuilder h = new StringBuilder(String.format(Locale.ROOT, "#%11s", "size"));
        // each candidate's column as wide as its label (CollnetDirect/Simple), 14 at least; the picks' as the longest
        int pw = 12;
        for (Line line : lines) pw = Math.max(pw, Math.max(line.best().length(), line.nccl().length()));
        String picks = "  %-" + pw + "s  %-" + pw + "s  %s";
        for (String l : labels) h.append(String.format(Locale.ROOT, "  %" + Math.max(14, l.length()) + "s", l));
        h.append(String.format(Locale.ROOT, picks, "fastest", "nccl", "nccl/fastest"));
        out.println(h);
        for (Line line : lines) {
            StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%12d", line.bytes()));
            double bestT = Double.MAX_VALUE;
            double ncclT = Double.NaN;
            for (Cell c : line.cells()) {
                bestT = Math.min(bestT, c.timeUs());
                if (c.label().equals(line.nccl())) ncclT = c.timeUs();
            }
            for (String l : labels) {
                Cell c = line.cells().stream().filter(x -> x.label().equals(l)).findFirst().orElse(null);
                int w = Math.max(14, l.length());
                if (c == null) sb.append(String.format(Locale.ROOT, "  %" + w + "s", "-"));
                else sb.append(String.format(Locale.ROOT, "  %" + (w - 5) + ".2f%s(%2d)", c.timeUs(),
                        c.label().equals(line.best()) ? "*" : " ", c.channels()));
            }
            sb.append(String.format(Locale.ROOT, picks, line.best(), line.nccl(),
                    Double.isNaN(ncclT) ? "-" : String.format(Locale.ROOT, "%.2fx", ncclT / bestT)));
            out.println(sb);
        }
        out.println("# crossovers (fastest changes):");
        if (crossovers.isEmpty()) out.println("#   none in this range");
        for (String[] c : crossovers) out.printf(Locale.ROOT, "#   %s -> %s between %s and %s bytes%n", c[0], c[1], c[2], c[3]);
        if (!unavailable.isEmpty()) {
            out.println("# not candidates:");
            for (Unavailable u : unavailable) out.println("#   " + u.label() + ": " + u.reason());
        }
    }

    /** The fastest choice of every size, as NCCL's example tuner plugin reads it ({@link TunerConfigWriter}). */
    private void writeTunerConfig(CollectiveOp cop, Provenance provenance, String profileLabel, List<Line> lines) {
        List<TunerConfigWriter.Choice> choices = new ArrayList<>();
        for (Line l : lines) {
            Cell b = l.bestCell();
            choices.add(new TunerConfigWriter.Choice(l.ncclBytes(), b.algorithm(), b.protocol(), b.channels()));
        }
        String text;
        try {
            List<String> comments = new ArrayList<>(List.of(
                    "ccsim tune --op " + cop.cliName() + " on " + provenance.topology() + " ("
                            + provenance.ranks() + " ranks, " + provenance.nodes() + " node(s)), profile "
                            + profileLabel + ", NCCL " + CalibrationProfile.NCCL_VERSION + " model",
                    "the fastest " + (extrapolates() ? "extrapolated" : "simulated")
                            + " algorithm/protocol/channels per size; sizes are NCCL's nBytes (all-gather,"
                            + " reduce-scatter: the whole buffer)",
                    "NCCL's example tuner plugin (ext-tuner/example): NCCL_TUNER_PLUGIN=<its .so>"
                            + " NCCL_TUNER_CONFIG_FILE=<this file>",
                    "provenance: " + provenance.text()));
            for (String w : whatIf.lines()) comments.add("what-if: " + w);
            text = TunerConfigWriter.write(cop, provenance.nodes(), provenance.ranks(), choices, comments);
        } catch (IllegalArgumentException e) {
            throw new UserException("--tuner-config: " + e.getMessage(), e);
        }
        try {
            java.nio.file.Files.writeString(tunerConfig, text);
        } catch (java.io.IOException e) {
            throw new UserException("--tuner-config " + tunerConfig + ": cannot write it ("
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + ")", e);
        }
    }

    /**
     * One CSV row per size: its time and channel count per candidate (empty where not a candidate), the picks, then
     * the {@link Provenance} columns.
     */
    private static void printCsv(PrintWriter out, List<Line> lines, List<String> labels, Provenance provenance,
                                 boolean extrapolated) {
        StringBuilder h = new StringBuilder("size");
        for (String l : labels) {
            h.append(',').append(l).append("_time_us,").append(l).append("_channels");
            if (extrapolated) h.append(',').append(l).append("_law,").append(l).append("_error_bound_pct");
        }
        out.println(h.append(",fastest,nccl,").append(String.join(",", Provenance.COLUMNS)));
        String prov = csvFields(provenance.csvValues());
        for (Line line : lines) {
            StringBuilder sb = new StringBuilder(Long.toString(line.bytes()));
            for (String l : labels) {
                Cell c = line.cells().stream().filter(x -> x.label().equals(l)).findFirst().orElse(null);
                if (c == null) sb.append(extrapolated ? ",,,," : ",,");
                else sb.append(String.format(Locale.ROOT, ",%.3f,%d", c.timeUs(), c.channels()));
                if (c != null && extrapolated) {
                    sb.append(String.format(Locale.ROOT, ",%s,%.2f", c.extrapolation().law().name(),
                            c.extrapolation().errorBoundPct()));
                }
            }
            out.println(sb.append(',').append(line.best()).append(',').append(line.nccl()).append(',').append(prov));
        }
    }

    /** RFC 4180 fields: a value with a comma or a quote quoted, its quotes doubled. */
    private static String csvFields(List<String> values) {
        StringBuilder sb = new StringBuilder();
        for (String v : values) {
            if (sb.length() > 0) sb.append(',');
            sb.append(v.indexOf(',') >= 0 || v.indexOf('"') >= 0 ? '"' + v.replace("\"", "\"\"") + '"' : v);
        }
        return sb.toString();
    }

    private static void printJson(PrintWriter out, CollectiveOp cop, Provenance provenance, List<String> whatIf, List<Line> lines,
                                  List<String[]> crossovers, ExtrapolatedTune.Result x) {
        JsonObject root = new JsonObject();
        root.add("provenance", provenance.toJson());
        root.addProperty("sim_mode", x == null ? "folded" : "extrapolated");
        root.addProperty("op", cop.cliName());
        root.addProperty("topology", provenance.topology());
        if (!whatIf.isEmpty()) {
            JsonArray w = new JsonArray();
            whatIf.forEach(w::add);
            root.add("what_if", w);
        }
        JsonArray rows = new JsonArray();
        for (Line l : lines) {
            JsonObject o = new JsonObject();
            o.addProperty("bytes", l.bytes());
            JsonArray cand = new JsonArray();
            for (Cell c : l.cells()) {
                JsonObject co = new JsonObject();
                String[] ap = c.label().split("/");
                co.addProperty("algo", ap[0]);
                co.addProperty("proto", ap[1]);
                co.addProperty("channels", c.channels());
                co.addProperty("time_us", PerfRowFormats.round(c.timeUs(), 3));
                if (c.extrapolation() != null) {
                    co.addProperty("law", c.extrapolation().law().name());
                    co.addProperty("error_bound_pct", c.extrapolation().errorBoundPct());
                }
                cand.add(co);
            }
            o.add("candidates", cand);
            o.addProperty("fastest", l.best());
            o.addProperty("nccl_default", l.nccl());
            rows.add(o);
        }
        root.add("sizes", rows);
        JsonArray xs = new JsonArray();
        for (String[] c : crossovers) {
            JsonObject o = new JsonObject();
            o.addProperty("from", c[0]);
            o.addProperty("to", c[1]);
            o.addProperty("last_bytes_of_from", Long.parseLong(c[2]));
            o.addProperty("first_bytes_of_to", Long.parseLong(c[3]));
            xs.add(o);
        }
        root.add("crossovers", xs);
        if (x != null) {
            JsonArray refused = new JsonArray();
            for (ExtrapolatedTune.Refused f : x.refused()) {
                JsonObject o = new JsonObject();
                o.addProperty("bytes", f.size());
                o.addProperty("algo", f.candidate().algorithm().ncclName());
                o.addProperty("proto", f.candidate().protocol().ncclName());
                o.addProperty("channels", f.candidate().channels());
                o.addProperty("reason", f.reason());
                refused.add(o);
            }
            root.add("not_extrapolated", refused);
            JsonArray close = new JsonArray();
            for (ExtrapolatedTune.Close c : ExtrapolatedTune.closeCalls(lines)) {
                JsonObject o = new JsonObject();
                o.addProperty("bytes", c.bytes());
                o.addProperty("fastest", c.best().label());
                o.addProperty("runner_up", c.next().label());
                o.addProperty("gap_pct", PerfRowFormats.round(c.gapPct(), 3));
                close.add(o);
            }
            root.add("fastest_within_error_bounds", close);
        }
        out.println(new GsonBuilder().setPrettyPrinting().create().toJson(root));
    }
}
