package io.ccsim.algorithms.scale;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.graph.CommGraph;
import io.ccsim.algorithms.perf.PerfRow;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.plan.CollectiveCall;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.sim.PipelineUnits;
import io.ccsim.algorithms.sim.SimExecution;
import io.ccsim.algorithms.tuner.Candidate;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.algorithms.tuner.TuneResult;
import io.ccsim.algorithms.tuner.Tuner;
import io.ccsim.sim.RunControl;
import io.ccsim.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.IntFunction;

/**
 * The time of a collective on a cluster too large to simulate, from exact simulations of the same call on fewer of
 * the same nodes: NCCL's choice at the target ({@link TargetGraph}, without building the target), the same algorithm,
 * protocol and channels simulated (folded, exact) at the sample node counts ({@link SampleNodes}), and the
 * algorithm's {@link ScalingLaw} fitted to them ({@link LawFit}) and read at the target.
 *
 * <p>Contract: the target is {@code targetNodes} boards of the builder behind {@code topologyAt}, which must build a
 * healthy cluster of any node count with the same boards, NICs and fabric (a catalog topology). {@link #plan} refuses,
 * with {@link IllegalArgumentException}, a call whose choice has no law, or a target too small for its samples. Same
 * inputs and seed give the same result.
 */
public final class Extrapolator {
    private final IntFunction<Topology> topologyAt;
    private final int targetNodes;
    private final int hostsPerLeaf;
    private final CalibrationProfile profile;
    private final NcclEnv env;
    private final long seed;
    private final TargetGraph target;
    private final Tuner tuner;
    private int[] sampleOverride;
    private RunControl control;
    private java.util.function.Function<Topology, PerfRunner.FoldedCheck> checks;

    /**
     * One simulation of a size: {@code count} elements per rank on {@code nodes} nodes, rooted at {@code root}; a
     * chain's train of {@code units} forwarding units per channel ({@link ScalingLaw#CHAIN}, {@link ScalingLaw#TRAIN};
     * 0 for other laws).
     */
    public record Sample(int nodes, long count, int root, long units) {
        /** A sample of a law that reads no train. */
        public Sample(int nodes, long count, int root) {
            this(nodes, count, root, 0);
        }
    }

    /**
     * What a size runs at the target and which samples stand for it.
     *
     * @param count    nccl-tests' per-rank count at the target
     * @param bytes    nccl-tests' size at the target
     * @param samples  the simulations, by ascending node count (a chain's: by train, then nodes)
     * @param units    the target's train, forwarding units per channel ({@link ScalingLaw#CHAIN},
     *                 {@link ScalingLaw#TRAIN}; 0 for other laws)
     */
    public record SizePlan(CollectiveOp op, DataType dtype, ReduceOp redop, int root, long count, long bytes,
                           Algorithm algo, Protocol proto, int channels, ScalingLaw law, List<Sample> samples, long units) {
        public SizePlan {
            samples = List.copyOf(samples);
        }

        /** {@code Tree/Simple x16}. */
        public String choice() {
            return algo.ncclName() + "/" + proto.ncclName() + " x" + channels;
        }
    }

    /**
     * @param topologyAt   builds the cluster of a given node count (called for 2 nodes and for each sample count;
     *                     the caller may cache)
     * @param targetNodes  the target's nodes, ≥ 2
     * @param targetName   the name of the target's topology (for the tuner's reasons)
     * @param hostsPerLeaf the hosts of a rail under one leaf switch of the fabric
     */
    public Extrapolator(IntFunction<Topology> topologyAt, int targetNodes, String targetName, int hostsPerLeaf,
                        CalibrationProfile profile, NcclEnv env, long seed) {
        this.topologyAt = Objects.requireNonNull(topologyAt, "topologyAt");
        this.profile = Objects.requireNonNull(profile, "profile");
        this.env = Objects.requireNonNull(env, "env");
        if (hostsPerLeaf < 1) throw new IllegalArgumentException("hostsPerLeaf must be >= 1, got " + hostsPerLeaf);
        this.targetNodes = targetNodes;
        this.hostsPerLeaf = hostsPerLeaf;
        this.seed = seed;
        Topology two = topologyAt.apply(2);
        this.target = new TargetGraph(CommGraph.of(two, two.gpus().size(), env.net()), two.name(), targetNodes, targetName);
        this.tuner = new Tuner(profile, env);
    }

    /** The target's graph as the tuner sees it. */
    public TargetGraph target() { return target; }

    /** Simulates these node counts instead of the law's defaults (null: the defaults); checked per law in {@link #plan}. */
    public void setSampleNodes(int[] nodes) { this.sampleOverride = nodes == null ? null : nodes.clone(); }

    /** The control every later sample simulation polls (null: none). */
    public void setRunControl(RunControl control) { this.control = control; }

    /**
     * The check each later sample runner gives its simulation once its folding is known, per sample cluster (null:
     * none); see {@link PerfRunner#setFoldedCheck}.
     */
    public void setFoldedChecks(java.util.function.Function<Topology, PerfRunner.FoldedCheck> checks) {
        this.checks = checks;
    }

    /** nccl-tests' per-rank count at the target for a size of {@code bytes}. */
    public long countFor(CollectiveOp op, long bytes, DataType dtype) {
        return PerfRunner.countFor(op, bytes, dtype, target.nRanks());
    }

    /**
     * NCCL's tuner at the target for nccl-tests size {@code bytes}: its candidates (each at the channel count NCCL
     * would use) and its pick, without simulating.
     *
     * @throws io.ccsim.algorithms.tuner.TunerException if the NCCL environment leaves nothing to choose
     */
    public TuneResult tune(CollectiveOp op, long bytes, DataType dtype, ReduceOp redop) {
        return tuneCount(op, countFor(op, bytes, dtype), dtype, redop);
    }

    private TuneResult tuneCount(CollectiveOp op, long count, DataType dtype, ReduceOp redop) {
        return tuner.tune(target.tuneInput(op, PerfRunner.sizeFor(op, count, dtype, target.nRanks()), dtype, redop));
    }

    /**
     * NCCL's choice at the target for nccl-tests size {@code bytes}, its law and its samples.
     *
     * @throws NotExtrapolatedException if the choice has no law, or a ring's target spans more than
     *                                  {@link ScalingLaw#RING_MAX_LEAF_GROUPS} leaf groups
     * @throws IllegalArgumentException if the target is too small for the law's samples, or the samples given do not
     *                                  suit it ({@link SampleNodes})
     * @throws io.ccsim.algorithms.tuner.TunerException if the NCCL environment leaves nothing to choose
     */
    public SizePlan plan(CollectiveOp op, long bytes, DataType dtype, ReduceOp redop, int root) {
        return planCount(op, countFor(op, bytes, dtype), dtype, redop, root);
    }

    /**
     * As {@link #plan(CollectiveOp, long, DataType, ReduceOp, int)} for a call of {@code count} elements per rank at
     * the target, any count (a training framework's, not rounded to nccl-tests' 16-byte blocks), {@code >= 1}.
     */
    public SizePlan planCount(CollectiveOp op, long count, DataType dtype, ReduceOp redop, int root) {
        if (count < 1) throw new IllegalArgumentException("count must be >= 1, got " + count);
        return plan(op, count, dtype, redop, root, tuneCount(op, count, dtype, redop).winner(), "NCCL's choice there");
    }

    /**
     * Candidate {@code c} of {@link #tune}'s result (any algorithm, protocol and channel count the tuner offers) at the
     * target for nccl-tests size {@code bytes}, its law and its samples; as {@link #plan(CollectiveOp, long, DataType,
     * ReduceOp, int)} for NCCL's choice, with the same refusals.
     */
    public SizePlan plan(CollectiveOp op, long bytes, DataType dtype, ReduceOp redop, int root, Candidate c) {
        return plan(op, countFor(op, bytes, dtype), dtype, redop, root, c, "a candidate there");
    }

    /**
     * The plan of {@code count} elements per rank; {@code role} names {@code c} in refusals: "NCCL's choice there" or
     * "a candidate there".
     */
    private SizePlan plan(CollectiveOp op, long count, DataType dtype, ReduceOp redop, int root, Candidate c, String role) {
        int n = target.nRanks();
        if ((op == CollectiveOp.BROADCAST || op == CollectiveOp.REDUCE) && (root < 0 || root >= n)) {
            throw new IllegalArgumentException("root " + root + " is not a rank of the " + n + "-rank target; valid: 0.."
                    + (n - 1));
        }
        long size = PerfRunner.sizeFor(op, count, dtype, n);
        String runs = String.format(Locale.ROOT, "%s of %d B on %d nodes runs %s/%s x%d (%s)", op.cliName(), size,
                targetNodes, c.algorithm().ncclName(), c.protocol().ncclName(), c.channels(), role);
        ScalingLaw law = ScalingLaw.of(c.algorithm(), op).orElseThrow(() -> new NotExtrapolatedException(runs
                + ", which is not extrapolated: " + ScalingLaw.refusal(c.algorithm(), op)));
        if (law == ScalingLaw.RING && targetNodes > ScalingLaw.RING_MAX_LEAF_GROUPS * hostsPerLeaf) {
            throw new NotExtrapolatedException(String.format(Locale.ROOT, "%s, a ring, which is extrapolated up to %d leaf"
                    + " groups (%d nodes here): on longer rings each step slows towards the slowest hop's (Ring/LL"
                    + " all-gather at the bytes per step of 12,500 nodes: 11.5 µs per node up to 256 nodes, 15.2 from 384"
                    + " to 512)", runs, ScalingLaw.RING_MAX_LEAF_GROUPS, ScalingLaw.RING_MAX_LEAF_GROUPS * hostsPerLeaf));
        }
        int ppn = target.sample().gpusPerNode();
        if (law == ScalingLaw.CHAIN) return chainPlan(op, dtype, redop, root, count, size, c, runs);
        int[] nodes = sampleOverride == null ? SampleNodes.defaults(law, targetNodes, ppn, hostsPerLeaf)
                : SampleNodes.given(law, sampleOverride, targetNodes, hostsPerLeaf);
        if (law == ScalingLaw.PEERS) { // the samples' operations must be the target's: the same channels per peer
            int want = tuner.p2pSettings(target.tuneInput(op, size, dtype, redop), c.channels()).channelsPerPeer();
            for (int s : nodes) {
                int got = runnerAt(s).p2pSettings(c.channels()).channelsPerPeer();
                if (got != want) {
                    throw new NotExtrapolatedException(String.format(Locale.ROOT, "%s; a sample of %d nodes gives each"
                            + " peer %d channels where the target gives %d, so its operations are not the target's", runs,
                            s, got, want));
                }
            }
        }
        List<Sample> samples = new ArrayList<>();
        for (int s : nodes) {
            samples.add(new Sample(s, law.sampleCount(op, count, n, s * ppn, c.channels(), dtype.bytes()), root % ppn));
        }
        return new SizePlan(op, dtype, redop, root, count, size, c.algorithm(), c.protocol(), c.channels(), law, samples, 0);
    }

    /**
     * A chain's plan: the target's train; a chain no longer than it is a TRAIN ({@link #trainPlan}), one shorter
     * than two trains but longer than one is refused but under LL, and a longer one takes samples of shorter trains
     * ({@link SampleNodes#chain}) at the counts that give them (a ring chain's chunks do not depend on the ranks, so a
     * count's train is read on 2 nodes).
     */
    private SizePlan chainPlan(CollectiveOp op, DataType dtype, ReduceOp redop, int root, long count, long size, Candidate c,
                               String runs) {
        int ppn = target.sample().gpusPerNode();
        PerfRunner two = runnerAt(2);
        long units = unitsOf(two, op, count, dtype, redop, root % ppn, c);
        long ranks = (long) targetNodes * ppn;
        if (ranks <= units) return trainPlan(op, dtype, redop, root, count, size, c, two, units);
        // between one train and two, LL's time is already on CHAIN's line (ScalingLaw's block comment); the others' not
        if (ranks < 2 * units && c.protocol() != Protocol.LL) {
            throw new NotExtrapolatedException(String.format(Locale.ROOT, "%s, a chain of %d ranks longer than its train"
                    + " (%d forwarding units per channel) but shorter than two of them, where the time jumps from TRAIN's"
                    + " plane to CHAIN's; it is extrapolated up to %d nodes and from %d nodes on at this size", runs, ranks,
                    units, units / ppn, (2 * units + ppn - 1) / ppn));
        }
        int least = SampleNodes.chainLeast(ppn, units);
        if (sampleOverride == null && targetNodes < least) {   // too small for the validated samples
            throw new NotExtrapolatedException(String.format(Locale.ROOT, "%s, a chain whose samples (trains of up to 64"
                    + " units, 4 or more trains long, on up to half the target) need %s", runs,
                    least == Integer.MAX_VALUE ? "more ranks than a sample may have" : least + " nodes or more"));
        }
        List<SampleNodes.ChainSample> design = sampleOverride == null ? SampleNodes.chain(targetNodes, ppn, units)
                : SampleNodes.chainGiven(sampleOverride, targetNodes, ppn, units);
        List<Sample> samples = new ArrayList<>();
        long lastLevel = -1;
        long levelCount = 0;
        long levelUnits = 0;
        for (SampleNodes.ChainSample d : design) {
            if (d.units() != lastLevel) {
                lastLevel = d.units();
                levelCount = d.units() == units ? count : Math.max(1, Math.round((double) count * d.units() / units));
                levelUnits = d.units() == units ? units : unitsOf(two, op, levelCount, dtype, redop, root % ppn, c);
            }
            samples.add(new Sample(d.nodes(), levelCount, root % ppn, levelUnits));
        }
        return new SizePlan(op, dtype, redop, root, count, size, c.algorithm(), c.protocol(), c.channels(), ScalingLaw.CHAIN,
                samples, units);
    }

    /**
     * The plan of a chain no longer than its train ({@link ScalingLaw#TRAIN}). Its samples run the target's train, or,
     * where half the target's count still makes a train of {@link #TRAIN_MIN_UNITS} units and twice the longest sample
     * chain, the shortest such halving of the count and its double: trains that cost what the target's do per unit
     * and per node (their bytes cost what the target's do: {@link #simulate}), at a fraction of its simulation.
     */
    private SizePlan trainPlan(CollectiveOp op, DataType dtype, ReduceOp redop, int root, long count, long size,
                               Candidate c, PerfRunner two, long units) {
        int ppn = target.sample().gpusPerNode();
        long least = Math.max(TRAIN_MIN_UNITS, 2L * 8 * ppn);
        long loCount = count;
        long loUnits = units;
        for (long half = count / 2; half >= 1; half /= 2) {
            long halfUnits = unitsOf(two, op, half, dtype, redop, root % ppn, c);
            if (halfUnits < least) break;
            loCount = half;
            loUnits = halfUnits;
        }
        long hiCount = loCount == count ? count : Math.min(count, 2 * loCount);
        long hiUnits = hiCount == count ? units : unitsOf(two, op, hiCount, dtype, redop, root % ppn, c);
        long[] trains = hiCount == loCount ? new long[] {loUnits} : new long[] {loUnits, hiUnits};
        List<SampleNodes.ChainSample> design = sampleOverride == null ? SampleNodes.train(targetNodes, ppn, trains)
                : SampleNodes.trainGiven(sampleOverride, targetNodes, ppn, trains);
        List<Sample> samples = new ArrayList<>();
        for (SampleNodes.ChainSample d : design) {
            samples.add(new Sample(d.nodes(), d.units() == loUnits ? loCount : hiCount, root % ppn, d.units()));
        }
        return new SizePlan(op, dtype, redop, root, count, size, c.algorithm(), c.protocol(), c.channels(), ScalingLaw.TRAIN,
                samples, units);
    }

    /** The shortest train a TRAIN sample runs where it runs fewer bytes than the target, units per channel. */
    static final long TRAIN_MIN_UNITS = 1024;

    /** The train of a chain of {@code count} elements per rank: the root's forwarding units on channel 0. */
    private long unitsOf(PerfRunner two, CollectiveOp op, long count, DataType dtype, ReduceOp redop, int root, Candidate c) {
        return PipelineUnits.of(profile, two.plan(op, count, dtype, redop, root, c.algorithm(), c.protocol(), c.channels()),
                root, 0);
    }

    /** A runner on the cluster of {@code nodes} nodes, folding ranks (exact), polling this extrapolator's control. */
    public PerfRunner runnerAt(int nodes) {
        Topology t = topologyAt.apply(nodes);
        PerfRunner r = new PerfRunner(t, t.gpus().size(), profile, env, seed);
        r.setFolding(SimExecution.Folding.RANKS);
        r.setRunControl(control);
        if (checks != null) r.setFoldedCheck(checks.apply(t));
        return r;
    }

    /**
     * The plan sample {@code s} of {@code p} simulates (on a runner of its node count, chunked for the target), for
     * budgets and progress; planning generates no steps.
     */
    public Plan samplePlan(SizePlan p, Sample s) {
        return runnerAt(s.nodes()).plan(p.op(), s.count(), p.dtype(), p.redop(), s.root(), p.algo(), p.proto(),
                p.channels(), targetNodes);
    }

    /**
     * Simulates {@code s} of {@code p} with {@code runner} (one of {@link #runnerAt} its node count): its time, µs. The
     * sample stands for the target: NCCL's tree chunks for the target's node count, and its bytes costing what the
     * target call's do (the cost model's cache term reads the target's working set per GPU, input plus output: a
     * sample of a 1 GiB broadcast that runs 128 KiB would otherwise find it in L2 and cost 0.377 µs a unit and 6.32 a
     * node where the target pays 0.531 and 7.54, Ring/LL on HGX H100).
     */
    public double simulate(SizePlan p, Sample s, PerfRunner runner) {
        if (runner.graph().nNodes() != s.nodes()) {
            throw new IllegalArgumentException("the runner spans " + runner.graph().nNodes() + " nodes, the sample "
                    + s.nodes());
        }
        long n = target.nRanks();
        long workingSet = (CollectiveCall.inputCount(p.op(), p.count(), n) + CollectiveCall.outputCount(p.op(), p.count(), n))
                * p.dtype().bytes();
        return runner.simulateAsPartOf(targetNodes, workingSet, p.op(), s.count(), p.dtype(), p.redop(), s.root(), p.algo(),
                p.proto(), p.channels()).timeUs();
    }

    /**
     * The plan of {@code p} at the target itself (on {@code runner}, one of {@link #runnerAt} the target's node count),
     * for budgets and progress: where a law's reading would miss the scale goals' bound and the target is small enough
     * to simulate ({@link ScalingLaw#withinGoal}), {@code --sim-mode auto} simulates the size there instead.
     */
    public Plan targetPlan(SizePlan p, PerfRunner runner) {
        requireTarget(runner);
        return runner.plan(p.op(), p.count(), p.dtype(), p.redop(), p.root(), p.algo(), p.proto(), p.channels());
    }

    /** Simulates {@code p} at the target itself (exactly, folded) with {@code runner}, as {@link #targetPlan}: its row. */
    public PerfRow simulateAtTarget(SizePlan p, PerfRunner runner) {
        requireTarget(runner);
        return runner.simulate(p.op(), p.count(), p.dtype(), p.redop(), p.root(), p.algo(), p.proto(), p.channels());
    }

    private void requireTarget(PerfRunner runner) {
        if (runner.graph().nNodes() != targetNodes) {
            throw new IllegalArgumentException("the runner spans " + runner.graph().nNodes() + " nodes, the target "
                    + targetNodes);
        }
    }

    /** The target's row from the samples' times ({@code sampleUs[i]} for {@code p.samples().get(i)}), µs. */
    public Extrapolation fit(SizePlan p, double[] sampleUs) {
        int k = p.samples().size();
        if (sampleUs.length != k) throw new IllegalArgumentException(k + " samples, " + sampleUs.length + " times");
        double[][] rows = new double[k][];
        int[] nodes = new int[k];
        long[] bytes = new long[k];
        for (int i = 0; i < k; i++) {
            Sample s = p.samples().get(i);
            nodes[i] = s.nodes();
            rows[i] = p.law().regressors(s.nodes(), s.units());
            bytes[i] = PerfRunner.sizeFor(p.op(), s.count(), p.dtype(), s.nodes() * target.sample().gpusPerNode());
        }
        double[] targetRow = p.law().regressors(targetNodes, p.units());
        LawFit fit = p.law().readsTrain() ? LawFit.of(rows, sampleUs) : LawFit.of(column(rows), sampleUs);
        return new Extrapolation(rowAt(p, fit.at(targetRow)), targetNodes, p.law(), nodes, bytes, sampleUs, fit, targetRow);
    }

    /** The target's row of {@code p} taking {@code us} µs: nccl-tests' size, count, bandwidths at the target's ranks. */
    public PerfRow rowAt(SizePlan p, double us) {
        int n = target.nRanks();
        double algbw = us > 0 ? p.bytes() / (us * 1e3) : 0;
        boolean hasRedop = p.op() == CollectiveOp.ALL_REDUCE || p.op() == CollectiveOp.REDUCE
                || p.op() == CollectiveOp.REDUCE_SCATTER;
        boolean hasRoot = p.op() == CollectiveOp.BROADCAST || p.op() == CollectiveOp.REDUCE;
        return new PerfRow(p.op(), p.bytes(), p.count(), p.dtype(), hasRedop ? p.redop() : null, hasRoot ? p.root() : -1,
                p.algo(), p.proto(), p.channels(), us, algbw, algbw * p.op().busBwFactor(n));
    }

    /** A line's regressor x from rows {@code (1, x)}, or 0 from rows {@code (1)}. */
    private static double[] column(double[][] rows) {
        double[] x = new double[rows.length];
        for (int i = 0; i < rows.length; i++) x[i] = rows[i].length > 1 ? rows[i][1] : 0;
        return x;
    }

    /** {@link #plan}, every sample simulated in turn on this thread, and {@link #fit}. */
    public Extrapolation run(CollectiveOp op, long bytes, DataType dtype, ReduceOp redop, int root) {
        SizePlan p = plan(op, bytes, dtype, redop, root);
        double[] us = new double[p.samples().size()];
        for (int i = 0; i < us.length; i++) {
            Sample s = p.samples().get(i);
            us[i] = simulate(p, s, runnerAt(s.nodes()));
        }
        return fit(p, us);
    }
}
