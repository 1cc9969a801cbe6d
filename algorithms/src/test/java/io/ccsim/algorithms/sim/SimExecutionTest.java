package io.ccsim.algorithms.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.graph.CommGraph;
import io.ccsim.algorithms.plan.CollectiveCall;
import io.ccsim.algorithms.plan.CommLayout;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.PlanOptions;
import io.ccsim.algorithms.plan.Planners;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.sim.Simulator;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Link;
import io.ccsim.topology.LinkHealth;
import io.ccsim.topology.LinkKind;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SimExecutionTest {
    private static final CalibrationProfile H200 = CalibrationProfile.builtin("h200");
    private final Topology board4 = TopologyCatalog.build("hgx-h200", BuildOptions.of(4, 1));

    private static Plan ringAllReduce(int n, long count, Protocol p, int channels, int[][] rings) {
        CollectiveCall call = new CollectiveCall(CollectiveOp.ALL_REDUCE, count, DataType.FLOAT32, ReduceOp.SUM, 0, CommLayout.singleHost(n));
        PlanOptions o = PlanOptions.of(Algorithm.RING, p, channels);
        if (rings != null) o = o.withRingOrders(rings);
        return Planners.standard().plan(call, o);
    }

    /** Runs the plan with every rank launched at 0, applying {@code midRun} at {@code atPs}. */
    private static Run run(Topology t, Plan plan, boolean fold, long atPs, java.util.function.Consumer<Fabric> midRun, int... skipRanks) {
        Simulator sim = new Simulator(7);
        Fabric fabric = new Fabric(sim, t, H200);
        SimExecution x = new SimExecution(sim, fabric, plan, SimExecutor.firstGpus(t, plan.nRanks()), tm -> { }, fold);
        for (int r = 0; r < plan.nRanks(); r++) {
            final int rr = r;
            if (java.util.Arrays.stream(skipRanks).noneMatch(s -> s == rr)) x.launch(r);
        }
        if (midRun != null) sim.scheduleAt(atPs, () -> midRun.accept(fabric));
        sim.run();
        return new Run(x, sim.dispatchedCount());
    }

    record Run(SimExecution x, long events) { }

    @Test
    void foldedReplicaChannelsGiveExactlyTheUnfoldedResult() {
        // 8 channels on one ring: channels with equal data are replicas of channel 0 (by symmetry)
        Plan plan = ringAllReduce(4, 3 * 1024 * 1024 + 12345, Protocol.SIMPLE, 8, null);
        Run folded = run(board4, plan, true, 0, null);
        Run full = run(board4, plan, false, 0, null);
        assertThat(folded.x().isDone()).isTrue();
        assertThat(full.x().isDone()).isTrue();
        int sum = 0;
        for (int c = 0; c < 8; c++) sum += folded.x().channelMultiplicity(c);
        assertThat(sum).isEqualTo(8);
        assertThat(folded.x().channelMultiplicity(0)).isGreaterThan(1);
        assertThat(folded.x().endTimePs()).isEqualTo(full.x().endTimePs());
        assertThat(folded.x().stepsExecuted()).isEqualTo(full.x().stepsExecuted());
        assertThat(folded.events()).isLessThan(full.events());
    }

    @Test
    void aDegradedNvlinkMidCollectiveSlowsTheRestOfIt() {
        Plan plan = ringAllReduce(4, 64L << 20, Protocol.SIMPLE, 24, null);
        long t0 = run(board4, plan, true, 0, null).x().endTimePs();
        // at half time, every NVLink of GPU 1 drops to half its rate: the ring is paced by GPU 1's port
        // group, so the second half (bandwidth-bound) takes about twice as long: T ~ T0/2 + 2 * T0/2
        List<Link> gpu1 = board4.links().stream().filter(l -> l.kind() == LinkKind.NVLINK && l.a().equals("n0.gpu1"))
                .collect(Collectors.toList());
        assertThat(gpu1).hasSize(4);
        long t1 = run(board4, plan, true, t0 / 2, f -> gpu1.forEach(l -> f.setLinkHealth(l.id(), LinkHealth.degraded(0.5))))
                .x().endTimePs();
        assertThat((double) t1 / t0).isBetween(1.35, 1.55);
    }

    @Test
    void aLinkThatGoesDownMidCollectiveHangsItAndSaysWhere() {
        Plan plan = ringAllReduce(4, 16L << 20, Protocol.SIMPLE, 4, null);
        List<Link> gpu2 = board4.links().stream().filter(l -> l.kind() == LinkKind.NVLINK && l.a().equals("n0.gpu2"))
                .collect(Collectors.toList());
        Run r = run(board4, plan, true, 20_000_000L, f -> gpu2.forEach(l -> f.setLinkHealth(l.id(), LinkHealth.linkDown())));
        assertThat(r.x().isDone()).isFalse();
        List<SimExecution.Blocked> blocked = r.x().blockedWorkers();
        assertThat(blocked).isNotEmpty();
        assertThat(blocked.stream().map(Object::toString).collect(Collectors.joining("\n"))).contains("stalled");
    }

    @Test
    void aRankThatNeverLaunchesStallsItsNeighbours() {
        Plan plan = ringAllReduce(4, 1 << 20, Protocol.LL, 2, null);
        Run r = run(board4, plan, true, 0, null, 2);
        assertThat(r.x().isDone()).isFalse();
        String blocked = r.x().blockedWorkers().stream().map(Object::toString).collect(Collectors.joining("\n"));
        assertThat(blocked).contains("rank 2 channel 0 step 0/").contains("kernel never launched");
        assertThat(blocked).contains("waiting for data from rank 2");
    }

    @Test
    void sameInputsSameTimeline() {
        Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 2));
        CommGraph g = CommGraph.of(t, 16);
        CollectiveCall call = new CollectiveCall(CollectiveOp.ALL_REDUCE, 1 << 22, DataType.BFLOAT16, ReduceOp.SUM, 0, g.layout());
        Plan plan = Planners.standard().plan(call, PlanOptions.of(Algorithm.RING, Protocol.LL128, 8).withRingOrders(g.ringOrders(8)));
        Run a = run(t, plan, true, 0, null);
        Run b = run(t, plan, true, 0, null);
        assertThat(a.x().endTimePs()).isEqualTo(b.x().endTimePs());
        assertThat(a.events()).isEqualTo(b.events());
    }

    @Test
    void costGrowsLinearlyWithTheNumberOfTransfers() {
        // same per-rank data on 2, 4 and 8 nodes: events per simulated flow stay constant
        double[] ratio = new double[3];
        int i = 0;
        for (int nodes : new int[] {2, 4, 8}) {
            Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, nodes));
            CommGraph g = CommGraph.of(t, nodes * 8);
            long count = 1L << 22;
            CollectiveCall call = new CollectiveCall(CollectiveOp.ALL_REDUCE, count, DataType.FLOAT32, ReduceOp.SUM, 0, g.layout());
            Plan plan = Planners.standard().plan(call, PlanOptions.of(Algorithm.RING, Protocol.SIMPLE, g.nChannels()).withRingOrders(g.ringOrders(g.nChannels())));
            Run r = run(t, plan, true, 0, null);
            assertThat(r.x().isDone()).isTrue();
            ratio[i++] = (double) r.events() / r.x().flowsStarted();
        }
        assertThat(ratio[1] / ratio[0]).isBetween(0.85, 1.15);
        assertThat(ratio[2] / ratio[0]).isBetween(0.85, 1.15);
    }
}
