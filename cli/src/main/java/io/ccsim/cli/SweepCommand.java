package io.ccsim.cli;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import io.ccsim.algorithms.perf.ParallelRuns;
import io.ccsim.sim.RunStoppedException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ccsim sweep}: a study, one {@code perf} row per point of a grid (or a sample of it) over topologies, what-ifs,
 * NCCL variables, ops, sizes, dtypes and seeds, described by a study file ({@link SweepSpec}) or, for a simple grid,
 * by flags (comma-separated values). Points run in parallel on this machine's processors ({@link Sweep}), or on a
 * cluster ({@code --master}, {@link SweepCluster}). With {@code --out} every finished point is written at once, and
 * rerunning the same command resumes an interrupted sweep ({@link SweepOutput}); without it the rows go to stdout.
 */
@Command(name = "sweep", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Simulate every point of a study, one perf row per point.",
                "A study is a grid (or a seeded sample) over topologies and their options,",
                "what-ifs, NCCL variables, ops, sizes, dtypes and seeds; each row carries its",
                "provenance. SPEC is a JSON study file (docs/studies.md); without it, the",
                "flags describe a grid (comma-separated values). NCCL_* variables of the",
                "environment apply to every point, under the study's own \"env\". With --out,",
                "rows are written as points finish; rerun the same command to resume an",
                "interrupted sweep."})
final class SweepCommand implements Callable<Integer>, Main.NeedsEnv, Main.NeedsSession {
    @Spec CommandSpec spec;
    private Map<String, String> env = Map.of();
    private Main.Session session;

    @Parameters(index = "0", arity = "0..1", paramLabel = "SPEC", description = "study file: JSON, or YAML where the name ends in .yaml or .yml (docs/studies.md)")
    Path specFile;
    @Option(names = "--topology", paramLabel = "NAMES", description = "catalog names or topology files, comma-separated (required without SPEC)")
    String topology;
    @Option(names = "--gpus", paramLabel = "NS", description = "GPUs per board, e.g. 2,4,8 (default: the board's)")
    String gpus;
    @Option(names = "--nodes", paramLabel = "MS", description = "nodes, e.g. 1,2,4 (default: 1)")
    String nodes;
    @Option(names = "--nics-per-node", paramLabel = "KS", description = "NICs per board (default: the board's)")
    String nics;
    @Option(names = "--oversubscription", paramLabel = "XS", description = "fat-tree leaf down:up ratios, each >= 1 (default: 1)")
    String oversubscription;
    @Option(names = "--sharp", description = "SHARP-capable switches (needs nodes >= 2)")
    boolean sharp;
    @Option(names = "--op", paramLabel = "OPS", description = "collectives as perf --op names them, comma-separated, e.g. all_reduce,all_gather (required without SPEC)")
    String op;
    @Option(names = {"-b", "--minbytes"}, paramLabel = "SIZE", description = "smallest size in bytes, K/M/G suffixes (default: 8)")
    String minBytes;
    @Option(names = {"-e", "--maxbytes"}, paramLabel = "SIZE", description = "largest size in bytes, K/M/G suffixes (default: 128M)")
    String maxBytes;
    @Option(names = {"-f", "--stepfactor"}, paramLabel = "F", description = "multiply the size by F, an integer >= 2 (default: 2)")
    Long factor;
    @Option(names = {"-d", "--datatype"}, paramLabel = "TYPES", description = "nccl-tests type names (default: float)")
    String dtypes;
    @Option(names = "--seed", paramLabel = "SEEDS", description = "simulation seeds (default: 0)")
    String seeds;
    @Option(names = "--degrade", paramLabel = "LINK=FACTOR", description = "as perf, for every point; repeatable")
    List<String> degrade = new ArrayList<>();
    @Option(names = "--down", paramLabel = "LINK", description = "as perf, for every point; repeatable")
    List<String> down = new ArrayList<>();
    @Option(names = "--nic-gbps", paramLabel = "G", description = "as perf, for every point")
    Double nicGbps;
    @Option(names = "--nvlink-gbps", paramLabel = "G", description = "as perf, for every point")
    Double nvlinkGbps;
    @Option(names = "--routing", paramLabel = "ecmp|dmodk", description = "as perf, for every point (default: the fabric's)")
    String routing;
    @Option(names = "--sim-mode", paramLabel = "folded|full|extrapolated|auto", description = "as perf (default:"
            + " folded); extrapolated reads each point from fewer of its nodes, never building its cluster; auto"
            + " extrapolates beyond " + PerfCommand.AUTO_FOLDED_MAX_GPUS + " GPUs where a law serves (within 2 %% up to "
            + AutoAtTarget.MAX_GPUS + " GPUs), else folds")
    String simMode;
    @Option(names = "--out", paramLabel = "FILE", description = "write rows to FILE.csv or FILE.jsonl (repeatable;"
            + " FILE.parquet with --master); an existing file resumes the sweep it holds")
    List<Path> out = new ArrayList<>();
    @Option(names = "--format", defaultValue = "csv", paramLabel = "csv|jsonl",
            description = "rows on stdout when no --out (default: ${DEFAULT-VALUE})")
    String format;
    @Option(names = "--jobs", paramLabel = "N", defaultValue = "0",
            description = "points simulated at once (default: the machine's processors)")
    int jobs;
    @Option(names = "--master", paramLabel = "URL",
            description = "run on Apache Spark instead: spark://HOST:PORT or local[N] (./ccsim puts the spark module and Spark on the class path)")
    String master;
    @Option(names = "--dry-run", description = "print the number of points and their first row's setting, run nothing")
    boolean dryRun;
    @Option(names = "--chart", paramLabel = "FILE", description = "also draw busbw vs size into FILE, .png or .svg: one line"
            + " per setup (a point's setting but its size), the legend naming what differs; with --out, every row the"
            + " files hold")
    Path chart;
    @Mixin ProgressOption progressOption = new ProgressOption();

    @Override
    public void setEnv(Map<String, String> env) { this.env = env; }

    @Override
    public void setSession(Main.Session session) { this.session = session; }

    @Override
    public Integer call() {
        if (!"csv".equals(format) && !"jsonl".equals(format)) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--format: invalid '" + format + "'; valid: csv, jsonl");
        }
        if (jobs < 0) throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--jobs: invalid " + jobs + "; valid: >= 1, or 0 for one per processor");
        if (chart != null) ChartFile.check("--chart", chart);
        SweepSpec study = specFile != null ? fromFile() : SweepSpec.parse(SweepFlags.json(this).toString(), "(flags)");
        List<SweepPoint> points = withProcessEnv(SweepPlanner.points(study));
        PrintWriter err = spec.commandLine().getErr();
        if (dryRun) {
            spec.commandLine().getOut().println(points.size() + " points; first: " + points.get(0).toJson());
            return 0;
        }
        Path parquet = null;
        List<Path> files = new ArrayList<>();
        for (Path f : out) {
            if (f.toString().endsWith(".parquet")) {
                if (master == null) throw new UserException("--out " + f + ": Parquet is written by the Spark engine; valid without --master: FILE.csv, FILE.jsonl");
                parquet = f;
            } else {
                files.add(f);
            }
        }
        Set<String> ids = new HashSet<>();
        for (SweepPoint p : points) ids.add(p.id());
        SweepOutput output = files.isEmpty() ? null : SweepOutput.open(files, ids);
        List<SweepPoint> todo = new ArrayList<>();
        for (SweepPoint p : points) if (output == null || !output.done().contains(p.id())) todo.add(p);
        int before = points.size() - todo.size();
        List<String> rows = master != null ? cluster(todo, parquet) : local(todo, output);
        int finished = 0;
        for (String r : rows) if (r != null) finished++;
        if (master != null && output != null) for (String r : rows) output.append(r);
        boolean complete = finished == todo.size();
        if (output != null) output.finish(complete);
        else print(rows);
        err.printf("ccsim: sweep: %d points: %d simulated now, %d done before%s%n", points.size(), finished, before,
                complete ? "" : ", " + (todo.size() - finished) + " left");
        if (chart != null) {
            List<Map<String, String>> drawn = output != null ? SweepRows.valuesOf(files.get(0)) : SweepRows.values(rows);
            SweepChart.Summary c = SweepChart.write(chart, specFile != null ? specFile.getFileName().toString() : "(flags)", drawn);
            err.printf("ccsim: sweep: chart %s (%s)%n", chart, c.describe());
        }
        err.flush();
        if (complete) return 0;
        String reason = lastStop != null ? lastStop.reason() : session.control().stopReason();
        err.println("ccsim: sweep stopped by " + reason + ": the finished rows are kept"
                + (output == null ? "" : "; rerun the same command to finish the other points"));
        err.flush();
        return StopSignals.exitCode(reason);
    }

    private RunStoppedException lastStop;

    private SweepSpec fromFile() {
        if (SweepFlags.any(this)) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "give a study file or the grid flags"
                    + " (--topology, --op, ...), not both; put every axis in " + specFile);
        }
        return SweepSpec.parse(TopologyArgs.readText(specFile, "study file"), specFile.toString());
    }

    /** The points with the process's NCCL_* variables under each point's own. */
    private List<SweepPoint> withProcessEnv(List<SweepPoint> points) {
        Map<String, String> base = new java.util.TreeMap<>();
        env.forEach((k, v) -> { if (k.startsWith("NCCL_")) base.put(k, v); });
        if (base.isEmpty()) return points;
        List<SweepPoint> out = new ArrayList<>(points.size());
        for (SweepPoint p : points) {
            Map<String, String> e = new java.util.TreeMap<>(base);
            e.putAll(p.env());
            out.add(new SweepPoint(p.index(), p.topology(), p.gpus(), p.nodes(), p.nicsPerNode(), p.oversubscription(), p.sharp(),
                    p.degrade(), p.down(), p.nicGbps(), p.nvlinkGbps(), p.routing(), p.op(), p.dtype(), p.bytes(), e, p.seed(), p.simMode()));
        }
        return out;
    }

    /** Simulates {@code todo} on this machine, each row appended to {@code output} as it finishes; null rows: stopped. */
    private List<String> local(List<SweepPoint> todo, SweepOutput output) {
        int threads = jobs == 0 ? ParallelRuns.defaultThreads() : jobs;
        session.stoppable();
        Progress progress = progressOption.open(spec.commandLine().getErr(), session);
        long[] work = new long[todo.size()];
        java.util.Arrays.fill(work, 1);
        Sweep<SweepPoint, String> sweep = new Sweep<>(todo, work, i -> "sweep point " + todo.get(i).index() + " ("
                + (i + 1) + "/" + todo.size() + ")", progress, session.control());
        ThreadLocal<SweepEngine> engines = ThreadLocal.withInitial(() -> new SweepEngine(session.control(),
                session.maxHeapBytes()));
        try {
            List<String> rows = sweep.run(() -> null, threads, (unused, p, part) -> {
                SweepEngine e = engines.get();
                part.runner(e.runnerFor(p));
                String row = e.row(p);
                if (output != null) output.append(row);
                return row;
            });
            lastStop = sweep.stopped();
            return rows;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserException("sweep: interrupted", e);
        }
    }

    private List<String> cluster(List<SweepPoint> todo, Path parquet) {
        for (SweepCluster c : ServiceLoader.load(SweepCluster.class)) return c.run(master, todo, parquet);
        throw new UserException("--master " + master + ": no cluster engine on the class path; valid: run with the"
                + " spark module and Spark's jars on the class path (./ccsim does it; by hand: docs/studies.md), or leave --master out to run here");
    }

    private void print(List<String> rows) {
        PrintWriter o = spec.commandLine().getOut();
        if ("csv".equals(format)) o.println(SweepRows.csvHeader());
        for (String r : rows) if (r != null) o.println("csv".equals(format) ? SweepRows.csvLine(r) : r);
        o.flush();
    }

    /** The grid flags as a study object (see {@link SweepSpec}). */
    static final class SweepFlags {
        private SweepFlags() {}

        static boolean any(SweepCommand c) {
            return c.topology != null || c.gpus != null || c.nodes != null || c.nics != null || c.oversubscription != null
                    || c.sharp || c.op != null || c.minBytes != null || c.maxBytes != null || c.factor != null
                    || c.dtypes != null || c.seeds != null || !c.degrade.isEmpty() || !c.down.isEmpty() || c.nicGbps != null
                    || c.nvlinkGbps != null || c.routing != null || c.simMode != null;
        }

        static JsonObject json(SweepCommand c) {
            if (c.topology == null || c.op == null) {
                throw new picocli.CommandLine.ParameterException(c.spec.commandLine(), "give a study file SPEC, or at least"
                        + " --topology and --op");
            }
            JsonObject o = new JsonObject();
            o.add("topology", list(c.topology, false));
            if (c.gpus != null) o.add("gpus", list(c.gpus, true));
            if (c.nodes != null) o.add("nodes", list(c.nodes, true));
            if (c.nics != null) o.add("nics_per_node", list(c.nics, true));
            if (c.oversubscription != null) o.add("oversubscription", list(c.oversubscription, true));
            if (c.sharp) o.addProperty("sharp", true);
            o.add("ops", list(c.op, false));
            JsonObject sizes = new JsonObject();
            sizes.addProperty("min", c.minBytes == null ? "8" : c.minBytes);
            sizes.addProperty("max", c.maxBytes == null ? "128M" : c.maxBytes);
            sizes.addProperty("factor", c.factor == null ? 2 : c.factor);
            o.add("sizes", sizes);
            if (c.dtypes != null) o.add("dtypes", list(c.dtypes, false));
            if (c.seeds != null) o.add("seeds", list(c.seeds, true));
            if (c.simMode != null) o.add("sim_mode", list(c.simMode, false));
            JsonObject w = new JsonObject();
            if (!c.degrade.isEmpty()) w.add("degrade", strings(c.degrade));
            if (!c.down.isEmpty()) w.add("down", strings(c.down));
            if (c.nicGbps != null) w.addProperty("nic_gbps", c.nicGbps);
            if (c.nvlinkGbps != null) w.addProperty("nvlink_gbps", c.nvlinkGbps);
            if (c.routing != null) w.addProperty("routing", c.routing);
            JsonArray ws = new JsonArray();
            ws.add(w);
            o.add("what_if", ws);
            return o;
        }

        private static JsonArray list(String csv, boolean numbers) {
            JsonArray a = new JsonArray();
            for (String s : csv.split(",")) {
                String t = s.strip();
                if (numbers && t.matches("-?\\d+(\\.\\d+)?")) a.add(new JsonPrimitive(new java.math.BigDecimal(t)));
                else a.add(t);
            }
            return a;
        }

        private static JsonArray strings(List<String> xs) {
            JsonArray a = new JsonArray();
            xs.forEach(a::add);
            return a;
        }
    }
}
