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
import io.ccsim.algorithms.plan.SymmetricSupport;
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
 * NCCL's symmetric kernels on real data: every load/store kernel × every type it implements × n ∈ {2, 3, 4, 5, 8},
 * every LL kernel × every type × every reduction × n = 2..8, every kernel on 33, 40 and 72 ranks, several counts (one that wraps the 8 slots many times)
 * and channel counts; the types and reductions a kernel does not implement, several hosts and another protocol are
 * refused with NCCL's reason.
 */
class SymmetricExecutorTest {
    private static final int[] RANKS = {2, 3, 4, 5, 8};
    private static final long[] COUNTS = {1, 7, 263, 1009, 20000, 300001};
    private static final Algorithm[] KERNELS = {Algorithm.SYM_AR_TWO_SHOT, Algorithm.SYM_AR_MULTIMEM, Algorithm.SYM_AG_ST,
            Algorithm.SYM_AG_STMC, Algorithm.SYM_RS_LD, Algorithm.SYM_RS_LDMC};
    private static final Algorithm[] LL_KERNELS = {Algorithm.SYM_AR_ONE_SHOT, Algorithm.SYM_AR_ONE_SHOT_MC,
            Algorithm.SYM_AG_LL, Algorithm.SYM_AG_LLMC, Algorithm.SYM_RS_LL};

    @TestFactory
    Stream<DynamicTest> matrix() {
        Planners planners = Planners.standard();
        CpuExecutor exec = new CpuExecutor();
        List<DynamicTest> tests = new ArrayList<>();
        for (int ki = 0; ki < KERNELS.length; ki++) {
            Algorithm k = KERNELS[ki];
            CollectiveOp op = SymmetricSupport.opOf(k);
            for (int di = 0; di < DataType.values().length; di++) {
                DataType dt = DataType.values()[di];
                if (SymmetricSupport.refusal(op, dt, ReduceOp.SUM).isPresent()
                        || SymmetricSupport.multimemRefusal(k, dt, ReduceOp.SUM).isPresent()) continue;
                for (int ni = 0; ni < RANKS.length; ni++) {
                    int n = RANKS[ni];
                    int ch = 1 + (ki + di + ni) % 3;
                    long count = COUNTS[(ki + di + ni) % COUNTS.length];
                    CollectiveCall call = new CollectiveCall(op, count, dt, ReduceOp.SUM, 0, CommLayout.singleHost(n));
                    PlanOptions opts = PlanOptions.of(k, SymmetricSupport.protocolOf(k), ch);
                    long seed = 977L * ki + 31L * di + ni;
                    tests.add(DynamicTest.dynamicTest(k.ncclName() + " " + dt + " n=" + n + " " + ch + "ch count=" + count, () -> {
                        Plan plan = planners.plan(call, opts);
                        ElementBuffer[] in = CollectiveCheck.inputs(call, seed);
                        CollectiveCheck.verify(call, in, exec.run(plan, in));
                    }));
                }
            }
        }
        return tests.stream();
    }

    /**
     * The LL kernels (unicast and multicast stores into LL buffers) for every type and reduction and 2..8 ranks: run
     * and checked where NCCL builds the kernel (all-gather any type; all-reduce and reduce-scatter sum of f32, f16,
     * bf16, fp8), refused with NCCL's reason elsewhere. All-gather has no reduction: its row is sum only.
     */
    @TestFactory
    Stream<DynamicTest> llKernels() {
        Planners planners = Planners.standard();
        CpuExecutor exec = new CpuExecutor();
        List<DynamicTest> tests = new ArrayList<>();
        for (int ki = 0; ki < LL_KERNELS.length; ki++) {
            Algorithm k = LL_KERNELS[ki];
            CollectiveOp op = SymmetricSupport.opOf(k);
            ReduceOp[] reds = op == CollectiveOp.ALL_GATHER ? new ReduceOp[] {ReduceOp.SUM} : ReduceOp.values();
            for (DataType dt : DataType.values()) {
                for (ReduceOp red : reds) {
                    String refusal = SymmetricSupport.refusal(op, dt, red).isPresent()
                            ? "cannot reduce " + red.ncclTestsName() + " of " + dt.ncclTestsName() : null;
                    for (int n = 2; n <= 8; n++) {
                        int v = ki + dt.ordinal() + red.ordinal() + n;
                        int ch = 1 + v % 3;
                        long count = COUNTS[v % COUNTS.length];
                        CollectiveCall call = new CollectiveCall(op, count, dt, red, 0, CommLayout.singleHost(n));
                        PlanOptions opts = PlanOptions.of(k, Protocol.LL, ch);
                        long seed = 1013L * ki + 97L * dt.ordinal() + 13L * red.ordinal() + n;
                        tests.add(DynamicTest.dynamicTest(k.ncclName() + " " + dt + " " + red + " n=" + n + " " + ch
                                + "ch count=" + count, () -> CollectiveCheck.planRunVerify(planners, exec, call, opts, seed,
                                refusal)));
                    }
                }
            }
        }
        return tests.stream();
    }

    @Test
    void refusesWhatNoKernelImplements() {
        Planners planners = Planners.standard();
        CommLayout one = CommLayout.singleHost(4);
        for (Algorithm k : new Algorithm[] {Algorithm.SYM_AR_ONE_SHOT, Algorithm.SYM_AR_TWO_SHOT, Algorithm.SYM_RS_LD,
                Algorithm.SYM_RS_LDMC}) {
            PlanOptions o = PlanOptions.of(k, SymmetricSupport.protocolOf(k), 1);
            CollectiveOp op = SymmetricSupport.opOf(k);
            assertThatThrownBy(() -> planners.plan(new CollectiveCall(op, 64, DataType.FLOAT64, ReduceOp.SUM, 0, one), o))
                    .isInstanceOf(UnsupportedAlgorithmException.class).hasMessageContaining("cannot reduce sum of double");
            assertThatThrownBy(() -> planners.plan(new CollectiveCall(op, 64, DataType.FLOAT32, ReduceOp.MAX, 0, one), o))
                    .isInstanceOf(UnsupportedAlgorithmException.class).hasMessageContaining("cannot reduce max of float");
            assertThatThrownBy(() -> planners.plan(new CollectiveCall(op, 64, DataType.INT32, ReduceOp.SUM, 0, one), o))
                    .isInstanceOf(UnsupportedAlgorithmException.class).hasMessageContaining("cannot reduce sum of int32");
        }
    }

    /**
     * Every kernel on more than NVLS's 32 heads (a GB200 NVL72 domain has 72 GPUs): NCCL 2.28.9 limits no symmetric
     * kernel's rank count, so each plans and computes the reference: the three multimem kernels on 33, 40 and 72 ranks
     * for float and bfloat16 (all-gather: int8 and float), the other eight on 72 ranks for one of them; counts that
     * leave some ranks' last pieces empty.
     */
    @TestFactory
    Stream<DynamicTest> everyKernelOnMoreThan32Ranks() {
        Planners planners = Planners.standard();
        CpuExecutor exec = new CpuExecutor();
        List<DynamicTest> tests = new ArrayList<>();
        Algorithm[] all = {Algorithm.SYM_AR_MULTIMEM, Algorithm.SYM_AG_STMC, Algorithm.SYM_RS_LDMC, Algorithm.SYM_AR_TWO_SHOT,
                Algorithm.SYM_AG_ST, Algorithm.SYM_RS_LD, Algorithm.SYM_AR_ONE_SHOT, Algorithm.SYM_AR_ONE_SHOT_MC,
                Algorithm.SYM_AG_LL, Algorithm.SYM_AG_LLMC, Algorithm.SYM_RS_LL};
        int[] ranks = {33, 40, 72};
        long[] counts = {5, 1009, 3001}; // all-gather output, reduce-scatter input, LL buffers: n × count per rank
        for (int ki = 0; ki < all.length; ki++) {
            Algorithm k = all[ki];
            CollectiveOp op = SymmetricSupport.opOf(k);
            DataType[] types = op == CollectiveOp.ALL_GATHER ? new DataType[] {DataType.INT8, DataType.FLOAT32}
                    : new DataType[] {DataType.FLOAT32, DataType.BFLOAT16};
            boolean multimem = SymmetricSupport.multimem(k) && !SymmetricSupport.ll(k); // STMC, LDMC, RSxLDMC_AGxSTMC
            int[] ns = multimem ? ranks : new int[] {72};
            DataType[] ts = multimem ? types : new DataType[] {types[ki % 2]};
            for (int ni = 0; ni < ns.length; ni++) {
                for (int di = 0; di < ts.length; di++) {
                    int n = ns[ni];
                    DataType dt = ts[di];
                    boolean owners = op == CollectiveOp.ALL_REDUCE && !SymmetricSupport.ll(k);
                    // the all-reduces that split the buffer among owners: 80,000 elements give 72 ranks 40 owners
                    long count = owners && n == 72 ? 80000 : counts[(ki + ni + di) % counts.length];
                    int ch = 1 + (ki + ni) % 2;
                    CollectiveCall call = new CollectiveCall(op, count, dt, ReduceOp.SUM, 0, CommLayout.singleHost(n));
                    PlanOptions opts = PlanOptions.of(k, SymmetricSupport.protocolOf(k), ch);
                    long seed = 7919L * ki + 101L * n + di;
                    tests.add(DynamicTest.dynamicTest(k.ncclName() + " " + dt + " n=" + n + " " + ch + "ch count=" + count,
                            () -> CollectiveCheck.planRunVerify(planners, exec, call, opts, seed, null)));
                }
            }
        }
        return tests.stream();
    }

    /**
     * AllReduce_RSxLDMC_AGxSTMC's warps own 4 KiB pieces round-robin by rank (all_reduce.cuh), every rank included:
     * on 72 ranks a 64 KiB all-reduce (one loop of 72 pieces, ⌈16,384 / 72⌉ floats aligned up to 1,024) is owned by
     * its first 16 ranks, 4 KiB each; in a 4 MiB one (16 KiB chunks, so the first loop is a full 72 × 16 KiB) every
     * rank owns 16 KiB, ranks 32..71 included (NVLS's heads would stop at 32).
     */
    @Test
    void multimemAllReduceOwnersAreEveryRankIn4KibPieces() {
        Planners planners = Planners.standard();
        StepCursor c = new StepCursor(72);
        CommLayout nvl72 = CommLayout.singleHost(72);
        PlanOptions o = PlanOptions.of(Algorithm.SYM_AR_MULTIMEM, Protocol.SIMPLE, 1);
        Plan small = planners.plan(CollectiveCall.of(CollectiveOp.ALL_REDUCE, 16384, DataType.FLOAT32, nvl72), o);
        int owners = 0;
        for (int r = 0; r < 72; r++) {
            small.step(r, 0, 1, 0, c); // rank r's multimem.ld_reduce and multimem.st of its piece
            if (c.count() > 0) {
                owners++;
                assertThat(c.count()).isEqualTo(1024);
                assertThat(c.srcOffset()).isEqualTo(1024L * r);
            }
        }
        assertThat(owners).isEqualTo(16);
        Plan large = planners.plan(CollectiveCall.of(CollectiveOp.ALL_REDUCE, 1 << 20, DataType.FLOAT32, nvl72), o);
        assertThat(large.nActors()).isEqualTo(72 + 2 * 72);
        for (int r = 0; r < 72; r++) {
            large.step(r, 0, 1, 0, c);
            assertThat(c.count()).as("rank %d's piece of the first loop", r).isEqualTo(4096);
        }
    }

    @Test
    void multimemLoadReduceRefusesFp8() {
        Planners planners = Planners.standard();
        CommLayout one = CommLayout.singleHost(4);
        for (Algorithm k : new Algorithm[] {Algorithm.SYM_AR_MULTIMEM, Algorithm.SYM_RS_LDMC}) {
            PlanOptions o = PlanOptions.of(k, Protocol.SIMPLE, 1);
            CollectiveCall fp8 = new CollectiveCall(SymmetricSupport.opOf(k), 64, DataType.FP8_E4M3, ReduceOp.SUM, 0, one);
            assertThatThrownBy(() -> planners.plan(fp8, o)).isInstanceOf(UnsupportedAlgorithmException.class)
                    .hasMessageContaining(k.ncclName() + " cannot reduce sum of f8e4m3 with multimem.ld_reduce");
        }
        // the multicast store only copies: fp8 goes, and so does the load-and-store ReduceScatter_LD
        CollectiveCall ag = new CollectiveCall(CollectiveOp.ALL_GATHER, 64, DataType.FP8_E4M3, ReduceOp.SUM, 0, one);
        assertThat(planners.plan(ag, PlanOptions.of(Algorithm.SYM_AG_STMC, Protocol.SIMPLE, 1))).isNotNull();
        CollectiveCall rs = new CollectiveCall(CollectiveOp.REDUCE_SCATTER, 64, DataType.FP8_E4M3, ReduceOp.SUM, 0, one);
        assertThat(planners.plan(rs, PlanOptions.of(Algorithm.SYM_RS_LD, Protocol.SIMPLE, 1))).isNotNull();
    }

    @Test
    void multicastStoreAndLoadReduceLeaveTheOtherSideToTheSwitch() {
        Planners planners = Planners.standard();
        StepCursor c = new StepCursor();
        CollectiveCall ag = CollectiveCall.of(CollectiveOp.ALL_GATHER, 1 << 12, DataType.FLOAT32, CommLayout.singleHost(4));
        Plan stmc = planners.plan(ag, PlanOptions.of(Algorithm.SYM_AG_STMC, Protocol.SIMPLE, 1));
        stmc.step(2, 0, 0, 0, c); // rank 2's multimem.st: its SMs store into the multicast object
        assertThat(c.memory()).isFalse();
        stmc.step(2, 0, 1, 0, c); // the switch writes rank 0's chunk into rank 2's output window
        assertThat(c.memory()).isTrue();
        CollectiveCall rs = CollectiveCall.of(CollectiveOp.REDUCE_SCATTER, 1 << 12, DataType.FLOAT32, CommLayout.singleHost(4));
        Plan ldmc = planners.plan(rs, PlanOptions.of(Algorithm.SYM_RS_LDMC, Protocol.SIMPLE, 1));
        ldmc.step(2, 0, 0, 0, c); // the switch reads block 0 of rank 2's input window
        assertThat(c.memory()).isTrue();
        ldmc.step(2, 0, 1, 0, c); // rank 2's multimem.ld_reduce of its own block
        assertThat(c.memory()).isFalse();
    }

    @Test
    void multicastLlKernelsStoreOnceIntoTheSwitchWhichWritesEveryRank() {
        Planners planners = Planners.standard();
        StepCursor c = new StepCursor(8);
        CollectiveCall ag = CollectiveCall.of(CollectiveOp.ALL_GATHER, 1 << 12, DataType.FLOAT32, CommLayout.singleHost(4));
        Plan llmc = planners.plan(ag, PlanOptions.of(Algorithm.SYM_AG_LLMC, Protocol.LL, 1));
        assertThat(llmc.stepCount(2, 0, 0)).isEqualTo(llmc.stepCount(4 + 2, 0, 0)); // one store per chunk
        llmc.step(2, 0, 0, 0, c); // rank 2's multicast LL store: its SMs, to its switch actor
        assertThat(c.memory()).isFalse();
        assertThat(c.nSend()).isEqualTo(1);
        assertThat(c.sendPeer(0)).isEqualTo(4 + 2);
        llmc.step(4 + 2, 0, 0, 0, c); // the switch writes it into all four LL buffers
        assertThat(c.prim()).isEqualTo(io.ccsim.algorithms.plan.Primitive.MULTIMEM_FORWARD);
        assertThat(c.nSend()).isEqualTo(4);
        llmc.step(2, 0, 1, 0, c); // rank 2 reads its own LL buffer with its SMs: no memory step
        assertThat(c.memory()).isFalse();
        Plan ll = planners.plan(ag, PlanOptions.of(Algorithm.SYM_AG_LL, Protocol.LL, 1));
        assertThat(ll.stepCount(2, 0, 0)).isEqualTo(4 * llmc.stepCount(2, 0, 0)); // a store per rank, itself included
        // the multicast one-shot only stores through the switch and sums on the SMs: fp8 goes (RSxLDMC refuses it)
        CollectiveCall fp8 = CollectiveCall.of(CollectiveOp.ALL_REDUCE, 64, DataType.FP8_E5M2, CommLayout.singleHost(4));
        assertThat(planners.plan(fp8, PlanOptions.of(Algorithm.SYM_AR_ONE_SHOT_MC, Protocol.LL, 1))).isNotNull();
    }

    @Test
    void refusesSeveralNodesAndAnotherProtocol() {
        Planners planners = Planners.standard();
        CollectiveCall twoNodes = CollectiveCall.of(CollectiveOp.ALL_GATHER, 64, DataType.INT8, CommLayout.uniform(2, 4));
        for (Algorithm k : new Algorithm[] {Algorithm.SYM_AG_ST, Algorithm.SYM_AG_STMC, Algorithm.SYM_AG_LL,
                Algorithm.SYM_AG_LLMC}) {
            assertThatThrownBy(() -> planners.plan(twoNodes, PlanOptions.of(k, SymmetricSupport.protocolOf(k), 1)))
                    .isInstanceOf(UnsupportedAlgorithmException.class).hasMessageContaining("inside one node only");
        }
        CollectiveCall ag = CollectiveCall.of(CollectiveOp.ALL_GATHER, 64, DataType.INT8, CommLayout.singleHost(4));
        assertThatThrownBy(() -> planners.plan(ag, PlanOptions.of(Algorithm.SYM_AG_LLMC, Protocol.SIMPLE, 1)))
                .isInstanceOf(UnsupportedAlgorithmException.class).hasMessageContaining("runs the LL protocol only");
        CollectiveCall rs = CollectiveCall.of(CollectiveOp.REDUCE_SCATTER, 64, DataType.FLOAT32, CommLayout.singleHost(4));
        assertThatThrownBy(() -> planners.plan(rs, PlanOptions.of(Algorithm.SYM_RS_LDMC, Protocol.LL, 1)))
                .isInstanceOf(UnsupportedAlgorithmException.class).hasMessageContaining("runs the Simple protocol only");
        CollectiveCall ar = CollectiveCall.of(CollectiveOp.ALL_REDUCE, 64, DataType.FLOAT32, CommLayout.singleHost(4));
        assertThatThrownBy(() -> planners.plan(ar, PlanOptions.of(Algorithm.SYM_AR_ONE_SHOT, Protocol.SIMPLE, 1)))
                .isInstanceOf(UnsupportedAlgorithmException.class).hasMessageContaining("runs the LL protocol only");
        assertThatThrownBy(() -> planners.plan(ar, PlanOptions.of(Algorithm.SYM_AR_TWO_SHOT, Protocol.LL, 1)))
                .isInstanceOf(UnsupportedAlgorithmException.class).hasMessageContaining("runs the Simple protocol only");
    }

    @Test
    void twoShotLoadsAreMemoryStepsAndHaveNoKernelEncoding() {
        CollectiveCall call = CollectiveCall.of(CollectiveOp.ALL_REDUCE, 1 << 16, DataType.FLOAT32, CommLayout.singleHost(4));
        Plan plan = Planners.standard().plan(call, PlanOptions.of(Algorithm.SYM_AR_TWO_SHOT, Protocol.SIMPLE, 2));
        StepCursor c = new StepCursor();
        plan.step(1, 0, 0, 0, c); // rank 1 serves a load of its input
        assertThat(c.memory()).isTrue();
        assertThat(c.nSend()).isEqualTo(1);
        plan.step(1, 0, 1, 0, c); // rank 1 loads and reduces its own piece with its SMs
        assertThat(c.memory()).isFalse();
        assertThat(Planners.standard().supportedOnKernels(CollectiveOp.ALL_REDUCE)).noneMatch(Algorithm::isSymmetric);
        assertThatThrownBy(() -> plan.encodeSteps(1, 0, 0)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no kernel encoding");
    }
}
