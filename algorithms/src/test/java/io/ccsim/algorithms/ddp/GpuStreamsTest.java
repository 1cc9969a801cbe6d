package io.ccsim.algorithms.ddp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ccsim.sim.Simulator;
import org.junit.jupiter.api.Test;

/** The two streams: gates, the rate while a collective runs, and a step that cannot finish. */
class GpuStreamsTest {
    @Test
    void aGatedTaskWaitsForItsCollectiveAndComputeSlowsWhileOneRuns() {
        // work 10 ps, collective 4 ps launched at 0 (released at 0); rate 0.25 while it runs: 1 ps of work by 4,
        // 9 left at full speed: ends at 13. The gated task (work 2) starts at 13, ends at 15.
        GpuStreams gpu = new GpuStreams(new Simulator(0), 0.25);
        GpuStreams.Collective k = new GpuStreams.Collective(4);
        GpuStreams.Compute first = new GpuStreams.Compute(10, null);
        first.onStart = () -> gpu.launch(k, 0);
        GpuStreams.Compute gated = new GpuStreams.Compute(2, k);
        gpu.add(first);
        gpu.add(gated);
        assertThat(gpu.run()).isEqualTo(15);
        assertThat(first.endPs).isEqualTo(13);
        assertThat(k.endPs).isEqualTo(4);
        assertThat(gated.startPs).isEqualTo(13);
    }

    @Test
    void hostLaunchesAreSerialized() {
        GpuStreams gpu = new GpuStreams(new Simulator(0), 1.0);
        GpuStreams.Collective a = new GpuStreams.Collective(1);
        GpuStreams.Collective b = new GpuStreams.Collective(1);
        GpuStreams.Compute c = new GpuStreams.Compute(0, null);
        c.onStart = () -> {
            gpu.launch(a, 5);
            gpu.launch(b, 5);
        };
        gpu.add(c);
        assertThat(gpu.run()).isEqualTo(11);   // a released at 5 (5 -> 6), b at 10 (10 -> 11)
        assertThat(b.releasePs).isEqualTo(10);
    }

    @Test
    void aTaskWaitingForACollectiveNeverLaunchedIsReported() {
        GpuStreams gpu = new GpuStreams(new Simulator(0), 1.0);
        gpu.add(new GpuStreams.Compute(1, new GpuStreams.Collective(1)));
        assertThatThrownBy(gpu::run).isInstanceOf(IllegalStateException.class).hasMessageContaining("never launched");
        assertThatThrownBy(() -> new GpuStreams(new Simulator(0), 1.5)).hasMessageContaining("overlap must be in [0, 1]");
    }
}
