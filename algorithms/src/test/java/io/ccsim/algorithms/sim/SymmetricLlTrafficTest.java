package io.ccsim.algorithms.sim;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.graph.CommGraph;
import io.ccsim.algorithms.plan.CollectiveCall;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.PlanOptions;
import io.ccsim.algorithms.plan.Planners;
import io.ccsim.algorithms.plan.SymmetricSupport;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.LinkClass;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.sim.Simulator;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.LinkGroup;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

/**
 * NCCL's symmetric LL kernels on 8 × H200 in the simulator: an LL line carries 8 bytes of data in 16 (data and flag,
 * NCCL 2.28.9 ncclLLA2ASession), so each LL kernel puts twice the NVLink bytes of the load/store kernel with the same
 * data flow: AllGather_LL against AllGather_ST (n − 1 peer stores of the input per rank), AllGather_LLMC against
 * AllGather_STMC (one store into the switch, n writes out of it per rank), ReduceScatter_LL against ReduceScatter_LD
 * (block q of every rank's input to rank q). A rank's store into its own LL buffer crosses no link.
 */
class SymmetricLlTrafficTest {
    private final Topology h200 = TopologyCatalog.build("hgx-h200", BuildOptions.of(0, 1));
    private static final long COUNT = 1 << 18; // 1 MiB of floats per rank

    @Test
    void llKernelsMoveTwiceTheBytesOfTheirSimpleTwins() {
        assertThat(nvlinkBytes(Algorithm.SYM_AG_LL)).isCloseTo(2 * nvlinkBytes(Algorithm.SYM_AG_ST), withPercentage(1e-6));
        assertThat(nvlinkBytes(Algorithm.SYM_AG_LLMC)).isCloseTo(2 * nvlinkBytes(Algorithm.SYM_AG_STMC), withPercentage(1e-6));
        assertThat(nvlinkBytes(Algorithm.SYM_RS_LL)).isCloseTo(2 * nvlinkBytes(Algorithm.SYM_RS_LD), withPercentage(1e-6));
        // (n − 1) peer stores of 4 B per float, out of one port group and into another, in LL's 2× lines
        assertThat(nvlinkBytes(Algorithm.SYM_AG_LL)).isCloseTo(2.0 * 2 * 8 * 7 * COUNT * 4, withPercentage(1e-6));
    }

    @Test
    void theMulticastOneShotMovesWhatTheMulticastAllGatherDoes() {
        // per rank one store of the whole buffer into the switch and n copies out: the all-gather of the same bytes
        assertThat(nvlinkBytes(Algorithm.SYM_AR_ONE_SHOT_MC))
                .isCloseTo(nvlinkBytes(Algorithm.SYM_AG_LLMC), withPercentage(1e-6));
    }

    /** Bytes on the GPUs' NVLink port groups, both directions, of one call with {@code COUNT} floats per rank. */
    private double nvlinkBytes(Algorithm k) {
        CommGraph g = CommGraph.of(h200, 8, NcclEnv.parse(Map.of()).net());
        CollectiveOp op = SymmetricSupport.opOf(k);
        CollectiveCall call = new CollectiveCall(op, COUNT, DataType.FLOAT32, ReduceOp.SUM, 0, g.layout());
        Plan plan = Planners.standard().plan(call, PlanOptions.of(k, SymmetricSupport.protocolOf(k), 2));
        Simulator sim = new Simulator(1);
        Fabric f = new Fabric(sim, h200, CalibrationProfile.builtin("h200"), true);
        SimExecution x = new SimExecutor(sim, f).start(plan, g.gpuOfRank(), t -> { });
        x.launchAll();
        sim.run();
        assertThat(x.isDone()).as("%s completes", k).isTrue();
        double sum = 0;
        for (LinkGroup grp : h200.fabric()) {
            if (Fabric.classOf(grp.members().get(0).kind()) != LinkClass.NVLINK) continue;
            sum += f.network().linkBytes(grp.index(), false) + f.network().linkBytes(grp.index(), true);
        }
        return sum;
    }
}
