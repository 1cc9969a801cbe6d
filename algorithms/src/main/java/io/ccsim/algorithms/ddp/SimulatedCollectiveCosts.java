package io.ccsim.algorithms.ddp;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.perf.PerfRow;
import io.ccsim.algorithms.perf.PerfRunner;
import java.util.HashMap;
import java.util.Map;

/**
 * Collective times from ccsim's own model: NCCL's choice by the tuner, then its plan timed by the simulator on the
 * topology ({@link PerfRunner#run}), one call launched on every rank at once. Each distinct (op, size, type) is
 * simulated once and remembered, so a sweep over bucket caps costs one simulation per distinct bucket size.
 */
public final class SimulatedCollectiveCosts implements CollectiveCosts {
    private record Key(CollectiveOp op, long bytes, DataType dtype) { }

    private final PerfRunner runner;
    private final Map<Key, CollectiveCost> cache = new HashMap<>();
    private long simulations;

    /** Costs from {@code runner}'s topology, ranks, profile and NCCL environment. */
    public SimulatedCollectiveCosts(PerfRunner runner) {
        this.runner = java.util.Objects.requireNonNull(runner, "runner");
    }

    @Override
    public CollectiveCost cost(CollectiveOp op, long bytes, DataType dtype) {
        Key k = new Key(op, bytes, dtype);
        CollectiveCost c = cache.get(k);
        if (c != null) return c;
        long count = countOf(op, bytes, dtype, runner.graph().nRanks());
        PerfRow row = runner.runCount(op, count, dtype, ReduceOp.SUM, 0, 1);
        simulations++;
        c = new CollectiveCost(Math.round(row.timeUs() * 1e6), row.algo(), row.proto(), row.channels());
        cache.put(k, c);
        return c;
    }

    /**
     * The per-rank element count of a call of {@code bytes} on {@code ranks} ranks, any whole count (a training
     * framework pads its buffers to whole elements per rank, not to nccl-tests' 16-byte blocks).
     *
     * @throws IllegalArgumentException if {@code bytes} is not a whole, positive number of elements per rank
     */
    public static long countOf(CollectiveOp op, long bytes, DataType dtype, int ranks) {
        long count = PerfRunner.countOf(op, bytes, dtype, ranks);
        if (count <= 0 || PerfRunner.sizeFor(op, count, dtype, ranks) != bytes) {
            throw new IllegalArgumentException(op.cliName() + " of " + bytes + " B of " + dtype.longName()
                    + " is not a whole number of elements per rank over " + ranks + " ranks");
        }
        return count;
    }

    /** The collectives simulated so far (distinct calls; repeated ones are served from memory). */
    public long simulations() {
        return simulations;
    }
}
