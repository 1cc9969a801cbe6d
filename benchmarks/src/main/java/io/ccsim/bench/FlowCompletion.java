package io.ccsim.bench;

import io.ccsim.sim.Simulator;
import io.ccsim.sim.flow.FlowListener;
import java.util.function.BooleanSupplier;

/**
 * One flow at a time, started with {@link #listener} and run to its completion with {@link #await}: the benchmarks'
 * start-to-finish cycle, without an object per cycle (the listener and the stop condition are made once).
 */
final class FlowCompletion {
    private boolean done;
    /** the listener to start the flow with */
    final FlowListener listener = f -> done = true;
    private final BooleanSupplier isDone = () -> done;

    /** Runs {@code sim} until the flow started with {@link #listener} has completed, and readies for the next. */
    void await(Simulator sim) {
        sim.runUntil(isDone);
        done = false;
    }
}
