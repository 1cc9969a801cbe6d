package io.ccsim.algorithms.cpu;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.data.ElementBuffer;
import io.ccsim.algorithms.plan.CollectiveCall;
import io.ccsim.algorithms.plan.CommLayout;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.PlanOptions;
import io.ccsim.algorithms.plan.Planners;
import io.ccsim.algorithms.plan.StepCursor;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CpuExecutorTest {
    private final Planners planners = Planners.standard();
    private final CpuExecutor exec = new CpuExecutor();

    private Plan plan(CollectiveCall call, Algorithm a, Protocol p, int ch, long buffer) {
        return planners.plan(call, PlanOptions.of(a, p, ch).withBufferBytes(buffer));
    }

    @Test
    void slotsWrapAndFillUpToNcclSteps() {
        CollectiveCall call = new CollectiveCall(CollectiveOp.ALL_REDUCE, 10009, DataType.FLOAT32, ReduceOp.SUM, 0,
                CommLayout.singleHost(4));
        Plan p = plan(call, Algorithm.RING, Protocol.SIMPLE, 1, 2048);
        ElementBuffer[] in = CollectiveCheck.inputs(call, 7);
        ElementBuffer[] out = new ElementBuffer[4];
        for (int r = 0; r < 4; r++) out[r] = new ElementBuffer(DataType.FLOAT32, 10009);
        ExecutionStats s = exec.run(p, in, out);
        CollectiveCheck.verify(call, in, out);
        assertThat(s.connections()).isEqualTo(4);
        assertThat(s.slotsWritten()).isGreaterThan(10L * Protocol.NCCL_STEPS * s.connections());
        assertThat(s.maxSlotsInUse()).isEqualTo(Protocol.NCCL_STEPS);
        // ring all-reduce moves 2(n−1)/n of the data per rank: payload = n · 2(n−1)/n · count · 4 B
        assertThat(s.payloadBytes()).isEqualTo(4L * 2 * (4 - 1) * 10009 / 4 * 4);
    }

    @Test
    void tooFewSlotsDeadlockAndTheMessageNamesTheBlockedSteps() {
        CollectiveCall call = new CollectiveCall(CollectiveOp.ALL_REDUCE, 100, DataType.INT32, ReduceOp.SUM, 0,
                CommLayout.singleHost(3));
        Plan p = plan(call, Algorithm.RING, Protocol.SIMPLE, 1, 2048); // slices of 2 slots
        assertThatThrownBy(() -> new CpuExecutor(1).run(p, CollectiveCheck.inputs(call, 1)))
                .isInstanceOf(PlanDeadlockException.class)
                .hasMessageContaining("rank 0 channel 0 lane 0 step 0/")
                .hasMessageContaining("waits for free slots to 1 (1 free, needs 2)");
        assertThatThrownBy(() -> new CpuExecutor(0)).hasMessageContaining("slotsPerConnection must be in 1..8");
    }

    @Test
    void wireBytesFollowTheLineFormats() {
        for (Protocol proto : Protocol.values()) {
            CollectiveCall call = new CollectiveCall(CollectiveOp.ALL_GATHER, 1009, DataType.UINT8, ReduceOp.SUM, 0,
                    CommLayout.singleHost(3));
            Plan p = plan(call, Algorithm.RING, proto, 2, 2048);
            ElementBuffer[] out = new ElementBuffer[3];
            for (int r = 0; r < 3; r++) out[r] = new ElementBuffer(DataType.UINT8, 3 * 1009);
            ExecutionStats s = exec.run(p, CollectiveCheck.inputs(call, 3), out);
            long wire = 0;
            StepCursor c = new StepCursor();
            for (int r = 0; r < 3; r++)
                for (int ch = 0; ch < 2; ch++)
                    for (int i = 0; i < p.stepCount(r, ch, 0); i++) {
                        p.step(r, ch, 0, i, c);
                        if (c.prim().sends()) {
                            long b = c.count();
                            // LL: ⌈b/4⌉ lines of 8 B; LL128: ⌈b/120⌉ lines of 128 B; Simple: b
                            wire += proto == Protocol.LL ? (b + 3) / 4 * 8 : proto == Protocol.LL128 ? (b + 119) / 120 * 128 : b;
                        }
                    }
            assertThat(s.wireBytes()).as(proto.toString()).isEqualTo(wire);
            assertThat(s.payloadBytes()).isEqualTo(3L * 2 * 1009); // each rank forwards n−1 blocks
        }
    }

    @Test
    void treeAndRingAgreeExactlyOnIntegersForManyLayouts() {
        int[][] layouts = {{8, 2}, {8, 4}, {8, 8}, {16, 4}, {12, 3}, {7, 7}};
        for (int[] l : layouts) {
            int n = l[0];
            int hosts = l[1];
            int[] h = new int[n];
            for (int r = 0; r < n; r++) h[r] = r * hosts / n;
            for (ReduceOp op : new ReduceOp[] {ReduceOp.SUM, ReduceOp.PROD, ReduceOp.MAX}) {
                CollectiveCall call = new CollectiveCall(CollectiveOp.ALL_REDUCE, 1000, DataType.INT32, op, 0,
                        new CommLayout(n, h));
                ElementBuffer[] in = CollectiveCheck.inputs(call, n * 31L + hosts);
                ElementBuffer[] ring = exec.run(plan(call, Algorithm.RING, Protocol.SIMPLE, 2, 2048), in);
                ElementBuffer[] tree = exec.run(plan(call, Algorithm.TREE, Protocol.LL128, 4, 2048), in);
                CollectiveCheck.verify(call, in, tree);
                for (int r = 0; r < n; r++) assertThat(tree[r].bitwiseEquals(ring[r])).isTrue();
            }
        }
    }

    @Test
    void customRingOrdersPerChannel() {
        int n = 6;
        int[][] orders = {{0, 1, 2, 3, 4, 5}, {5, 4, 3, 2, 1, 0}, {0, 2, 4, 1, 3, 5}};
        for (CollectiveOp op : new CollectiveOp[] {CollectiveOp.ALL_REDUCE, CollectiveOp.ALL_GATHER,
                CollectiveOp.REDUCE_SCATTER, CollectiveOp.BROADCAST, CollectiveOp.REDUCE}) {
            CollectiveCall call = new CollectiveCall(op, 777, DataType.INT64, ReduceOp.SUM, 4, CommLayout.singleHost(n));
            Plan p = planners.plan(call, PlanOptions.of(Algorithm.RING, Protocol.LL, 3).withBufferBytes(2048)
                    .withRingOrders(orders));
            ElementBuffer[] in = CollectiveCheck.inputs(call, 99);
            CollectiveCheck.verify(call, in, exec.run(p, in));
        }
    }

    @Test
    void treeWithChainsRotatedPerChannelIsCorrectOnSeveralHosts() {
        // 3 hosts x 4 ranks, 8 channels: four chain rotations (every local rank heads some channel's chain)
        for (Protocol proto : Protocol.values()) {
            for (DataType dt : new DataType[] {DataType.INT32, DataType.FLOAT32}) {
                CollectiveCall call = new CollectiveCall(CollectiveOp.ALL_REDUCE, 7777, dt, ReduceOp.SUM, 0, CommLayout.uniform(3, 4));
                Plan p = plan(call, Algorithm.TREE, proto, 8, 4096);
                ElementBuffer[] in = CollectiveCheck.inputs(call, 21);
                CollectiveCheck.verify(call, in, exec.run(p, in));
            }
        }
    }

    @Test
    void runsAreDeterministic() {
        CollectiveCall call = new CollectiveCall(CollectiveOp.ALL_REDUCE, 5000, DataType.BFLOAT16, ReduceOp.AVG, 0,
                CommLayout.uniform(3, 2));
        for (Algorithm a : new Algorithm[] {Algorithm.RING, Algorithm.TREE}) {
            Plan p = plan(call, a, Protocol.LL, 3, 4096);
            ElementBuffer[] in = CollectiveCheck.inputs(call, 5);
            ElementBuffer[] o1 = new ElementBuffer[6];
            ElementBuffer[] o2 = new ElementBuffer[6];
            for (int r = 0; r < 6; r++) {
                o1[r] = new ElementBuffer(DataType.BFLOAT16, 5000);
                o2[r] = new ElementBuffer(DataType.BFLOAT16, 5000);
            }
            ExecutionStats s1 = exec.run(p, in, o1);
            ExecutionStats s2 = exec.run(p, in, o2);
            assertThat(s1).isEqualTo(s2);
            for (int r = 0; r < 6; r++) assertThat(o1[r].bitwiseEquals(o2[r])).isTrue();
        }
    }

    @Test
    void defaultNcclBuffersOnQuarterMegabyte() {
        CollectiveCall call = new CollectiveCall(CollectiveOp.ALL_REDUCE, 1 << 15, DataType.FLOAT32, ReduceOp.SUM, 0,
                CommLayout.uniform(2, 2));
        ElementBuffer[] in = CollectiveCheck.inputs(call, 11);
        for (Protocol proto : Protocol.values()) {
            for (Algorithm a : new Algorithm[] {Algorithm.RING, Algorithm.TREE}) {
                Plan p = planners.plan(call, PlanOptions.of(a, proto, 2));
                CollectiveCheck.verify(call, in, exec.run(p, in));
            }
        }
    }

    @Test
    void rejectsMismatchedBuffers() {
        CollectiveCall call = new CollectiveCall(CollectiveOp.ALL_GATHER, 10, DataType.FLOAT32, ReduceOp.SUM, 0,
                CommLayout.singleHost(2));
        Plan p = plan(call, Algorithm.RING, Protocol.LL, 1, 2048);
        ElementBuffer[] in = {new ElementBuffer(DataType.FLOAT32, 10), new ElementBuffer(DataType.FLOAT32, 10)};
        ElementBuffer[] shortOut = {new ElementBuffer(DataType.FLOAT32, 20), new ElementBuffer(DataType.FLOAT32, 19)};
        assertThatThrownBy(() -> exec.run(p, in, shortOut))
                .hasMessageContaining("outputs[1] has 19 elements; all_gather of count 10 on 2 ranks needs 20");
        ElementBuffer[] wrongType = {new ElementBuffer(DataType.INT32, 10), new ElementBuffer(DataType.FLOAT32, 10)};
        assertThatThrownBy(() -> exec.run(p, wrongType)).hasMessageContaining("inputs[0] holds int32, the call is float");
        assertThatThrownBy(() -> exec.run(p, new ElementBuffer[1])).hasMessageContaining("one buffer per rank (2)");
    }
}
