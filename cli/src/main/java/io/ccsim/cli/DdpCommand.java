package io.ccsim.cli;

import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ddp.BucketAssigner;
import io.ccsim.algorithms.ddp.DdpResult;
import io.ccsim.algorithms.ddp.DdpStep;
import io.ccsim.algorithms.ddp.DdpSweep;
import io.ccsim.algorithms.ddp.FsdpResult;
import io.ccsim.algorithms.ddp.FsdpStep;
import io.ccsim.algorithms.ddp.MlpModel;
import io.ccsim.algorithms.ddp.StepOptions;
import io.ccsim.algorithms.ddp.StepProfile;
import io.ccsim.algorithms.ddp.StepProfileJson;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.scale.Extrapolator;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.algorithms.tuner.TunerException;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Topology;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code ccsim ddp}: one data-parallel training step, its gradients all-reduced in DDP's buckets (or, with
 * {@code --mode fsdp}, gathered and reduce-scattered per unit as FSDP does) while backward runs, every collective
 * timed by ccsim's tuner and simulator on the topology: iteration time, exposed communication, the per-bucket
 * timeline, and with {@code --sweep} the best {@code bucket_cap_mb}. The model is {@link DdpStep}'s and
 * {@link FsdpStep}'s; its validation against real DDP jobs is experiments/ddp-h100x4/README.md.
 */
@Command(name = "ddp", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Simulate one PyTorch DDP training step, or FSDP's, and find the best bucket_cap_mb.",
                "Gradients are bucketed as DDP's reducer does; each bucket is all-reduced on NCCL's stream once its"
                        + " gradients are ready, overlapping backward; every collective is timed by ccsim's tuner and"
                        + " simulator on the topology. --sweep names the best bucket_cap_mb; --mode fsdp simulates FSDP"
                        + " (ZeRO-3) per-module all-gathers with prefetch and gradient reduce-scatters instead. NCCL_*"
                        + " variables are read from the environment as for perf."})
final class DdpCommand implements Callable<Integer>, Main.NeedsEnv, Main.NeedsSession {
    enum Mode { ddp, fsdp }

    enum Format { text, json }

    /** Where the step's gradients come from: one of the two. */
    static final class Source {
        @Option(names = "--grads", required = true, paramLabel = "FILE",
                description = "per-parameter gradient bytes and ready times, forward and backward times (JSON of"
                        + " tools/ddp-measure/ddp_buckets.py; measured iteration times in it are shown beside)")
        Path grads;
        @Option(names = "--model", required = true, paramLabel = "SPEC",
                description = "a model by layer sizes: mlp:L=LAYERS,d=WIDTH,tokens=TOKENS[,dtype=TYPE] (L blocks of"
                        + " Linear d->4d, GELU, Linear 4d->d); needs --tflops")
        String model;
    }

    @Spec CommandSpec spec;
    private Map<String, String> env = Map.of();
    private Main.Session session;

    @ArgGroup(exclusive = true, multiplicity = "1") Source source;
    @Option(names = "--tflops", paramLabel = "T", description = "with --model: achieved matrix throughput, TFLOP/s (backward"
            + " = 2x forward FLOPs)")
    Double tflops;
    @Option(names = "--topology", required = true, paramLabel = "NAME|FILE", description = "catalog name or topology JSON file")
    String topology;
    @Option(names = "--gpus", paramLabel = "N", defaultValue = "0", description = "GPUs of one board: the world size (default: all)")
    int gpus;
    @Option(names = "--nodes", paramLabel = "M", defaultValue = "1", description = "nodes of a cluster (default: ${DEFAULT-VALUE})")
    int nodes;
    @Mixin WhatIfOptions whatIf = new WhatIfOptions();

    @Mixin ProgressOption progressOption = new ProgressOption();
    @Option(names = "--profile", paramLabel = "FILE|NAME", description = "calibration profile JSON, or a built-in name (h100, h200, l40s, b200); default: built-in for the GPU model")
    Path profile;
    @Option(names = "--mode", defaultValue = "ddp", paramLabel = "ddp|fsdp",
            description = "ddp: DDP's bucketed all-reduces; fsdp: FSDP full sharding (default: ${DEFAULT-VALUE})")
    Mode mode;
    @Option(names = "--bucket-cap-mb", paramLabel = "MB",
            description = "DDP's bucket_cap_mb (MiB; default: DDP's 25 with its 1 MiB first bucket; given, the first bucket"
                    + " takes it too, as in DDP)")
    Double capMb;
    @Option(names = "--first-bucket-mb", paramLabel = "MB", description = "the first bucket's limit (MiB), overriding DDP's rule")
    Double firstMb;
    @Option(names = "--sweep", paramLabel = "MB", split = ",",
            description = "simulate each bucket_cap_mb and name the best, e.g. 1,2,5,10,25,50,100,200")
    List<Double> sweep;
    @Option(names = "--overlap", paramLabel = "R", defaultValue = "" + StepOptions.DEFAULT_OVERLAP,
            description = "compute speed while a collective runs, 0..1: 0 the GPU runs one or the other (measured on"
                    + " 4 x H100), 1 unaffected (default: ${DEFAULT-VALUE})")
    double overlap;
    @Option(names = "--launch-us", paramLabel = "US", defaultValue = "" + StepOptions.DEFAULT_LAUNCH_US,
            description = "host time to enqueue one collective, us (default: ${DEFAULT-VALUE}, measured)")
    double launchUs;
    @Option(names = "--copy-tbps", paramLabel = "T", defaultValue = "" + StepOptions.DEFAULT_COPY_TBPS,
            description = "device copy rate for DDP's and FSDP's copies, TB/s read+written (default: ${DEFAULT-VALUE}, measured)")
    double copyTbps;
    @Option(names = "--grad-as-bucket-view", description = "DDP's gradient_as_bucket_view=True: no copy back from the buckets")
    boolean bucketView;
    @Option(names = "--dtype", paramLabel = "TYPE", description = "gradient element type (default: the file's, else float32)")
    String dtype;
    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json", description = "text|json (default: ${DEFAULT-VALUE})")
    Format format;
    @Option(names = "--seed", defaultValue = "0", paramLabel = "S", description = "simulation seed (default: ${DEFAULT-VALUE})")
    long seed;
    @Option(names = "--sim-mode", defaultValue = "folded", paramLabel = "folded|extrapolated|auto",
            description = "how each distinct collective is timed: folded simulates every GPU of the cluster (exact, equal"
                    + " ranks simulated once); extrapolated reads it from exact simulations on fewer of the same nodes"
                    + " (healthy catalog clusters; the output states each law and its measured error); auto: folded up to "
                    + PerfCommand.AUTO_FOLDED_MAX_GPUS + " GPUs, beyond that extrapolated where NCCL's choice has a law"
                    + " and folded where not, or where the law reads it beyond 2 %% (the trees: Tree, NVLSTree) up to "
                    + AutoAtTarget.MAX_GPUS + " GPUs (default: ${DEFAULT-VALUE})")
    SimMode simMode;

    enum SimMode { folded, extrapolated, auto }

    @Override
    public void setEnv(Map<String, String> env) { this.env = env; }

    @Override
    public void setSession(Main.Session session) { this.session = session; }

    @Override
    public Integer call() {
        StepOptions options = options();
        StepProfile prof = loadProfile();
        checkCaps();
        NcclEnv nccl = SimSetup.ncclEnv(env);
        session.stoppable();
        DdpCollectives collectives;
        String topoName;
        int ranks;
        Provenance provenance;
        String profileLabel;
        SampleClusters.Start start = extrapolation(nccl);
        Extrapolator ex = start == null ? null : start.extrapolator();
        if (ex == null) {
            Target t = target(nccl, false);
            collectives = new DdpCollectives(null, null, t::runner, session);
            topoName = t.topology().name();
            ranks = t.runner().graph().nRanks();
            provenance = Provenance.of(profile, t.profile(), t.topology(), t.runner().graph(), seed);
            profileLabel = SimSetup.profileLabel(profile, t.profile());
        } else {
            collectives = new DdpCollectives(ex, clusters, simMode == SimMode.auto ? () -> target(nccl, true).runner() : null,
                    session);
            topoName = ex.target().name();
            ranks = ex.target().nRanks();
            provenance = SampleClusters.provenance(profile, start.profile(), start.two(), ex, seed);
            profileLabel = SimSetup.profileLabel(profile, start.profile());
        }
        // the status line: the collective being simulated (each distinct one once) and how far it is
        Progress progress = progressOption.open(spec.commandLine().getErr(), session);
        String[] current = {""};
        io.ccsim.algorithms.ddp.CollectiveCosts costs = (op, bytes, dt) -> {
            current[0] = String.format(java.util.Locale.ROOT, "ddp: %s %s (distinct collective %d)", op.cliName(),
                    Sizes.human(bytes), collectives.found().size() + 1);
            return collectives.cost(op, bytes, dt);
        };
        session.control().setWatcher(sim -> progress.show(current[0], collectives.runningFraction()));
        long t0 = session.clock().getAsLong();
        DdpReport report = new DdpReport(spec.commandLine().getOut(), format == Format.json);
        Runnable body;   // the step is simulated first: a call refused there leaves no partial output
        try {
            if (mode == Mode.fsdp) {
                FsdpResult r = FsdpStep.simulate(prof, ranks, costs, options);
                body = () -> report.fsdp(prof, r);
            } else if (sweep != null) {
                List<DdpSweep.Point> points = DdpSweep.run(prof, sweepCaps(), costs, options);
                DdpSweep.Point best = DdpSweep.best(points);
                body = () -> {
                    report.sweep(prof, points, best, DdpSweep.bestMeasured(points), ranks);
                    report.ddp(prof, best.capMb(), best.firstCapBytes(), best.result(), ranks);
                };
            } else {
                double cap = capMb == null ? BucketAssigner.DEFAULT_CAP_MB : capMb;
                long capBytes = BucketAssigner.capBytes(cap);
                long first = firstMb != null ? BucketAssigner.capBytes(firstMb)
                        : capMb == null ? BucketAssigner.DEFAULT_FIRST_BUCKET_BYTES : capBytes;
                DdpResult r = DdpStep.simulate(prof, BucketAssigner.assign(prof, capBytes, first), costs, options);
                body = () -> report.ddp(prof, cap, first, r, ranks);
            }
        } catch (TunerException | io.ccsim.algorithms.plan.UnsupportedAlgorithmException e) {
            throw new UserException(e.getMessage(), e);
        } catch (io.ccsim.algorithms.perf.StalledRunException e) {
            throw whatIf.stalled(e);
        } finally {
            session.control().setWatcher(null);
            progress.clear();
        }
        report.header(mode == Mode.fsdp ? "FSDP (ZeRO-3)" : "DDP", topoName, ranks, profileLabel, sourceLabel(), prof, options,
                headerLines(), provenance);
        body.run();
        report.finish(collectives.found(), ex == null ? List.of() : collectives.modeLines(simMode == SimMode.auto),
                simMode.name(), (session.clock().getAsLong() - t0) / 1e9);
        return 0;
    }

    /** The sample clusters of an extrapolating run (null in a folded run). */
    private SampleClusters clusters;

    /**
     * Where {@code --sim-mode} extrapolates (extrapolated; auto beyond {@link PerfCommand#AUTO_FOLDED_MAX_GPUS} GPUs of
     * a healthy catalog cluster), its start: the sample clusters' profile and the extrapolator to the cluster; else null.
     */
    private SampleClusters.Start extrapolation(NcclEnv nccl) {
        if (simMode == SimMode.folded) return null;
        BuildOptions target = new BuildOptions(gpus, nodes, whatIf.oversubscription, seed, whatIf.nicsPerNode, false);
        if (simMode == SimMode.auto) {
            if (!PerfCommand.beyondAutoFolded(topology, target) || !whatIf.degrade.isEmpty() || !whatIf.down.isEmpty()) {
                return null;
            }
        } else {
            SampleClusters.requireExtrapolable(topology, whatIf, nodes, "--sim-mode folded");
        }
        clusters = new SampleClusters(topology, gpus, whatIf, false, seed, session, nccl, 1);
        return clusters.start(profile, nodes, 0, "ddp --sim-mode " + simMode);
    }

    /** The whole cluster, its profile and the runner that simulates it folded (exact). */
    private record Target(Topology topology, CalibrationProfile profile, PerfRunner runner) { }

    /**
     * The whole cluster, built; {@code foldedBudget}: held to the heap of a folded run (auto's calls without a law),
     * else to that of simulating every worker.
     */
    private Target target(NcclEnv nccl, boolean foldedBudget) {
        boolean offer = simMode == SimMode.folded && TopologyArgs.isCatalog(topology) && nodes > 1;
        Topology topo = whatIf.resolve(topology, gpus, nodes, seed, false, new TopologyArgs.Guard(session.control(),
                session.budget(), nccl.net(), 1, offer ? "--sim-mode auto, " : "", foldedBudget));
        CalibrationProfile cal = SimSetup.profile(profile, topo);
        PerfRunner runner = new PerfRunner(topo, topo.gpus().size(), cal, nccl, seed);
        runner.setRunControl(session.control());
        return new Target(topo, cal, runner);
    }

    private StepOptions options() {
        if (!(overlap >= 0 && overlap <= 1)) throw bad("--overlap: invalid " + overlap + "; valid: a number from 0 to 1");
        if (!(launchUs >= 0) || Double.isInfinite(launchUs)) throw bad("--launch-us: invalid " + launchUs + "; valid: a number >= 0");
        if (!(copyTbps > 0) || Double.isInfinite(copyTbps)) throw bad("--copy-tbps: invalid " + copyTbps + "; valid: a number > 0");
        return new StepOptions(overlap, Math.round(launchUs * 1e6), copyTbps * 1e12, bucketView);
    }

    private void checkCaps() {
        if (capMb != null && !(capMb > 0)) throw bad("--bucket-cap-mb: invalid " + capMb + "; valid: a number > 0 (MiB)");
        if (firstMb != null && !(firstMb > 0)) throw bad("--first-bucket-mb: invalid " + firstMb + "; valid: a number > 0 (MiB)");
        if (sweep != null) {
            if (mode == Mode.fsdp) throw bad("--sweep: applies to --mode ddp (FSDP has no buckets)");
            if (capMb != null || firstMb != null) throw bad("--sweep: give the caps there, not with --bucket-cap-mb/--first-bucket-mb");
            for (Double c : sweep) {
                if (c == null || !(c > 0) || c.isInfinite()) throw bad("--sweep: invalid cap " + c + "; valid: numbers > 0 (MiB)");
            }
        }
        if (mode == Mode.fsdp && (capMb != null || firstMb != null || bucketView)) {
            throw bad("--bucket-cap-mb/--first-bucket-mb/--grad-as-bucket-view: apply to --mode ddp, not fsdp");
        }
    }

    private double[] sweepCaps() {
        double[] caps = new double[sweep.size()];
        for (int i = 0; i < caps.length; i++) caps[i] = sweep.get(i);
        return caps;
    }

    private StepProfile loadProfile() {
        StepProfile p;
        if (source.grads != null) {
            if (tflops != null) throw bad("--tflops: applies to --model; the file gives the compute times");
            try {
                p = StepProfileJson.parse(TopologyArgs.readText(source.grads, "gradient profile"), source.grads.toString());
            } catch (IllegalArgumentException e) {
                throw new UserException(e.getMessage(), e);
            }
        } else {
            if (tflops == null) throw bad("--model needs --tflops T (the achieved matrix throughput, TFLOP/s)");
            try {
                p = MlpModel.parse(source.model, tflops);
            } catch (IllegalArgumentException e) {
                throw bad("--model: " + e.getMessage());
            }
        }
        if (dtype == null) return p;
        DataType dt;
        try {
            dt = DataType.parse(dtype);
        } catch (IllegalArgumentException e) {
            throw bad("--dtype: " + e.getMessage());
        }
        try {
            return new StepProfile(p.gradients(), p.forwardPs(), p.backwardPs(), dt, p.worldSize(), p.measured());
        } catch (IllegalArgumentException e) {
            throw bad("--dtype " + dtype + ": " + e.getMessage());
        }
    }

    /** The header's lines for the NCCL variables and the what-ifs applied ({@code # what-if: ...}). */
    private List<String> headerLines() {
        List<String> lines = new java.util.ArrayList<>(SimSetup.ncclEnvLines(env));
        lines.addAll(whatIf.header());
        return lines;
    }

    private String sourceLabel() {
        return source.grads != null ? source.grads.getFileName().toString() : source.model + " at " + tflops + " TFLOP/s";
    }

    private ParameterException bad(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
