package io.ccsim.algorithms.perf;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.graph.CommGraph;
import io.ccsim.algorithms.plan.CollectiveCall;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.PlanOptions;
import io.ccsim.algorithms.plan.Planners;
import io.ccsim.algorithms.plan.SymmetricSupport;
import io.ccsim.algorithms.plan.TorchSymmMem;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.sim.Fabric;
import io.ccsim.algorithms.sim.SimExecution;
import io.ccsim.algorithms.sim.SimExecutor;
import io.ccsim.algorithms.tuner.Candidate;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.algorithms.tuner.SymkModel;
import io.ccsim.algorithms.tuner.TuneResult;
import io.ccsim.algorithms.tuner.Tuner;
import io.ccsim.sim.RunControl;
import io.ccsim.sim.Simulator;
import io.ccsim.topology.Topology;

/**
 * The engine of {@code ccsim perf} and {@code ccsim tune}: for each call, NCCL's choice by the
 * {@link Tuner}, then the plan of that choice timed by the {@link SimExecutor} on the topology.
 * Each call is simulated on a fresh {@link Simulator} (seeded), so results do not depend on order.
 */
public final class PerfRunner {
    private final Topology topology;
    private final CommGraph graph;
    private final CalibrationProfile profile;
    private final NcclEnv env;
    private final Tuner tuner;
    private final Planners planners = Planners.standard();
    private final long seed;
    private final SymkModel symk;
    private long lastEvents;
    private int lastMaxComponentFlows;
    private long lastFlows;
    private long lastSteps;
    private long lastSimulatedWorkers;
    private long lastWorkers;
    private int lastUnsettledRounds;
    private SimExecution.Folding folding = SimExecution.Folding.RANKS;
    private boolean registeredP2p;
    private boolean ownCalls;
    private RunControl control;
    private FoldedCheck foldedCheck;
    /** The calls being simulated, their plan and its steps times the calls (0 until asked): for {@link #runningFraction}. */
    private SimExecution[] running;
    private Plan runningPlan;
    private long runningSteps;

    public PerfRunner(Topology topology, int nRanks, CalibrationProfile profile, NcclEnv env, long seed) {
        this(topology, nRanks, profile, env, seed, null);
    }

    /**
     * As {@link #PerfRunner(Topology, int, CalibrationProfile, NcclEnv, long)}, with both buffers of every call in
     * symmetric windows when {@code symmetric} is given (nccl-tests {@code -R 2}): an eligible call runs NCCL's
     * symmetric kernel choice ({@link SymkModel}), the others the normal tuner's, as NCCL does.
     */
    public PerfRunner(Topology topology, int nRanks, CalibrationProfile profile, NcclEnv env, long seed, SymkModel symmetric) {
        this.symk = symmetric;
        this.topology = topology;
        this.graph = CommGraph.of(topology, nRanks, env.net());
        this.profile = profile;
        this.env = env;
        this.tuner = new Tuner(profile, env);
        this.seed = seed;
    }

    public CommGraph graph() { return graph; }

    /**
     * Sets (or, with null, removes) the control that every later simulation polls ({@link Simulator#setRunControl}): a
     * stop requested there ends the simulation in progress with {@link io.ccsim.sim.RunStoppedException}.
     */
    public void setRunControl(RunControl control) { this.control = control; }

    /**
     * The fraction, in [0, 1], of the steps of the simulation in progress that have run (all its calls together,
     * folded workers counted as the workers they stand for); 0 when none runs. For a watcher of the run control, on
     * the simulating thread.
     */
    public double runningFraction() {
        if (running == null) return 0;
        if (runningSteps == 0) runningSteps = Math.max(1, runningPlan.totalSteps() * running.length);
        long done = 0;
        for (SimExecution c : running) if (c != null) done += c.stepsExecuted();
        return Math.min(1.0, (double) done / runningSteps);
    }

    /**
     * What later simulations simulate: {@link SimExecution.Folding#RANKS} (the default: one worker per class of
     * equivalent workers, exact), {@link SimExecution.Folding#CHANNELS} (one channel per set of replica channels) or
     * {@link SimExecution.Folding#NONE} (every worker of every channel, the reference).
     */
    public void setFolding(SimExecution.Folding folding) {
        this.folding = java.util.Objects.requireNonNull(folding, "folding");
    }

    /** What simulations simulate ({@link #setFolding}). */
    public SimExecution.Folding folding() { return folding; }

    /** What a folded simulation is shown once its folding is known, before it runs; it may refuse it by throwing. */
    @FunctionalInterface
    public interface FoldedCheck {
        /**
         * @param plan                 the plan simulated
         * @param calls                its calls simulated together (back-to-back iterations), each with every worker's state
         * @param simulatedWorkers     workers (rank × channel × lane) simulated, over the calls
         * @param simulatedConnections connections simulated (the quotient's), over the calls
         */
        void check(Plan plan, int calls, long simulatedWorkers, long simulatedConnections);
    }

    /**
     * Sets (or, with null, removes) the check of every later simulation folded by ranks ({@link SimExecution.Folding#RANKS}),
     * called once its folding is known and before it runs: an exception it throws leaves the simulation unrun.
     */
    public void setFoldedCheck(FoldedCheck check) { this.foldedCheck = check; }

    /**
     * Whether every call's user buffers are registered with NCCL (ncclCommRegister, nccl-tests {@code -R 1}, or calls
     * captured in CUDA graphs under NCCL_GRAPH_REGISTER=1), so that send/recv and all-to-all on Simple write into the
     * receiver's buffer ({@link io.ccsim.algorithms.plan.P2pSettings#registered}); default false.
     *
     * @throws IllegalArgumentException where NCCL's registered point-to-point path is not simulated: a communicator of
     *                                  several nodes, or whose GPU pairs are not all NVLink ({@link #registeredP2pRefusal})
     */
    public void setRegisteredP2p(boolean registered) {
        if (registered) {
            String why = registeredP2pRefusal();
            if (why != null) throw new IllegalArgumentException(why);
        }
        this.registeredP2p = registered;
    }

    /** Why this communicator's registered point-to-point calls are not simulated, or null where they are. */
    public String registeredP2pRefusal() { return RegisteredBuffers.refusal(graph, profile); }

    /** Whether calls' buffers are registered ({@link #setRegisteredP2p}). */
    public boolean registeredP2p() { return registeredP2p; }

    /**
     * Whether a call is timed as NCCL's own captured call (nccl-tests' {@code -G}) rather than as the profile's
     * measurements timed it (PyTorch's captured calls): each call's time less {@code sim.framework_call_us}
     * ({@link io.ccsim.algorithms.profile.SimCosts#ownCallUs}), but a registered point-to-point call's, whose cost was
     * fitted to NCCL's own calls; default false.
     */
    public void setOwnCalls(boolean own) { this.ownCalls = own; }

    /** Whether calls are timed as NCCL's own ({@link #setOwnCalls}). */
    public boolean ownCalls() { return ownCalls; }

    public Tuner tuner() { return tuner; }

    /**
     * nccl-tests' per-rank element count for a {@code size} of {@code bytes} (see {@link PerfRow#count()}): the whole
     * elements, and for all-gather, reduce-scatter and all-to-all each rank's share rounded down to whole 16-byte
     * blocks, as nccl-tests' {@code getCollByteCount} does ({@code (count / nranks) & ~(16 / eltSize - 1)}), so that a
     * size below 16 bytes a rank has count 0.
     */
    public long countFor(CollectiveOp op, long bytes, DataType dtype) {
        return countFor(op, bytes, dtype, graph.nRanks());
    }

    /** nccl-tests' per-rank element count for a {@code size} of {@code bytes} on {@code nRanks} ranks. */
    public static long countFor(CollectiveOp op, long bytes, DataType dtype, int nRanks) {
        long elems = bytes / dtype.bytes();
        switch (op) {
            case ALL_GATHER:
            case REDUCE_SCATTER:
            case ALL_TO_ALL: return (elems / nRanks) & ~(16L / dtype.bytes() - 1);
            default: return elems;
        }
    }

    /**
     * The per-rank element count of a measured call whose size column reads {@code bytes}: the size in whole
     * elements, divided by the ranks for all-gather, reduce-scatter and all-to-all, without {@link #countFor}'s
     * rounding to 16-byte blocks (a harness other than nccl-tests may run any count; a size nccl-tests printed
     * divides exactly either way).
     */
    public long countOf(CollectiveOp op, long bytes, DataType dtype) {
        return countOf(op, bytes, dtype, graph.nRanks());
    }

    /** As {@link #countOf(CollectiveOp, long, DataType)} on {@code nRanks} ranks. */
    public static long countOf(CollectiveOp op, long bytes, DataType dtype, int nRanks) {
        long elems = bytes / dtype.bytes();
        switch (op) {
            case ALL_GATHER:
            case REDUCE_SCATTER:
            case ALL_TO_ALL: return elems / nRanks;
            default: return elems;
        }
    }

    /** nccl-tests' {@code size} column for a per-rank count (the size rounded down to whole elements). */
    public long sizeFor(CollectiveOp op, long count, DataType dtype) {
        return sizeFor(op, count, dtype, graph.nRanks());
    }

    /** nccl-tests' {@code size} column for a per-rank count on {@code nRanks} ranks. */
    public static long sizeFor(CollectiveOp op, long count, DataType dtype, int nRanks) {
        long b = count * dtype.bytes();
        switch (op) {
            case ALL_GATHER:
            case REDUCE_SCATTER:
            case ALL_TO_ALL: return b * nRanks;
            default: return b;
        }
    }

    /** NCCL's choice for {@code op} at nccl-tests size {@code bytes} of floats summed. */
    public TuneResult tune(CollectiveOp op, long bytes) {
        return tuner.tune(graph.tuneInput(op, bytes));
    }

    /** NCCL's choice for {@code op} at nccl-tests size {@code bytes} of {@code dtype} reduced by {@code redop}. */
    public TuneResult tune(CollectiveOp op, long bytes, DataType dtype, ReduceOp redop) {
        return tuner.tune(graph.tuneInput(op, bytes, dtype, redop));
    }

    /** Simulates {@code op} at nccl-tests size {@code bytes} with NCCL's choice of algorithm, protocol, channels. */
    public PerfRow run(CollectiveOp op, long bytes, DataType dtype, ReduceOp redop, int root) {
        return run(op, bytes, dtype, redop, root, 1);
    }

    /** As {@link #run(CollectiveOp, long, DataType, ReduceOp, int)}, timed as {@code iterations} back-to-back calls. */
    public PerfRow run(CollectiveOp op, long bytes, DataType dtype, ReduceOp redop, int root, int iterations) {
        return runCount(op, countFor(op, bytes, dtype), dtype, redop, root, iterations);
    }

    /**
     * Simulates {@code op} of {@code count} elements per rank with NCCL's choice of algorithm, protocol and channels,
     * timed as {@code iterations} back-to-back calls.
     */
    public PerfRow runCount(CollectiveOp op, long count, DataType dtype, ReduceOp redop, int root, int iterations) {
        Choice c = choose(op, sizeFor(op, count, dtype), dtype, redop);
        return simulate(op, count, dtype, redop, root, c.algo(), c.proto(), c.channels(), iterations);
    }

    /**
     * The plan {@link #run(CollectiveOp, long, DataType, ReduceOp, int)} times for {@code op} at nccl-tests size
     * {@code bytes}, without timing it (planning is cheap: the steps are generated, not stored); its
     * {@link Plan#totalSteps()} measure the work of the call.
     * @throws io.ccsim.algorithms.plan.UnsupportedAlgorithmException if the planner refuses NCCL's choice
     */
    public Plan plan(CollectiveOp op, long bytes, DataType dtype, ReduceOp redop, int root) {
        long count = countFor(op, bytes, dtype);
        Choice c = choose(op, sizeFor(op, count, dtype), dtype, redop);
        return plan(op, count, dtype, redop, root, c.algo(), c.proto(), c.channels());
    }

    /** What a call runs: an algorithm (or symmetric kernel), its protocol and channels (blocks). */
    private record Choice(Algorithm algo, Protocol proto, int channels) { }

    /** NCCL's choice at nccl-tests size {@code size}: the symmetric kernel where one runs, else the tuner's winner. */
    private Choice choose(CollectiveOp op, long size, DataType dtype, ReduceOp redop) {
        if (symk != null) {
            java.util.Optional<SymkModel.Choice> k = symmetricChoice(op, size, dtype, redop).choice();
            if (k.isPresent()) {
                Algorithm a = k.get().kernel();
                return new Choice(a, SymmetricSupport.protocolOf(a), k.get().blocks());
            }
        }
        Candidate c = tune(op, size, dtype, redop).winner();
        return new Choice(c.algorithm(), c.protocol(), c.channels());
    }

    /**
     * Simulates PyTorch's symmetric-memory all-reduce {@code algo} ({@link Algorithm#isTorchSymmMem()}) at nccl-tests
     * size {@code bytes}: the plan on as many channels as PyTorch launches blocks ({@link TorchSymmMem#blocks}), its
     * steps costed as the ring family's Simple steps, plus the fixed cost of its two barriers
     * ({@link TorchSymmMem#BARRIER_US}, an estimate) per call.
     * @throws io.ccsim.algorithms.plan.UnsupportedAlgorithmException with PyTorch's reason when it would not run
     */
    public PerfRow runTorchSymmMem(Algorithm algo, long bytes, DataType dtype, ReduceOp redop, int iterations) {
        if (!algo.isTorchSymmMem()) throw new IllegalArgumentException(algo.ncclName() + " is not a PyTorch symm_mem all-reduce");
        long count = countFor(CollectiveOp.ALL_REDUCE, bytes, dtype);
        int blocks = TorchSymmMem.blocks(algo, count, dtype, graph.nRanks());
        PerfRow r = simulate(CollectiveOp.ALL_REDUCE, count, dtype, redop, 0, algo, Protocol.SIMPLE, blocks, iterations);
        double us = r.timeUs() + TorchSymmMem.BARRIERS * TorchSymmMem.BARRIER_US;
        double algbw = us > 0 ? r.bytes() / (us * 1e3) : 0;
        return new PerfRow(r.op(), r.bytes(), r.count(), r.dtype(), r.redop(), r.root(), algo, Protocol.SIMPLE, blocks, us,
                algbw, algbw * CollectiveOp.ALL_REDUCE.busBwFactor(graph.nRanks()));
    }

    /**
     * NCCL's symmetric kernel for {@code op} at nccl-tests size {@code bytes}, or why none runs (also when this
     * runner has no symmetric buffers).
     */
    public SymkModel.Result symmetricChoice(CollectiveOp op, long bytes, DataType dtype, ReduceOp redop) {
        if (symk == null) return new SymkModel.Result(java.util.Optional.empty(), "buffers are not in symmetric windows");
        return symk.pick(graph.tuneInput(op, bytes, dtype, redop), profile.computeCapability(), env.p2pDisable(),
                env.nvlsEnable() != 0);
    }

    /** Simulates one call with a given algorithm, protocol and channel count. */
    public PerfRow simulate(CollectiveOp op, long count, DataType dtype, ReduceOp redop, int root,
                            Algorithm algo, Protocol proto, int channels) {
        return simulate(op, count, dtype, redop, root, algo, proto, channels, 1);
    }

    /**
     * As {@link #simulate(CollectiveOp, long, DataType, ReduceOp, int, Algorithm, Protocol, int)}, the time being the
     * mean per call of {@code iterations} back-to-back calls ({@link #simulateBackToBack}).
     */
    public PerfRow simulate(CollectiveOp op, long count, DataType dtype, ReduceOp redop, int root,
                            Algorithm algo, Protocol proto, int channels, int iterations) {
        return simulate(op, count, dtype, redop, root, algo, proto, channels, iterations, false);
    }

    /**
     * As {@link #simulate(CollectiveOp, long, DataType, ReduceOp, int, Algorithm, Protocol, int)}, this communicator
     * standing for a larger one of {@code targetNodes} of the same nodes whose call has a working set of
     * {@code targetWorkingSetBytes} per GPU: the trees' chunks are those NCCL gives the larger one
     * ({@link PlanOptions#chunkingNodes}) and the bytes cost what the larger call's do
     * ({@link PlanOptions#workingSetBytes}); everything else is this communicator's.
     */
    public PerfRow simulateAsPartOf(int targetNodes, long targetWorkingSetBytes, CollectiveOp op, long count, DataType dtype,
                                    ReduceOp redop, int root, Algorithm algo, Protocol proto, int channels) {
        return simulate(op, count, dtype, redop, root, algo, proto, channels, 1, false, targetNodes, targetWorkingSetBytes, true);
    }

    /**
     * As the shared body below, for this communicator's own call: with {@code graphTiming} the kernels' timing, an
     * all-to-all striped as their fidelity sweep ran it; without, NCCL's call, placed as NCCL places it.
     */
    private PerfRow simulate(CollectiveOp op, long count, DataType dtype, ReduceOp redop, int root,
                             Algorithm algo, Protocol proto, int channels, int iterations, boolean graphTiming) {
        return simulate(op, count, dtype, redop, root, algo, proto, channels, iterations, graphTiming, 0, 0, !graphTiming);
    }

    /**
     * The shared body: {@code graphTiming} adds the CudaExecutor's graph timing cost to the mean per call;
     * {@code ncclP2p} plans an all-to-all as NCCL places it, else striped; {@code chunkingNodes} and
     * {@code workingSetBytes} as {@link #simulateAsPartOf} (0: this call's own).
     */
    private PerfRow simulate(CollectiveOp op, long count, DataType dtype, ReduceOp redop, int root, Algorithm algo,
                             Protocol proto, int channels, int iterations, boolean graphTiming, int chunkingNodes,
                             long workingSetBytes, boolean ncclP2p) {
        int n = graph.nRanks();
        boolean hasRedop = op == CollectiveOp.ALL_REDUCE || op == CollectiveOp.REDUCE || op == CollectiveOp.REDUCE_SCATTER;
        boolean hasRoot = op == CollectiveOp.BROADCAST || op == CollectiveOp.REDUCE;
        Plan plan = plan(op, count, dtype, redop, root, algo, proto, channels, chunkingNodes, workingSetBytes, ncclP2p);
        double us = (iterations == 1 ? simulate(plan) : simulateBackToBack(plan, iterations))
                + (graphTiming ? profile.sim().graphTimingSkewUs(n, iterations) : 0.0);
        boolean registered = registeredP2p && algo == Algorithm.P2P && proto == Protocol.SIMPLE;
        if (ownCalls && !registered) us = profile.sim().ownCallUs(us);
        long size = sizeFor(op, count, dtype);
        double algbw = us > 0 ? size / (us * 1e3) : 0;
        double busbw = algbw * op.busBwFactor(n);
        return new PerfRow(op, size, count, dtype, hasRedop ? redop : null, hasRoot ? root : -1, algo, proto, channels, us, algbw, busbw);
    }

    /**
     * The plan of one call of {@code count} elements per rank with a given algorithm, protocol and channel count, on
     * this runner's communicator.
     *
     * @throws IllegalArgumentException if {@code root} is not a rank (broadcast, reduce)
     */
    public Plan plan(CollectiveOp op, long count, DataType dtype, ReduceOp redop, int root,
                     Algorithm algo, Protocol proto, int channels) {
        return plan(op, count, dtype, redop, root, algo, proto, channels, 0);
    }

    /**
     * As {@link #plan(CollectiveOp, long, DataType, ReduceOp, int, Algorithm, Protocol, int)}, the trees' chunks being
     * those of a communicator of {@code chunkingNodes} of these nodes (0: this one's; see
     * {@link PlanOptions#chunkingNodes}).
     */
    public Plan plan(CollectiveOp op, long count, DataType dtype, ReduceOp redop, int root,
                     Algorithm algo, Protocol proto, int channels, int chunkingNodes) {
        return plan(op, count, dtype, redop, root, algo, proto, channels, chunkingNodes, 0);
    }

    /**
     * As {@link #plan(CollectiveOp, long, DataType, ReduceOp, int, Algorithm, Protocol, int, int)}, the bytes costing
     * what those of a call of {@code workingSetBytes} per GPU do (0: this call's own; see
     * {@link PlanOptions#workingSetBytes}).
     */
    public Plan plan(CollectiveOp op, long count, DataType dtype, ReduceOp redop, int root,
                     Algorithm algo, Protocol proto, int channels, int chunkingNodes, long workingSetBytes) {
        return plan(op, count, dtype, redop, root, algo, proto, channels, chunkingNodes, workingSetBytes, true);
    }

    /**
     * The shared body; {@code ncclP2p}: an all-to-all placed as NCCL places it ({@link PlanOptions#p2p}), else as
     * ccsim's own kernels run it (gpu-backend's plans carry no p2p settings).
     */
    private Plan plan(CollectiveOp op, long count, DataType dtype, ReduceOp redop, int root, Algorithm algo,
                      Protocol proto, int channels, int chunkingNodes, long workingSetBytes, boolean ncclP2p) {
        int n = graph.nRanks();
        boolean hasRedop = op == CollectiveOp.ALL_REDUCE || op == CollectiveOp.REDUCE || op == CollectiveOp.REDUCE_SCATTER;
        boolean hasRoot = op == CollectiveOp.BROADCAST || op == CollectiveOp.REDUCE;
        if (hasRoot && (root < 0 || root >= n)) {
            throw new IllegalArgumentException("root " + root + " is not a rank of the " + n + "-rank communicator; valid: 0.." + (n - 1));
        }
        CollectiveCall call = new CollectiveCall(op, count, dtype, hasRedop ? redop : ReduceOp.SUM, hasRoot ? root : 0, graph.layout());
        PlanOptions opts = PlanOptions.of(algo, proto, channels).withChunkingNodes(chunkingNodes)
                .withWorkingSetBytes(workingSetBytes);
        if (proto == Protocol.SIMPLE && env.buffSizeBytes().isPresent()) opts = opts.withBufferBytes(env.buffSizeBytes().getAsLong());
        if (algo == Algorithm.RING) opts = opts.withRingOrders(graph.ringOrders(channels));
        // NCCL's placement, or its registered buffers (which only NCCL's plan has)
        if (algo == Algorithm.P2P && (ncclP2p || registeredP2p)) opts = opts.withP2p(p2pSettings(channels));
        if (algo == Algorithm.COLLNET_DIRECT && graph.collNet().available()) {
            opts = opts.withNetHeads(graph.collNet().headLocals()); // the NICs' GPUs, as NCCL's collNetHeads
        } else if (algo == Algorithm.NVLS_TREE && graph.nNodes() > 1 && graph.nvls().available()) {
            opts = opts.withNetHeads(graph.nvls().headLocals()); // the NICs' GPUs, as NCCL's NVLS heads
        }
        return planners.plan(call, opts);
    }

    /** The communicator's point-to-point settings on this runner's cluster, for plans of {@code channels} p2p channels. */
    public io.ccsim.algorithms.plan.P2pSettings p2pSettings(int channels) {
        return tuner.p2pSettings(graph.tuneInput(CollectiveOp.ALL_TO_ALL, 0), channels).withRegistered(registeredP2p);
    }

    /**
     * The per-call time gpu-backend's CudaExecutor measures for this call run with {@code channels} channels: the mean of
     * {@link #cudaPerfIterations} back-to-back calls ({@link #simulateBackToBack}) plus what its graph timing adds,
     * the later ranks' host graph launches ({@link io.ccsim.algorithms.profile.SimCosts#graphTimingSkewUs}).
     */
    public PerfRow simulateGraphReplay(CollectiveOp op, long count, DataType dtype, ReduceOp redop, int root,
                                       Algorithm algo, Protocol proto, int channels) {
        return simulateGraphReplay(op, count, dtype, redop, root, algo, proto, channels, false);
    }

    /**
     * As {@link #simulateGraphReplay(CollectiveOp, long, DataType, ReduceOp, int, Algorithm, Protocol, int)};
     * {@code ncclPlaced}: an all-to-all placed with this communicator's p2p settings, as NCCL places it and
     * {@code perf --backend cuda} runs it, else striped over every channel, as the kernels' fidelity sweep runs it.
     */
    public PerfRow simulateGraphReplay(CollectiveOp op, long count, DataType dtype, ReduceOp redop, int root,
                                       Algorithm algo, Protocol proto, int channels, boolean ncclPlaced) {
        return simulate(op, count, dtype, redop, root, algo, proto, channels, cudaPerfIterations(sizeFor(op, count, dtype)), true,
                0, 0, ncclPlaced);
    }

    /** Simulated time of one plan, µs, all ranks launched at time 0. */
    public double simulate(Plan plan) {
        return runChained(plan, 1)[0].endTimePs() / 1e6;
    }

    /**
     * Iterations per timed size of the CudaExecutor's graph replays (gpu-backend CudaPerf.itersFor: 10 from 256 MiB,
     * 20 from 16 MiB, else 50): what {@link #simulateBackToBack} needs to predict its per-call times.
     */
    public static int cudaPerfIterations(long bytes) {
        if (bytes >= (256L << 20)) return 10;
        if (bytes >= (16L << 20)) return 20;
        return 50;
    }

    /** Iterations simulated for real by {@link #simulateBackToBack}; the rest are extrapolated at the steady period. */
    public static final int SIMULATED_ITERATIONS = 3;

    /**
     * Mean time per call, µs, of {@code iterations} back-to-back calls of {@code plan}, as nccl-tests and a CUDA-graph
     * replay time them (the total from the first launch to the last completion, divided by the count): rank r launches
     * call i+1 the moment it finished call i, so one rank's next call overlaps the tail of its peers' current one (a
     * broadcast's root starts the next broadcast while the last rank still receives). The first
     * {@value #SIMULATED_ITERATIONS} calls are simulated on one fabric; beyond, calls repeat at the steady period
     * P = (end of call 3 − end of call 1) / 2, so the mean is (end₁ + (iterations − 1)·P) / iterations. Each call has its
     * own connections (slots and credits), so a rank's next call does not wait for slots its peer still holds — at
     * most 8 slots of slack per connection.
     */
    public double simulateBackToBack(Plan plan, int iterations) {
        if (iterations < 1) throw new IllegalArgumentException("iterations must be >= 1, got " + iterations);
        if (iterations == 1) return simulate(plan);
        int m = Math.min(iterations, SIMULATED_ITERATIONS);
        SimExecution[] calls = runChained(plan, m);
        double end1 = calls[0].endTimePs() / 1e6;
        double endM = calls[m - 1].endTimePs() / 1e6;
        if (iterations == m) return endM / m;
        double period = (endM - end1) / (m - 1);
        return (end1 + (iterations - 1) * period) / iterations;
    }

    /**
     * Runs {@code m} calls of {@code plan} on one fabric, rank r launching call i+1 when it finished call i (all ranks
     * launch call 1 at time 0); checks that every call completed and records the run's event, flow and step counts.
     */
    private SimExecution[] runChained(Plan plan, int m) {
        if (control != null) control.checkpoint();
        Simulator sim = new Simulator(seed);
        sim.setRunControl(control);
        Fabric fabric = new Fabric(sim, topology, profile, false); // times only: no link counters
        fabric.setP2pDisabled(env.p2pDisable());
        fabric.setNetPolicy(env.net());
        SimExecutor ex = new SimExecutor(sim, fabric);
        SimExecution[] calls = new SimExecution[m];
        for (int i = m - 1; i >= 0; i--) {
            final SimExecution next = i + 1 < m ? calls[i + 1] : null;
            calls[i] = ex.start(plan, graph.gpuOfRank(), new SimExecution.Listener() {
                @Override
                public void onRankDone(int rank, long timePs) {
                    if (next != null) next.launch(rank);
                }

                @Override
                public void onAllDone(long timePs) { }
            }, folding);
        }
        if (foldedCheck != null && folding == SimExecution.Folding.RANKS) {
            long workers = 0;
            long conns = 0;
            for (SimExecution c : calls) {
                workers += (long) c.simulatedWorkers() * plan.nLanes();
                conns += c.simulatedConnections();
            }
            foldedCheck.check(plan, m, workers, conns);
        }
        calls[0].launchAll();
        running = calls;
        runningPlan = plan;
        runningSteps = 0;
        try {
            sim.run();
        } finally {
            running = null;
            runningPlan = null;
        }
        for (int i = 0; i < m; i++) {
            if (!calls[i].isDone()) {
                throw new StalledRunException("the " + (m == 1 ? "" : "call " + (i + 1) + " of the ") + describe(plan)
                        + " stopped before completion (a link is down?): "
                        + calls[i].blockedWorkers().stream().limit(3).map(Object::toString).reduce((x, y) -> x + "; " + y).orElse(""));
            }
        }
        lastEvents = sim.dispatchedCount();
        lastMaxComponentFlows = fabric.network().maxComponentFlows();
        lastFlows = 0;
        lastSteps = 0;
        lastSimulatedWorkers = 0;
        lastWorkers = 0;
        lastUnsettledRounds = 0;
        for (SimExecution c : calls) {
            lastUnsettledRounds = Math.max(lastUnsettledRounds, c.foldingUnsettledRounds());
            lastFlows += c.flowsStarted();
            lastSteps += c.stepsExecuted();
            lastSimulatedWorkers += c.simulatedWorkers();
            lastWorkers += c.workerCount();
        }
        return calls;
    }

    /** The largest set of flows the flow network solved together in the last simulation. */
    public int lastMaxComponentFlows() { return lastMaxComponentFlows; }

    /** Events dispatched by the last simulation. */
    public long lastEvents() { return lastEvents; }

    /** Flows started by the last simulation. */
    public long lastFlows() { return lastFlows; }

    /** Workers (actor, channel) the last simulation simulated, over its calls (fewer than {@link #lastWorkers} when folded). */
    public long lastSimulatedWorkers() { return lastSimulatedWorkers; }

    /**
     * The most rounds after which a rank folding of the last simulation stopped unsettled (its workers all simulated),
     * or 0 (see {@link SimExecution#foldingUnsettledRounds}).
     */
    public int lastUnsettledRounds() { return lastUnsettledRounds; }

    /** Workers (actor, channel) of the last simulation's calls. */
    public long lastWorkers() { return lastWorkers; }

    /** Steps executed by the last simulation. */
    public long lastSteps() { return lastSteps; }

    /** {@code Tree/LL128 x16 all_reduce of 262,144 float on 16 ranks}: a plan as a user names it. */
    static String describe(Plan plan) {
        return String.format(java.util.Locale.ROOT, "%s %s of %,d %s on %d ranks", plan.label(), plan.call().op().cliName(),
                plan.call().count(), plan.call().dtype(), plan.nRanks());
    }
}
