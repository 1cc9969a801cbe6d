package io.ccsim.algorithms.ddp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.perf.PerfRow;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.TopologyCatalog;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The costs are PerfRunner's rows, one simulation per distinct call. */
class SimulatedCollectiveCostsTest {
    private static PerfRunner runner() {
        return new PerfRunner(TopologyCatalog.build("hgx-h100", BuildOptions.of(4, 1)), 4, CalibrationProfile.builtin("h100"),
                NcclEnv.parse(Map.of()), 0);
    }

    @Test
    void aCallIsPerfsRowAndIsSimulatedOnce() {
        SimulatedCollectiveCosts costs = new SimulatedCollectiveCosts(runner());
        CollectiveCost c = costs.cost(CollectiveOp.ALL_REDUCE, 16L << 20, DataType.FLOAT32);
        PerfRow row = runner().run(CollectiveOp.ALL_REDUCE, 16L << 20, DataType.FLOAT32, ReduceOp.SUM, 0);
        assertThat(c.timePs()).isEqualTo(Math.round(row.timeUs() * 1e6));
        assertThat(c.algo()).isEqualTo(row.algo());
        assertThat(c.channels()).isEqualTo(row.channels());
        assertThat(costs.cost(CollectiveOp.ALL_REDUCE, 16L << 20, DataType.FLOAT32)).isSameAs(c);
        assertThat(costs.simulations()).isEqualTo(1);
    }

    /**
     * FSDP pads a flat parameter to whole elements per rank, not to nccl-tests' 16-byte blocks: 4 ranks of 3 floats
     * (48 B) is a call of 3 floats per rank, simulated as such, where nccl-tests' rounding would run none.
     */
    @Test
    void aGatherOfWholeElementsPerRankOutsideNcclTestsBlocksRunsItsOwnCount() {
        SimulatedCollectiveCosts costs = new SimulatedCollectiveCosts(runner());
        assertThat(runner().countFor(CollectiveOp.ALL_GATHER, 48, DataType.FLOAT32)).isZero();
        CollectiveCost c = costs.cost(CollectiveOp.ALL_GATHER, 48, DataType.FLOAT32);
        PerfRow row = runner().runCount(CollectiveOp.ALL_GATHER, 3, DataType.FLOAT32, ReduceOp.SUM, 0, 1);
        assertThat(row.bytes()).isEqualTo(48);
        assertThat(c.timePs()).isEqualTo(Math.round(row.timeUs() * 1e6)).isPositive();
        assertThat(SimulatedCollectiveCosts.countOf(CollectiveOp.REDUCE_SCATTER, 4L * 1_000_003 * 2, DataType.BFLOAT16, 4))
                .isEqualTo(1_000_003);
    }

    @Test
    void aGatherThatDoesNotSplitIntoWholeElementsPerRankIsRefused() {
        SimulatedCollectiveCosts costs = new SimulatedCollectiveCosts(runner());
        assertThatThrownBy(() -> costs.cost(CollectiveOp.ALL_GATHER, 40, DataType.FLOAT32))
                .hasMessageContaining("all_gather of 40 B of float32 is not a whole number of elements per rank over 4 ranks");
    }
}
