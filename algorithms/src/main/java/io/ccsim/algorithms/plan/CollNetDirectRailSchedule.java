package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.CollectiveOp;

/**
 * CollNet Direct all-gather and reduce-scatter: every GPU is the head of its NIC's rail; the SHARP network gathers or
 * reduce-scatters across hosts on each rail, and the GPUs of a host exchange their rails' data over NVLink, as NCCL's
 * kernels drive it; the network switch's work is an actor of the plan.
 *
 * <h2>NCCL's data flow (NVIDIA/nccl v2.28.9 src/device/all_gather.h and reduce_scatter.h, RunWorkColl
 * COLLNET_DIRECT; proxy src/transport/coll_net.cc sendProxyProgress)</h2>
 * Both need a head per GPU (tuning.cc turns them off otherwise), so rail r is local index r. The gathered (or
 * scattered) buffer of rail r, the "rail-all" space, holds the blocks of ranks (node 0, r), (node 1, r), ... in node
 * order, countPerRank elements each; a grid step of nChannels × chunk of it gives channel p the chunk at p × chunk,
 * and the proxy hands each step to the plugin as one window ({@code collNetIallgather} / {@code
 * collNetIreducescatter} with the window's offset in the rail-all space). A window lies in one node's block (or
 * straddles two), so one node's head feeds (all-gather) or receives (reduce-scatter) the network at a time.
 * <pre>
 * all-gather      phase 1 (net send):  its own input, the part of each window in its node's block, to the network
 *                                      (connection 1; empty sends for the other nodes' windows)
 *                 phase 2 (head):      each window from the network into the output at the ranks (node, own rail)
 *                                      and to every other GPU of the host ({@code process<Recv, Send>}, connection 0)
 *                 phase 3 (gather):    each window of every other rail from that rail's GPU into the output
 * reduce-scatter  phase 1 (scatter):   for each window, its input block of rank (node, r) to the GPU of rail r, every
 *                                      other rail, pre-operator applied (connection 1)
 *                 phase 2 (reduce):    its own input block of rank (node, own rail) ⊕ the other GPUs' parts, to the
 *                                      network (connection 1)
 *                 phase 3 (net recv):  its own node's part of each window from the network, post-operator, into the
 *                                      output (connection 0)
 * </pre>
 * Phase 2 and 3 peers go in order of rail, starting after its own (the {@code heads} array from itself, connect.cc).
 *
 * <h2>As a plan</h2>
 * Actor n + r is the SHARP switch of rail r ({@link SwitchKind#NETWORK}): per window {@link Primitive#SHARP_GATHER}
 * (all-gather: the window from the head of its node, to the head of every node) or {@link Primitive#SHARP_REDUCE}
 * (reduce-scatter: the window from the head of every node, the sum to the head of its node). Lanes 0..2 are the phases.
 * Deviations: channel c takes a contiguous part of each node's block ({@link ChannelParts}: the same part of every
 * block) and walks the blocks in node order, so a window never straddles two nodes and all channels are in one node's
 * block at a time, as NCCL's grid is; the empty sends and receives of the windows of other nodes are left out.
 */
final class CollNetDirectRailSchedule implements Schedule {
    private final boolean gather;
    private final long count;
    private final ChannelParts parts;
    private final int n;
    private final int ppn;
    private final int nHosts;
    private final int nChannels;
    private final int[][] byHost;
    private final int[] hostOf;
    private final int[] localOf;

    CollNetDirectRailSchedule(CollectiveCall call, PlanOptions o, ChannelParts parts) {
        this.gather = call.op() == CollectiveOp.ALL_GATHER;
        this.count = call.count();
        this.parts = parts;
        this.n = call.nRanks();
        this.byHost = call.layout().ranksByHost();
        this.nHosts = byHost.length;
        this.ppn = byHost[0].length;
        this.nChannels = o.nChannels();
        this.hostOf = new int[n];
        this.localOf = new int[n];
        for (int k = 0; k < nHosts; k++) {
            for (int j = 0; j < ppn; j++) {
                hostOf[byHost[k][j]] = k;
                localOf[byHost[k][j]] = j;
            }
        }
    }

    @Override public int nLanes() { return 3; }

    @Override public int switchActors() { return ppn; }

    @Override public SwitchKind switchKind(int actor) { return SwitchKind.NETWORK; }

    @Override public int switchRail(int actor) { return actor - n; }

    @Override public boolean usesSecondConnection() { return true; }

    @Override public int maxPeers() { return Math.max(StepCursor.MAX_PEERS, Math.max(ppn - 1, nHosts)); }

    /** The lane that exchanges with the network on its own node's windows only (all-gather's send, RS's receive). */
    private int ownLane() { return gather ? 0 : 2; }

    /** The lane that reads or writes a GPU's other peers per window and rail (all-gather's gather, RS's scatter). */
    private int peerLane() { return gather ? 2 : 0; }

    @Override
    public int stepCount(int actor, int ch, int lane) {
        int chunks = parts.chunks(ch);
        if (actor >= n) return lane == 0 ? nHosts * chunks : 0;
        if (lane == ownLane()) return chunks;
        if (lane == peerLane()) return nHosts * chunks * (ppn - 1);
        return nHosts * chunks;
    }

    @Override
    public void step(int actor, int ch, int lane, int i, StepCursor c) {
        int chunks = parts.chunks(ch);
        if (actor >= n) {
            networkStep(actor - n, ch, i / chunks, i % chunks, c);
            return;
        }
        int[] host = byHost[hostOf[actor]];
        int j = localOf[actor];
        int net = n + j;
        if (lane == ownLane()) {
            long off = parts.chunkStart(ch, i);
            int cnt = (int) parts.chunkCount(ch, off);
            if (gather) {
                c.set(Primitive.SEND, off, off, cnt, 1);
                c.addSend(net);
                c.useConns(0, 1);
            } else {
                c.set(Primitive.RECV_POST_COPY_SEND, off, off, cnt, 1);
                c.addRecv(net);
            }
            return;
        }
        int perWindow = lane == peerLane() ? ppn - 1 : 1;
        int w = i / perWindow;
        int node = w / chunks;
        long off = parts.chunkStart(ch, w % chunks);
        int cnt = (int) parts.chunkCount(ch, off);
        if (lane == peerLane()) {
            int s = i % perWindow;
            int rail = (j + 1 + s) % ppn;
            long block = (long) byHost[node][rail] * count + off;
            if (gather) {
                c.set(Primitive.RECV, off, block, cnt, 1);
                c.addRecv(host[rail]);
            } else {
                c.set(Primitive.SEND, block, off, cnt, 1);
                c.addSend(host[rail]);
                c.useConns(1, 1);
            }
            if (s > 0) c.markContinued();
            return;
        }
        long own = (long) byHost[node][j] * count + off;
        if (gather) { // the window from the network into the output and on to the host's other GPUs
            c.set(ppn > 1 ? Primitive.RECV_COPY_SEND : Primitive.RECV, off, own, cnt, 1);
            c.addRecv(net);
            for (int s = 1; s < ppn; s++) c.addSend(host[(j + s) % ppn]);
        } else { // its own block of the window plus the host's other GPUs' parts, to the network
            c.set(ppn > 1 ? Primitive.RECV_REDUCE_SEND : Primitive.SEND, own, off, cnt, 1);
            for (int s = 1; s < ppn; s++) c.addRecv(host[(j + s) % ppn]);
            c.addSend(net);
            c.useConns(1, 1);
        }
    }

    /** The network's work on window (node, chunk i) of channel ch on rail r. */
    private void networkStep(int rail, int ch, int node, int i, StepCursor c) {
        int cnt = (int) parts.chunkCount(ch, parts.chunkStart(ch, i));
        c.set(gather ? Primitive.SHARP_GATHER : Primitive.SHARP_REDUCE, 0, 0, cnt, 1);
        if (gather) {
            c.addRecv(byHost[node][rail]);
            for (int k = 0; k < nHosts; k++) c.addSend(byHost[k][rail]);
        } else {
            for (int k = 0; k < nHosts; k++) c.addRecv(byHost[k][rail]);
            c.addSend(byHost[node][rail]);
        }
        c.useConns(1, 0);
    }

    @Override
    public void connections(ConnectionSink sink) {
        int peerConn = gather ? 0 : 1;
        for (int ch = 0; ch < nChannels; ch++) {
            if (parts.chunks(ch) == 0) continue;
            int c1 = ch + nChannels;
            int cp = ch + peerConn * nChannels;
            for (int[] host : byHost) {
                for (int a = 0; a < ppn; a++) {
                    for (int b = 0; b < ppn; b++) if (a != b) sink.accept(cp, host[a], host[b]);
                    sink.accept(c1, host[a], n + a);
                    sink.accept(ch, n + a, host[a]);
                }
            }
        }
    }

    @Override public long footprintBytes() { return 64 + 8L * n + 16L * nHosts + parts.footprintBytes(); }
}
