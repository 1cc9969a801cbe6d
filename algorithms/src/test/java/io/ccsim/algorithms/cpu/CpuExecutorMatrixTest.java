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
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The CPU executor over op (and algorithm) × dtype × n ∈ {1,2,3,4,5,7,8,16} × protocol, every
 * combination once; the reduction, channel count (1..3), count (1, 7, 263, 1009 — none divides
 * evenly), host layout and root vary deterministically with the case so that every reduction
 * meets every (op, dtype) and every channel count every (op, protocol). Buffers are tiny
 * (256-byte slots) so that slots wrap many times.
 */
class CpuExecutorMatrixTest {
    private static final int[] RANKS = {1, 2, 3, 4, 5, 7, 8, 16};
    private static final long[] COUNTS = {1, 7, 263, 1009};
    private static final long BUFFER = 2048; // 8 slots of 256 wire bytes, valid for all three protocols

    private record OpAlg(CollectiveOp op, Algorithm alg) { }

    private static final OpAlg[] OPS = {
        new OpAlg(CollectiveOp.ALL_REDUCE, Algorithm.RING), new OpAlg(CollectiveOp.ALL_REDUCE, Algorithm.TREE),
        new OpAlg(CollectiveOp.ALL_GATHER, Algorithm.RING), new OpAlg(CollectiveOp.REDUCE_SCATTER, Algorithm.RING),
        new OpAlg(CollectiveOp.BROADCAST, Algorithm.RING), new OpAlg(CollectiveOp.REDUCE, Algorithm.RING),
        new OpAlg(CollectiveOp.ALL_TO_ALL, Algorithm.P2P), new OpAlg(CollectiveOp.SEND_RECV, Algorithm.P2P),
    };

    @TestFactory
    Stream<DynamicTest> matrix() {
        Planners planners = Planners.standard();
        CpuExecutor exec = new CpuExecutor();
        List<DynamicTest> tests = new ArrayList<>();
        for (int oi = 0; oi < OPS.length; oi++) {
            OpAlg oa = OPS[oi];
            List<DynamicTest> group = new ArrayList<>();
            for (int di = 0; di < DataType.values().length; di++) {
                DataType dt = DataType.values()[di];
                for (int ni = 0; ni < RANKS.length; ni++) {
                    for (int pi = 0; pi < Protocol.values().length; pi++) {
                        int n = RANKS[ni];
                        Protocol proto = Protocol.values()[pi];
                        ReduceOp red = ReduceOp.values()[(ni + pi) % ReduceOp.values().length];
                        int ch = 1 + (ni + di + pi + oi) % 3;
                        long count = COUNTS[(di + ni + 2 * pi + oi) % COUNTS.length];
                        if (oa.op == CollectiveOp.ALL_TO_ALL && n == 16) count = Math.min(count, 263);
                        int perHost = 1 + (di + pi) % 4;
                        int[] hosts = new int[n];
                        for (int r = 0; r < n; r++) hosts[r] = r / perHost;
                        int root = (3 * ni + di) % n;
                        CollectiveCall call = new CollectiveCall(oa.op, count, dt, red, root, new CommLayout(n, hosts));
                        PlanOptions opts = PlanOptions.of(oa.alg, proto, ch).withBufferBytes(BUFFER);
                        long seed = 1000L * oi + 100L * di + 10L * ni + pi;
                        String name = oa.op.cliName() + "/" + oa.alg + " " + dt + " n=" + n + " " + proto + " "
                                + (call.isReduction() ? red + " " : "") + ch + "ch count=" + count
                                + (oa.op == CollectiveOp.BROADCAST || oa.op == CollectiveOp.REDUCE ? " root=" + root : "")
                                + " ranks/host=" + perHost;
                        group.add(DynamicTest.dynamicTest(name, () -> {
                            Plan plan = planners.plan(call, opts);
                            ElementBuffer[] in = CollectiveCheck.inputs(call, seed);
                            ElementBuffer[] out = exec.run(plan, in);
                            CollectiveCheck.verify(call, in, out);
                        }));
                    }
                }
            }
            tests.addAll(group);
        }
        return tests.stream();
    }
}
