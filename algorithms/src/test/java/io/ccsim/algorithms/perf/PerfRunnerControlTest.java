package io.ccsim.algorithms.perf;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.sim.SimExecution;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.sim.RunControl;
import io.ccsim.sim.RunStoppedException;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What a caller of perf's engine sees of a run in progress: its plan, how far it is, and a stop. */
class PerfRunnerControlTest {
    private final Topology topo = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 2));
    private final CalibrationProfile prof = CalibrationProfile.builtin("h100");

    private PerfRunner runner() {
        return new PerfRunner(topo, 16, prof, NcclEnv.empty(), 0);
    }

    @Test
    void thePlanIsTheOneRunSimulatesAndItsStepsAreTheRunsSteps() {
        PerfRunner r = runner();
        for (long bytes : new long[] {8, 1 << 20, 64L << 20}) {
            Plan p = r.plan(CollectiveOp.ALL_REDUCE, bytes, DataType.FLOAT32, ReduceOp.SUM, 0);
            PerfRow row = r.run(CollectiveOp.ALL_REDUCE, bytes, DataType.FLOAT32, ReduceOp.SUM, 0);
            assertThat(p.options().algorithm()).isEqualTo(row.algo());
            assertThat(p.options().protocol()).isEqualTo(row.proto());
            assertThat(p.nChannels()).isEqualTo(row.channels());
            // folded channels count as the channels they stand for: every step of the plan ran once
            assertThat(r.lastSteps()).as("%d B", bytes).isEqualTo(p.totalSteps());
        }
    }

    @Test
    void theFractionRisesDuringARunAndAStopEndsIt() {
        PerfRunner r = runner();
        RunControl control = new RunControl();
        List<Double> seen = new ArrayList<>();
        control.setWatcher(sim -> {
            double f = r.runningFraction();
            seen.add(f);
            if (f >= 0.5) control.requestStop("test");
        });
        r.setRunControl(control);
        r.setFolding(SimExecution.Folding.NONE); // a run long enough to be watched
        assertThatThrownBy(() -> r.run(CollectiveOp.ALL_REDUCE, 256L << 20, DataType.FLOAT32, ReduceOp.SUM, 0))
                .isInstanceOf(RunStoppedException.class);
        assertThat(seen).isSorted().last().satisfies(f -> assertThat(f).isBetween(0.5, 1.0));
        assertThat(seen.get(1)).isLessThan(0.5);
        assertThat(r.runningFraction()).as("no simulation runs now").isZero();
        // without a stop the same runner finishes the next call
        r.setRunControl(null);
        assertThat(r.run(CollectiveOp.ALL_REDUCE, 1 << 20, DataType.FLOAT32, ReduceOp.SUM, 0).timeUs()).isPositive();
    }
}
