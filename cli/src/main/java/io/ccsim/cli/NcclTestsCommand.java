package io.ccsim.cli;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.perf.ParallelRuns;
import io.ccsim.algorithms.perf.PerfRow;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.sim.SimExecution;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.algorithms.tuner.SymkModel;
import io.ccsim.topology.Topology;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ccsim all_reduce_perf} and the other nccl-tests binaries: nccl-tests' flags with nccl-tests' meaning
 * ({@link NcclTestsConfig}) and nccl-tests' output ({@link NcclTestsReport}, {@code -J}: {@link NcclTestsJson}), the
 * rows simulated by {@code perf}'s engine ({@link PerfSizes}): NCCL's choice per size, the time being the mean of
 * {@code -n × -m} back-to-back calls.
 *
 * <p>Ranks: {@code --np P} processes (mpirun's {@code -np}, default: one per node) of {@code -t} threads driving
 * {@code -g} GPUs each, spread evenly over {@code --nodes} boards of {@code --topology} (default {@code hgx-h200}, the
 * calibrated board), as {@link RankPlacement} lays them out. A topology file is used as it is, its first ranks' GPUs.
 *
 * <p>As nccl-tests' {@code *RunTest}: {@code -d all} runs every type, {@code -o all} every reduction (all-reduce,
 * reduce-scatter, reduce, send/recv; the others print {@code none}), {@code -r -1} every root (broadcast, reduce);
 * {@code -N} prints each combination's rows that many times.
 */
@Command(sortOptions = false, description = {"nccl-tests' %s, simulated: its flags, its table and its -J JSON.",
        "Ranks: --np processes (mpirun -np) x -t threads x -g GPUs, on --nodes boards of --topology (default hgx-h200).",
        "Flags that change nothing in a simulation (-w, -c, -z, -G, ...) are accepted and listed in the header."})
final class NcclTestsCommand implements Callable<Integer> {

    /** The nccl-tests binaries ccsim answers to. */
    enum Binary {
        ALL_REDUCE("all_reduce_perf", CollectiveOp.ALL_REDUCE, true, false),
        ALL_GATHER("all_gather_perf", CollectiveOp.ALL_GATHER, false, false),
        REDUCE_SCATTER("reduce_scatter_perf", CollectiveOp.REDUCE_SCATTER, true, false),
        BROADCAST("broadcast_perf", CollectiveOp.BROADCAST, false, true),
        REDUCE("reduce_perf", CollectiveOp.REDUCE, true, true),
        ALL_TO_ALL("alltoall_perf", CollectiveOp.ALL_TO_ALL, false, false),
        SEND_RECV("sendrecv_perf", CollectiveOp.SEND_RECV, true, false);

        final String program;
        final CollectiveOp op;
        /** Whether nccl-tests loops over reductions and prints their name (else {@code none}). */
        final boolean reductions;
        /** Whether nccl-tests prints and loops over roots (else -1). */
        final boolean rooted;

        Binary(String program, CollectiveOp op, boolean reductions, boolean rooted) {
            this.program = program;
            this.op = op;
            this.reductions = reductions;
            this.rooted = rooted;
        }
    }

    @Spec CommandSpec spec;
    @Mixin NcclTestsFlags flags = new NcclTestsFlags();
    @Option(names = "--topology", paramLabel = "NAME|FILE", defaultValue = "hgx-h200",
            description = "ccsim: the boards (catalog name) or a topology JSON file (default: ${DEFAULT-VALUE}, the calibrated board)")
    String topology;
    @Option(names = "--np", paramLabel = "P", description = "ccsim: MPI processes, as mpirun -np P (default: one per node)")
    Integer np;
    @Option(names = "--nodes", paramLabel = "M", description = "ccsim: boards the processes spread over evenly (default: the fewest that hold them)")
    Integer nodes;
    @Option(names = "--profile", paramLabel = "FILE|NAME", description = "ccsim: calibration profile JSON, or a built-in name (h100, h200, l40s, b200); default: built-in for the GPU model")
    Path profile;
    @Option(names = "--seed", paramLabel = "S", defaultValue = "0", description = "ccsim: simulation seed (default: ${DEFAULT-VALUE})")
    long seed;
    @Option(names = "--jobs", paramLabel = "N", defaultValue = "0", description = "ccsim: sizes simulated at once (default: the processors)")
    int jobs;
    @Mixin ProgressOption progressOption = new ProgressOption();
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    boolean help;

    private final Binary binary;
    private final Map<String, String> env;
    private final Main.Session session;

    NcclTestsCommand(Binary binary, Map<String, String> env, Main.Session session) {
        this.binary = binary;
        this.env = env;
        this.session = session;
    }

    /** Registers binary {@code b} as a subcommand of {@code parent} named as the binary. */
    static void register(CommandLine parent, Binary b, Map<String, String> env, Main.Session session) {
        CommandLine cl = new CommandLine(new NcclTestsCommand(b, env, session));
        String[] d = cl.getCommandSpec().usageMessage().description();
        d[0] = String.format(Locale.ROOT, d[0], b.program);
        cl.getCommandSpec().usageMessage().description(d);
        parent.addSubcommand(b.program, cl);
    }

    /** What one combination of nccl-tests' loops runs. */
    private record Combo(DataType type, String redopName, ReduceOp redop, int root) { }

    @Override
    public Integer call() {
        CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
        NcclTestsConfig c = NcclTestsConfig.of(flags, name -> parsed.hasMatchedOption(name));
        int threads = jobs == 0 ? ParallelRuns.defaultThreads() : jobs;
        if (jobs < 0) throw new UserException("--jobs: invalid " + jobs + "; valid: 1 or more sizes at once, or 0 for one per processor");
        session.stoppable();
        NcclEnv nccl = SimSetup.ncclEnv(env);
        // a cluster too large to fold here is one that perf's extrapolated mode reads, in the same table
        String offer = TopologyArgs.isCatalog(topology) ? "'ccsim perf --sim-mode auto' (one call per size, extrapolated"
                + " from fewer nodes where it cannot be simulated), " : "";
        NcclTestsRanks ranks = NcclTestsRanks.resolve(topology, c, np, nodes, seed,
                new TopologyArgs.Guard(session.control(), session.budget(), nccl.net(), threads, offer, true,
                        binary.op == CollectiveOp.ALL_TO_ALL));
        Topology topo = ranks.topology();
        RankPlacement place = ranks.placement();
        CalibrationProfile prof = SimSetup.profile(profile, topo);
        SymkModel symk = symmetric(c);
        String registration = registration(c, place);
        String notRegistered = registration == null ? null : new PerfRunner(topo, place.ranks(), prof, nccl, seed).registeredP2pRefusal();
        boolean registered = registration != null && notRegistered == null;
        PerfSizes.Setup setup = new PerfSizes.Setup(topo, place.ranks(), prof, nccl, seed, symk, SimExecution.Folding.RANKS,
                place.nodes(), place.nodes() > 1 ? offer : "", registered).withOwnCalls(c.cudaGraph() > 0);
        PerfRunner runner = setup.runner(session);
        Provenance provenance = Provenance.of(profile, prof, topo, runner.graph(), seed);
        Path json = c.outputFile() == null ? null : NcclTestsJson.claim(c.outputFile());
        String start = now();
        PrintWriter out = spec.commandLine().getOut();
        NcclTestsReport report = new NcclTestsReport(out);
        if (json != null) report.jsonTarget(json.toString());
        List<String> notes = notes(c, topo, place, prof, provenance, registration, notRegistered);
        report.header(binary.program, c, notes);
        report.devices(ranks.lines());
        long maxBytes = ranks.memoryLimit(c);
        if (maxBytes < c.maxBytes()) report.maxBytesReduced(maxBytes);
        report.tableHeader(c.cpuTime());
        List<NcclTestsReport.Line> printed = new ArrayList<>();
        String stoppedNote = null;
        io.ccsim.sim.RunStoppedException stopped = null;
        long[] sizes = sizesUpTo(c, maxBytes);
        for (Combo combo : combos(c, prof, place.ranks())) {
            List<NcclTestsReport.Line> lines = new ArrayList<>();
            PerfSizes.Outcome o = simulate(setup, runner, combo, sizes, c.calls(), threads, lines);
            for (int cycle = 0; cycle < Math.max(1, c.runCycles()); cycle++) {
                for (NcclTestsReport.Line l : lines) report.row(l);
                printed.addAll(lines);
            }
            if (o != null && o.stopped() != null) {
                stopped = o.stopped();
                stoppedNote = o.note();
                out.println("# ccsim: interrupted " + stoppedNote);
                break;
            }
        }
        double avg = printed.stream().mapToDouble(NcclTestsReport.Line::busbw).average().orElse(0);
        Double minBw = minBusBw();
        Boolean bandwidthOk = minBw == null ? null : avg >= minBw * 0.9;
        report.footer(binary.program, avg, bandwidthOk);
        if (json != null) {
            List<String> args = new ArrayList<>(List.of("ccsim"));
            args.addAll(parsed.originalArgs());   // from the command's name on
            NcclTestsJson.write(json, new NcclTestsJson.Content(args, new TreeMap<>(ncclVariables()), c, ranks.lines(), printed, avg,
                    bandwidthOk, provenance, notes, start, now()));
        }
        if (stopped == null && Boolean.FALSE.equals(bandwidthOk)) {
            spec.commandLine().getErr().printf(Locale.ROOT, "ccsim: %s: Avg bus bandwidth %s GB/s is below 0.9 x NCCL_TESTS_MIN_BW=%s;"
                    + " exit %d, as nccl-tests%n", binary.program, CFormat.general(avg), env.get(MIN_BW), MIN_BW_FAILED);
            spec.commandLine().getErr().flush();
            return MIN_BW_FAILED;
        }
        if (stopped == null) return 0;
        PrintWriter err = spec.commandLine().getErr();
        err.println("ccsim: " + binary.program + " stopped " + stoppedNote);
        err.flush();
        return StopSignals.exitCode(stopped.reason());
    }

    /**
     * The rows of one combination: every size with its count; sizes of count 0 (below 16 bytes a rank for all-gather,
     * reduce-scatter, all-to-all, below one element else) run nothing and print zeros, as NCCL launches nothing; the
     * others simulated. Returns the simulation's outcome (null where nothing ran); the rows of sizes a stop left undone
     * are not in {@code lines}.
     */
    private PerfSizes.Outcome simulate(PerfSizes.Setup setup, PerfRunner runner, Combo combo, long[] sizes, int calls, int threads,
                                       List<NcclTestsReport.Line> lines) {
        CollectiveOp op = binary.op;
        List<Long> todo = new ArrayList<>();
        for (long s : sizes) if (runner.countFor(op, s, combo.type()) > 0) todo.add(s);
        PerfSizes.Outcome o = todo.isEmpty() ? null : PerfSizes.run(binary.program, setup, runner,
                new PerfSizes.Call(op, combo.type(), combo.redop(), Math.max(0, combo.root()), calls, null), todo, threads, session,
                progressOption.open(spec.commandLine().getErr(), session));
        int next = 0;
        for (long s : sizes) {
            long count = runner.countFor(op, s, combo.type());
            if (count == 0) {
                lines.add(new NcclTestsReport.Line(0, 0, combo.type().ncclTestsName(), combo.redopName(), combo.root(), 0, 0, 0, null));
                continue;
            }
            PerfSizes.SizeRun run = o.runs().get(next++);
            if (run == null) break;
            PerfRow r = run.row();
            lines.add(new NcclTestsReport.Line(r.bytes(), r.count(), combo.type().ncclTestsName(), combo.redopName(), combo.root(),
                    r.timeUs(), r.algbwGbps(), r.busbwGbps(), r));
        }
        return o;
    }

    /** nccl-tests' loops: types, then reductions, then roots, each as far as the binary loops over them. */
    private List<Combo> combos(NcclTestsConfig c, CalibrationProfile prof, int nRanks) {
        List<Combo> out = new ArrayList<>();
        for (DataType t : c.types()) {
            boolean fp8 = t == DataType.FP8_E4M3 || t == DataType.FP8_E5M2;
            if (c.allTypes() && fp8 && prof.computeCapability() < 90) continue;   // nccl-tests drops fp8 before Hopper
            for (String o : binary.reductions ? c.ops() : List.of("none")) {
                ReduceOp ro = o.equals("none") || o.equals("mulsum") ? ReduceOp.SUM : ReduceOp.parse(o);
                if (!binary.rooted) {
                    out.add(new Combo(t, o, ro, -1));
                    continue;
                }
                if (c.root() < -1 || c.root() >= nRanks) {
                    throw new UserException("-r/--root: invalid " + c.root() + " for " + nRanks + " ranks; valid: 0.." + (nRanks - 1)
                            + ", or -1 for every rank in turn");
                }
                for (int r = c.root() == -1 ? 0 : c.root(); r <= (c.root() == -1 ? nRanks - 1 : c.root()); r++) out.add(new Combo(t, o, ro, r));
            }
        }
        return out;
    }

    /** The sweep's sizes up to nccl-tests' memory limit {@code maxBytes}; where -b is above it, the limit alone (as nccl-tests lowers -b). */
    private static long[] sizesUpTo(NcclTestsConfig c, long maxBytes) {
        if (maxBytes < c.minBytes()) return new long[] {maxBytes};
        return java.util.Arrays.stream(c.sizes()).filter(s -> s <= maxBytes).toArray();
    }

    /** ccsim's lines of the header: what was simulated, how the numbers differ from a run's, the flags without effect. */
    /**
     * What makes NCCL register this run's point-to-point buffers ({@code "-G 10"}, {@code "-R 1"}), or null: a send/recv
     * or all-to-all with both buffers registered ({@code -R 1}, NCCL_LOCAL_REGISTER=1; nccl-tests allocates them with
     * ncclMemAlloc, which NCCL maps into the peers' processes too), or captured in CUDA graphs under
     * NCCL_GRAPH_REGISTER=1 by one process (-g or -t), the measured case (src/enqueue.cc, allowUB;
     * experiments/nccl-tests-h200x4).
     */
    private String registration(NcclTestsConfig c, RankPlacement place) {
        if (!pointToPoint() || place.ranks() < 2) return null;
        try {
            if (c.localRegister() == 1 && NcclEnv.registers(env, NcclEnv.NCCL_LOCAL_REGISTER)) return "-R 1";
            if (c.cudaGraph() > 0 && oneProcess() && NcclEnv.registers(env, NcclEnv.NCCL_GRAPH_REGISTER)) return "-G " + c.cudaGraph();
        } catch (IllegalArgumentException e) {
            throw new UserException(e.getMessage(), e);
        }
        return null;
    }

    private boolean pointToPoint() {
        return binary.op == CollectiveOp.SEND_RECV || binary.op == CollectiveOp.ALL_TO_ALL;
    }

    private boolean oneProcess() {
        return np == null || np == 1;
    }

    private List<String> notes(NcclTestsConfig c, Topology topo, RankPlacement place, CalibrationProfile prof, Provenance p,
                               String registration, String notSimulated) {
        List<String> n = new ArrayList<>();
        n.add(String.format(Locale.ROOT, "# ccsim %s: simulated (NCCL %s model) on %s: %d ranks on %d node(s), profile %s, seed %d",
                p.ccsimVersion(), p.ncclModel(), topo.name(), place.ranks(), place.nodes(), SimSetup.profileLabel(profile, prof), seed));
        n.add(String.format(Locale.ROOT, "# ccsim: a time is the mean of %d back-to-back calls (-n x -m) to the last rank's end;"
                + " in-place repeats out-of-place; no data is moved, so nothing is checked (#wrong N/A, validation 0)", c.calls()));
        n.add("# ccsim: Pid is the process's index, the host the topology's, [0000:bb:00] the GPU's index on its board");
        // NCCL registers a point-to-point call's user buffers when they are registered (-R 1) or the call is captured in a
        // graph (-G), and a peer then writes into them directly
        // graphs across processes: NCCL registers what it can map into the peers' processes, which was not measured for
        // nccl-tests' buffers (PyTorch's cudaMalloc'd ones failed it)
        boolean graphsAcross = pointToPoint() && registration == null && c.cudaGraph() > 0 && !oneProcess() && place.ranks() > 1;
        List<String> noEffect = registration != null ? c.noEffect().stream().filter(f -> !f.startsWith("-G ") && !f.startsWith("-R "))
                .toList() : graphsAcross ? c.noEffect().stream().filter(f -> !f.startsWith("-G ")).toList() : c.noEffect();
        boolean ownCalls = c.cudaGraph() > 0 && prof.sim().frameworkCallUs() > 0;   // -G then changes every time
        if (ownCalls) noEffect = noEffect.stream().filter(f -> !f.startsWith("-G ")).toList();
        if (!noEffect.isEmpty()) n.add("# ccsim: no effect on a simulation: " + String.join(", ", noEffect));
        if (graphsAcross) {
            n.add("# ccsim: -G " + c.cudaGraph() + " across processes is simulated unregistered: NCCL registers a captured call's"
                    + " buffers where it can map them into the peers' processes, measured in one process only"
                    + " (experiments/nccl-tests-h200x4; PyTorch's cudaMalloc'd buffers failed it across processes)");
        }
        if (registration != null && notSimulated == null) {
            n.add("# ccsim: " + registration + ": NCCL registers the user buffers and a sender writes each channel's part into"
                    + " the receiver's buffer, one step, no FIFO (simulated: sim.p2p.Simple.registered_channel_bw_gbps, fitted"
                    + " to experiments/nccl-tests-h200x4)");
        } else if (registration != null) {
            n.add("# ccsim: " + registration + " is not simulated: NCCL then registers the user buffers and a peer writes into"
                    + " them directly, but " + notSimulated + "; these times are the unregistered calls'");
        }
        if (ownCalls) {
            n.add(String.format(Locale.ROOT, "# ccsim: -G %d: NCCL's own captured calls, each %.1f us less than the"
                    + " profile's PyTorch-captured calls (sim.framework_call_us, measured on 4 x H200:"
                    + " experiments/nccl-tests-h200x4/harness)%s", c.cudaGraph(), prof.sim().frameworkCallUs(),
                    registration != null && notSimulated == null ? ", but registered send/recv and all-to-all, fitted to"
                            + " NCCL's own" : ""));
        }
        if (c.cudaGraph() == 0 && c.nGpus() > 1) {
            // measured (experiments/nccl-tests-h200x4/harness/lease2): one thread launching its GPUs' calls eagerly
            n.add("# ccsim: -g " + c.nGpus() + " without -G: one thread launches " + c.nGpus() + " GPUs' kernels a call,"
                    + " a floor per call that depends on the host and that ccsim does not simulate (nccl-tests measured 34-44"
                    + " us at -g 4 on a 4 x H200 VM below 4 MiB: experiments/nccl-tests-h200x4/harness/lease2)");
        }
        if (c.runCycles() == 0) n.add("# ccsim: -N 0 (infinite cycles): one cycle printed, every cycle being the same");
        else if (c.runCycles() > 1) n.add("# ccsim: -N " + c.runCycles() + ": every cycle's rows are the same (same inputs, same output)");
        if (binary.reductions && c.ops().contains("mulsum")) n.add("# ccsim: mulsum (NCCL's PreMulSum) is timed as sum");
        if (c.localRegister() == 2) {
            n.add("# ccsim: -R 2: both buffers in symmetric windows: eligible calls run NCCL's symmetric kernel choice (uncalibrated)");
        }
        Map<String, String> nccl = new TreeMap<>(env);
        if (nccl.remove(MIN_BW) != null) {
            n.add("# ccsim: " + MIN_BW + "=" + env.get(MIN_BW) + ": the mean bus bandwidth is checked against 0.9 x it, as nccl-tests does");
        }
        for (String line : SimSetup.ncclEnvLines(nccl)) n.add(line);
        return n;
    }

    /** nccl-tests' variable of the least mean bus bandwidth, GB/s, below 0.9 × which a run fails. */
    static final String MIN_BW = "NCCL_TESTS_MIN_BW";

    /** nccl-tests' exit code when the mean bus bandwidth misses {@link #MIN_BW} ({@code testNumResults}). */
    static final int MIN_BW_FAILED = ExitCode.NCCL_TESTS_MIN_BW.code;

    /** {@link #MIN_BW} from the environment, or null where it is not set. */
    private Double minBusBw() {
        String v = env.get(MIN_BW);
        if (v == null || v.isBlank()) return null;
        try {
            return Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            throw new UserException(MIN_BW + "=" + v + ": not a bandwidth; valid: GB/s, e.g. 350");
        }
    }

    private SymkModel symmetric(NcclTestsConfig c) {
        if (c.localRegister() != 2) return null;
        try {
            return SymkModel.parse(env);
        } catch (IllegalArgumentException e) {
            throw new UserException(e.getMessage(), e);
        }
    }

    private Map<String, String> ncclVariables() {
        Map<String, String> m = new TreeMap<>();
        env.forEach((k, v) -> {
            if (k.startsWith("NCCL_")) m.put(k, v);
        });
        return m;
    }

    private static String now() {
        return LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT));
    }
}
