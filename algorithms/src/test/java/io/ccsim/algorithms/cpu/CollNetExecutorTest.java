package io.ccsim.algorithms.cpu;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;

import io.ccsim.algorithms.plan.CollNetSupport;
import io.ccsim.algorithms.plan.CollectiveCall;
import io.ccsim.algorithms.plan.CommLayout;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.PlanOptions;
import io.ccsim.algorithms.plan.Planners;
import io.ccsim.algorithms.plan.Primitive;
import io.ccsim.algorithms.plan.StepCursor;
import io.ccsim.algorithms.plan.SwitchKind;
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
 * CollNet Direct and Chain all-reduce plans on real data, the SHARP switch actors doing the reduction across hosts:
 * every type × every reduction × 2..8 hosts × 1..8 ranks per host. Pairs the SHARP plugin reduces must give the
 * reference result (CollectiveCheck's bounds hold for any summation order); the others (product, fp8) must be refused
 * with the reason. Small buffers (2 KiB: 256-byte slots) make the loops wrap the 8 slots many times; channel counts
 * vary so that a channel may own no loop or a short last one.
 */
class CollNetExecutorTest {
    private static final long[] COUNTS = {1, 7, 263, 1009, 5000};
    private static final Algorithm[] ALGOS = {Algorithm.COLLNET_DIRECT, Algorithm.COLLNET_CHAIN};

    @TestFactory
    Stream<DynamicTest> matrix() {
        Planners planners = Planners.standard();
        CpuExecutor exec = new CpuExecutor();
        List<DynamicTest> tests = new ArrayList<>();
        for (Algorithm algo : ALGOS) {
            for (DataType dt : DataType.values()) {
                for (ReduceOp red : ReduceOp.values()) {
                    boolean ok = CollNetSupport.refusal(dt, red).isEmpty();
                    for (int hosts = 2; hosts <= 8; hosts++) {
                        for (int ppn = 1; ppn <= 8; ppn++) {
                            if (!ok && (hosts > 2 || ppn > 2)) continue; // one refusal per pair is enough
                            int k = dt.ordinal() + red.ordinal() + hosts + ppn + algo.ordinal();
                            int ch = 1 + k % 3;
                            long count = COUNTS[k % COUNTS.length];
                            long buffer = k % 2 == 0 ? 2048 : 4L << 20;
                            CollectiveCall call = new CollectiveCall(CollectiveOp.ALL_REDUCE, count, dt, red, 0,
                                    CommLayout.uniform(hosts, ppn));
                            PlanOptions opts = PlanOptions.of(algo, Protocol.SIMPLE, ch).withBufferBytes(buffer);
                            long seed = 7919L * dt.ordinal() + 101L * red.ordinal() + 11L * hosts + ppn;
                            String name = algo + " " + dt + " " + red + " " + hosts + "x" + ppn + " " + ch + "ch count="
                                    + count + " buffer=" + buffer;
                            tests.add(DynamicTest.dynamicTest(name, () -> {
                                CollectiveCheck.planRunVerify(planners, exec, call, opts, seed,
                                        !ok ? "CollNet (SHARP) cannot reduce " + red.ncclTestsName() : null);
                            }));
                        }
                    }
                }
            }
        }
        return tests.stream();
    }

    @Test
    void directHasAnAggregatorPerHeadOnTheNetworkAndTwoConnectionsPerPeer() {
        CollectiveCall call = CollectiveCall.of(CollectiveOp.ALL_REDUCE, 1 << 20, DataType.FLOAT32, CommLayout.uniform(4, 8));
        Plan plan = Planners.standard().plan(call, PlanOptions.of(Algorithm.COLLNET_DIRECT, Protocol.SIMPLE, 2));
        assertThat(plan.nActors()).isEqualTo(32 + 8);
        assertThat(plan.nLanes()).isEqualTo(4);
        assertThat(plan.maxPeers()).isEqualTo(7); // a head reduces the 7 other GPUs' parts
        assertThat(plan.switchKind(32 + 3)).isEqualTo(SwitchKind.NETWORK);
        assertThat(plan.switchRail(32 + 3)).isEqualTo(3);
        assertThatThrownBy(() -> plan.switchHost(32 + 3)).isInstanceOf(IllegalStateException.class);
        assertThat(plan.connectionChannels()).isEqualTo(4);
        StepCursor c = new StepCursor(plan.maxPeers());
        plan.step(32 + 3, 1, 0, 0, c); // S_3: head 3 of every host in, the sum back to each
        assertThat(c.prim()).isEqualTo(Primitive.SHARP_REDUCE);
        assertThat(c.nRecv()).isEqualTo(4);
        assertThat(c.recvPeer(2)).isEqualTo(2 * 8 + 3);
        assertThat(c.nSend()).isEqualTo(4);
        assertThat(c.recvConn()).isEqualTo(1);
        assertThat(c.sendConn()).isZero();
        plan.step(8 + 5, 0, 1, 0, c); // host 1's head 5 reduces the others' part 5 and sends it to S_5
        assertThat(c.prim()).isEqualTo(Primitive.RECV_REDUCE_SEND);
        assertThat(c.nRecv()).isEqualTo(7);
        assertThat(c.sendPeer(0)).isEqualTo(32 + 5);
        plan.step(8 + 5, 0, 2, 0, c); // and broadcasts the network's result to the 7 others
        assertThat(c.prim()).isEqualTo(Primitive.RECV_POST_COPY_SEND);
        assertThat(c.recvPeer(0)).isEqualTo(32 + 5);
        assertThat(c.nSend()).isEqualTo(7);
        // 4 MiB per rank on 2 channels: 2 MiB per channel / (8 heads × 512 KiB) < 2·64, so 128 KiB, then
        // 2 MiB / (8 × 128 KiB) = 2 < 2·8: 64 KiB, then 4 < 16: 32 KiB (enqueue.cc calcCollChunking)
        plan.step(0, 0, 0, 0, c);
        assertThat((long) c.count() * 4).isEqualTo(32768);
        assertThat(plan.stepCount(0, 0, 0)).isEqualTo(8 * 7); // 2 MiB / (8 heads × 32 KiB) = 8 loops, 7 peers each
    }

    @Test
    void chainLeadsEachChannelFromTheGpuOfItsNic() {
        CollectiveCall call = CollectiveCall.of(CollectiveOp.ALL_REDUCE, 1 << 16, DataType.FLOAT32, CommLayout.uniform(3, 4));
        Plan plan = Planners.standard().plan(call, PlanOptions.of(Algorithm.COLLNET_CHAIN, Protocol.SIMPLE, 6));
        assertThat(plan.nActors()).isEqualTo(12 + 4);
        assertThat(plan.connectionChannels()).isEqualTo(6);
        StepCursor c = new StepCursor(plan.maxPeers());
        plan.step(4 + 1, 5, 0, 0, c); // channel 5 starts at local 1: host 1's GPU 1 sends up to the network
        assertThat(c.sendPeer(0)).isEqualTo(12 + 1);
        assertThat(plan.stepCount(12 + 1, 5, 0)).isPositive();
        assertThat(plan.stepCount(12 + 1, 4, 0)).isZero();
        plan.step(4 + 0, 5, 0, 0, c); // local 0 is the tail of 1 → 2 → 3 → 0
        assertThat(c.prim()).isEqualTo(Primitive.SEND);
        assertThat(c.sendPeer(0)).isEqualTo(4 + 3);
    }

    @Test
    void refusesWhatNcclWouldNotBuild() {
        Planners planners = Planners.standard();
        CollectiveCall oneHost = CollectiveCall.of(CollectiveOp.ALL_REDUCE, 1024, DataType.FLOAT32, CommLayout.singleHost(4));
        assertThatThrownBy(() -> planners.plan(oneHost, PlanOptions.of(Algorithm.COLLNET_DIRECT, Protocol.SIMPLE, 2)))
                .isInstanceOf(UnsupportedAlgorithmException.class).hasMessageContaining("at least 2 hosts");
        CollectiveCall wide = CollectiveCall.of(CollectiveOp.ALL_REDUCE, 1024, DataType.FLOAT32, CommLayout.uniform(2, 9));
        assertThatThrownBy(() -> planners.plan(wide, PlanOptions.of(Algorithm.COLLNET_CHAIN, Protocol.SIMPLE, 2)))
                .isInstanceOf(UnsupportedAlgorithmException.class).hasMessageContaining("at most 8 ranks per host");
        CollectiveCall two = CollectiveCall.of(CollectiveOp.ALL_REDUCE, 1024, DataType.FLOAT32, CommLayout.uniform(2, 2));
        assertThatThrownBy(() -> planners.plan(two, PlanOptions.of(Algorithm.COLLNET_DIRECT, Protocol.LL, 2)))
                .isInstanceOf(UnsupportedAlgorithmException.class).hasMessageContaining("Simple protocol only");
        CollectiveCall ag = CollectiveCall.of(CollectiveOp.ALL_GATHER, 1024, DataType.FLOAT32, CommLayout.uniform(2, 2));
        assertThatThrownBy(() -> planners.plan(ag, PlanOptions.of(Algorithm.COLLNET_DIRECT, Protocol.SIMPLE, 2)))
                .isInstanceOf(UnsupportedAlgorithmException.class).hasMessageContaining("not supported for all_gather");
        assertThat(planners.supportedOnKernels(CollectiveOp.ALL_REDUCE)).doesNotContain(Algorithm.COLLNET_DIRECT,
                Algorithm.COLLNET_CHAIN);
    }
}
