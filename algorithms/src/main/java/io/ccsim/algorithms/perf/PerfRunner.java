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
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.sim.Fabric;
import io.ccsim.algorithms.sim.SimExecution;
import io.ccsim.algorithms.sim.SimExecutor;
import io.ccsim.algorithms.tuner.Candidate;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.algorithms.tuner.TuneResult;
import io.ccsim.algorithms.tuner.Tuner;
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
    private long lastEvents;
    private long lastFlows;
    private long lastSteps;

    public PerfRunner(Topology topology, int nRanks, CalibrationProfile profile, NcclEnv env, long seed) {
        this.topology = topology;
        this.graph = CommGraph.of(topology, nRanks);
        this.profile = profile;
        this.env = env;
        this.tuner = new Tuner(profile, env);
        this.seed = seed;
    }

    public CommGraph graph() { return graph; }

    public Tuner tuner() { return tuner; }

    /** nccl-tests' per-rank element count for a {@code size} of {@code bytes} (see {@link PerfRow#count()}). */
    public long countFor(CollectiveOp op, long bytes, DataType dtype) {
        long elems = bytes / dtype.bytes();
        switch (op) {
            case ALL_GATHER:
            case REDUCE_SCATTER:
            case ALL_TO_ALL: return elems / graph.nRanks();
            default: return elems;
        }
    }

    /** nccl-tests' {@code size} column for a per-rank count (the size rounded down to whole elements). */
    public long sizeFor(CollectiveOp op, long count, DataType dtype) {
        long b = count * dtype.bytes();
        switch (op) {
            case ALL_GATHER:
            case REDUCE_SCATTER:
            case ALL_TO_ALL: return b * graph.nRanks();
            default: return b;
        }
    }

    /** NCCL's choice for {@code op} at nccl-tests size {@code bytes}. */
    public TuneResult tune(CollectiveOp op, long bytes) {
        return tuner.tune(graph.tuneInput(op, bytes));
    }

    /** Simulates {@code op} at nccl-tests size {@code bytes} with NCCL's choice of algorithm, protocol, channels. */
    public PerfRow run(CollectiveOp op, long bytes, DataType dtype, ReduceOp redop, int root) {
        long count = countFor(op, bytes, dtype);
        long size = sizeFor(op, count, dtype);
        Candidate c = tune(op, size).winner();
        return simulate(op, count, dtype, redop, root, c.algorithm(), c.protocol(), c.channels());
    }

    /** Simulates one call with a given algorithm, protocol and channel count. */
    public PerfRow simulate(CollectiveOp op, long count, DataType dtype, ReduceOp redop, int root,
                            Algorithm algo, Protocol proto, int channels) {
        int n = graph.nRanks();
        boolean hasRedop = op == CollectiveOp.ALL_REDUCE || op == CollectiveOp.REDUCE || op == CollectiveOp.REDUCE_SCATTER;
        boolean hasRoot = op == CollectiveOp.BROADCAST || op == CollectiveOp.REDUCE;
        if (hasRoot && (root < 0 || root >= n)) {
            throw new IllegalArgumentException("root " + root + " is not a rank of the " + n + "-rank communicator; valid: 0.." + (n - 1));
        }
        CollectiveCall call = new CollectiveCall(op, count, dtype, hasRedop ? redop : ReduceOp.SUM, hasRoot ? root : 0, graph.layout());
        PlanOptions opts = PlanOptions.of(algo, proto, channels);
        if (proto == Protocol.SIMPLE && env.buffSizeBytes().isPresent()) opts = opts.withBufferBytes(env.buffSizeBytes().getAsLong());
        if (algo == Algorithm.RING) opts = opts.withRingOrders(graph.ringOrders(channels));
        Plan plan = planners.plan(call, opts);
        double us = simulate(plan);
        long size = sizeFor(op, count, dtype);
        double algbw = us > 0 ? size / (us * 1e3) : 0;
        double busbw = algbw * op.busBwFactor(n);
        return new PerfRow(op, size, count, dtype, hasRedop ? redop : null, hasRoot ? root : -1, algo, proto, channels, us, algbw, busbw);
    }

    /** Simulated time of one plan, µs, all ranks launched at time 0. */
    public double simulate(Plan plan) {
        Simulator sim = new Simulator(seed);
        Fabric fabric = new Fabric(sim, topology, profile);
        fabric.setP2pDisabled(env.p2pDisable());
        SimExecution x = new SimExecutor(sim, fabric).start(plan, graph.gpuOfRank(), t -> { });
        x.launchAll();
        sim.run();
        if (!x.isDone()) {
            throw new IllegalStateException("simulation of " + plan + " stopped before completion (a link is down?): "
                    + x.blockedWorkers().stream().limit(3).map(Object::toString).reduce((a, b) -> a + "; " + b).orElse(""));
        }
        lastEvents = sim.dispatchedCount();
        lastFlows = x.flowsStarted();
        lastSteps = x.stepsExecuted();
        return x.endTimePs() / 1e6;
    }

    /** Events dispatched by the last simulation. */
    public long lastEvents() { return lastEvents; }

    /** Flows started by the last simulation. */
    public long lastFlows() { return lastFlows; }

    /** Steps executed by the last simulation. */
    public long lastSteps() { return lastSteps; }
}
