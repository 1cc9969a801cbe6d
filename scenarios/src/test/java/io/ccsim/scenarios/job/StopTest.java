package io.ccsim.scenarios.job;

import io.ccsim.scenarios.ScenarioResult;
import io.ccsim.scenarios.ScenarioRunner;
import io.ccsim.sim.RunControl;
import io.ccsim.sim.RunStoppedException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A scenario run polls its control: a stop ends it, a control without a stop request changes nothing. */
class StopTest {
    private static final String NAME = "07-nvlink-bit-flip";

    @Test
    void aStopRequestedInTheRunEndsIt() throws Exception {
        RunControl control = new RunControl();
        AtomicLong polls = new AtomicLong();
        control.setWatcher(sim -> {
            if (polls.incrementAndGet() == 1) control.requestStop("test");
        });
        assertThatThrownBy(() -> ScenarioRunner.runNamed(NAME, 1, control)).isInstanceOf(RunStoppedException.class);
        assertThat(polls.get()).isEqualTo(1);
    }

    @Test
    void aWatchedRunGivesTheSameResult() throws Exception {
        RunControl control = new RunControl();
        AtomicLong polls = new AtomicLong();
        control.setWatcher(sim -> polls.incrementAndGet());
        ScenarioResult watched = ScenarioRunner.runNamed(NAME, 1, control);
        assertThat(polls.get()).isPositive();
        assertThat(watched.toText()).isEqualTo(ScenarioRunner.runCatalog(NAME, 1).toText());
    }
}
