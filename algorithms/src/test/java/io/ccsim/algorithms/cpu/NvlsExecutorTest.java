package io.ccsim.algorithms.cpu;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;

import io.ccsim.algorithms.plan.CollectiveCall;
import io.ccsim.algorithms.plan.CommLayout;
import io.ccsim.algorithms.plan.NvlsSupport;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.PlanOptions;
import io.ccsim.algorithms.plan.Planners;
import io.ccsim.algorithms.plan.Primitive;
import io.ccsim.algorithms.plan.StepCursor;
import io.ccsim.algorithms.plan.UnsupportedAlgorithmException;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * NVLS plans on real data: all-reduce, all-gather and reduce-scatter × every type × every reduction × n ∈
 * {2, 3, 4, 5, 7, 8, 16, 36} with the switch actors doing the reduction and multicast (36 ranks: 32 heads, an
 * all-reduce only; all-gather and reduce-scatter refuse more than 32). Supported (reduction, type)
 * pairs must compute the reference result; the others must be refused with NCCL's reason. Small buffers
 * (2 KiB: 256-byte chunks, NVLS's 128 KiB slots) make loops wrap the slots many times; a large count checks
 * NCCL's last-loop chunk (aligned up to 16 KiB).
 */
class NvlsExecutorTest {
    private static final int[] RANKS = {2, 3, 4, 5, 7, 8, 16, 36};
    private static final long[] COUNTS = {1, 7, 263, 1009, 20000};
    private static final CollectiveOp[] OPS = {CollectiveOp.ALL_REDUCE, CollectiveOp.ALL_GATHER, CollectiveOp.REDUCE_SCATTER};

    @TestFactory
    Stream<DynamicTest> matrix() {
        Planners planners = Planners.standard();
        CpuExecutor exec = new CpuExecutor();
        List<DynamicTest> tests = new ArrayList<>();
        for (int oi = 0; oi < OPS.length; oi++) {
            for (int di = 0; di < DataType.values().length; di++) {
                for (int ri = 0; ri < ReduceOp.values().length; ri++) {
                    for (int ni = 0; ni < RANKS.length; ni++) {
                        CollectiveOp op = OPS[oi];
                        if (op == CollectiveOp.ALL_GATHER && ri > 0) continue; // all-gather has no reduction
                        DataType dt = DataType.values()[di];
                        ReduceOp red = ReduceOp.values()[ri];
                        int n = RANKS[ni];
                        int ch = 1 + (oi + di + ri + ni) % 3;
                        long count = COUNTS[(di + ri + ni + oi) % COUNTS.length];
                        long buffer = (di + ni) % 2 == 0 ? 2048 : 4L << 20;
                        CollectiveCall call = new CollectiveCall(op, count, dt, red, 0, CommLayout.singleHost(n));
                        PlanOptions opts = PlanOptions.of(Algorithm.NVLS, Protocol.SIMPLE, ch).withBufferBytes(buffer);
                        long seed = 7919L * oi + 101L * di + 11L * ri + ni;
                        String name = op.cliName() + " " + dt + " " + (call.isReduction() ? red + " " : "") + "n=" + n
                                + " " + ch + "ch count=" + count + " buffer=" + buffer;
                        boolean ok = NvlsSupport.refusal(op, dt, red).isEmpty();
                        boolean tooMany = n > 32 && op != CollectiveOp.ALL_REDUCE;
                        tests.add(DynamicTest.dynamicTest(name, () -> {
                            if (tooMany && ok) {
                                assertThatThrownBy(() -> planners.plan(call, opts))
                                        .isInstanceOf(UnsupportedAlgorithmException.class).hasMessageContaining("at most 32");
                                return;
                            }
                            CollectiveCheck.planRunVerify(planners, exec, call, opts, seed,
                                    !ok ? "NVLS cannot reduce " + red.ncclTestsName() : null);
                        }));
                    }
                }
            }
        }
        return tests.stream();
    }

    /** NVLSTree all-reduce × every type × reduction × nodes {2, 3, 4, 5, 8} × ranks per node {2, 3, 4, 8}. */
    @TestFactory
    Stream<DynamicTest> nvlsTreeMatrix() {
        Planners planners = Planners.standard();
        CpuExecutor exec = new CpuExecutor();
        int[] nodes = {2, 3, 4, 5, 8};
        int[] perNode = {2, 3, 4, 8};
        List<DynamicTest> tests = new ArrayList<>();
        for (int di = 0; di < DataType.values().length; di++) {
            for (int ri = 0; ri < ReduceOp.values().length; ri++) {
                for (int ki = 0; ki < nodes.length; ki++) {
                    DataType dt = DataType.values()[di];
                    ReduceOp red = ReduceOp.values()[ri];
                    int k = nodes[ki];
                    int ppn = perNode[(di + ri + ki) % perNode.length];
                    int ch = 1 + (di + ri + ki) % 3;
                    long count = COUNTS[(di + 2 * ri + ki) % COUNTS.length];
                    CollectiveCall call = new CollectiveCall(CollectiveOp.ALL_REDUCE, count, dt, red, 0, CommLayout.uniform(k, ppn));
                    // heads: every GPU, or one GPU per NIC (every other GPU, or two apart from the first)
                    int[] heads = ppn < 3 || (di + ki) % 3 == 0 ? null
                            : ri % 2 == 0 ? IntStream.range(0, ppn).filter(j -> j % 2 == 0).toArray()
                            : new int[] {1, ppn - 1};
                    PlanOptions base = PlanOptions.of(Algorithm.NVLS_TREE, Protocol.SIMPLE, ch).withBufferBytes(2048);
                    PlanOptions opts = heads == null ? base : base.withNetHeads(heads);
                    boolean ok = NvlsSupport.refusal(CollectiveOp.ALL_REDUCE, dt, red).isEmpty();
                    long seed = 31L * di + 7L * ri + ki;
                    tests.add(DynamicTest.dynamicTest("nvlstree " + dt + " " + red + " " + k + "x" + ppn + " " + ch + "ch count="
                            + count + (heads == null ? "" : " heads " + Arrays.toString(heads)), () -> {
                        CollectiveCheck.planRunVerify(planners, exec, call, opts, seed,
                                !ok ? "NVLSTree cannot reduce" : null);
                    }));
                }
            }
        }
        return tests.stream();
    }

    @Test
    void nvlsTreeIsRefusedOnOneNode() {
        CollectiveCall call = CollectiveCall.of(CollectiveOp.ALL_REDUCE, 1024, DataType.FLOAT32, CommLayout.singleHost(8));
        assertThatThrownBy(() -> Planners.standard().plan(call, PlanOptions.of(Algorithm.NVLS_TREE, Protocol.SIMPLE, 2)))
                .isInstanceOf(UnsupportedAlgorithmException.class).hasMessageContaining("several nodes");
    }

    @Test
    void allReduceSwitchActorsReduceForOneHeadAndMulticastToAll() {
        CollectiveCall call = CollectiveCall.of(CollectiveOp.ALL_REDUCE, 1 << 20, DataType.FLOAT32, CommLayout.singleHost(8));
        Plan plan = Planners.standard().plan(call, PlanOptions.of(Algorithm.NVLS, Protocol.SIMPLE, 16));
        assertThat(plan.nActors()).isEqualTo(8 + 16);
        assertThat(plan.nLanes()).isEqualTo(3);
        assertThat(plan.maxPeers()).isEqualTo(8);
        StepCursor c = new StepCursor(plan.maxPeers());
        plan.step(8 + 3, 0, 0, 0, c); // R_3: every rank's slice, the sum to head 3
        assertThat(c.prim()).isEqualTo(Primitive.MULTIMEM_REDUCE);
        assertThat(c.nRecv()).isEqualTo(8);
        assertThat(c.nSend()).isEqualTo(1);
        assertThat(c.sendPeer(0)).isEqualTo(3);
        plan.step(16 + 3, 0, 0, 0, c); // M_3: head 3's result to every rank
        assertThat(c.prim()).isEqualTo(Primitive.MULTIMEM_FORWARD);
        assertThat(c.nRecv()).isEqualTo(1);
        assertThat(c.recvPeer(0)).isEqualTo(3);
        assertThat(c.nSend()).isEqualTo(8);
        // 4 MiB per rank on 16 channels: 256 KiB per channel, so NCCL's chunk shrinks 128 -> 64 -> 32 -> 16 KiB
        // (256 KiB < 64·8·128 KiB, < 8·8·64 KiB, < 2·8·32 KiB): two loops of 8 heads x 16 KiB, one scatter per loop
        assertThat(plan.stepCount(0, 0, 0)).isEqualTo(2);
        assertThat(plan.stepCount(0, 0, 1)).isEqualTo(2);
        plan.step(0, 0, 0, 0, c);
        assertThat(c.nSend()).isEqualTo(8);
        assertThat(c.hasParts()).isTrue();
        assertThat((long) c.partElems() * 4).isEqualTo(16384);
        assertThat((long) c.count() * 4).isEqualTo(8 * 16384);
        for (int h = 0; h < 8; h++) assertThat(c.sendPeer(h)).isEqualTo(8 + h);
        assertThat(plan.switchHost(8)).isZero();
    }

    @Test
    void refusesWhatNcclWouldNotBuild() {
        Planners planners = Planners.standard();
        CollectiveCall call = CollectiveCall.of(CollectiveOp.ALL_REDUCE, 1024, DataType.FLOAT32, CommLayout.singleHost(4));
        assertThatThrownBy(() -> planners.plan(call, PlanOptions.of(Algorithm.NVLS, Protocol.LL, 2)))
                .isInstanceOf(UnsupportedAlgorithmException.class).hasMessageContaining("Simple protocol only");
        CollectiveCall twoHosts = CollectiveCall.of(CollectiveOp.ALL_REDUCE, 1024, DataType.FLOAT32, CommLayout.uniform(2, 2));
        assertThatThrownBy(() -> planners.plan(twoHosts, PlanOptions.of(Algorithm.NVLS, Protocol.SIMPLE, 2)))
                .isInstanceOf(UnsupportedAlgorithmException.class).hasMessageContaining("CollNet");
        CollectiveCall bcast = CollectiveCall.of(CollectiveOp.BROADCAST, 1024, DataType.FLOAT32, CommLayout.singleHost(4));
        assertThatThrownBy(() -> planners.plan(bcast, PlanOptions.of(Algorithm.NVLS, Protocol.SIMPLE, 2)))
                .isInstanceOf(UnsupportedAlgorithmException.class).hasMessageContaining("not supported for broadcast");
    }

    @Test
    void aSwitchStepHasNoKernelEncoding() {
        CollectiveCall call = CollectiveCall.of(CollectiveOp.ALL_GATHER, 4096, DataType.FLOAT32, CommLayout.singleHost(4));
        Plan plan = Planners.standard().plan(call, PlanOptions.of(Algorithm.NVLS, Protocol.SIMPLE, 1));
        assertThat(plan.encodeSteps(0, 0, 0)).isNotEmpty(); // a rank's SEND encodes
        assertThatThrownBy(() -> plan.encodeSteps(4, 0, 0)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no kernel encoding");
    }
}
