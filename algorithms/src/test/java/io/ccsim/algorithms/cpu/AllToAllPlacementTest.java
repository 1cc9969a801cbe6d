package io.ccsim.algorithms.cpu;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.plan.CollectiveCall;
import io.ccsim.algorithms.plan.CommLayout;
import io.ccsim.algorithms.plan.P2pSettings;
import io.ccsim.algorithms.plan.PlanOptions;
import io.ccsim.algorithms.plan.Planners;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * All-to-all with NCCL's placement where the matrix test's 1–3 channels do not reach it: many p2p channels, operations
 * of several parts, batches of several operations, schedule groups across nodes (of 8, and of gcd sizes on uneven
 * nodes), chunks halved across the network; every output element checked against the reference.
 */
class AllToAllPlacementTest {
    private static final CommLayout[] LAYOUTS = {
        CommLayout.singleHost(4), CommLayout.singleHost(5), CommLayout.uniform(2, 8), CommLayout.uniform(3, 4),
        new CommLayout(10, new int[] {0, 0, 0, 0, 1, 1, 1, 1, 1, 1}), CommLayout.uniform(9, 1),
    };

    @TestFactory
    Stream<DynamicTest> everyBlockLandsWhereItBelongs() {
        Planners planners = Planners.standard();
        CpuExecutor exec = new CpuExecutor();
        List<DynamicTest> tests = new ArrayList<>();
        int k = 0;
        for (CommLayout l : LAYOUTS) {
            for (Protocol proto : new Protocol[] {Protocol.LL, Protocol.SIMPLE}) {
                for (int channels : new int[] {8, 16, 13}) {
                    for (int perPeer : new int[] {1, 4, 16}) {
                        DataType dt = DataType.values()[k++ % DataType.values().length];
                        long count = 3_000 + 977L * (k % 5);
                        long buffer = proto == Protocol.LL ? 8 * 1024 : 4 * 1024;
                        PlanOptions o = PlanOptions.of(Algorithm.P2P, proto, channels).withBufferBytes(buffer)
                                .withP2p(new P2pSettings(perPeer, 1024));
                        CollectiveCall call = new CollectiveCall(CollectiveOp.ALL_TO_ALL, count, dt, ReduceOp.SUM, 0, l);
                        long seed = k;
                        tests.add(DynamicTest.dynamicTest(l + " " + proto + " " + channels + " ch, " + perPeer
                                + " per peer, " + dt + " x " + count,
                                () -> CollectiveCheck.planRunVerify(planners, exec, call, o, seed, null)));
                    }
                }
            }
        }
        return tests.stream();
    }

    /**
     * Random communicators (1 to 6 hosts of 1 to 9 ranks, so uneven nodes and gcd-sized schedule groups), channels 1 to
     * 64, channels per peer and chunks at random, LL or Simple, counts down to one element: 200 seeded cases.
     */
    @TestFactory
    Stream<DynamicTest> randomCommunicatorsAndSettings() {
        Planners planners = Planners.standard();
        CpuExecutor exec = new CpuExecutor();
        List<DynamicTest> tests = new ArrayList<>();
        for (int seed = 0; seed < 200; seed++) {
            java.util.Random rnd = new java.util.Random(seed);
            int hosts = 1 + rnd.nextInt(6);
            List<Integer> hostOf = new ArrayList<>();
            for (int h = 0; h < hosts; h++) for (int k = 1 + rnd.nextInt(9); k > 0; k--) hostOf.add(h);
            CommLayout l = new CommLayout(hostOf.size(), hostOf.stream().mapToInt(Integer::intValue).toArray());
            Protocol proto = rnd.nextBoolean() ? Protocol.LL : Protocol.SIMPLE;
            int channels = 1 + rnd.nextInt(64);
            int perPeer = 1 << rnd.nextInt(7);
            int chunk = 512 * (1 + rnd.nextInt(16));
            DataType dt = DataType.values()[rnd.nextInt(DataType.values().length)];
            long count = 1 + rnd.nextInt(rnd.nextBoolean() ? 40 : 3000);
            PlanOptions o = PlanOptions.of(Algorithm.P2P, proto, channels).withBufferBytes(8 * 1024)
                    .withP2p(new P2pSettings(perPeer, chunk));
            CollectiveCall call = new CollectiveCall(CollectiveOp.ALL_TO_ALL, count, dt, ReduceOp.SUM, 0, l);
            long s = seed;
            tests.add(DynamicTest.dynamicTest("seed " + seed + ": " + l.nRanks() + " ranks on " + hosts + " hosts, " + proto
                    + ", " + channels + " ch, " + perPeer + " per peer, chunk " + chunk + ", " + dt + " x " + count,
                    () -> CollectiveCheck.planRunVerify(planners, exec, call, o, s, null)));
        }
        return tests.stream();
    }
}
