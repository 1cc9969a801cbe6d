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
 * CollNet plans on real data, the SHARP switch actors doing the work across hosts: Direct and Chain all-reduce and
 * Direct reduce-scatter for every type × every reduction, Direct all-gather for every type, × 2..8 hosts × 1..8
 * ranks per host. Pairs the SHARP plugin reduces must give the reference result (CollectiveCheck's bounds hold for
 * any summation order); the others (product, fp8) must be refused with the reason. Small buffers (2 KiB: 256-byte
 * slots) make the loops wrap the 8 slots many times; channel counts vary so that a channel may own no loop or a short
 * last one. Direct all-reduce also runs with fewer heads than GPUs (fewer NICs: {@link #directWithFewerHeads}).
 */
class CollNetExecutorTest {
    private static final long[] COUNTS = {1, 7, 263, 1009, 5000};
    /** Per-rank counts of all-gather and reduce-scatter, whose buffers are n × count. */
    private static final long[] GATHERED_COUNTS = {1, 7, 97, 263, 600};

    private record Case(CollectiveOp op, Algorithm algo) { }

    private static final Case[] CASES = {new Case(CollectiveOp.ALL_REDUCE, Algorithm.COLLNET_DIRECT),
        new Case(CollectiveOp.ALL_REDUCE, Algorithm.COLLNET_CHAIN), new Case(CollectiveOp.ALL_GATHER, Algorithm.COLLNET_DIRECT),
        new Case(CollectiveOp.REDUCE_SCATTER, Algorithm.COLLNET_DIRECT)};

    @TestFactory
    Stream<DynamicTest> matrix() {
        Planners planners = Planners.standard();
        CpuExecutor exec = new CpuExecutor();
        List<DynamicTest> tests = new ArrayList<>();
        for (Case cs : CASES) {
            boolean gather = cs.op() == CollectiveOp.ALL_GATHER;
            for (DataType dt : DataType.values()) {
                for (ReduceOp red : gather ? new ReduceOp[] {ReduceOp.SUM} : ReduceOp.values()) {
                    boolean ok = gather || CollNetSupport.refusal(dt, red).isEmpty(); // an all-gather reduces nothing
                    for (int hosts = 2; hosts <= 8; hosts++) {
                        for (int ppn = 1; ppn <= 8; ppn++) {
                            if (!ok && (hosts > 2 || ppn > 2)) continue; // one refusal per pair is enough
                            int k = dt.ordinal() + red.ordinal() + hosts + ppn + cs.algo().ordinal() + cs.op().ordinal();
                            int ch = 1 + k % 3;
                            long count = (cs.op() == CollectiveOp.ALL_REDUCE ? COUNTS : GATHERED_COUNTS)[k % COUNTS.length];
                            long buffer = k % 2 == 0 ? 2048 : 4L << 20;
                            CollectiveCall call = new CollectiveCall(cs.op(), count, dt, red, 0, CommLayout.uniform(hosts, ppn));
                            PlanOptions opts = PlanOptions.of(cs.algo(), Protocol.SIMPLE, ch).withBufferBytes(buffer);
                            long seed = 7919L * dt.ordinal() + 101L * red.ordinal() + 11L * hosts + ppn;
                            String name = cs.algo() + " " + cs.op().cliName() + " " + dt + " " + red + " " + hosts + "x" + ppn
                                    + " " + ch + "ch count=" + count + " buffer=" + buffer;
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

    /**
     * Direct all-reduce with fewer NICs than GPUs: heads are the GPUs with a NIC of their own (4 NICs for 8 GPUs:
     * local 0, 2, 4, 6), the others scatter to and gather from every head.
     */
    @TestFactory
    Stream<DynamicTest> directWithFewerHeads() {
        Planners planners = Planners.standard();
        CpuExecutor exec = new CpuExecutor();
        int[][][] layouts = {{{8}, {0, 2, 4, 6}}, {{8}, {0, 4}}, {{8}, {3}}, {{4}, {0, 2}}, {{6}, {1, 3, 5}}, {{3}, {0, 1}},
            {{2}, {1}}};
        List<DynamicTest> tests = new ArrayList<>();
        for (int[][] l : layouts) {
            for (DataType dt : new DataType[] {DataType.FLOAT32, DataType.BFLOAT16, DataType.INT64}) {
                for (ReduceOp red : new ReduceOp[] {ReduceOp.SUM, ReduceOp.AVG, ReduceOp.MAX}) {
                    for (int hosts : new int[] {2, 3, 5}) {
                        int ppn = l[0][0];
                        int k = dt.ordinal() + red.ordinal() + hosts + ppn;
                        int ch = 1 + k % 3;
                        long count = COUNTS[k % COUNTS.length];
                        long buffer = k % 2 == 0 ? 2048 : 4L << 20;
                        CollectiveCall call = new CollectiveCall(CollectiveOp.ALL_REDUCE, count, dt, red, 0,
                                CommLayout.uniform(hosts, ppn));
                        PlanOptions opts = PlanOptions.of(Algorithm.COLLNET_DIRECT, Protocol.SIMPLE, ch).withBufferBytes(buffer)
                                .withNetHeads(l[1]);
                        String name = dt + " " + red + " " + hosts + "x" + ppn + " heads " + java.util.Arrays.toString(l[1])
                                + " " + ch + "ch count=" + count;
                        tests.add(DynamicTest.dynamicTest(name, () -> CollectiveCheck.planRunVerify(planners, exec, call, opts,
                                31L * k + hosts, null)));
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
    void directWithFourNicsForEightGpusHasFourHeads() {
        CollectiveCall call = CollectiveCall.of(CollectiveOp.ALL_REDUCE, 1 << 20, DataType.FLOAT32, CommLayout.uniform(2, 8));
        Plan plan = Planners.standard().plan(call, PlanOptions.of(Algorithm.COLLNET_DIRECT, Protocol.SIMPLE, 2)
                .withNetHeads(new int[] {0, 2, 4, 6}));
        assertThat(plan.nActors()).isEqualTo(16 + 4);
        assertThat(plan.switchRail(16 + 1)).isEqualTo(2); // head 1 is local 2, the GPU beside NIC 1
        assertThat(plan.maxPeers()).isEqualTo(7); // a head still reduces the 7 other GPUs' parts
        assertThat(plan.stepCount(1, 0, 1)).isZero(); // local 1 is no head: no reduce, no bcast
        assertThat(plan.stepCount(1, 0, 2)).isZero();
        StepCursor c = new StepCursor(plan.maxPeers());
        plan.step(1, 0, 0, 0, c); // local 1 scatters to all 4 heads, starting at head 1 mod 4 (connect.cc shift)
        assertThat(c.sendPeer(0)).isEqualTo(2);
        plan.step(2, 0, 0, 0, c); // head 1 (local 2) to the 3 other heads, up peer (0 + 2) mod 3 = head 3 first
        assertThat(c.sendPeer(0)).isEqualTo(6);
        assertThat(plan.stepCount(2, 0, 0)).isEqualTo(3 * plan.stepCount(2, 0, 1));
        assertThat(plan.stepCount(1, 0, 0)).isEqualTo(4 * plan.stepCount(2, 0, 1));
        plan.step(8 + 4, 1, 1, 0, c); // host 1's head 2 reduces all 7 others' part 2 into the network
        assertThat(c.prim()).isEqualTo(Primitive.RECV_REDUCE_SEND);
        assertThat(c.nRecv()).isEqualTo(7);
        assertThat(c.sendPeer(0)).isEqualTo(16 + 2);
        // 4 MiB per rank on 2 channels, 4 heads: 2 MiB / (4 × 512 KiB) = 1 < 2·64: 128 KiB; 2 MiB / (4 × 128 KiB) = 4
        // < 16: 64 KiB; 8 < 16: 32 KiB (calcCollChunking with nHeads = 4)
        plan.step(0, 0, 0, 0, c);
        assertThat((long) c.count() * 4).isEqualTo(32768);
    }

    @Test
    void allGatherRunsTheNetworkPerRailOneNodeAtATime() {
        int count = 1 << 18; // 1 MiB of floats per rank
        CollectiveCall call = CollectiveCall.of(CollectiveOp.ALL_GATHER, count, DataType.FLOAT32, CommLayout.uniform(4, 8));
        Plan plan = Planners.standard().plan(call, PlanOptions.of(Algorithm.COLLNET_DIRECT, Protocol.SIMPLE, 2));
        assertThat(plan.nActors()).isEqualTo(32 + 8);
        assertThat(plan.nLanes()).isEqualTo(3);
        assertThat(plan.switchRail(32 + 3)).isEqualTo(3);
        // nBytes 32 MiB (the whole buffer), 16 MiB per channel: 16 MiB / (8 heads × 512 KiB) = 4 < 128: 128 KiB, then
        // 16 MiB / (8 × 128 KiB) = 16, not < 16: 128 KiB chunks, 4 per channel's 512 KiB part of each block
        StepCursor c = new StepCursor(plan.maxPeers());
        plan.step(8 + 5, 0, 0, 0, c); // node 1, rail 5 sends its own input to the rail's switch
        assertThat(c.prim()).isEqualTo(Primitive.SEND);
        assertThat((long) c.count() * 4).isEqualTo(128 << 10);
        assertThat(c.sendPeer(0)).isEqualTo(32 + 5);
        assertThat(c.sendConn()).isEqualTo(1);
        assertThat(plan.stepCount(8 + 5, 0, 0)).isEqualTo(4);
        assertThat(plan.stepCount(32 + 5, 0, 0)).isEqualTo(4 * 4); // 4 windows of each of 4 nodes
        plan.step(32 + 5, 0, 0, 2 * 4 + 1, c); // window 1 of node 2: from node 2's GPU 5, to every node's GPU 5
        assertThat(c.prim()).isEqualTo(Primitive.SHARP_GATHER);
        assertThat(c.nRecv()).isEqualTo(1);
        assertThat(c.recvPeer(0)).isEqualTo(2 * 8 + 5);
        assertThat(c.nSend()).isEqualTo(4);
        assertThat(c.sendPeer(3)).isEqualTo(3 * 8 + 5);
        plan.step(8 + 5, 0, 1, 4, c); // the first window of node 1 into the output at rank 13 and to the 7 others
        assertThat(c.prim()).isEqualTo(Primitive.RECV_COPY_SEND);
        assertThat(c.dstOffset()).isEqualTo(13L * count);
        assertThat(c.nSend()).isEqualTo(7);
        assertThat(c.sendPeer(0)).isEqualTo(8 + 6);
        plan.step(8 + 5, 0, 2, 1, c); // node 0's first window of rail 7 from local 7, one call with rail 6's
        assertThat(c.prim()).isEqualTo(Primitive.RECV);
        assertThat(c.recvPeer(0)).isEqualTo(8 + 7);
        assertThat(c.dstOffset()).isEqualTo(7L * count);
        assertThat(c.continued()).isTrue();
    }

    @Test
    void reduceScatterSendsEachWindowsSumToItsNodesHead() {
        CollectiveCall call = CollectiveCall.of(CollectiveOp.REDUCE_SCATTER, 4096, DataType.FLOAT32, CommLayout.uniform(3, 4));
        Plan plan = Planners.standard().plan(call, PlanOptions.of(Algorithm.COLLNET_DIRECT, Protocol.SIMPLE, 1));
        StepCursor c = new StepCursor(plan.maxPeers());
        int chunks = plan.stepCount(4 + 2, 0, 2); // node 1's rail 2 receives its own windows only
        plan.step(12 + 2, 0, 0, chunks, c); // node 1's first window: every node's GPU 2 in, the sum to node 1's
        assertThat(c.prim()).isEqualTo(Primitive.SHARP_REDUCE);
        assertThat(c.nRecv()).isEqualTo(3);
        assertThat(c.nSend()).isEqualTo(1);
        assertThat(c.sendPeer(0)).isEqualTo(4 + 2);
        plan.step(4 + 2, 0, 1, chunks, c); // node 1's GPU 2 adds its input block of rank 6 to the others' parts
        assertThat(c.prim()).isEqualTo(Primitive.RECV_REDUCE_SEND);
        assertThat(c.srcOffset()).isEqualTo(6L * 4096);
        assertThat(c.nRecv()).isEqualTo(3);
        assertThat(c.recvConn()).isEqualTo(1);
        plan.step(4 + 2, 0, 0, 0, c); // and scatters node 0's block of rail 3 (rank 3) to local 3 first
        assertThat(c.prim()).isEqualTo(Primitive.SEND);
        assertThat(c.srcOffset()).isEqualTo(3L * 4096);
        assertThat(c.sendPeer(0)).isEqualTo(4 + 3);
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
        assertThatThrownBy(() -> planners.plan(ag, PlanOptions.of(Algorithm.COLLNET_CHAIN, Protocol.SIMPLE, 2)))
                .isInstanceOf(UnsupportedAlgorithmException.class).hasMessageContaining("not supported for all_gather");
        CollectiveCall rs = CollectiveCall.of(CollectiveOp.REDUCE_SCATTER, 1024, DataType.FLOAT32, CommLayout.uniform(2, 8));
        PlanOptions fourNics = PlanOptions.of(Algorithm.COLLNET_DIRECT, Protocol.SIMPLE, 2).withNetHeads(new int[] {0, 2, 4, 6});
        assertThatThrownBy(() -> planners.plan(rs, fourNics))
                .isInstanceOf(UnsupportedAlgorithmException.class).hasMessageContaining("requires 1:1 GPU:NIC")
                .hasMessageContaining("8 ranks per node, 4 CollNet heads");
        assertThatThrownBy(() -> planners.plan(two, PlanOptions.of(Algorithm.COLLNET_DIRECT, Protocol.SIMPLE, 2)
                .withNetHeads(new int[] {1, 2}))).isInstanceOf(UnsupportedAlgorithmException.class)
                .hasMessageContaining("head local index 2 is not a GPU of a host of 2 ranks");
        assertThat(planners.supportedOnKernels(CollectiveOp.ALL_REDUCE)).doesNotContain(Algorithm.COLLNET_DIRECT,
                Algorithm.COLLNET_CHAIN);
    }
}
