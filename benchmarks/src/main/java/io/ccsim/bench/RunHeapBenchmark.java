package io.ccsim.bench;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.sim.RunControl;
import io.ccsim.sim.RunStoppedException;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The live heap of a {@code perf} run, the measurement behind the command line's memory estimate (RunBudget,
 * docs/performance.md "Memory"): the heap in use after full collections once the catalog topology is built, and
 * during the simulation of one size, NCCL's choice, at 5, 25, 50 and 90 % of its steps (the run is stopped there).
 * One shot per parameter set; the figures are JMH's secondary results, in MB (10^6 B) and counts:
 * {@code topologyMB}, {@code simulationMB} (the largest sample less the topology), {@code topologyElements} (nodes
 * and links), {@code simulationElements} (workers and connections of the plan).
 *
 * <p>{@code java -jar benchmarks/target/benchmarks.jar RunHeapBenchmark -p nodes=16,64,128} (with {@code -p bytes=0}
 * the topology alone; {@code -p folding=NONE} every worker simulated; {@code -p topology=gb200-nvl72} racks).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xss8m", "-XX:+UseParallelGC"})
@Warmup(iterations = 0)
@Measurement(iterations = 1)
public class RunHeapBenchmark {
    @Param({"hgx-h100"})
    public String topology;

    @Param({"16", "64", "128"})
    public int nodes;

    @Param({"all_reduce"})
    public String op;

    @Param({"67108864"})
    public long bytes;

    /** What the run simulates: RANKS (perf's default, folded), CHANNELS or NONE (every worker, --sim-mode full). */
    @Param({"RANKS"})
    public String folding;

    /** The figures of one shot. */
    @AuxCounters(AuxCounters.Type.EVENTS)
    @State(Scope.Thread)
    public static class Heap {
        public double topologyMB;
        public double simulationMB;
        public long topologyElements;
        public long simulationElements;
    }

    @Benchmark
    public void liveHeap(Heap heap) {
        warmUp();
        long base = liveBytes();
        Topology topo = TopologyCatalog.build(topology, BuildOptions.of(0, nodes));
        long topoBytes = liveBytes() - base;
        heap.topologyMB = topoBytes / 1e6;
        heap.topologyElements = topo.nodes().size() + topo.links().size();
        if (bytes == 0) return;
        CollectiveOp cop = CollectiveOp.parse(op);
        PerfRunner runner = new PerfRunner(topo, topo.gpus().size(), profile(topo), NcclEnv.parse(System.getenv()), 0);
        runner.setFolding(io.ccsim.algorithms.sim.SimExecution.Folding.valueOf(folding));
        Plan plan = runner.plan(cop, bytes, DataType.FLOAT32, ReduceOp.SUM, 0);
        heap.simulationElements = (long) plan.nActors() * plan.nChannels() * plan.nLanes() + plan.connectionCount();
        double[] marks = {0.05, 0.25, 0.5, 0.9};
        long[] peak = {0};
        int[] next = {0};
        RunControl control = new RunControl();
        control.setWatcher(sim -> {
            while (next[0] < marks.length && runner.runningFraction() >= marks[next[0]]) {
                next[0]++;
                peak[0] = Math.max(peak[0], liveBytes() - base - topoBytes);
            }
            if (next[0] == marks.length) control.requestStop("measured");
        });
        runner.setRunControl(control);
        try {
            runner.run(cop, bytes, DataType.FLOAT32, ReduceOp.SUM, 0);
        } catch (RunStoppedException e) {
            // stopped at 90 % of the steps, as intended
        }
        heap.simulationMB = peak[0] / 1e6;
    }

    private static CalibrationProfile profile(Topology t) {
        return CalibrationProfile.builtin(t.gpus().get(0).attr("model").toLowerCase(Locale.ROOT));
    }

    /** Loads the classes of a run (a small one, dropped), so that the baseline holds them already. */
    private void warmUp() {
        Topology t = TopologyCatalog.build(topology, BuildOptions.of(0, 2));
        new PerfRunner(t, t.gpus().size(), profile(t), NcclEnv.parse(System.getenv()), 0).run(CollectiveOp.ALL_REDUCE, 1 << 20,
                DataType.FLOAT32, ReduceOp.SUM, 0);
    }

    /** Heap in use after full collections, bytes. */
    private static long liveBytes() {
        for (int i = 0; i < 2; i++) System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
