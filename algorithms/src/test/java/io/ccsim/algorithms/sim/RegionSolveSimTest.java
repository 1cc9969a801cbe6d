package io.ccsim.algorithms.sim;

import static org.assertj.core.api.Assertions.assertThat;

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
import io.ccsim.sim.Simulator;
import io.ccsim.sim.flow.FlowNetwork;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.LinkHealth;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Re-solving only what a change reaches through its bottlenecks (the flow network's region solve) gives every rank the
 * end time that re-solving whole components gives, to the picosecond: trees, whose hosts' NICs and PCIe links tie
 * every host into one component, rings, all-to-all, and a degraded cable.
 */
class RegionSolveSimTest {
    private static final CalibrationProfile H100 = CalibrationProfile.builtin("h100");

    /** Every rank's end time (ps) of {@code op} on {@code topo}, every worker simulated. */
    private static long[] ends(Topology topo, CollectiveOp op, long bytes, Algorithm algo, Protocol proto, boolean regions) {
        NcclEnv env = NcclEnv.parse(Map.of());
        CommGraph g = CommGraph.of(topo, topo.gpus().size(), env.net());
        CollectiveCall call = new CollectiveCall(op, bytes / 4, DataType.FLOAT32, ReduceOp.SUM, 0, g.layout());
        PlanOptions opts = PlanOptions.of(algo, proto, g.nChannels());
        if (algo == Algorithm.RING) opts = opts.withRingOrders(g.ringOrders(g.nChannels()));
        Plan plan = Planners.standard().plan(call, opts);
        Simulator sim = new Simulator(1);
        Fabric f = new Fabric(sim, topo, H100, FlowNetwork.Options.DEFAULT.withTrackNextCompletion(false)
                .withTrackLinkTraffic(false).withRegionSolve(regions));
        f.setNetPolicy(env.net());
        SimExecution x = new SimExecutor(sim, f).start(plan, g.gpuOfRank(), t -> { }, SimExecution.Folding.NONE);
        x.launchAll();
        sim.run();
        assertThat(x.isDone()).isTrue();
        long[] ends = new long[plan.nRanks()];
        for (int r = 0; r < ends.length; r++) ends[r] = x.rankDoneTimePs(r);
        return ends;
    }

    private static void assertSame(Topology t, CollectiveOp op, long bytes, Algorithm a, Protocol p) {
        assertThat(ends(t, op, bytes, a, p, true)).as("%s %s %s/%s %d B", t.name(), op, a, p, bytes)
                .isEqualTo(ends(t, op, bytes, a, p, false));
    }

    @Test
    void treesRingsAndAllToAllEndWhenWholeComponentSolvesEndThem() {
        for (int nodes : new int[] {3, 6}) {
            Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, nodes));
            for (Protocol p : Protocol.values()) assertSame(t, CollectiveOp.ALL_REDUCE, 3L << 20, Algorithm.TREE, p);
            assertSame(t, CollectiveOp.ALL_REDUCE, 1L << 22, Algorithm.RING, Protocol.LL128);
        }
        assertSame(TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 3)), CollectiveOp.ALL_TO_ALL, 1L << 21,
                Algorithm.P2P, Protocol.SIMPLE);
    }

    @Test
    void aDegradedCableGivesTheSameEnds() {
        Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 4));
        String cable = t.links().stream().filter(l -> l.id().contains("nic3~leaf")).findFirst().orElseThrow().id();
        t = t.withLinkHealth(cable, LinkHealth.degraded(0.1));
        assertSame(t, CollectiveOp.ALL_REDUCE, 1L << 22, Algorithm.TREE, Protocol.SIMPLE);
        assertSame(t, CollectiveOp.ALL_REDUCE, 1L << 22, Algorithm.RING, Protocol.SIMPLE);
    }
}
