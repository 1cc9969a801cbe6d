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
import io.ccsim.algorithms.plan.TorchSymmMem;
import io.ccsim.algorithms.plan.UnsupportedAlgorithmException;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * PyTorch's symmetric-memory all-reduces on real data: one-shot and two-shot × float and bfloat16 × n ∈ {2, 3, 4,
 * 5, 8} × several counts (slices that end short or empty, chunks that wrap the slots) and block counts; what PyTorch
 * refuses is refused with its reason.
 */
class TorchSymmExecutorTest {
    private static final int[] RANKS = {2, 3, 4, 5, 8};
    private static final long[] COUNTS = {2, 6, 262, 1010, 20002, 300002};
    private static final Algorithm[] ALGOS = {Algorithm.TORCH_ONE_SHOT, Algorithm.TORCH_TWO_SHOT};
    private static final DataType[] TYPES = {DataType.FLOAT32, DataType.BFLOAT16};

    @TestFactory
    Stream<DynamicTest> matrix() {
        Planners planners = Planners.standard();
        CpuExecutor exec = new CpuExecutor();
        List<DynamicTest> tests = new ArrayList<>();
        for (int ai = 0; ai < ALGOS.length; ai++) {
            for (int di = 0; di < TYPES.length; di++) {
                for (int ni = 0; ni < RANKS.length; ni++) {
                    for (int ci = 0; ci < COUNTS.length; ci += 2) {
                        Algorithm a = ALGOS[ai];
                        DataType dt = TYPES[di];
                        int n = RANKS[ni];
                        long count = COUNTS[(ci + ai + di + ni) % COUNTS.length];
                        int ch = 1 + (ai + di + ni + ci) % 4;
                        CollectiveCall call = new CollectiveCall(CollectiveOp.ALL_REDUCE, count, dt, ReduceOp.SUM, 0,
                                CommLayout.singleHost(n));
                        long seed = 131L * ai + 17L * di + 5L * ni + ci;
                        tests.add(DynamicTest.dynamicTest(a.ncclName() + " " + dt + " n=" + n + " " + ch + "ch count=" + count, () -> {
                            Plan plan = planners.plan(call, PlanOptions.of(a, Protocol.SIMPLE, ch));
                            ElementBuffer[] in = CollectiveCheck.inputs(call, seed);
                            CollectiveCheck.verify(call, in, exec.run(plan, in));
                        }));
                    }
                }
            }
        }
        return tests.stream();
    }

    @Test
    void refusesWhatPyTorchDoesNotDispatch() {
        Planners planners = Planners.standard();
        CommLayout one = CommLayout.singleHost(4);
        for (Algorithm a : ALGOS) {
            PlanOptions o = PlanOptions.of(a, Protocol.SIMPLE, 1);
            assertThatThrownBy(() -> planners.plan(new CollectiveCall(CollectiveOp.ALL_REDUCE, 64, DataType.FLOAT16, ReduceOp.SUM, 0, one), o))
                    .isInstanceOf(UnsupportedAlgorithmException.class).hasMessageContaining("cannot reduce sum of half");
            assertThatThrownBy(() -> planners.plan(new CollectiveCall(CollectiveOp.ALL_REDUCE, 64, DataType.FLOAT32, ReduceOp.MAX, 0, one), o))
                    .isInstanceOf(UnsupportedAlgorithmException.class).hasMessageContaining("cannot reduce max of float");
            assertThatThrownBy(() -> planners.plan(new CollectiveCall(CollectiveOp.ALL_REDUCE, 7, DataType.BFLOAT16, ReduceOp.SUM, 0, one), o))
                    .isInstanceOf(UnsupportedAlgorithmException.class).hasMessageContaining("at least 4-byte aligned");
            assertThatThrownBy(() -> planners.plan(CollectiveCall.of(CollectiveOp.ALL_REDUCE, 64, DataType.FLOAT32, CommLayout.uniform(2, 4)), o))
                    .isInstanceOf(UnsupportedAlgorithmException.class).hasMessageContaining("inside one node only");
            assertThatThrownBy(() -> planners.plan(CollectiveCall.of(CollectiveOp.ALL_REDUCE, 64, DataType.FLOAT32, one),
                    PlanOptions.of(a, Protocol.LL, 1))).isInstanceOf(UnsupportedAlgorithmException.class).hasMessageContaining("Simple protocol only");
        }
        assertThat(TorchSymmMem.refusal(Algorithm.TORCH_TWO_SHOT, CollectiveOp.ALL_GATHER, DataType.FLOAT32, ReduceOp.SUM))
                .hasValueSatisfying(r -> assertThat(r).contains("is an all_reduce, not all_gather"));
        assertThatThrownBy(() -> TorchSymmMem.parse("three_shot")).hasMessageContaining("valid: one_shot, two_shot");
    }

    @Test
    void twoShotOwnsContiguousSlicesAndHasNoKernelEncoding() {
        long count = 1 << 16;
        CollectiveCall call = CollectiveCall.of(CollectiveOp.ALL_REDUCE, count, DataType.FLOAT32, CommLayout.singleHost(4));
        Plan plan = Planners.standard().plan(call, PlanOptions.of(Algorithm.TORCH_TWO_SHOT, Protocol.SIMPLE, 2));
        StepCursor c = new StepCursor();
        plan.step(2, 0, 1, 0, c); // rank 2's first load-reduce: the start of its slice, from rank 3
        assertThat(c.srcOffset()).isEqualTo(2 * count / 4);
        assertThat(c.recvPeer(0)).isEqualTo(3);
        assertThat(c.memory()).isFalse();
        plan.step(3, 0, 0, 0, c); // rank 3 serves that load
        assertThat(c.memory()).isTrue();
        assertThat(c.sendPeer(0)).isEqualTo(2);
        assertThat(c.srcOffset()).isEqualTo(2 * count / 4);
        assertThat(Planners.standard().supportedOnKernels(CollectiveOp.ALL_REDUCE))
                .doesNotContain(Algorithm.TORCH_ONE_SHOT, Algorithm.TORCH_TWO_SHOT);
        assertThatThrownBy(() -> plan.encodeSteps(1, 0, 0)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no kernel encoding");
    }

    @Test
    void launchesPyTorchsBlockCounts() {
        // one-shot: 512 threads × 16 B per block; two-shot: 1024 threads × 16 B per block over one slice; at most 24
        assertThat(TorchSymmMem.blocks(Algorithm.TORCH_ONE_SHOT, 1 << 18, DataType.FLOAT32, 8)).isEqualTo(24);
        assertThat(TorchSymmMem.blocks(Algorithm.TORCH_ONE_SHOT, 4096, DataType.FLOAT32, 8)).isEqualTo(2);
        assertThat(TorchSymmMem.blocks(Algorithm.TORCH_TWO_SHOT, 1 << 15, DataType.FLOAT32, 8)).isEqualTo(1);
        assertThat(TorchSymmMem.blocks(Algorithm.TORCH_TWO_SHOT, 1 << 18, DataType.FLOAT32, 8)).isEqualTo(8);
    }
}
