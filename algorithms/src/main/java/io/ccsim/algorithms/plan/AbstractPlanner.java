package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;

/** Shared validation and the one-rank case; subclasses build the multi-rank schedule. */
abstract class AbstractPlanner implements AlgorithmPlanner {
    private final String name;
    private final CollectiveOp op;
    private final Algorithm algorithm;

    AbstractPlanner(String name, CollectiveOp op, Algorithm algorithm) {
        this.name = name;
        this.op = op;
        this.algorithm = algorithm;
    }

    @Override public String name() { return name; }

    @Override public CollectiveOp op() { return op; }

    @Override public Algorithm algorithm() { return algorithm; }

    @Override
    public final Plan plan(CollectiveCall call, PlanOptions options) {
        if (call == null || options == null) throw new IllegalArgumentException("call and options must not be null");
        if (call.op() != op) {
            throw new IllegalArgumentException("planner " + name + " compiles " + op.cliName() + ", not " + call.op().cliName());
        }
        if (options.algorithm() != algorithm) {
            throw new IllegalArgumentException("planner " + name + " implements " + algorithm.ncclName()
                    + ", but the options ask for " + options.algorithm().ncclName());
        }
        if (options.ringOrders() != null) validateRings(options, call.nRanks());
        ProtocolGeometry g = Chunking.geometry(algorithm, op, options);
        int ppn = Math.max(1, call.nRanks() / call.layout().nHosts());
        int heads = options.netHeads() == null ? ppn : options.netHeads().length;
        ChannelParts parts = new ChannelParts(call, g, algorithm, options.nChannels(), call.dtype().bytes(), heads,
                options.chunkingNodes());
        Schedule s = call.nRanks() == 1 ? new LocalSchedule(call, parts) : build(call, options, g, parts);
        return new Plan(name, call, options, g, s);
    }

    private static void validateRings(PlanOptions o, int n) {
        for (int c = 0; c < o.nChannels(); c++) {
            int[] ord = o.ringOrder(c);
            boolean[] seen = new boolean[n];
            if (ord.length != n) {
                throw new IllegalArgumentException("PlanOptions.ringOrders[" + c + "] has " + ord.length
                        + " ranks; it must be a permutation of 0.." + (n - 1));
            }
            for (int i = 0; i < n; i++) {
                if (ord[i] < 0 || ord[i] >= n || seen[ord[i]]) {
                    throw new IllegalArgumentException("PlanOptions.ringOrders[" + c + "][" + i + "] = " + ord[i]
                            + ": a ring order must be a permutation of 0.." + (n - 1));
                }
                seen[ord[i]] = true;
            }
        }
    }

    /** The schedule for n ≥ 2 ranks. */
    abstract Schedule build(CollectiveCall call, PlanOptions options, ProtocolGeometry g, ChannelParts parts);
}
