package io.ccsim.algorithms.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.plan.CollectiveCall;
import io.ccsim.algorithms.plan.CommLayout;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.PlanOptions;
import io.ccsim.algorithms.plan.Planners;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.LinkClass;
import io.ccsim.algorithms.profile.SimCosts;
import io.ccsim.algorithms.profile.SimProtocolCosts;
import io.ccsim.sim.Simulator;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.TopologyCatalog;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The scheduler on its own, over the real parts: a 2-rank Simple broadcast of one 64 KiB step per rank on one channel
 * (the root copy-sends, rank 1 receives), per-channel limit model. The per-channel limit (16.384 GB/s: 1 µs per
 * 16 KiB) binds the flow, far below the NVLinks; the copy throughput is 32.768 GB/s (0.5 µs per 16 KiB).
 */
class StepSchedulerTest {
    private static final long BYTES = 64 << 10;
    private static final long STEP_OVERHEAD_PS = 1_000_000, RECV_OVERHEAD_PS = 300_000;
    private static final long T16K_PS = 1_000_000; // 16 KiB at the per-channel limit
    private static final long L16K_PS = 500_000;   // 16 KiB copied

    private static CalibrationProfile profile(long pipelineBytes) {
        CalibrationProfile p = CalibrationProfile.builtin("h200");
        p = p.withThroughputs(p.reduceBwGbps(), 32.768, p.linkEfficiency());
        SimProtocolCosts c = p.sim().get(SimCosts.Family.CHAIN, Protocol.SIMPLE).withStepOverheadNs(STEP_OVERHEAD_PS / 1000.0)
                .withRecvStepOverheadNs(RECV_OVERHEAD_PS / 1000.0).withMaxChannelBwGbps(16.384).withPipelineBytes(pipelineBytes);
        return p.withSim(p.sim().with(SimCosts.Family.CHAIN, Protocol.SIMPLE, c));
    }

    /** Runs both workers from time 0; returns when each finished its last step, ps, by worker. */
    private static Map<Integer, Long> run(CalibrationProfile profile, StepCosts[] costsOut) {
        Simulator sim = new Simulator(1);
        Fabric fabric = new Fabric(sim, TopologyCatalog.build("hgx-h200", BuildOptions.of(2, 1)), profile);
        Plan plan = Planners.standard().plan(new CollectiveCall(CollectiveOp.BROADCAST, BYTES / 4, DataType.FLOAT32, ReduceOp.SUM, 0,
                CommLayout.singleHost(2)), PlanOptions.of(Algorithm.RING, Protocol.SIMPLE, 1));
        assertThat(plan.stepCount(0, 0, 0)).as("one step per rank").isEqualTo(1);
        assertThat(plan.stepCount(1, 0, 0)).isEqualTo(1);
        StepCosts costs = StepCosts.of(profile, plan);
        costsOut[0] = costs;
        ConnIndex index = new ConnIndex();
        plan.forEachConnection((ch, from, to) -> index.add(ch, from, to));
        Connections conns = new Connections(index);
        ChannelFolding folding = ChannelFolding.none(1);
        ConnectionPaths paths = new ConnectionPaths(fabric, plan, SimExecutor.firstGpus(fabric.topology(), 2), costs, folding);
        Workers workers = new Workers(2, 1, 1, 3);
        for (int r = 0; r < 2; r++) workers.setStepCount(workers.id(r, 0, 0), 1);
        Map<Integer, Long> done = new HashMap<>();
        StepScheduler s = new StepScheduler(sim, fabric.network(), plan, costs, workers, conns, paths, folding,
                RankFolding.identity(2, 1),
                w -> assertThat(done.put(w, sim.now())).as("worker %d done once", w).isNull());
        s.start(workers.id(0, 0, 0));
        s.start(workers.id(1, 0, 0));
        sim.run();
        assertThat(s.stepsExecuted()).isEqualTo(2);
        return done;
    }

    @Test
    void aStepIsItsOverheadThenItsBytesAtTheLimitTheReceiverFollowsOneHopLater() {
        StepCosts[] c = new StepCosts[1];
        Map<Integer, Long> done = run(profile(1L << 40), c);
        long hop = c[0].hopLatencyPs(LinkClass.NVLINK);
        long rootDone = STEP_OVERHEAD_PS + 4 * T16K_PS;
        assertThat(done.get(0)).isCloseTo(rootDone, within(10L));
        // the data lands one hop later; the receive-only step pays its own overhead, then copies 64 KiB
        assertThat(done.get(1)).isCloseTo(rootDone + hop + RECV_OVERHEAD_PS + 4 * L16K_PS, within(10L));
    }

    @Test
    void subTransfersPayTheOverheadOnceAndLetTheReceiverFollowEachOne() {
        StepCosts[] c = new StepCosts[1];
        Map<Integer, Long> done = run(profile(16 << 10), c);
        long hop = c[0].hopLatencyPs(LinkClass.NVLINK);
        assertThat(c[0].units(BYTES)).isEqualTo(4);
        // the root's four 16 KiB sub-transfers run back to back after one overhead
        assertThat(done.get(0)).isCloseTo(STEP_OVERHEAD_PS + 4 * T16K_PS, within(10L));
        // the receiver copies sub-transfer j (0.5 µs) once it has landed (1 µs apart): its last one lands one hop after
        // the root's end, and the overhead (paid before sub-transfer 0) is hidden behind the arrivals
        assertThat(done.get(1)).isCloseTo(STEP_OVERHEAD_PS + 4 * T16K_PS + hop + L16K_PS, within(10L));
    }
}
