package io.ccsim.gpu.exec;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.plan.Plan;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Counts and plans by nccl-tests size (no GPU needed). */
class DevicePlansTest {

    @Test
    void perfCountsFollowNcclTestsSizes() {
        int n = 4;
        // all_reduce: size = count × 4 B; all_gather / reduce_scatter / alltoall: size = count × n × 4 B
        assertThat(DevicePlans.countFor(CollectiveOp.ALL_REDUCE, 1 << 20, DataType.FLOAT32, n)).isEqualTo((1 << 20) / 4);
        assertThat(DevicePlans.countFor(CollectiveOp.ALL_GATHER, 1 << 20, DataType.FLOAT32, n)).isEqualTo((1 << 20) / 4 / n);
        assertThat(DevicePlans.countFor(CollectiveOp.REDUCE_SCATTER, 1 << 20, DataType.BFLOAT16, n)).isEqualTo((1 << 20) / 2 / n);
        for (CollectiveOp op : CollectiveOp.values()) {
            Algorithm a = op == CollectiveOp.ALL_TO_ALL || op == CollectiveOp.SEND_RECV ? Algorithm.P2P : Algorithm.RING;
            Plan plan = DevicePlans.forSize(op, 1 << 20, DataType.FLOAT32, ReduceOp.SUM, 0, a, Protocol.SIMPLE, 4, n);
            assertThat(plan.call().sizeBytes()).as(op.cliName()).isEqualTo(1 << 20);
        }
    }
}
