package io.ccsim.bench;

import io.ccsim.sim.Sharing;
import io.ccsim.sim.Simulator;
import io.ccsim.sim.flow.Flow;
import io.ccsim.sim.flow.FlowListener;
import io.ccsim.sim.flow.FlowNetwork;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.TimeUnit;

/**
 * End-to-end flow throughput of a ring pattern: {@code ranks} ranks, rank i sends to i+1 over
 * its own full-duplex link, {@code CHANNELS} channels share each link, and each channel sends
 * {@code STEPS} chunks one after the other (a completion starts the next chunk after a 1 us
 * latency phase). One operation = one flow started and completed; the score is flows/s, what
 * bounds the speed of a large ring all-reduce.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class RingFlowsBenchmark {
    private static final int RANKS = 1024;
    private static final int STEPS = 16;
    private static final int CHANNELS = 8;

    @Benchmark
    @OperationsPerInvocation(RANKS * CHANNELS * STEPS)
    public long ring() {
        int channels = CHANNELS;
        Simulator sim = new Simulator(1);
        FlowNetwork net = new FlowNetwork(sim);
        int[][] routes = new int[RANKS][];
        for (int r = 0; r < RANKS; r++) {
            routes[r] = new int[]{FlowNetwork.hop(net.addLink("nv" + r, 4.5e11, Sharing.FULL_DUPLEX), false)};
        }
        int[] left = new int[RANKS * channels];
        FlowListener next = new FlowListener() {
            @Override
            public void onComplete(Flow f) {
                int k = (Integer) f.tag();
                if (--left[k] > 0) {
                    net.start(routes[k / channels], 1 << 20, 1_000_000, 0, this).setTag(k);
                }
            }
        };
        for (int k = 0; k < RANKS * channels; k++) {
            left[k] = STEPS;
            net.start(routes[k / channels], 1 << 20, 1_000_000, 0, next).setTag(k);
        }
        sim.run();
        if (net.flowsStarted() != (long) RANKS * channels * STEPS) {
            throw new IllegalStateException("ring ran " + net.flowsStarted() + " flows");
        }
        return sim.now();
    }
}
