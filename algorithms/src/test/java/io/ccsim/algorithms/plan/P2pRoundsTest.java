package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** NCCL 2.28.9's p2p rounds, channels and batches (src/init.cc ncclP2pSchedule, channel.h, enqueue.cc). */
class P2pRoundsTest {

    @Test
    void groupDeltasFollowTheQuadraticOrderAndLocalDeltasRunInOrder() {
        // src/init.cc: "Example sequence for 16 ranks: 0, 1, 3, 6, 10, 15, 5, 12, 4, 13, 7, 2, 14, 11, 9, 8"; here over
        // 16 groups of 8 ranks (16 nodes), read from rank 0's send peers at the first round of each group delta
        P2pRounds r = new P2pRounds(CommLayout.uniform(16, 8), 16);
        assertThat(r.groupSize()).isEqualTo(8);
        int[] firstOfGroup = new int[16];
        for (int i = 0; i < 16; i++) firstOfGroup[i] = r.sendPeer(0, 8 * i) / 8;
        assertThat(firstOfGroup).containsExactly(0, 1, 3, 6, 10, 15, 5, 12, 4, 13, 7, 2, 14, 11, 9, 8);
        // within a group delta, the local deltas 0..7: rank 3 sends to local (3 + d) mod 8 of node 1 in group round 1
        for (int d = 0; d < 8; d++) assertThat(r.sendPeer(3, 8 + d)).isEqualTo(8 + (3 + d) % 8);
        // one node: one group, the deltas 0, 1, ..., n − 1 (not the quadratic order over ranks)
        P2pRounds one = new P2pRounds(CommLayout.singleHost(16), 32);
        for (int i = 0; i < 16; i++) assertThat(one.sendPeer(5, i)).isEqualTo((5 + i) % 16);
    }

    @Test
    void everyRoundPairsASendWithItsPeersReceive() {
        List<CommLayout> layouts = List.of(CommLayout.singleHost(7), CommLayout.uniform(3, 8), CommLayout.uniform(5, 6),
                new CommLayout(10, new int[] {0, 0, 0, 0, 1, 1, 1, 1, 1, 1}), CommLayout.uniform(12, 1));
        for (CommLayout l : layouts) {
            P2pRounds r = new P2pRounds(l, 8);
            for (int rank = 0; rank < l.nRanks(); rank++) {
                Set<Integer> sends = new HashSet<>();
                Set<Integer> recvs = new HashSet<>();
                assertThat(r.sendPeer(rank, 0)).as("%s round 0", l).isEqualTo(rank);
                for (int i = 0; i < r.rounds(); i++) {
                    int to = r.sendPeer(rank, i);
                    sends.add(to);
                    recvs.add(r.recvPeer(rank, i));
                    assertThat(r.recvPeer(to, i)).as("%s rank %d round %d", l, rank, i).isEqualTo(rank);
                }
                assertThat(sends).as("%s rank %d", l, rank).hasSize(l.nRanks());
                assertThat(recvs).as("%s rank %d", l, rank).hasSize(l.nRanks());
            }
        }
        // nodes of 6 ranks: groups of gcd(8, 6) = 2; nodes of 4 and 6: gcd(gcd(8, 4), 6) = 2
        assertThat(new P2pRounds(CommLayout.uniform(5, 6), 8).groupSize()).isEqualTo(2);
        assertThat(new P2pRounds(layouts.get(3), 8).groupSize()).isEqualTo(2);
    }

    @Test
    void roundsTakeBitReversedChannelBases() {
        // one node, 32 p2p channels (4 x H200): rounds 0..3 start at channels 0, 16, 8, 24
        P2pRounds one = new P2pRounds(CommLayout.singleHost(4), 32);
        assertThat(new int[] {one.channel(0, 0), one.channel(1, 0), one.channel(2, 0), one.channel(3, 0)})
                .containsExactly(0, 16, 8, 24);
        assertThat(one.channel(3, 9)).isEqualTo(1); // (24 + 9) mod 32
        assertThat(one.partOn(3, 1)).isEqualTo(9);
        // several nodes: the 8 rounds of a group delta share a base; group rounds 0..3 take 0, 8, 4, 12 of 16
        P2pRounds many = new P2pRounds(CommLayout.uniform(128, 8), 16);
        for (int d = 0; d < 8; d++) assertThat(many.channel(8 * 3 + d, 0)).isEqualTo(12);
        assertThat(many.channel(8, 1)).isEqualTo(9);
        assertThatThrownBy(() -> new P2pRounds(CommLayout.singleHost(4), 24)).hasMessageContaining("power of two");
    }

    @Test
    void channelsBatchUpToEightOperationsOfOneRoundEpoch() {
        // 1,024 ranks on 16 channels, one part per operation: each channel runs 8 group deltas, one batch of 8 each
        int[][][] b = new P2pRounds(CommLayout.uniform(128, 8), 16).batches(1);
        for (int c = 0; c < 16; c++) {
            assertThat(b[c]).as("channel %d", c).hasNumberOfRows(8);
            for (int[] batch : b[c]) {
                assertThat(batch).hasSize(8);
                for (int round : batch) assertThat(round / 8).isEqualTo(batch[0] / 8);
            }
        }
        // 4 ranks on one node, 16 parts of 32 channels: rounds 0 and 2 share channels 8..15, one batch of both
        int[][][] h = new P2pRounds(CommLayout.singleHost(4), 32).batches(16);
        assertThat(h[8]).hasNumberOfRows(1);
        assertThat(h[8][0]).containsExactly(0, 2);
        assertThat(h[16][0]).containsExactly(1, 2);
        // 16 ranks of one node on 2 channels: rounds of two epochs never share a batch
        int[][][] e = new P2pRounds(CommLayout.singleHost(16), 2).batches(1);
        assertThat(e[0]).hasNumberOfRows(2);
        assertThat(e[0][0]).containsExactly(0, 2, 4, 6);
        assertThat(e[0][1]).containsExactly(8, 10, 12, 14);
    }

    @Test
    void operationChannelsFollowNcclsSplit() {
        // 4 x H200: 32 channels per peer, 32 p2p channels -> nChannelsMin 8; 16 MiB parts at most, then doubling
        int min = P2pOperation.minChannels(32, 4, 32);
        assertThat(min).isEqualTo(8);
        long nvl = 512 * 1024;
        assertThat(P2pOperation.channels(128L << 20, min, 32, nvl, false)).isEqualTo(8);
        assertThat(P2pOperation.channels(256L << 20, min, 32, nvl, false)).isEqualTo(16);
        assertThat(P2pOperation.channels(64 * 1024, min, 32, nvl, false)).isEqualTo(1);
        // 1,024 ranks across nodes: one channel per peer, parts up to the 128 KiB net chunk ... but no more channels
        assertThat(P2pOperation.channels(1 << 20, P2pOperation.minChannels(1, 1024, 16), 1, 128 * 1024, true)).isEqualTo(1);
        assertThat(P2pOperation.channels(1 << 20, 2, 2, 128 * 1024, true)).isEqualTo(2);
        // parts are 4 KiB aligned; chunks over the network halve below 8 steps, quarter below one (Simple)
        assertThat(P2pOperation.partBegin(10_000, 3, 1)).isEqualTo(4096);
        assertThat(P2pOperation.partBegin(10_000, 3, 3)).isEqualTo(10_000);
        assertThat(P2pOperation.chunkDataBytes(1 << 20, 128 * 1024, true, false)).isEqualTo(128 * 1024);
        assertThat(P2pOperation.chunkDataBytes(512 * 1024, 128 * 1024, true, false)).isEqualTo(64 * 1024);
        assertThat(P2pOperation.chunkDataBytes(64 * 1024, 128 * 1024, true, false)).isEqualTo(32 * 1024);
        assertThat(P2pOperation.chunkDataBytes(64 * 1024, 65536, true, true)).isEqualTo(16 * 1024);
        assertThat(P2pOperation.u32fp8(1_000_000)).isEqualTo(983_040); // 0b1111 << 16
    }

    @Test
    void kernelsStripedPlanKeepsNcclsQuadraticDeltaOrderOverRanks() {
        assertThat(P2pRounds.quadraticDeltas(16)).containsExactly(0, 1, 3, 6, 10, 15, 5, 12, 4, 13, 7, 2, 14, 11, 9, 8);
        for (int n = 1; n <= 40; n++) {
            assertThat(P2pRounds.quadraticDeltas(n)).as("n=%d", n).containsExactlyInAnyOrder(
                    java.util.stream.IntStream.range(0, n).toArray());
        }
        Plan striped = Planners.standard().plan(new CollectiveCall(CollectiveOp.ALL_TO_ALL, 1 << 16, DataType.FLOAT32,
                ReduceOp.SUM, 0, CommLayout.uniform(4, 8)), PlanOptions.of(Algorithm.P2P, Protocol.SIMPLE, 16));
        assertThat(striped.nLanes()).isEqualTo(3);
        assertThat(striped.connectionCount()).isEqualTo(16L * 32 * 31);
    }

    @Test
    void allToAllPlanPutsEachPeerOnItsOwnChannels() {
        // 2 nodes x 8 ranks, 16 channels, 2 per peer: 16 x 15 x 2 connections, 8 + 8 lanes (batches of 8)
        CollectiveCall call = new CollectiveCall(CollectiveOp.ALL_TO_ALL, 1 << 18, DataType.FLOAT32, ReduceOp.SUM, 0,
                CommLayout.uniform(2, 8));
        Plan p = Planners.standard().plan(call, PlanOptions.of(Algorithm.P2P, Protocol.SIMPLE, 16)
                .withP2p(new P2pSettings(2, 128 * 1024)));
        assertThat(p.connectionCount()).isEqualTo(16L * 15 * 2);
        assertThat(p.nLanes()).isEqualTo(16);
        // rank 0, channel 0 (group delta 0: base 0), lane 0: the own block's copy, its first half in 128 KiB chunks
        StepCursor c = new StepCursor();
        p.step(0, 0, 0, 0, c);
        assertThat(c.prim()).isEqualTo(Primitive.LOCAL_COPY);
        assertThat(p.stepCount(0, 0, 0)).isEqualTo(4);
        // lane 1 of channel 0 sends to rank 1 (local delta 1), lane 9 receives from rank 7
        p.step(0, 0, 1, 0, c);
        assertThat(c.prim()).isEqualTo(Primitive.SEND);
        assertThat(c.sendPeer(0)).isEqualTo(1);
        p.step(0, 0, 9, 0, c);
        assertThat(c.recvPeer(0)).isEqualTo(7);
        // group delta 1 (node 1) starts at channel 8: rank 0 sends its block for rank 8 there
        p.step(0, 8, 0, 0, c);
        assertThat(c.sendPeer(0)).isEqualTo(8);
        assertThat(c.srcOffset()).isEqualTo(8L << 18);
        List<Integer> idle = new ArrayList<>();
        for (int ch = 0; ch < 16; ch++) if (p.stepCount(0, ch, 0) == 0) idle.add(ch);
        assertThat(idle).containsExactly(2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15);
    }
}
