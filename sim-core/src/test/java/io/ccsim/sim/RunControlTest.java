package io.ccsim.sim;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RunControlTest {

    /** An endless chain: every event schedules the next one 1 ps later. */
    private static void endless(Simulator sim) {
        sim.schedule(1, new Runnable() {
            @Override
            public void run() {
                sim.schedule(1, this);
            }
        });
    }

    @Test
    void aStopRequestedInsideTheRunEndsItAtTheNextPoll() {
        Simulator sim = new Simulator(1);
        RunControl control = new RunControl();
        sim.setRunControl(control);
        // event 10,000 asks to stop: the next poll, after the next multiple of POLL_EVENTS, throws
        sim.schedule(1, new Runnable() {
            @Override
            public void run() {
                if (sim.dispatchedCount() == 10_000) control.requestStop("test");
                sim.schedule(1, this);
            }
        });
        assertThatThrownBy(sim::run).isInstanceOf(RunStoppedException.class)
                .satisfies(e -> assertThat(((RunStoppedException) e).reason()).isEqualTo("test"));
        long p = RunControl.POLL_EVENTS;
        assertThat(sim.dispatchedCount()).isEqualTo((10_000 + p - 1) / p * p);
    }

    @Test
    void theWatcherSeesTheSimulatorEveryPollEvents() {
        Simulator sim = new Simulator(1);
        RunControl control = new RunControl();
        List<Long> seen = new ArrayList<>();
        control.setWatcher(s -> seen.add(s.dispatchedCount()));
        sim.setRunControl(control);
        int events = 2 * RunControl.POLL_EVENTS + RunControl.POLL_EVENTS / 2;
        for (int i = 0; i < events; i++) sim.schedule(i, () -> { });
        sim.run();
        assertThat(seen).containsExactly((long) RunControl.POLL_EVENTS, 2L * RunControl.POLL_EVENTS);
    }

    @Test
    void withoutAControlNothingIsPolled() {
        Simulator sim = new Simulator(1);
        RunControl control = new RunControl();
        control.requestStop("never seen");
        for (int i = 0; i < 3 * RunControl.POLL_EVENTS; i++) sim.schedule(i, () -> { });
        sim.run();
        assertThat(sim.dispatchedCount()).isEqualTo(3L * RunControl.POLL_EVENTS);
    }

    @Test
    void anotherThreadStopsAnEndlessRunWithinMilliseconds() throws Exception {
        Simulator sim = new Simulator(1);
        RunControl control = new RunControl();
        sim.setRunControl(control);
        endless(sim);
        CountDownLatch started = new CountDownLatch(1);
        control.setWatcher(s -> started.countDown());
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                sim.run();
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        t.start();
        assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
        long t0 = System.nanoTime();
        control.requestStop("SIGTERM");
        t.join(1000);
        assertThat(t.isAlive()).isFalse();
        assertThat(System.nanoTime() - t0).isLessThan(1_000_000_000L);
        assertThat(thrown.get()).isInstanceOf(RunStoppedException.class).hasMessage("run stopped: SIGTERM");
    }

    @Test
    void theFirstReasonWinsAndCheckpointsThrowOnlyAfterARequest() {
        RunControl control = new RunControl();
        List<Simulator> seen = new ArrayList<>();
        control.setWatcher(seen::add);
        control.checkpoint();
        assertThat(seen).containsExactly((Simulator) null);
        assertThat(control.stopRequested()).isFalse();
        control.requestStop("SIGINT");
        control.requestStop("SIGTERM");
        assertThat(control.stopReason()).isEqualTo("SIGINT");
        assertThatThrownBy(control::checkpoint).isInstanceOf(RunStoppedException.class).hasMessage("run stopped: SIGINT");
        assertThat(seen).hasSize(1);
    }

    @Test
    void aPhasedCheckpointShowsItsPhaseToTheWatcherOnly() {
        RunControl control = new RunControl();
        java.util.List<RunControl.Phase> seen = new java.util.ArrayList<>();
        control.setWatcher(s -> seen.add(control.phase()));
        control.checkpoint("folding", 0.25);
        control.checkpoint();
        assertThat(seen).containsExactly(new RunControl.Phase("folding", 0.25), null);
        assertThat(control.phase()).isNull();
        control.requestStop("SIGINT");
        assertThatThrownBy(() -> control.checkpoint("folding", 0.5)).isInstanceOf(RunStoppedException.class);
        assertThat(control.phase()).isNull();   // cleared though the checkpoint threw
    }
}
