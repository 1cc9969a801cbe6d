package io.ccsim.bench;

import io.ccsim.sim.Sharing;
import io.ccsim.sim.Simulator;
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
 * Cost of one executor-style flow (recycled, a latency phase, then its bytes on a two-hop path whose links also carry
 * {@code neighbours} long-lived flows that leave room for it) from start to completion. Without completion tracking the
 * network enters such a flow into its bandwidth phase without an event ({@code tracked = false}); with it every flow
 * goes through the solver (a latency event, then a completion event), which is what the event-free entry saves.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class EventFreeEntryBenchmark {
    @Param({"false", "true"})
    public boolean tracked;

    @Param({"0", "3"})
    public int neighbours;

    private Simulator sim;
    private FlowNetwork net;
    private FlowNetwork.Path path;
    private final FlowCompletion completion = new FlowCompletion();

    @Setup(Level.Trial)
    public void setup() {
        sim = new Simulator(7);
        net = new FlowNetwork(sim, FlowNetwork.Options.DEFAULT.withTrackNextCompletion(tracked).withTrackLinkTraffic(false));
        int up = net.addLink("up", 4.5e11, Sharing.FULL_DUPLEX);
        int down = net.addLink("down", 4.5e11, Sharing.FULL_DUPLEX);
        int[] route = {FlowNetwork.hop(up, false), FlowNetwork.hop(down, true)};
        path = net.path(route, 2);
        FlowNetwork.Path other = net.path(route, 1);
        for (int i = 0; i < neighbours; i++) {
            // capped at 50 GB/s, 1e15 B: running for the whole benchmark
            net.startRecycled(other, 1_000_000_000_000_000L, 0, 5e10, null);
        }
    }

    @Benchmark
    public long startAndFinish() {
        // 512 KiB after 1 us of latency at a 28 GB/s cap per replica (a ring slice of a 1,024-GPU run)
        net.startRecycled(path, 524_288, 1_000_000, 2.8e10, completion.listener);
        completion.await(sim);
        return sim.now();
    }
}
