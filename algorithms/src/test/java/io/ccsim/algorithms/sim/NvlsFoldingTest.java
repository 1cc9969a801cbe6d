package io.ccsim.algorithms.sim;

import static org.assertj.core.api.Assertions.assertThat;

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
import io.ccsim.sim.Simulator;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import org.junit.jupiter.api.Test;

/**
 * NVLS channels that carry equal parts are replicas: the folded simulation (one representative per group, its flows
 * carrying the multiplicity) gives the same end time as simulating every channel, with a fraction of the flows.
 */
class NvlsFoldingTest {
    private static final CalibrationProfile H100 = CalibrationProfile.builtin("h100");

    private record Run(long endPs, long flows) { }

    private static Run run(Topology t, Plan plan, boolean fold) {
        Simulator sim = new Simulator(3);
        Fabric fabric = new Fabric(sim, t, H100, false);
        SimExecution x = new SimExecution(sim, fabric, plan, SimExecutor.firstGpus(t, plan.nRanks()), tm -> { }, fold);
        x.launchAll();
        sim.run();
        assertThat(x.isDone()).isTrue();
        return new Run(x.endTimePs(), x.flowsStarted());
    }

    @Test
    void foldedNvlsChannelsGiveTheUnfoldedTime() {
        Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(8, 1));
        for (CollectiveOp op : new CollectiveOp[] {CollectiveOp.ALL_REDUCE, CollectiveOp.ALL_GATHER, CollectiveOp.REDUCE_SCATTER}) {
            for (long count : new long[] {1 << 14, 1 << 22, 3_000_017}) {
                CollectiveCall call = new CollectiveCall(op, count, DataType.FLOAT32, ReduceOp.SUM, 0, CommLayout.singleHost(8));
                Plan plan = Planners.standard().plan(call, PlanOptions.of(Algorithm.NVLS, Protocol.SIMPLE, 16));
                Run folded = run(t, plan, true);
                Run all = run(t, plan, false);
                assertThat(folded.endPs()).as(op + " count " + count).isEqualTo(all.endPs());
                if (count == 1 << 22) assertThat(folded.flows()).as(op + " flows").isLessThan(all.flows() / 4);
            }
        }
    }

    @Test
    void foldedNvlsTreeChannelsGiveTheUnfoldedTime() {
        Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 3));
        CollectiveCall call = new CollectiveCall(CollectiveOp.ALL_REDUCE, 1 << 22, DataType.FLOAT32, ReduceOp.SUM, 0,
                CommLayout.uniform(3, 8));
        Plan plan = Planners.standard().plan(call, PlanOptions.of(Algorithm.NVLS_TREE, Protocol.SIMPLE, 16));
        ChannelFolding f = ChannelFolding.of(plan, 1);
        assertThat(f.simulated(0)).isTrue();
        assertThat(f.simulated(1)).isTrue(); // the other tree
        assertThat(f.representative(2)).isZero();
        assertThat(f.representative(3)).isEqualTo(1);
        assertThat(run(t, plan, true).endPs()).isEqualTo(run(t, plan, false).endPs());
    }

    @Test
    void channelsOfUnequalPartsAreNotFolded() {
        // 1000 floats in 16-byte cells: 250 cells, 16 per channel, so channel 15 holds 10: a short last part
        CollectiveCall call = CollectiveCall.of(CollectiveOp.ALL_REDUCE, 1000, DataType.FLOAT32, CommLayout.singleHost(4));
        Plan plan = Planners.standard().plan(call, PlanOptions.of(Algorithm.NVLS, Protocol.SIMPLE, 16));
        ChannelFolding f = ChannelFolding.of(plan, 1);
        int sum = 0;
        for (int c = 0; c < 16; c++) sum += f.multiplicity(c);
        assertThat(sum).isEqualTo(16);
        assertThat(f.simulated(15)).isTrue(); // the short last part has no replica
        assertThat(f.simulated(1)).isFalse();
    }
}
