package io.ccsim.cli;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.perf.PerfRow;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.tuner.Candidate;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.algorithms.tuner.TuneResult;
import io.ccsim.algorithms.tuner.TunerException;
import io.ccsim.algorithms.tuner.Unavailable;
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
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.sim.RunStoppedException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code ccsim tune}: for each size, the simulated time of every allowed (algorithm, protocol) at the
 * channel count NCCL would use for it, the fastest marked, NCCL's own pick (its cost model) beside it, and
 * the crossover sizes where the fastest changes — the table to set NCCL_ALGO/NCCL_PROTO or write a tuner
 * plugin from.
 */
@Command(name = "tune", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Crossover tuning: simulated time of every allowed algorithm/protocol per size, the winner,",
                "NCCL's default pick, and the sizes where the winner changes. NCCL_* variables restrict the candidates."})
final class TuneCommand implements Callable<Integer>, Main.NeedsEnv, Main.NeedsSession {
    enum Format { text, json }

    @Spec CommandSpec spec;
    private Map<String, String> env = Map.of();
    private Main.Session session;
    @Mixin ProgressOption progressOption = new ProgressOption();

    @Option(names = "--topology", required = true, paramLabel = "NAME|FILE") String topology;
    @Option(names = "--gpus", paramLabel = "N") int gpus;
    @Option(names = "--nodes", paramLabel = "M", defaultValue = "1") int nodes;
    @Option(names = "--oversubscription", paramLabel = "X", defaultValue = "1.0") double oversubscription;
    @Option(names = "--nics-per-node", paramLabel = "K", defaultValue = "0",
            description = "network NICs per board, e.g. 4 for 8 GPUs (default: the board's, one per GPU on HGX)")
    int nicsPerNode;
    @Option(names = "--sharp", description = "SHARP-capable leaf and spine switches (NVIDIA Quantum-2 SHARPv3), for CollNet;"
            + " needs --nodes >= 2")
    boolean sharp;
    @Option(names = "--profile", paramLabel = "FILE") Path profile;
    @Option(names = "--op", required = true, paramLabel = "OP") String op;
    @Option(names = {"-b", "--minbytes"}, defaultValue = "8", paramLabel = "SIZE") String minBytes;
    @Option(names = {"-e", "--maxbytes"}, defaultValue = "128M", paramLabel = "SIZE") String maxBytes;
    @Option(names = {"-f", "--stepfactor"}, paramLabel = "F") Long factor;
    @Option(names = {"-d", "--datatype"}, defaultValue = "float", paramLabel = "TYPE") String dtype;
    @Option(names = "--format", defaultValue = "text") Format format;
    @Option(names = "--seed", defaultValue = "0") long seed;

    @Override
    public void setEnv(Map<String, String> env) { this.env = env; }

    @Override
    public void setSession(Main.Session session) { this.session = session; }

    record Cell(String label, int channels, double timeUs) { }

    record Line(long bytes, List<Cell> cells, String best, String nccl) { }

    @Override
    public Integer call() {
        CollectiveOp cop;
        DataType dt;
        try {
            cop = CollectiveOp.parse(op);
            dt = DataType.parse(dtype);
        } catch (IllegalArgumentException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        long[] sizes = SimSetup.sizes(Sizes.parse("-b", minBytes), Sizes.parse("-e", maxBytes), factor, null);
        NcclEnv nccl = SimSetup.ncclEnv(env);
        Topology topo = TopologyArgs.resolve(topology, gpus, nodes, oversubscription, seed, nicsPerNode, sharp,
                new TopologyArgs.Guard(session.control(), session.budget(), nccl.net()));
        CalibrationProfile prof = SimSetup.profile(profile, topo);
        PerfRunner runner = new PerfRunner(topo, topo.gpus().size(), prof, nccl, seed);
        runner.setRunControl(session.control());
        List<Sweep> sweeps = sweeps(runner, cop, dt, sizes);
        RunBudget.Need worst = null;
        String worstWhat = "";
        for (Sweep w : sweeps) {
            for (int k = 0; k < w.plans().size(); k++) {
                RunBudget.Need need = RunBudget.plan(topo, w.plans().get(k));
                if (worst == null || need.heapBytes() > worst.heapBytes()) {
                    worst = need;
                    worstWhat = "tune " + cop.cliName() + " at " + w.size() + " B (" + w.result().candidates().get(k).label() + ")";
                }
            }
        }
        if (worst != null) session.budget().check(worstWhat, worst, nodes);
        List<Line> lines = new ArrayList<>();
        Set<String> labels = new LinkedHashSet<>();
        RunStoppedException stopped = simulate(runner, cop, dt, sweeps, lines, labels);
        List<Unavailable> unavailable = lines.isEmpty() ? List.of() : sweeps.get(lines.size() - 1).result().unavailable();
        List<String[]> crossovers = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            Line a = lines.get(i - 1);
            Line b = lines.get(i);
            if (!a.best().equals(b.best())) crossovers.add(new String[] {a.best(), b.best(), Long.toString(a.bytes()), Long.toString(b.bytes())});
        }
        PrintWriter out = spec.commandLine().getOut();
        if (format == Format.json) printJson(out, cop, topo, lines, crossovers);
        else printText(out, cop, topo, runner, lines, new ArrayList<>(labels), crossovers, unavailable);
        if (stopped != null && format != Format.json) {
            out.printf(Locale.ROOT, "# interrupted by %s at size %d: the %d sizes above are complete%n", stopped.reason(),
                    sweeps.get(lines.size()).size(), lines.size());
        }
        out.flush();
        if (stopped == null) return 0;
        PrintWriter err = spec.commandLine().getErr();
        err.printf(Locale.ROOT, "ccsim: tune stopped by %s at size %d B; the %d sizes before it are complete%n", stopped.reason(),
                sweeps.get(lines.size()).size(), lines.size());
        err.flush();
        return StopSignals.exitCode(stopped.reason());
    }

    /** One size of the sweep: its nccl-tests size and per-rank count, NCCL's candidates and the plan of each. */
    record Sweep(long size, long count, TuneResult result, List<Plan> plans) { }

    /** The sizes nccl-tests runs (one element per rank at least), each with its candidates planned (planning is cheap). */
    private static List<Sweep> sweeps(PerfRunner runner, CollectiveOp cop, DataType dt, long[] sizes) {
        List<Sweep> out = new ArrayList<>();
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
            out.add(new Sweep(size, count, tr, plans));
        }
        return out;
    }

    /**
     * Simulates every candidate of every size in order into {@code lines}, with progress; returns the stop request that
     * ended it early (the sizes done so far are in {@code lines}), or null.
     */
    private RunStoppedException simulate(PerfRunner runner, CollectiveOp cop, DataType dt, List<Sweep> sweeps, List<Line> lines,
                                         Set<String> labels) {
        Progress progress = progressOption.open(spec.commandLine().getErr(), session);
        List<Long> work = new ArrayList<>();
        for (Sweep w : sweeps) for (Plan p : w.plans()) work.add(progress.enabled() ? p.totalSteps() : 1);
        Progress.Items items = new Progress.Items(work.stream().mapToLong(Long::longValue).toArray());
        int[] item = {0};
        String[] what = {""};
        session.control().setWatcher(sim -> {
            if (!progress.due()) return;
            double f = runner.runningFraction();
            progress.show(what[0] + String.format(Locale.ROOT, ": %.0f %%", 100 * f), items.fraction(item[0], f));
        });
        try {
            for (int i = 0; i < sweeps.size(); i++) {
                Sweep w = sweeps.get(i);
                List<Cell> cells = new ArrayList<>();
                Cell best = null;
                for (Candidate c : w.result().candidates()) {
                    what[0] = String.format(Locale.ROOT, "tune %s %s (%d/%d) %s x%d", cop.cliName(), Sizes.human(w.size()), i + 1,
                            sweeps.size(), c.label(), c.channels());
                    progress.show(what[0], items.fraction(item[0], 0));
                    PerfRow r = runner.simulate(cop, w.count(), dt, ReduceOp.SUM, 0, c.algorithm(), c.protocol(), c.channels());
                    item[0]++;
                    Cell cell = new Cell(c.label(), c.channels(), r.timeUs());
                    cells.add(cell);
                    if (best == null || cell.timeUs() < best.timeUs()) best = cell;
                }
                for (Cell c : cells) labels.add(c.label());
                lines.add(new Line(w.size(), cells, best.label(), w.result().winner().label()));
            }
            return null;
        } catch (RunStoppedException e) {
            return e;
        } finally {
            session.control().setWatcher(null);
            progress.clear();
        }
    }

    private void printText(PrintWriter out, CollectiveOp cop, Topology topo, PerfRunner runner, List<Line> lines,
                                  List<String> labels, List<String[]> crossovers, List<Unavailable> unavailable) {
        out.printf(Locale.ROOT, "# ccsim tune: %s on %s (%d ranks, %d node(s)); simulated time in us at NCCL's channel count per candidate%n",
                cop.cliName(), topo.name(), runner.graph().nRanks(), runner.graph().nNodes());
        out.printf(Locale.ROOT, "# profile %s; NCCL %s model%n", SimSetup.profileLabel(profile, runner.tuner().profile()),
                CalibrationProfile.NCCL_VERSION);
        for (String line : SimSetup.ncclEnvLines(env)) out.println(line);
        out.println("# '*' marks the fastest; 'nccl' is what NCCL's cost model (the tuner) picks by default");
        StringBuilder h = new StringBuilder(String.format(Locale.ROOT, "#%11s", "size"));
        for (String l : labels) h.append(String.format(Locale.ROOT, "  %14s", l));
        h.append(String.format(Locale.ROOT, "  %-12s  %-12s  %s", "fastest", "nccl", "nccl/fastest"));
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
                if (c == null) sb.append(String.format(Locale.ROOT, "  %14s", "-"));
                else sb.append(String.format(Locale.ROOT, "  %9.2f%s(%2d)", c.timeUs(), c.label().equals(line.best()) ? "*" : " ", c.channels()));
            }
            sb.append(String.format(Locale.ROOT, "  %-12s  %-12s  %.2fx", line.best(), line.nccl(), ncclT / bestT));
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

    private static void printJson(PrintWriter out, CollectiveOp cop, Topology topo, List<Line> lines, List<String[]> crossovers) {
        JsonObject root = new JsonObject();
        root.addProperty("op", cop.cliName());
        root.addProperty("topology", topo.name());
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
                co.addProperty("time_us", PerfCommand.round(c.timeUs(), 3));
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
        out.println(new GsonBuilder().setPrettyPrinting().create().toJson(root));
    }
}
