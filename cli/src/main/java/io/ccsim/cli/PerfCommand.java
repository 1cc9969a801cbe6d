package io.ccsim.cli;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.graph.CommGraph;
import io.ccsim.algorithms.perf.ParallelRuns;
import io.ccsim.algorithms.perf.PerfRow;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.plan.P2pSettings;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.tuner.Candidate;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.algorithms.tuner.TunerException;
import io.ccsim.gpu.cuda.Cuda;
import io.ccsim.gpu.exec.CudaExecutor;
import io.ccsim.gpu.exec.CudaPerf;
import io.ccsim.sim.RunStoppedException;
import io.ccsim.topology.Topology;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ccsim perf}: an nccl-tests twin over the simulator. Sizes, counts, algbw and busbw follow
 * nccl-tests' definitions (doc/PERFORMANCE.md); NCCL_* variables come from the environment.
 *
 * <p>{@code --backend cuda} measures instead: for every size the {@link PerfRunner}'s tuner (the topology, the
 * profile and the NCCL_* variables, exactly as for the simulated rows) picks algorithm, protocol and channels,
 * and {@link CudaPerf} times that plan with ccsim's kernels on the devices of {@code --gpus} (see {@link GpuArgs}:
 * a count N = devices 0..N−1, or a list 0,1,2,3). The topology defaults to {@code hgx-h200} with as many GPUs as
 * devices. The rows have the same fields, keys and columns, so simulated and measured output are comparable
 * line by line ({@code ccsim validate}). Without CUDA: "no CUDA device found: ..." and exit 1.
 */
@Command(name = "perf", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Simulate a collective over a range of sizes, like nccl-tests' *_perf binaries;",
                "with --backend cuda, run ccsim's kernels on this host's GPUs instead (same algorithm choice, same output).",
                "NCCL environment variables (NCCL_ALGO, NCCL_PROTO, NCCL_BUFFSIZE, NCCL_MIN_NCHANNELS, NCCL_MAX_NCHANNELS,",
                "NCCL_NTHREADS, NCCL_P2P_DISABLE, NCCL_NVLS_ENABLE) are read from the environment with NCCL's grammar."})
final class PerfCommand implements Callable<Integer>, Main.NeedsEnv, Main.NeedsSession {
    enum Format { text, json, csv }

    enum Backend { sim, cuda }

    @Spec CommandSpec spec;
    private Map<String, String> env = Map.of();
    private Main.Session session;

    @Option(names = "--backend", defaultValue = "sim", paramLabel = "sim|cuda",
            description = "sim: simulate; cuda: run ccsim's kernels on this host's GPUs (default: ${DEFAULT-VALUE})")
    Backend backend;
    @Option(names = "--topology", paramLabel = "NAME|FILE",
            description = "catalog name or topology JSON file (required for sim; cuda: default hgx-h200 with --gpus GPUs)")
    String topology;
    @Option(names = "--gpus", paramLabel = "N|LIST",
            description = "sim: GPUs of one board (default: all); cuda: a count N (devices 0..N-1) or a list 0,1,2,3 (default: all devices)")
    String gpus;
    @Option(names = "--nodes", paramLabel = "M", defaultValue = "1", description = "nodes of a cluster (default: ${DEFAULT-VALUE})")
    int nodes;
    @Mixin WhatIfOptions whatIf = new WhatIfOptions();
    @Option(names = "--sharp", description = "SHARP-capable leaf and spine switches (NVIDIA Quantum-2 SHARPv3), for CollNet;"
            + " needs --nodes >= 2")
    boolean sharp;
    @Option(names = "--profile", paramLabel = "FILE|NAME", description = "calibration profile JSON, or a built-in name (h100, h200, l40s, b200); default: built-in for the GPU model")
    Path profile;
    @Option(names = "--op", required = true, paramLabel = "OP",
            description = "all_reduce|all_gather|reduce_scatter|broadcast|reduce|all_to_all|sendrecv")
    String op;
    @Mixin SizeOptions sizeOptions = new SizeOptions();
    @Option(names = {"-i", "--stepbytes"}, paramLabel = "STEP", description = "add STEP bytes to the size (instead of -f)")
    String stepBytes;
    @Option(names = {"-o", "--op-reduce"}, defaultValue = "sum", paramLabel = "REDOP", description = "sum|prod|max|min|avg (default: ${DEFAULT-VALUE})")
    String redop;
    @Option(names = {"-r", "--root"}, defaultValue = "0", paramLabel = "ROOT", description = "root rank for broadcast/reduce (default: ${DEFAULT-VALUE})")
    int root;
    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json|csv", description = "text|json|csv (default: ${DEFAULT-VALUE})")
    Format format;
    @Option(names = "--seed", defaultValue = "0", paramLabel = "S", description = "simulation seed (default: ${DEFAULT-VALUE})")
    long seed;
    @Option(names = {"-n", "--iters"}, defaultValue = "1", paramLabel = "N",
            description = "simulated backend: time = mean of N back-to-back calls, each rank starting its next call when it"
                    + " finished the last, as nccl-tests' -n times them (default: ${DEFAULT-VALUE}: one call, launch to completion)")
    int iters;
    @Option(names = {"-R", "--local_register"}, defaultValue = "0", paramLabel = "0|1|2",
            description = "as nccl-tests: 1 registers both buffers with NCCL, so a send_recv or all_to_all on one NVLink"
                    + " node writes into the receiver's buffer (NCCL_LOCAL_REGISTER applies; other ops unchanged); 2 registers"
                    + " both as symmetric windows, so eligible calls run NCCL's symmetric kernels (NCCL_SYM_KERNEL,"
                    + " NCCL_SYM_CTAS, NCCL_WIN_ENABLE apply) (default: ${DEFAULT-VALUE})")
    int register;
    @Option(names = "--symm-mem", paramLabel = "one_shot|two_shot",
            description = "run PyTorch's torch.ops.symm_mem one_shot_all_reduce or two_shot_all_reduce_ instead of NCCL"
                    + " (all_reduce, sum of float or bfloat16, one node; simulated backend only; uncalibrated)")
    String symmMem;
    @Option(names = "--sim-mode", defaultValue = "folded", paramLabel = "folded|full|extrapolated|auto",
            description = "folded: simulate one worker per class of provably equivalent workers (exact, the same"
                    + " times); full: every worker of every channel, the reference; extrapolated: simulate NCCL's choice"
                    + " at --nodes exactly on fewer of the same nodes and read its scaling law at --nodes (catalog"
                    + " clusters; the output states the law and its measured error); auto: folded up to "
                    + AUTO_FOLDED_MAX_GPUS + " GPUs where it fits the heap, extrapolated beyond, but for sizes whose law reads"
                    + " them beyond 2 %% (the trees: Tree, NVLSTree), simulated folded up to " + AutoAtTarget.MAX_GPUS + " GPUs"
                    + " (default: ${DEFAULT-VALUE})")
    SimMode simMode;

    /** What -R 1 did to this simulated run (set by {@link #call()}). */
    private PerfRegistration registration = PerfRegistration.NONE;

    /** The footer's word on how {@code --sim-mode auto} chose the folded run ("" without auto). */
    private String autoNote = "";

    /** How much of each collective is simulated. */
    enum SimMode { folded, full, extrapolated, auto }

    /**
     * The most GPUs {@code --sim-mode auto} simulates (folded); beyond, it extrapolates. Beyond 1,024 GPUs a folded run
     * takes seconds to minutes (8,192 HGX H100 GPUs: NCCL's default 1 GiB all-reduce 8-10 s, a forced tree 20-30 s, a
     * broadcast minutes; an all-to-all does not fit a default heap), where the laws answer in 1-2 s
     * (docs/performance.md, "The scale goals, where they stand").
     */
    static final int AUTO_FOLDED_MAX_GPUS = 1024;

    @Option(names = "--extrapolate-from", paramLabel = "N", split = ",",
            description = "--sim-mode extrapolated: the node counts to simulate, comma-separated (default: per scaling"
                    + " law, two counts below --nodes that simulate quickly)")
    int[] extrapolateFrom;

    @Option(names = "--jobs", paramLabel = "N", defaultValue = "0",
            description = "sizes simulated at once, each on its own thread (same results as one at a time; default:"
                    + " the machine's processors)")
    int jobs;
    @Mixin ProgressOption progressOption = new ProgressOption();
    @Option(names = "--chart", paramLabel = "FILE",
            description = "also draw busbw against size (log2 axis) into FILE, .png or .svg (with --backend cuda: measured and simulated)")
    Path chart;

    @Override
    public void setEnv(Map<String, String> env) { this.env = env; }

    @Override
    public void setSession(Main.Session session) { this.session = session; }

    @Override
    public Integer call() {
        CollectiveOp cop = parse(() -> CollectiveOp.parse(op));
        DataType dt = parse(sizeOptions::dataType);
        ReduceOp ro = parse(() -> ReduceOp.parse(redop));
        long[] sizes = sizeOptions.sizes(stepBytes == null ? null : Sizes.parse("-i", stepBytes));
        if (iters < 1) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "-n/--iters: invalid " + iters + "; valid: a count >= 1");
        }
        if (chart != null) ChartFile.check("--chart", chart);
        if (backend == Backend.cuda) {
            checkCudaOptions();
            return callCuda(cop, dt, ro, sizes);
        }
        if (topology == null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "Missing required option: '--topology=NAME|FILE'");
        }
        int nGpus = gpuCount();
        if (jobs < 0) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--jobs: invalid " + jobs
                    + "; valid: 1 or more sizes at once, or 0 for one per processor");
        }
        int threads = jobs == 0 ? ParallelRuns.defaultThreads() : jobs;
        session.stoppable();
        NcclEnv nccl = SimSetup.ncclEnv(env);
        SimMode mode = simMode == SimMode.auto ? autoMode(nccl, Math.min(threads, sizes.length), cop) : simMode;
        if (extrapolateFrom != null && mode != SimMode.extrapolated) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--extrapolate-from applies to"
                    + " --sim-mode extrapolated (or auto beyond " + AUTO_FOLDED_MAX_GPUS + " GPUs), not to " + mode);
        }
        ExtrapolatedPerf.NoLaw noLaw = null;   // auto chose to extrapolate, but no law serves NCCL's choice here: why
        if (mode == SimMode.extrapolated) {
            try {
                return new ExtrapolatedPerf(this, session).call(cop, dt, ro, sizes, nccl, threads, extrapolateFrom,
                        simMode == SimMode.auto);
            } catch (ExtrapolatedPerf.NoLaw e) {
                if (!catalogFits(nccl, Math.min(threads, sizes.length), cop)) {
                    throw new UserException("perf --sim-mode auto: " + e.getMessage() + ", and the folded run does not"
                            + " fit this heap; valid here: fewer --nodes, or NCCL_ALGO or NCCL_PROTO for a choice with a law", e);
                }
                noLaw = e;   // the exact (folded) run is the answer there, where ranks fold
            }
        }
        String hint = mode == SimMode.folded && !spec.commandLine().getParseResult().hasMatchedOption("--sim-mode")
                ? autoHint(cop, dt, ro, sizes, nccl, threads) : null;
        // where auto would extrapolate, the folded run is held to the heap of simulating every worker: at that scale its
        // ranks may not fold (trees, chains), finding out takes a minute, and extrapolation answers in seconds
        boolean foldedBudget = simMode != SimMode.full && hint == null;
        Topology topo = whatIf.resolve(topology, nGpus, nodes, seed, sharp,
                new TopologyArgs.Guard(session.control(), session.budget(), nccl.net(), Math.min(threads, sizes.length),
                        TopologyArgs.isCatalog(topology) && nodes > 1 && noLaw == null ? "--sim-mode extrapolated, " : "",
                        foldedBudget, cop == CollectiveOp.ALL_TO_ALL));
        autoNote = simMode != SimMode.auto ? "" : noLaw != null && noLaw.tooSmall()
                ? ", --sim-mode auto: too few nodes to extrapolate NCCL's choice"
                : noLaw != null ? ", --sim-mode auto: NCCL's choice has no scaling law here"
                : ", --sim-mode auto up to " + AUTO_FOLDED_MAX_GPUS + " GPUs";
        CalibrationProfile prof = SimSetup.profile(profile, topo);
        int n = topo.gpus().size();
        if (sizes.length > 0) SimSetup.checkBuffers(topo, n, sizes[sizes.length - 1]);
        if (register < 0 || register > 2) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "-R/--local_register: invalid " + register
                    + "; valid: 0 (none), 1 (local registration), 2 (symmetric windows)");
        }
        io.ccsim.algorithms.Algorithm torch = symmMem == null ? null : torchAlgorithm(cop, dt, ro, topo);
        io.ccsim.algorithms.tuner.SymkModel symk = null;
        if (register == 2) {
            try {
                symk = io.ccsim.algorithms.tuner.SymkModel.parse(env);
            } catch (IllegalArgumentException e) {
                throw new UserException(e.getMessage(), e);
            }
        }
        registration = PerfRegistration.of(register, cop, n, () -> new PerfRunner(topo, n, prof, nccl, seed), env);
        PerfSizes.Setup setup = new PerfSizes.Setup(topo, n, prof, nccl, seed, symk, simMode == SimMode.full
                ? io.ccsim.algorithms.sim.SimExecution.Folding.NONE : io.ccsim.algorithms.sim.SimExecution.Folding.RANKS, nodes,
                noLaw == null ? null : noLaw.getMessage(), foldedBudget, registration.registered());
        PerfRunner runner = setup.runner(session);
        List<Long> todo = new ArrayList<>();
        for (long s : sizes) {
            if (runner.countFor(cop, s, dt) == 0 && s != 0) continue; // nccl-tests skips sizes below one element per rank
            todo.add(s);
        }
        if (todo.isEmpty()) throw SimSetup.nothingToRun(sizeOptions.minBytes, sizeOptions.maxBytes, cop, dt, n);
        PerfSizes.Outcome outcome;
        try {
            outcome = PerfSizes.run("perf", setup, runner, new PerfSizes.Call(cop, dt, ro, root, iters, torch), todo, threads, session,
                    progressOption.open(spec.commandLine().getErr(), session), () -> {
                        if (hint != null) spec.commandLine().getErr().println(hint);   // not before a refusal
                    });
        } catch (io.ccsim.algorithms.perf.StalledRunException e) {
            throw whatIf.stalled(e);
        }
        RunStoppedException stopped = outcome.stopped();
        String note = outcome.note();
        print(outcome.runs(), topo, runner, prof, cop, sizes, outcome.wallS(), note);
        if (stopped == null) return 0;
        PrintWriter err = spec.commandLine().getErr();
        err.println("ccsim: perf stopped " + note);
        err.flush();
        return StopSignals.exitCode(stopped.reason());
    }

    /** {@code --gpus} for the simulator: a GPU count, 0 for the board's. */
    int gpuCount() {
        if (gpus == null) return 0;
        if (!gpus.trim().matches("\\d{1,6}")) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--gpus: invalid '" + gpus
                    + "' for the simulator; valid: a GPU count N (device lists are for --backend cuda)");
        }
        return Integer.parseInt(gpus.trim());
    }

    /**
     * What {@code --sim-mode auto} runs: extrapolated for a catalog cluster of more than {@link #AUTO_FOLDED_MAX_GPUS}
     * GPUs or one whose folded run would not fit the heap, folded otherwise.
     */
    private SimMode autoMode(NcclEnv nccl, int concurrent, CollectiveOp cop) {
        if (!TopologyArgs.isCatalog(topology) || nodes < 2) return SimMode.folded;
        if (catalogGpus(topology, catalogOptions()) < 0) return SimMode.folded;   // the build reports it
        return beyondAutoFolded(topology, catalogOptions()) || !catalogFits(nccl, concurrent, cop) ? SimMode.extrapolated
                : SimMode.folded;
    }

    /**
     * The GPUs of catalog cluster {@code topology} built with {@code options}, counted without building it; -1 if it is
     * not a catalog name or the options do not build (the build reports why).
     */
    static long catalogGpus(String topology, io.ccsim.topology.BuildOptions options) {
        if (!TopologyArgs.isCatalog(topology)) return -1;
        try {
            return io.ccsim.topology.TopologyCatalog.size(topology, options).gpus();
        } catch (IllegalArgumentException e) {
            return -1;
        }
    }

    /**
     * Whether catalog cluster {@code topology} of {@code options} (2 nodes or more) has more GPUs than
     * {@code --sim-mode auto} simulates folded ({@link #AUTO_FOLDED_MAX_GPUS}).
     */
    static boolean beyondAutoFolded(String topology, io.ccsim.topology.BuildOptions options) {
        return options.nodes() >= 2 && catalogGpus(topology, options) > AUTO_FOLDED_MAX_GPUS;
    }

    /**
     * For a run folded by default on a catalog cluster beyond auto's folded limit: the note that {@code --sim-mode auto}
     * would extrapolate some of its sizes ({@link ExtrapolatedPerf#autoNote}), or null.
     */
    private String autoHint(CollectiveOp cop, DataType dt, ReduceOp ro, long[] sizes, NcclEnv nccl, int threads) {
        if (!beyondAutoFolded(topology, catalogOptions())) return null;
        return new ExtrapolatedPerf(this, session).autoNote(cop, dt, ro, sizes, nccl, threads,
                (int) catalogGpus(topology, catalogOptions()));
    }

    /** Whether the catalog cluster of this run and {@code concurrent} folded simulations of it fit the heap. */
    boolean catalogFits(NcclEnv nccl, int concurrent, CollectiveOp cop) {
        return session.budget().fitsCatalog(topology, catalogOptions(), nccl.net(), concurrent, true,
                cop == CollectiveOp.ALL_TO_ALL);
    }

    /** The catalog build options of this run. */
    private io.ccsim.topology.BuildOptions catalogOptions() {
        return new io.ccsim.topology.BuildOptions(gpuCount(), nodes, whatIf.oversubscription, seed, whatIf.nicsPerNode, sharp);
    }

    /**
     * {@code the 5 rows above are complete; not simulated: 4194304, 8388608 B} for a run of {@code total} sizes stopped
     * with {@code missing} undone (at most 8 named).
     */
    static String notDone(String noun, int total, List<Long> missing) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "the %d %s above are complete; not simulated: ",
                total - missing.size(), noun));
        for (int i = 0; i < missing.size() && i < 8; i++) sb.append(i == 0 ? "" : ", ").append(missing.get(i));
        if (missing.size() > 8) sb.append(", ... (").append(missing.size()).append(" sizes)");
        return sb.append(missing.size() <= 8 ? " B" : "").toString();
    }

    /**
     * The rows of the sizes simulated (null: stopped before it), in the chosen format; for a run stopped early the text
     * ends with {@code # interrupted <note>}.
     */
    private void print(List<PerfSizes.SizeRun> runs, Topology topo, PerfRunner runner, CalibrationProfile prof, CollectiveOp cop,
                       long[] sizes, double wall, String note) {
        List<PerfRow> rows = new ArrayList<>();
        long events = 0;
        long flows = 0;
        long simulatedWorkers = 0;
        long workers = 0;
        int unsettled = 0;
        for (PerfSizes.SizeRun sr : runs) {
            if (sr == null) continue;
            rows.add(sr.row());
            events += sr.events();
            flows += sr.flows();
            simulatedWorkers += sr.simulatedWorkers();
            unsettled = Math.max(unsettled, sr.unsettledRounds());
            workers += sr.workers();
        }
        PrintWriter out = spec.commandLine().getOut();
        // registered buffers (-R 1): the readers take "registered_buffers" to simulate the same calls
        List<String> keys = registration.registered() ? List.of(io.ccsim.algorithms.measurements.MeasuredRow.REGISTERED_FIELD) : List.of();
        java.util.function.IntFunction<List<String>> registered = i -> keys.isEmpty() ? List.of() : List.of("true");
        switch (format) {
            case json: PerfRowFormats.printJson(out, rows, Provenance.of(profile, prof, topo, runner.graph(), seed), keys, registered); break;
            case csv: PerfRowFormats.printCsv(out, rows, Provenance.of(profile, prof, topo, runner.graph(), seed), keys, registered); break;
            default:
                printText(out, rows, topo.name(), topo.routing(), runner.graph().nRanks(), runner.graph().nNodes(), runner.graph(), cop, sizes,
                        "simulated, NCCL " + CalibrationProfile.NCCL_VERSION + " model", "profile "
                        + SimSetup.profileLabel(profile, prof));
                out.printf(Locale.ROOT, "# simulated %d sizes in %.2f s wall: %d events (%.2f M/s), %d flows (%.2f M/s)%n", rows.size(), wall,
                        events, events / wall / 1e6, flows, flows / wall / 1e6);
                String auto = autoNote;
                if (!rows.isEmpty()) out.println(simMode == SimMode.full ? "# mode: full (every worker of every channel simulated)"
                        : unsettled > 0 ? String.format(Locale.ROOT, "# mode: folded (exact%s): all %d workers (rank,"
                        + " channel) simulated: telling them apart had not settled after %,d rounds (a chain from the"
                        + " root sets every rank apart)", auto, workers, unsettled)
                        : simulatedWorkers == workers ? String.format(Locale.ROOT, "# mode: folded (exact%s): no two of the %d"
                        + " workers (rank, channel) are equivalent, all simulated", auto, workers)
                        : String.format(Locale.ROOT, "# mode: folded (exact%s): %d of %d workers (rank, channel) simulated,"
                        + " the others by symmetry; --sim-mode full for all", auto, simulatedWorkers, workers));
                if (note != null) out.println("# interrupted " + note);
                out.println("#");
        }
        if (chart != null && !rows.isEmpty()) {
            chartLine(out, PerfChart.write(chart, PerfChart.title(cop, topo, runner, "profile " + SimSetup.profileLabel(profile, prof)),
                    List.of(new PerfChart.Source("simulated (NCCL " + CalibrationProfile.NCCL_VERSION + " model)", rows, false))));
        }
        out.flush();
    }

    /** The text output's line naming the chart written (none in JSON or CSV, which stay parseable). */
    private void chartLine(PrintWriter out, ChartFile.Written w) {
        if (format == Format.text) out.printf(Locale.ROOT, "# chart: %s (%s)%n", chart, w.describe());
    }

    /** Refuses the options that only the simulated backend has (one-sided memory, symmetric kernels, -n). */
    private void checkCudaOptions() {
        if (symmMem != null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--symm-mem is for the simulated backend: ccsim's GPU kernels have no one-sided loads and stores");
        }
        if (register == 2) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "-R 2 is for the simulated backend: ccsim's GPU kernels have no symmetric-memory kernels");
        }
        CollectiveOp cop = CollectiveOp.parse(op); // parsed before, without error
        if (register == 1 && (cop == CollectiveOp.SEND_RECV || cop == CollectiveOp.ALL_TO_ALL)) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "-R 1 is for the simulated backend: ccsim's GPU kernels always copy through the connection's FIFO");
        }
        if (iters != 1) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "-n/--iters is for the simulated backend; --backend cuda times its own iteration counts (50/20/10 per size)");
        }
        if (whatIf.any()) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--degrade, --down, --nic-gbps, --nvlink-gbps,"
                    + " --nics-per-node, --oversubscription and --routing are for the simulated backend: --backend cuda measures this"
                    + " host's GPUs as they are");
        }
    }

    /** The PyTorch all-reduce of {@code --symm-mem}, checked against what PyTorch runs. */
    private io.ccsim.algorithms.Algorithm torchAlgorithm(CollectiveOp cop, DataType dt, ReduceOp ro, Topology topo) {
        io.ccsim.algorithms.Algorithm a = parse(() -> io.ccsim.algorithms.plan.TorchSymmMem.parse(symmMem));
        if (register == 2) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--symm-mem and -R 2 exclude each other:"
                    + " --symm-mem runs PyTorch's kernels, -R 2 NCCL's symmetric kernels");
        }
        java.util.Optional<String> why = io.ccsim.algorithms.plan.TorchSymmMem.refusal(a, cop, dt, ro)
                .or(() -> io.ccsim.algorithms.plan.TorchSymmMem.hostRefusal(nodes));
        if (why.isPresent()) throw new UserException("--symm-mem " + symmMem + ": " + why.get());
        return a;
    }

    /**
     * The environment of a GPU run: ccsim's kernels never use NVLink multicast (the GPU hosts must keep it off), so
     * NVLS is never chosen there: NCCL_NVLS_ENABLE=0 unless set to 0 already; 1 is refused.
     */
    private static Map<String, String> withoutNvls(Map<String, String> env) {
        String v = env.get(NcclEnv.NCCL_NVLS_ENABLE);
        if (v != null && !v.isEmpty() && !v.trim().equals("0")) {
            throw new UserException("NCCL_NVLS_ENABLE=" + v + ": --backend cuda never uses NVLink multicast (NVLS);"
                    + " valid there: 0 or unset");
        }
        Map<String, String> out = new java.util.HashMap<>(env);
        out.put(NcclEnv.NCCL_NVLS_ENABLE, "0");
        return out;
    }

    /** {@code --backend cuda}: the tuner's choice per size, measured with ccsim's kernels. */
    private Integer callCuda(CollectiveOp cop, DataType dt, ReduceOp ro, long[] sizes) {
        if (nodes != 1) throw new UserException("--nodes " + nodes + ": --backend cuda runs on the GPUs of this host only; valid: 1");
        int[] devices = GpuArgs.devices(gpus);
        int n = devices.length;
        Topology topo = TopologyArgs.resolve(topology == null ? "hgx-h200" : topology, topology == null || TopologyArgs.isCatalog(topology) ? n : 0,
                1, 1.0, seed);
        if (topo.gpus().size() != n) {
            throw new UserException("topology " + topo.name() + " has " + topo.gpus().size() + " GPUs but --gpus selects " + n
                    + " devices; give a topology of " + n + " GPUs");
        }
        CalibrationProfile prof = SimSetup.profile(profile, topo);
        PerfRunner runner = new PerfRunner(topo, n, prof, SimSetup.ncclEnv(withoutNvls(env)), seed);
        boolean hasRedop = cop == CollectiveOp.ALL_REDUCE || cop == CollectiveOp.REDUCE || cop == CollectiveOp.REDUCE_SCATTER;
        boolean hasRoot = cop == CollectiveOp.BROADCAST || cop == CollectiveOp.REDUCE;
        if (hasRoot && (root < 0 || root >= n)) throw new UserException("-r " + root + ": not a rank of " + n + " GPUs; valid: 0.." + (n - 1));
        Progress progress = new Progress(spec.commandLine().getErr(), false, System::nanoTime);   // a line per measured size
        List<PerfRow> rows = new ArrayList<>();
        String device;
        try (CudaExecutor ex = CudaExecutor.open(devices)) {
            device = Cuda.deviceName(devices[0]);
            for (long s : sizes) {
                long count = runner.countFor(cop, s, dt);
                if (count == 0) continue; // as the simulated perf: nccl-tests skips sizes below one element per rank
                long size = runner.sizeFor(cop, count, dt);
                Candidate c;
                try {
                    c = runner.tune(cop, size).winner();
                } catch (TunerException e) {
                    throw new UserException(e.getMessage(), e);
                }
                // the simulator's plan: an all-to-all placed with the communicator's p2p settings, as NCCL places it
                P2pSettings p2p = c.algorithm() == Algorithm.P2P ? runner.p2pSettings(c.channels()) : null;
                for (CudaPerf.Row m : CudaPerf.run(ex, cop, new long[] {size}, dt, hasRedop ? ro : ReduceOp.SUM, hasRoot ? root : 0,
                        c.algorithm(), c.protocol(), c.channels(), p2p, true, progress::line)) {
                    rows.add(new PerfRow(cop, m.bytes(), m.count(), dt, hasRedop ? ro : null, hasRoot ? root : -1, m.algo(), m.proto(),
                            m.channels(), m.timeUs(), m.algbwGbps(), m.busbwGbps()));
                }
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        // an all-to-all ran placed as NCCL places it: the readers take "placement" to simulate the same plan
        List<String> keys = cop == CollectiveOp.ALL_TO_ALL ? List.of("placement") : List.of();
        java.util.function.IntFunction<List<String>> placement = i -> List.of("nccl");
        switch (format) {
            case json: PerfRowFormats.printJson(out, rows, Provenance.of(profile, prof, topo, runner.graph(), seed), keys, placement); break;
            case csv: PerfRowFormats.printCsv(out, rows, Provenance.of(profile, prof, topo, runner.graph(), seed), keys, placement); break;
            default:
                printText(out, rows, topo.name(), topo.routing(), runner.graph().nRanks(), runner.graph().nNodes(), runner.graph(), cop, sizes,
                        "measured", "GPUs " + java.util.Arrays.toString(devices)
                        + " " + device + ", ccsim kernels, CUDA-graph timing; choices by the tuner with profile " + prof.gpu()
                        + (cop == CollectiveOp.ALL_TO_ALL ? "; each peer on its own channels, as NCCL places it" : ""));
                out.println("#");
        }
        if (chart != null && !rows.isEmpty()) {
            chartLine(out, PerfChart.write(chart, PerfChart.title(cop, topo, runner, device + ", profile " + prof.gpu()), List.of(
                    new PerfChart.Source("measured (ccsim kernels)", rows, true),
                    new PerfChart.Source("simulated, same choices", PerfChart.simulated(runner, rows), false))));
        }
        out.flush();
        return 0;
    }

    private <T> T parse(java.util.function.Supplier<T> s) {
        try {
            return s.get();
        } catch (IllegalArgumentException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    static String timeStr(double us) {
        // nccl-tests' report: %7.0f from 10 ms, %7.1f from 100 us, else %7.2f
        if (us >= 10000.0) return String.format(Locale.ROOT, "%7.0f", us);
        if (us >= 100.0) return String.format(Locale.ROOT, "%7.1f", us);
        return String.format(Locale.ROOT, "%7.2f", us);
    }

    /**
     * The text table: the header (the topology {@code topoName} of {@code nRanks} ranks on {@code nNodes} nodes, the
     * channels and bandwidths of graph {@code g}, the network's {@code routing} where there is one), the NCCL variables
     * and what-ifs applied, the rows and their mean busbw.
     */
    void printText(PrintWriter out, List<PerfRow> rows, String topoName, io.ccsim.topology.Routing routing, int nRanks,
                   int nNodes, CommGraph g,
                   CollectiveOp cop, long[] sizes, String kind, String source) {
        out.printf(Locale.ROOT, "# ccsim %s perf (%s): %s_perf on %s, nRanks %d nNodes %d, %s%s%n", BuildInfo.current().label(), kind,
                cop.cliName(), topoName, nRanks, nNodes, source, kind.startsWith("simulated") ? ", seed " + seed : "");
        out.printf(Locale.ROOT, "# minBytes %d maxBytes %d step: %s  graph: %d channels x %.1f GB/s %s%s%n", sizes[0], sizes[sizes.length - 1],
                stepBytes != null ? stepBytes + "(bytes)" : (sizeOptions.factor == null ? 2 : sizeOptions.factor) + "(factor)", g.nChannels(), g.intraBwGBs(),
                g.intraClass().jsonName(), g.nNodes() > 1 ? String.format(Locale.ROOT, ", net %.1f GB/s per channel, %s routing",
                g.interBwGBs(), routing.cliName()) : "");
        for (String line : SimSetup.ncclEnvLines(env)) out.println(line);
        for (String line : whatIf.header()) out.println(line);
        if (symmMem != null) {
            io.ccsim.algorithms.Algorithm a = io.ccsim.algorithms.plan.TorchSymmMem.parse(symmMem);
            out.printf(Locale.ROOT, "# --symm-mem %s: PyTorch's torch.ops.symm_mem.%s, not NCCL (uncalibrated: Simple step costs,"
                    + " %d barriers x %.1f us estimated); nch = thread blocks%n", symmMem, io.ccsim.algorithms.plan.TorchSymmMem.opName(a),
                    io.ccsim.algorithms.plan.TorchSymmMem.BARRIERS, io.ccsim.algorithms.plan.TorchSymmMem.BARRIER_US);
        }
        if (register == 2) {
            out.println("# -R 2: both buffers in symmetric windows: eligible calls run NCCL's symmetric kernel choice"
                    + " (uncalibrated; NCCL 2.28.9's 11 kernels), the others the normal tuner's");
        } else if (registration.header() != null && kind.startsWith("simulated")) {
            out.println(registration.header());
        }
        out.println("#");
        // nccl-tests' columns, then ccsim's algo (as wide as its longest name: NVLSTree, NCCL's kernel names), proto, nch
        int w = 6;
        for (PerfRow r : rows) w = Math.max(w, r.algo().ncclName().length());
        out.println("#       size         count      type   redop    root     time   algbw   busbw  "
                + String.format(Locale.ROOT, "%" + w + "s", "algo") + "   proto  nch");
        out.println("#        (B)    (elements)                               (us)  (GB/s)  (GB/s)");
        double sum = 0;
        String row = "%12d  %12d  %8s  %6s  %6d  %7s  %6.2f  %6.2f  %" + w + "s  %6s  %3d%n";
        for (PerfRow r : rows) {
            out.printf(Locale.ROOT, row, r.bytes(), r.count(), r.dtype().ncclTestsName(),
                    r.redop() == null ? "none" : r.redop().ncclTestsName(), r.root(), timeStr(r.timeUs()), r.algbwGbps(), r.busbwGbps(),
                    r.algo().ncclName(), r.proto().ncclName(), r.channels());
            sum += r.busbwGbps();
        }
        out.printf(Locale.ROOT, "# Avg bus bandwidth    : %g%n", rows.isEmpty() ? 0.0 : sum / rows.size());
    }
}
