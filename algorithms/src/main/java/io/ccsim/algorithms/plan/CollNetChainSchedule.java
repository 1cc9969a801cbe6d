package io.ccsim.algorithms.plan;

/**
 * CollNet Chain all-reduce: inside each host a chain reduces up to the GPU of the channel's NIC, the SHARP network
 * reduces across hosts, and the result is broadcast back down the chain, as NCCL's kernel drives it; the network
 * switch's aggregation is an actor of the plan.
 *
 * <h2>NCCL's data flow (NVIDIA/nccl v2.28.9 src/device/all_reduce.h, RunWorkColl COLLNET_CHAIN; wiring
 * src/graph/connect.cc)</h2>
 * The CollNetChain graph (tree pattern) gives every channel an intra-node chain {@code intra[0] → … → intra[L−1]}
 * whose first GPU is the one beside the channel's NIC; {@code intra[0]}'s up peer is the CollNet peer. Half the
 * threads reduce up the chain (the tail {@code directSend}s, the middle {@code directRecvReduceDirectSend}, the first
 * GPU recv-reduces and sends to the network), half broadcast down (the first GPU receives the network's result and
 * applies the post-operator, the middle {@code directRecvCopyDirectSend}, the tail {@code directRecv}). Channel
 * {@code bid} takes chunk {@code bid} of every loop of {@code nChannels × chunk}.
 *
 * <h2>As a plan</h2>
 * Channel c's chain starts at local index t = c mod ppn (NCCL's channel c uses NIC c mod nNics, whose GPU leads the
 * chain; one NIC per GPU) and ascends cyclically. Actor n + t is the SHARP aggregation of the chains' first GPUs of
 * every host on that rail ({@link SwitchKind#NETWORK}, {@link Primitive#SHARP_REDUCE}). Lane 0 reduces up, lane 1
 * broadcasts down. Channel c covers a contiguous part ({@link ChannelParts}) cut into chunks.
 */
final class CollNetChainSchedule implements Schedule {
    private final ChannelParts parts;
    private final int n;
    private final int ppn;
    private final int nHosts;
    private final int nChannels;
    private final int rails;
    private final int[][] byHost;
    private final int[] hostOf;
    private final int[] localOf;

    CollNetChainSchedule(CollectiveCall call, PlanOptions o, ChannelParts parts) {
        this.parts = parts;
        this.n = call.nRanks();
        this.byHost = call.layout().ranksByHost();
        this.nHosts = byHost.length;
        this.ppn = byHost[0].length;
        this.nChannels = o.nChannels();
        this.rails = Math.min(ppn, nChannels);
        this.hostOf = new int[n];
        this.localOf = new int[n];
        for (int k = 0; k < nHosts; k++) {
            for (int j = 0; j < ppn; j++) {
                hostOf[byHost[k][j]] = k;
                localOf[byHost[k][j]] = j;
            }
        }
    }

    @Override public int nLanes() { return 2; }

    @Override public int switchActors() { return rails; }

    @Override public SwitchKind switchKind(int actor) { return SwitchKind.NETWORK; }

    @Override public int switchRail(int actor) { return actor - n; }

    @Override public int maxPeers() { return Math.max(StepCursor.MAX_PEERS, nHosts); }

    /** The local index of position p of channel ch's chain. */
    private int localAt(int ch, int p) { return (ch % ppn + p) % ppn; }

    private int position(int ch, int rank) { return (localOf[rank] - ch % ppn + ppn) % ppn; }

    @Override
    public int stepCount(int actor, int ch, int lane) {
        if (actor >= n) return lane == 0 && ch % ppn == actor - n ? parts.chunks(ch) : 0;
        return parts.chunks(ch);
    }

    @Override
    public void step(int actor, int ch, int lane, int i, StepCursor c) {
        long off = parts.chunkStart(ch, i);
        int cnt = (int) parts.chunkCount(ch, off);
        int top = ch % ppn;
        if (actor >= n) {
            c.set(Primitive.SHARP_REDUCE, 0, 0, cnt, 1);
            for (int k = 0; k < nHosts; k++) c.addRecv(byHost[k][top]);
            for (int k = 0; k < nHosts; k++) c.addSend(byHost[k][top]);
            return;
        }
        int[] host = byHost[hostOf[actor]];
        int p = position(ch, actor);
        int last = ppn - 1;
        int net = n + top;
        if (lane == 0) { // reduce up the chain, the first GPU to the network
            c.set(p == last ? Primitive.SEND : Primitive.RECV_REDUCE_SEND, off, off, cnt, 1);
            if (p < last) c.addRecv(host[localAt(ch, p + 1)]);
            c.addSend(p == 0 ? net : host[localAt(ch, p - 1)]);
        } else { // broadcast down
            Primitive prim = p == 0 ? Primitive.RECV_POST_COPY_SEND : p == last ? Primitive.RECV : Primitive.RECV_COPY_SEND;
            c.set(prim, off, off, cnt, 1);
            c.addRecv(p == 0 ? net : host[localAt(ch, p - 1)]);
            if (p < last) c.addSend(host[localAt(ch, p + 1)]);
        }
    }

    @Override
    public void connections(ConnectionSink sink) {
        for (int ch = 0; ch < nChannels; ch++) {
            if (parts.chunks(ch) == 0) continue;
            int net = n + ch % ppn;
            for (int[] host : byHost) {
                for (int p = 1; p < ppn; p++) {
                    sink.accept(ch, host[localAt(ch, p)], host[localAt(ch, p - 1)]);
                    sink.accept(ch, host[localAt(ch, p - 1)], host[localAt(ch, p)]);
                }
                sink.accept(ch, host[ch % ppn], net);
                sink.accept(ch, net, host[ch % ppn]);
            }
        }
    }

    @Override public long footprintBytes() { return 64 + 8L * n + 16L * nHosts + parts.footprintBytes(); }
}
