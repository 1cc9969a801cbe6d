package io.ccsim.algorithms.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.graph.CommGraph;
import io.ccsim.algorithms.plan.CollectiveCall;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.PlanOptions;
import io.ccsim.algorithms.plan.Planners;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.sim.RunControl;
import io.ccsim.sim.RunStoppedException;
import io.ccsim.sim.Simulator;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FoldingReadsTest {
    private static final Topology HGX4 = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 4));
    private static final CommGraph GRAPH = CommGraph.of(HGX4, HGX4.gpus().size(), NcclEnv.parse(Map.of()).net());

    private static Plan ringAllReduce(long bytes, int channels) {
        return Planners.standard().plan(new CollectiveCall(CollectiveOp.ALL_REDUCE, bytes, DataType.FLOAT32, ReduceOp.SUM, 0,
                GRAPH.layout()), PlanOptions.of(Algorithm.RING, Protocol.SIMPLE, channels));
    }

    /** The steps of actor a in channel c, all lanes. */
    private static long steps(Plan p, int a, int c) {
        long s = 0;
        for (int l = 0; l < p.nLanes(); l++) s += p.stepCount(a, c, l);
        return s;
    }

    @Test
    void aRingWhoseChunksAreEqualIsReadOnceAChannel() {
        Plan p = ringAllReduce(1L << 26, GRAPH.nChannels());   // 2^24 floats over 32 ranks and 16 channels: equal chunks
        assertThat(p.sequenceKey(5, 3, 0)).isNotEqualTo(Plan.NO_KEY);
        long once = 0;
        for (int c = 0; c < p.nChannels(); c++) once += steps(p, 0, c);
        assertThat(FoldingReads.of(p)).isEqualTo(once);
        assertThat(FoldingReads.of(p) * p.nRanks()).isEqualTo(p.totalSteps());
    }

    @Test
    void aRingWhoseChunksDifferIsReadWhole() {
        // one float more than 2^24: each rank meets the odd chunk at another step, so the plan keys no sequence
        Plan p = ringAllReduce((1L << 26) + 4, GRAPH.nChannels());
        assertThat(p.sequenceKey(5, 3, 0)).isEqualTo(Plan.NO_KEY);
        assertThat(FoldingReads.of(p)).isEqualTo(p.totalSteps());
    }

    @Test
    void aStopAskedWhileTheFoldingReadsStepsEndsTheRunBeforeItSimulates() {
        Plan p = ringAllReduce((1L << 30) + 4, 1);   // one channel, unkeyed: every step of every rank is read
        assertThat(FoldingReads.of(p)).isGreaterThan(2L << 16);   // more than one poll's worth
        Simulator sim = new Simulator(1);
        RunControl control = new RunControl();
        int[] walkPolls = {0};
        // the watcher runs at each poll; only a poll from inside the read of a rank's steps asks the run to stop
        control.setWatcher(s -> {
            if (Arrays.stream(Thread.currentThread().getStackTrace()).anyMatch(e -> e.getClassName().endsWith("RankRefinement$Walk"))) {
                walkPolls[0]++;
                control.requestStop("SIGTERM");
            }
        });
        sim.setRunControl(control);
        SimExecutor ex = new SimExecutor(sim, new Fabric(sim, HGX4, CalibrationProfile.builtin("h100"), false));
        Throwable t = catchThrowable(() -> ex.start(p, GRAPH.gpuOfRank(), x -> { }, SimExecution.Folding.RANKS));
        assertThat(t).isInstanceOf(RunStoppedException.class);
        assertThat(walkPolls[0]).isEqualTo(1);   // the next poll threw
        assertThat(sim.now()).isZero();
    }

    @Test
    void theReadReportsHowFarItIsToTheRunsWatcher() {
        Plan p = ringAllReduce((1L << 30) + 4, 1);
        Simulator sim = new Simulator(1);
        RunControl control = new RunControl();
        java.util.List<Double> seen = new java.util.ArrayList<>();
        control.setWatcher(s -> {
            RunControl.Phase ph = control.phase();
            if (ph != null && !Double.isNaN(ph.fraction())) {
                assertThat(ph.name()).isEqualTo(SimExecution.FOLDING);
                seen.add(ph.fraction());
            }
        });
        sim.setRunControl(control);
        new SimExecutor(sim, new Fabric(sim, HGX4, CalibrationProfile.builtin("h100"), false))
                .start(p, GRAPH.gpuOfRank(), x -> { }, SimExecution.Folding.RANKS);
        // one report per 65,536 steps read, each the part read so far
        assertThat(seen).hasSize((int) (FoldingReads.of(p) >> 16)).isSorted().allMatch(f -> f > 0 && f <= 1);
        assertThat(control.phase()).isNull();   // outside a phased checkpoint
    }
}
