package io.ccsim.algorithms.cpu;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;

import io.ccsim.algorithms.plan.CollectiveCall;
import io.ccsim.algorithms.plan.CommLayout;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.PlanOptions;
import io.ccsim.algorithms.plan.StepCursor;
import io.ccsim.algorithms.plan.Planners;
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
 * PAT plans on real data: all-gather and reduce-scatter × every type × every reduction × n ∈ {2, 3, 4, 5, 7, 8, 16,
 * 33}, one rank per host. Reduce-scatter with avg must be refused with NCCL's reason; the rest must compute the
 * reference result. Small buffers (2 KiB: 256-byte slots) make the chunks wrap the 8 slots of every dimension's
 * connection many times; 4 MiB buffers give one chunk per channel.
 */
class PatExecutorTest {
    private static final int[] RANKS = {2, 3, 4, 5, 7, 8, 16, 33};
    private static final long[] COUNTS = {1, 7, 263, 1009, 5000};
    private static final CollectiveOp[] OPS = {CollectiveOp.ALL_GATHER, CollectiveOp.REDUCE_SCATTER};

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
                        CollectiveCall call = new CollectiveCall(op, count, dt, red, 0, CommLayout.uniform(n, 1));
                        PlanOptions opts = PlanOptions.of(Algorithm.PAT, Protocol.SIMPLE, ch).withBufferBytes(buffer);
                        long seed = 7919L * oi + 101L * di + 11L * ri + ni;
                        String name = op.cliName() + " " + dt + " " + (call.isReduction() ? red + " " : "") + "n=" + n
                                + " " + ch + "ch count=" + count + " buffer=" + buffer;
                        boolean avg = op == CollectiveOp.REDUCE_SCATTER && red == ReduceOp.AVG;
                        tests.add(DynamicTest.dynamicTest(name, () -> {
                            CollectiveCheck.planRunVerify(planners, exec, call, opts, seed,
                                    avg ? "cannot reduce avg" : null);
                        }));
                    }
                }
            }
        }
        return tests.stream();
    }

    @Test
    void refusesWhatNcclWouldNotBuild() {
        Planners planners = Planners.standard();
        CollectiveCall twoPerHost = CollectiveCall.of(CollectiveOp.ALL_GATHER, 1024, DataType.FLOAT32, CommLayout.uniform(4, 2));
        assertThatThrownBy(() -> planners.plan(twoPerHost, PlanOptions.of(Algorithm.PAT, Protocol.SIMPLE, 2)))
                .isInstanceOf(UnsupportedAlgorithmException.class).hasMessageContaining("one rank per node")
                .hasMessageContaining("host 0 has 2 ranks");
        CollectiveCall ag = CollectiveCall.of(CollectiveOp.ALL_GATHER, 1024, DataType.FLOAT32, CommLayout.uniform(4, 1));
        for (Protocol p : new Protocol[] {Protocol.LL, Protocol.LL128}) {
            assertThatThrownBy(() -> planners.plan(ag, PlanOptions.of(Algorithm.PAT, p, 2)))
                    .isInstanceOf(UnsupportedAlgorithmException.class).hasMessageContaining("Simple protocol only");
        }
        CollectiveCall ar = CollectiveCall.of(CollectiveOp.ALL_REDUCE, 1024, DataType.FLOAT32, CommLayout.uniform(4, 1));
        assertThatThrownBy(() -> planners.plan(ar, PlanOptions.of(Algorithm.PAT, Protocol.SIMPLE, 2)))
                .isInstanceOf(UnsupportedAlgorithmException.class).hasMessageContaining("not supported for all_reduce");
    }

    @Test
    void aStepThatReadsTheOutputHasNoKernelEncoding() {
        CollectiveCall call = CollectiveCall.of(CollectiveOp.ALL_GATHER, 4096, DataType.FLOAT32, CommLayout.uniform(8, 1));
        Plan plan = Planners.standard().plan(call, PlanOptions.of(Algorithm.PAT, Protocol.SIMPLE, 1));
        assertThatThrownBy(() -> plan.encodeSteps(0, 0, 0)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no kernel encoding");
        assertThat(Planners.standard().supportedOnKernels(CollectiveOp.ALL_GATHER)).doesNotContain(Algorithm.PAT);
    }

    /** (receive peer, send peer, block) of every step of rank 0, channel 0; −1 for none. */
    private static int[][] trace(CollectiveOp op, int n) {
        long count = 1024;
        CollectiveCall call = CollectiveCall.of(op, count, DataType.FLOAT32, CommLayout.uniform(n, 1));
        Plan plan = Planners.standard().plan(call, PlanOptions.of(Algorithm.PAT, Protocol.SIMPLE, 1));
        StepCursor c = new StepCursor();
        int[][] t = new int[plan.stepCount(0, 0, 0)][];
        for (int i = 0; i < t.length; i++) {
            plan.step(0, 0, 0, i, c);
            long block = op == CollectiveOp.ALL_GATHER ? c.dstOffset() / count : c.srcOffset() / count;
            t[i] = new int[] {c.nRecv() > 0 ? c.recvPeer(0) : -1, c.nSend() > 0 ? c.sendPeer(0) : -1, (int) block};
        }
        return t;
    }

    @Test
    void allGatherStepsAreNcclsForEightRanks() {
        // NCCL 2.28.9 PatAGAlgorithm::getNextOp, rank 0 of 8, one piece per slot (collectives.h, run in a harness):
        // send own to 4; own to 6; recv 4 (block 4) -> 6; own to 7; recv 2 (block 2) -> 7; block 4 again -> 7;
        // recv 2 (block 6) -> 7; recv 1: blocks 1, 3, 5, 7
        int[][] nccl = {{-1, 4, 0}, {-1, 6, 0}, {4, 6, 4}, {-1, 7, 0}, {2, 7, 2}, {-1, 7, 4}, {2, 7, 6},
            {1, -1, 1}, {1, -1, 3}, {1, -1, 5}, {1, -1, 7}};
        assertThat(trace(CollectiveOp.ALL_GATHER, 8)).isDeepEqualTo(nccl);
    }

    @Test
    void reduceScatterSendsWhatNcclSendsInItsOrder() {
        // NCCL 2.28.9 PatRSAlgorithm, rank 0 of 8: to 1 the inputs for blocks 7, 3, 5, 1; to 2 the partials of 6 and 2
        // (each with 7's); to 4 the partial of 4 (with 6's and 7's); block 0 from 6, 4 and 7 into the output.
        // The plan takes node 4's two children before node 0's (NCCL interleaves them) and children by distance.
        int[][] plan = {{-1, 1, 7}, {-1, 1, 3}, {-1, 1, 5}, {-1, 1, 1}, {7, 2, 6}, {7, 2, 2}, {7, -1, 4}, {6, 4, 4},
            {7, -1, 0}, {6, -1, 0}, {4, -1, 0}};
        assertThat(trace(CollectiveOp.REDUCE_SCATTER, 8)).isDeepEqualTo(plan);
    }
}
