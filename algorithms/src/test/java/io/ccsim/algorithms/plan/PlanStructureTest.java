package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PlanStructureTest {
    private final Planners planners = Planners.standard();

    private Plan plan(CollectiveOp op, Algorithm a, Protocol p, int ch, long count, CommLayout l, long buffer) {
        return planners.plan(new CollectiveCall(op, count, DataType.FLOAT32, ReduceOp.SUM, 0, l),
                PlanOptions.of(a, p, ch).withBufferBytes(buffer));
    }

    @Test
    void ringAllReduceCallsFollowNcclRunRing() {
        int n = 4;
        Plan p = plan(CollectiveOp.ALL_REDUCE, Algorithm.RING, Protocol.LL, 1, 4 * 4, CommLayout.singleHost(n), 2048);
        // LL: one slice per call, one loop of n chunks of 4 elements (16 B chunk payload = 128 B data slot / ... )
        StepCursor c = new StepCursor();
        int r = 2;
        assertThat(p.stepCount(r, 0, 0)).isEqualTo(2 * n - 1);
        Primitive[] expect = {Primitive.SEND, Primitive.RECV_REDUCE_SEND, Primitive.RECV_REDUCE_SEND,
                Primitive.RECV_REDUCE_COPY_SEND, Primitive.RECV_COPY_SEND, Primitive.RECV_COPY_SEND, Primitive.RECV};
        // chunk indices for ring position ix = 2: ix−1, ix−2, ix−3, ix, ix−1, ix−2, ix+1 (mod n)
        int[] chunk = {1, 0, 3, 2, 1, 0, 3};
        for (int i = 0; i < expect.length; i++) {
            p.step(r, 0, 0, i, c);
            assertThat(c.prim()).isEqualTo(expect[i]);
            assertThat(c.srcOffset()).isEqualTo(chunk[i] * 4L);
            assertThat(c.count()).isEqualTo(4);
            if (c.prim().receives()) assertThat(c.recvPeer(0)).isEqualTo(1);
            if (c.prim().sends()) assertThat(c.sendPeer(0)).isEqualTo(3);
        }
    }

    @Test
    void geometryFollowsNcclChunkRules() {
        CommLayout l = CommLayout.singleHost(8);
        // Simple ring all-reduce: slot = 4 MiB / 8; chunk = 4 slots; slice = 2 slots
        ProtocolGeometry g = plan(CollectiveOp.ALL_REDUCE, Algorithm.RING, Protocol.SIMPLE, 2, 1 << 20, l,
                Protocol.SIMPLE.defaultBufferBytes()).geometry();
        assertThat(g.slotWireBytes()).isEqualTo(4 * 1024 * 1024 / 8);
        assertThat(g.chunkSteps()).isEqualTo(Protocol.NCCL_STEPS / 2);
        assertThat(g.sliceSteps()).isEqualTo(Protocol.NCCL_STEPS / 4);
        assertThat(g.chunkBytes()).isEqualTo(4L * 4 * 1024 * 1024 / 8);
        // broadcast: 1/1
        ProtocolGeometry b = plan(CollectiveOp.BROADCAST, Algorithm.RING, Protocol.SIMPLE, 2, 1 << 20, l,
                Protocol.SIMPLE.defaultBufferBytes()).geometry();
        assertThat(b.chunkSteps()).isEqualTo(1);
        assertThat(b.sliceSteps()).isEqualTo(1);
        // LL: chunk = slot / 2 (4 B data per 8 B line)
        ProtocolGeometry ll = plan(CollectiveOp.ALL_REDUCE, Algorithm.RING, Protocol.LL, 1, 1 << 20, l,
                Protocol.LL.defaultBufferBytes()).geometry();
        assertThat(ll.chunkBytes()).isEqualTo(Protocol.LL.defaultBufferBytes() / 8 / 2);
        assertThat(ll.slotDataBytes()).isEqualTo(Protocol.LL.defaultBufferBytes() / 8 / 2);
        // LL128: chunk = slot / 16 × 15 (120 data bytes of each 128-byte line)
        ProtocolGeometry l128 = plan(CollectiveOp.ALL_REDUCE, Algorithm.RING, Protocol.LL128, 1, 1 << 20, l,
                Protocol.LL128.defaultBufferBytes()).geometry();
        assertThat(l128.chunkBytes()).isEqualTo(Protocol.LL128.defaultBufferBytes() / 8 / 16 * 15);
        assertThat(l128.chunkBytes() % Chunking.grainBytes(Protocol.LL128)).isZero();
    }

    @Test
    void treeLl128ShrinksTheChunkForSmallSizes() {
        CommLayout l = CommLayout.uniform(8, 8);
        long count = 1 << 16; // 256 KiB of float per channel (1 channel)
        Plan p = plan(CollectiveOp.ALL_REDUCE, Algorithm.TREE, Protocol.LL128, 1, count, l,
                Protocol.LL128.defaultBufferBytes());
        long chunk = Protocol.LL128.defaultBufferBytes() / 8 / 16 * 15;
        float ppn = 8f;
        float nsteps = 1 + 3 + 0.1f * ppn;
        long bytes = count * 4;
        while (bytes / chunk < nsteps * 64 / ppn && chunk > 131072) chunk /= 2;
        while (bytes / chunk < nsteps * 16 / ppn && chunk > 32768) chunk /= 2;
        chunk = chunk / 1920 * 1920;
        StepCursor c = new StepCursor();
        p.step(63, 0, 1, 0, c);
        assertThat((long) c.count() * 4).isEqualTo(chunk);
        assertThat(chunk).isLessThan(Protocol.LL128.defaultBufferBytes() / 8 / 16 * 15);
    }

    @Test
    void btreeMatchesNcclIllustrations() {
        // trees.cc: 14 ranks: 0 → 8; 8 → 4, 12; 12 → 10, 13; 13 → parent 12
        assertThat(TreeAllReducePlanner.btree(14, 0)).containsExactly(-1, -1, 8);
        assertThat(TreeAllReducePlanner.btree(14, 8)).containsExactly(0, 4, 12);
        assertThat(TreeAllReducePlanner.btree(14, 12)).containsExactly(8, 10, 13);
        assertThat(TreeAllReducePlanner.btree(14, 13)[0]).isEqualTo(12);
        // mirrored for 12 (even): root 11, whose child is 3
        assertThat(TreeAllReducePlanner.dtree(12, 11, 1)[0]).isEqualTo(-1);
        assertThat(TreeAllReducePlanner.dtree(12, 3, 1)[0]).isEqualTo(11);
        // shifted for 13 (odd): root 1, whose child is 9
        assertThat(TreeAllReducePlanner.dtree(13, 1, 1)[0]).isEqualTo(-1);
        assertThat(TreeAllReducePlanner.dtree(13, 9, 1)[0]).isEqualTo(1);
        // every node but the root has exactly one parent, and parent/child agree
        for (int nn : new int[] {1, 2, 3, 5, 8, 13, 64}) {
            for (int t = 0; t < 2; t++) {
                int roots = 0;
                for (int r = 0; r < nn; r++) {
                    int[] d = TreeAllReducePlanner.dtree(nn, r, t);
                    if (d[0] == -1) roots++;
                    else assertThat(TreeAllReducePlanner.dtree(nn, d[0], t)).contains(r);
                }
                assertThat(roots).isEqualTo(1);
            }
        }
    }

    @Test
    void treeOverHostsHasChainsAndFanInUpToThree() {
        // 4 hosts × 2 ranks; host tree 0 = btree(4): 0 → 2; 2 → 1, 3
        Plan p = plan(CollectiveOp.ALL_REDUCE, Algorithm.TREE, Protocol.SIMPLE, 2, 1000, CommLayout.uniform(4, 2), 2048);
        StepCursor c = new StepCursor();
        p.step(4, 0, 0, 0, c); // head of host 2: children = chain rank 5, heads of hosts 1 and 3
        assertThat(c.prim()).isEqualTo(Primitive.RECV_REDUCE_SEND);
        assertThat(new int[] {c.recvPeer(0), c.recvPeer(1), c.recvPeer(2)}).containsExactly(5, 2, 6);
        assertThat(c.sendPeer(0)).isEqualTo(0);
        p.step(0, 0, 0, 0, c); // root of tree 0
        assertThat(c.prim()).isEqualTo(Primitive.RECV_REDUCE_COPY_SEND);
        assertThat(c.nRecv()).isEqualTo(2);
        assertThat(p.stepCount(0, 0, 1)).isZero();
        // channel 1 carries tree 1 = mirrored host tree: root is host 3's head, rank 6
        assertThat(p.stepCount(6, 1, 1)).isZero();
        assertThat(p.stepCount(0, 1, 1)).isPositive();
        p.step(7, 0, 0, 0, c); // leaf: chain end of host 3
        assertThat(c.prim()).isEqualTo(Primitive.SEND);
        assertThat(c.sendPeer(0)).isEqualTo(6);
    }

    @Test
    void treeChannelsOnSeveralHostsSpreadTheirHostEdgesOverTheRails() {
        // 4 hosts x 8 ranks, 16 channels: tree-0 channel c (c < 8) starts every host's chain at local rank c, so its
        // host-to-host edges join GPU c of each host (one rail, NIC c); tree-1 channel c + 8 has the same chains
        Plan p = plan(CollectiveOp.ALL_REDUCE, Algorithm.TREE, Protocol.SIMPLE, 16, 1 << 20, CommLayout.uniform(4, 8), 1 << 22);
        StepCursor c = new StepCursor();
        java.util.Set<Integer> heads = new java.util.TreeSet<>();
        for (int ch = 0; ch < 16; ch++) {
            int head0 = ch % 8; // host 0's chain head: the root of tree 0 (no parent)
            if (ch < 8) {
                assertThat(p.stepCount(head0, ch, 1)).as("channel %d: rank %d is the root", ch, head0).isZero();
                heads.add(head0);
            }
            for (int h = 0; h < 4; h++) {
                int head = 8 * h + ch % 8;
                p.step(head, ch, 0, 0, c);
                // the head's peers: its chain child (next local rank, cyclically) and the heads of other hosts, on its rail
                for (int i = 0; i < c.nRecv(); i++) {
                    int peer = c.recvPeer(i);
                    if (peer / 8 == h) assertThat(peer).isEqualTo(8 * h + (ch + 1) % 8);
                    else assertThat(peer % 8).as("channel %d host %d child %d on rail %d", ch, h, peer, ch % 8).isEqualTo(ch % 8);
                }
                if (c.nSend() > 0 && c.prim() != Primitive.RECV_REDUCE_COPY_SEND) assertThat(c.sendPeer(0) % 8).isEqualTo(ch % 8);
                // the chain's last rank (local rank before the head, cyclically) is a leaf: it only sends up
                p.step(8 * h + (ch + 7) % 8, ch, 0, 0, c);
                assertThat(c.prim()).isEqualTo(Primitive.SEND);
            }
        }
        assertThat(heads).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
        // one host: ascending chains on every channel (rank 0 the root, rank 7 the leaf)
        Plan one = plan(CollectiveOp.ALL_REDUCE, Algorithm.TREE, Protocol.SIMPLE, 16, 1 << 20, CommLayout.uniform(1, 8), 1 << 22);
        for (int ch = 0; ch < 8; ch++) {
            assertThat(one.stepCount(0, ch, 1)).isZero();
            one.step(7, ch, 0, 0, c);
            assertThat(c.prim()).isEqualTo(Primitive.SEND);
            assertThat(c.sendPeer(0)).isEqualTo(6);
        }
    }

    /** Along every connection, the sender's slices and the receiver's slices agree in order, size and slots. */
    @Test
    void everyConnectionCarriesMatchingSendsAndReceives() {
        for (CollectiveOp op : CollectiveOp.values()) {
            for (Algorithm a : planners.supported(op)) {
                for (Protocol proto : Protocol.values()) {
                    if (a.isSymmetric() && proto != SymmetricSupport.protocolOf(a)) continue;
                    boolean nvls = a == Algorithm.NVLS || a == Algorithm.NVLS_TREE || a.isSymmetric();
                    boolean collNet = a == Algorithm.COLLNET_DIRECT || a == Algorithm.COLLNET_CHAIN;
                    // NVLS(Tree): Simple, not int8, NVLS on one host; CollNet: Simple, 2+ hosts; PAT: Simple, one rank
                    // per host; symmetric kernels: their own protocol (above), float, one host
                    boolean simpleOnly = (nvls && !a.isSymmetric()) || collNet || a == Algorithm.PAT;
                    if (simpleOnly && proto != Protocol.SIMPLE) continue;
                    for (int n : new int[] {2, 3, 5, 8}) {
                        CommLayout l = a == Algorithm.NVLS || a.isSymmetric() ? CommLayout.singleHost(n)
                                : a == Algorithm.NVLS_TREE ? CommLayout.uniform(3, n)
                                : a == Algorithm.PAT ? CommLayout.uniform(n, 1)
                                : collNet && n % 2 == 1 ? CommLayout.uniform(n, 1)
                                : CommLayout.uniform(n % 2 == 0 ? 2 : 1, n % 2 == 0 ? n / 2 : n);
                        CollectiveCall call = new CollectiveCall(op, 1009, nvls ? DataType.FLOAT32 : DataType.INT8,
                                ReduceOp.SUM, n - 1, l);
                        Plan p = planners.plan(call, PlanOptions.of(a, proto, 3).withBufferBytes(2048));
                        checkConnections(p);
                    }
                }
            }
        }
    }

    private static void checkConnections(Plan p) {
        Map<String, List<Long>> sent = new HashMap<>();
        Map<String, List<Long>> recv = new HashMap<>();
        Set<String> declared = new HashSet<>();
        p.forEachConnection((ch, f, t) -> assertThat(declared.add(ch + ":" + f + ">" + t)).isTrue());
        StepCursor c = new StepCursor(p.maxPeers());
        for (int r = 0; r < p.nActors(); r++)
            for (int ch = 0; ch < p.nChannels(); ch++)
                for (int l = 0; l < p.nLanes(); l++)
                    for (int i = 0; i < p.stepCount(r, ch, l); i++) {
                        p.step(r, ch, l, i, c);
                        int sch = p.connectionChannel(ch, c.sendConn());
                        int rch = p.connectionChannel(ch, c.recvConn());
                        // a scatter's or gather's connection carries its peer's part
                        for (int k = 0; k < c.nSend(); k++) {
                            long sig = ((long) (c.nRecv() == 0 ? c.partCount(k) : c.count()) << 8) | c.slots();
                            sent.computeIfAbsent(sch + ":" + r + ">" + c.sendPeer(k), x -> new ArrayList<>()).add(sig);
                        }
                        for (int k = 0; k < c.nRecv(); k++) {
                            long sig = ((long) (c.nSend() == 0 ? c.partCount(k) : c.count()) << 8) | c.slots();
                            recv.computeIfAbsent(rch + ":" + c.recvPeer(k) + ">" + r, x -> new ArrayList<>()).add(sig);
                        }
                    }
        assertThat(sent.keySet()).as(p.toString()).isEqualTo(recv.keySet());
        assertThat(declared).as(p.toString()).isEqualTo(sent.keySet());
        for (String k : sent.keySet()) assertThat(recv.get(k)).as(p + " " + k).isEqualTo(sent.get(k));
    }

    @Test
    void planFor1024RanksIsSmallAndQuick() {
        CommLayout l = CommLayout.uniform(128, 8);
        long t0 = System.nanoTime();
        long count = (1L << 30) / 4;
        for (Algorithm a : new Algorithm[] {Algorithm.RING, Algorithm.TREE}) {
            Plan p = planners.plan(new CollectiveCall(CollectiveOp.ALL_REDUCE, count, DataType.FLOAT32, ReduceOp.SUM, 0, l),
                    PlanOptions.of(a, Protocol.SIMPLE, 32));
            assertThat(p.approxFootprintBytes()).as(a.toString()).isLessThan(64 * 1024);
            StepCursor c = new StepCursor();
            int sc = p.stepCount(1023, 31, 0);
            assertThat(sc).isPositive();
            p.step(1023, 31, 0, sc - 1, c);
            assertThat(c.count()).isGreaterThanOrEqualTo(0);
            assertThat(p.totalSteps()).isPositive();
        }
        Plan a2a = planners.plan(new CollectiveCall(CollectiveOp.ALL_TO_ALL, 1 << 16, DataType.FLOAT32, ReduceOp.SUM, 0, l),
                PlanOptions.of(Algorithm.P2P, Protocol.SIMPLE, 32).withP2p(new P2pSettings(32, 512 * 1024)));
        assertThat(a2a.approxFootprintBytes()).isLessThan(64 * 1024);
        // NCCL's placement: each peer's 256 KiB on one channel (nChannelsMin = 1 at 1,024 ranks on 32 channels)
        assertThat(a2a.connectionCount()).isEqualTo(1024L * 1023);
        assertThat(a2a.nLanes()).isEqualTo(16); // batches of the 8 rounds of a group delta
        assertThat(System.nanoTime() - t0).isLessThan(5_000_000_000L);
    }

    @Test
    void ringAllReduceTotalTransfersMatchTheRingFormula() {
        // Every rank sends 2(n−1) chunk calls per loop; with LL (one slice per call) the payload each
        // rank sends is 2(n−1)/n of the data (up to rounding of the last chunk).
        int n = 5;
        long count = 5 * 64 * 3; // 3 loops of n chunks of 64 elements? chunk = 128 B data / 4 B = 32 elements
        Plan p = plan(CollectiveOp.ALL_REDUCE, Algorithm.RING, Protocol.LL, 1, count, CommLayout.singleHost(n), 2048);
        StepCursor c = new StepCursor();
        long sent = 0;
        int sends = 0;
        for (int i = 0; i < p.stepCount(0, 0, 0); i++) {
            p.step(0, 0, 0, i, c);
            if (c.prim().sends()) {
                sent += c.count();
                sends++;
            }
        }
        long loops = (count + (long) n * 32 - 1) / (n * 32L);
        assertThat(sends).isEqualTo((int) (loops * 2 * (n - 1)));
        assertThat(sent).isEqualTo(2L * (n - 1) * count / n);
    }

    @Test
    void encodesStepsAsFlatLongs() {
        Plan p = plan(CollectiveOp.ALL_REDUCE, Algorithm.RING, Protocol.SIMPLE, 1, 100, CommLayout.singleHost(3), 2048);
        long[] flat = p.encodeSteps(1, 0, 0);
        assertThat(flat.length).isEqualTo(p.stepCount(1, 0, 0) * StepCursor.ENCODED_LONGS);
        assertThat(flat[0]).isEqualTo(Primitive.SEND.ordinal());
        assertThat(flat[11] >>> 32).isEqualTo(2); // sliceSteps
    }

    @Test
    void rejectsBadInputWithClearMessages() {
        CommLayout l = CommLayout.singleHost(4);
        assertThatThrownBy(() -> PlanOptions.of(Algorithm.RING, Protocol.SIMPLE, 0))
                .hasMessageContaining("nChannels must be in 1..64");
        assertThatThrownBy(() -> PlanOptions.of(Algorithm.RING, Protocol.SIMPLE, 65))
                .hasMessageContaining("nChannels must be in 1..64");
        assertThatThrownBy(() -> PlanOptions.of(Algorithm.RING, Protocol.LL128, 1).withBufferBytes(1000))
                .hasMessageContaining("multiple of 2048");
        assertThatThrownBy(() -> PlanOptions.of(Algorithm.COLLNET_DIRECT, Protocol.SIMPLE, 1).withNetHeads(new int[] {0, 2, 2}))
                .hasMessageContaining("netHeads must be ascending distinct local indices >= 0, got [0, 2, 2]");
        assertThatThrownBy(() -> PlanOptions.of(Algorithm.COLLNET_DIRECT, Protocol.SIMPLE, 1).withNetHeads(new int[0]))
                .hasMessageContaining("netHeads must not be empty");
        assertThatThrownBy(() -> planners.plan(CollectiveCall.of(CollectiveOp.ALL_GATHER, 10, DataType.FLOAT32, l),
                PlanOptions.of(Algorithm.TREE, Protocol.SIMPLE, 1)))
                .isInstanceOf(UnsupportedAlgorithmException.class)
                .hasMessageContaining("Tree is not supported for all_gather; supported: Ring");
        assertThatThrownBy(() -> planners.plan(CollectiveCall.of(CollectiveOp.ALL_REDUCE, 10, DataType.FLOAT32, l),
                PlanOptions.of(Algorithm.PAT, Protocol.SIMPLE, 1)))
                .isInstanceOf(UnsupportedAlgorithmException.class)
                .hasMessageContaining("supported: Ring, Tree, NVLS, NVLSTree, CollnetDirect, CollnetChain");
        assertThatThrownBy(() -> new CollectiveCall(CollectiveOp.BROADCAST, 10, DataType.FLOAT32, ReduceOp.SUM, 4, l))
                .hasMessageContaining("root must be in [0, 3], got 4");
        assertThatThrownBy(() -> new CommLayout(3, new int[] {0, 2, 2}))
                .hasMessageContaining("host 1 has no rank");
        assertThatThrownBy(() -> planners.plan(CollectiveCall.of(CollectiveOp.ALL_REDUCE, 10, DataType.FLOAT32, l),
                PlanOptions.of(Algorithm.RING, Protocol.SIMPLE, 1).withRingOrders(new int[][] {{0, 1, 1, 3}})))
                .hasMessageContaining("permutation of 0..3");
        Plan p = plan(CollectiveOp.ALL_REDUCE, Algorithm.RING, Protocol.SIMPLE, 1, 10, l, 2048);
        assertThatThrownBy(() -> p.step(4, 0, 0, 0, new StepCursor())).hasMessageContaining("actor 4 not in [0, 4)");
        assertThatThrownBy(() -> p.step(0, 0, 0, 999, new StepCursor())).hasMessageContaining("out of range");
    }
}
