package io.ccsim.bench;

import io.ccsim.sim.RandomStream;
import io.ccsim.sim.RunControl;
import io.ccsim.sim.Simulator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.TimeUnit;

/**
 * Schedule + dispatch throughput of the event kernel in steady state: {@code pending} events
 * are queued; each dispatched action schedules one new event at a random future delay, so the
 * queue size stays constant. One operation = one event dispatched and one scheduled;
 * ops/s = events/s. With {@code controlled} the simulator polls a {@link RunControl} whose watcher reads the clock,
 * as the command line's progress display does. {@code pending = 1} is the floor: the same dispatch, action, random
 * draw and scheduling with a queue of one event, whose state stays in the first-level cache.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class EventKernelBenchmark {
    @Param({"1", "100000"})
    public int pending;

    @Param({"false", "true"})
    public boolean controlled;

    private Simulator sim;
    private long lastPollNs;

    @Setup(Level.Trial)
    public void setup() {
        sim = new Simulator(12345);
        if (controlled) {
            RunControl control = new RunControl();
            control.setWatcher(s -> lastPollNs = System.nanoTime());
            sim.setRunControl(control);
        }
        RandomStream r = sim.random("bench");
        Runnable action = new Runnable() {
            @Override
            public void run() {
                sim.schedule(1 + r.nextInt(1_000_000), this);
            }
        };
        for (int i = 0; i < pending; i++) {
            sim.schedule(1 + r.nextInt(1_000_000), action);
        }
    }

    @Benchmark
    public boolean scheduleAndDispatch() {
        return sim.step();
    }
}
