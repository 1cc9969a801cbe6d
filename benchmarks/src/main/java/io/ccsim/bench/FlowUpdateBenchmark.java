package io.ccsim.bench;

import io.ccsim.sim.Sharing;
import io.ccsim.sim.Simulator;
import io.ccsim.sim.flow.Flow;
import io.ccsim.sim.flow.FlowNetwork;
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
 * Cost of one flow-network update cycle on a small component (a flow starts on a link already
 * carrying 3 flows, the component is re-solved, the flow completes, the component is
 * re-solved again) while {@code unrelated} long-lived flows are active on other links (4 per
 * link). Component-local solving means the time must stay flat as {@code unrelated} grows.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FlowUpdateBenchmark {
    @Param({"1000", "10000", "100000"})
    public int unrelated;

    /** 1e15 B: at 2.5e8 B/s these end after 4e6 s, so their completion events stay queued. */
    private static final long LONG_LIVED_BYTES = 1_000_000_000_000_000L / 1_000;

    private Simulator sim;
    private FlowNetwork net;
    private int[] route;
    private FlowNetwork.Path path;
    private final FlowCompletion completion = new FlowCompletion();

    @Setup(Level.Trial)
    public void setup() {
        sim = new Simulator(7);
        net = new FlowNetwork(sim);
        double c = 1e9;
        int hot = net.addLink("hot", c, Sharing.FULL_DUPLEX);
        route = new int[]{FlowNetwork.hop(hot, false)};
        path = net.path(route, 1);
        for (int i = 0; i < 3; i++) {
            net.start(route, LONG_LIVED_BYTES, 0, 0, null);
        }
        int links = unrelated / 4;
        for (int l = 0; l < links; l++) {
            int[] r = {FlowNetwork.hop(net.addLink("cold" + l, c, Sharing.FULL_DUPLEX), false)};
            for (int k = 0; k < 4; k++) {
                net.start(r, LONG_LIVED_BYTES, 0, 0, null);
            }
        }
        net.nextCompletionTime(); // solve the initial state
        if (net.activeFlowCount() != 3 + 4 * links) {
            throw new IllegalStateException("unexpected setup: " + net.activeFlowCount() + " flows");
        }
    }

    @Benchmark
    public Flow startAndFinish() {
        Flow f = net.start(route, 1_000_000L, 0, 0, completion.listener);
        completion.await(sim);
        return f;
    }

    /** The same cycle through {@link FlowNetwork#startRecycled} (what the executor uses): no allocation per flow. */
    @Benchmark
    public long startAndFinishRecycled() {
        net.startRecycled(path, 1_000_000L, 0, 0, completion.listener);
        completion.await(sim);
        return sim.now();
    }
}
