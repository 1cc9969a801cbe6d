package io.ccsim.algorithms.plan;

/**
 * CollNet Direct all-reduce: the GPUs of a host scatter to one head per NIC, the heads reduce and hand their part to
 * the SHARP network, which reduces across hosts and returns the result, and the heads broadcast it back, as NCCL's
 * kernel drives it; the network switch's aggregation is an actor of the plan.
 *
 * <h2>NCCL's data flow (NVIDIA/nccl v2.28.9 src/device/all_reduce.h, RunWorkColl COLLNET_DIRECT; wiring
 * src/graph/connect.cc)</h2>
 * Heads are one GPU per NIC (the CollNetDirect graph's {@code collNetIntra[0]}); head h owns sub-chunk h of every
 * loop of {@code nHeads × chunk} elements per channel. Four warp groups run at once:
 * <ul>
 *   <li><em>scatter</em>: every GPU sends its input sub-chunk h to head h (its own skipped, the order rotated by its
 *       index so that GPUs do not all hit one head first) — connection 1;</li>
 *   <li><em>reduce</em> (heads): {@code recvReduceDirectSend} — the other GPUs' sub-chunks plus its own input, sent to
 *       the CollNet peer (the proxy's {@code collNetIallreduce} over the heads of every host on this NIC rail) —
 *       connection 1; with one GPU per host a plain {@code send};</li>
 *   <li><em>bcast</em> (heads): receive the network's result, apply the post-operator, write it to the output and send
 *       it to the other GPUs ({@code directRecvCopyDirectSend(postOp=true)}) — connection 0;</li>
 *   <li><em>gather</em>: receive sub-chunk h from every other head — connection 0.</li>
 * </ul>
 * Every sub-chunk is {@code min(chunk, rest)} (no re-balancing of the last loop, unlike NVLS).
 *
 * <h2>As a plan</h2>
 * Actors 0..n−1 are the ranks, actor n + h is the SHARP aggregation for the heads of local index h on every host
 * ({@link SwitchKind#NETWORK}, {@link Primitive#SHARP_REDUCE}: one slice from each host's head h on connection 1, the
 * sum back to each on connection 0). Lanes 0..3 are scatter, reduce, bcast, gather. ccsim takes every GPU as a head
 * (one NIC per GPU, as on HGX and DGX H100); with fewer NICs NCCL has fewer heads. Channel c covers a contiguous part
 * ({@link ChannelParts}) instead of NCCL's grid-strided loop; NCCL's {@code scatter} and {@code gather} are one call
 * per loop, here one step per head, all but the first {@link StepCursor#continued() continued}.
 */
final class CollNetDirectSchedule implements Schedule {
    private final ChannelParts parts;
    private final int n;
    private final int heads;
    private final int nHosts;
    private final int nChannels;
    private final int[][] byHost;
    private final int[] hostOf;
    private final int[] localOf;

    CollNetDirectSchedule(CollectiveCall call, PlanOptions o, ChannelParts parts) {
        this.parts = parts;
        this.n = call.nRanks();
        this.byHost = call.layout().ranksByHost();
        this.nHosts = byHost.length;
        this.heads = byHost[0].length;
        this.nChannels = o.nChannels();
        this.hostOf = new int[n];
        this.localOf = new int[n];
        for (int k = 0; k < nHosts; k++) {
            for (int j = 0; j < heads; j++) {
                hostOf[byHost[k][j]] = k;
                localOf[byHost[k][j]] = j;
            }
        }
    }

    @Override public int nLanes() { return 4; }

    @Override public int switchActors() { return heads; }

    @Override public SwitchKind switchKind(int actor) { return SwitchKind.NETWORK; }

    @Override public int switchRail(int actor) { return actor - n; }

    @Override public boolean usesSecondConnection() { return true; }

    @Override public int maxPeers() { return Math.max(StepCursor.MAX_PEERS, Math.max(heads - 1, nHosts)); }

    private int loops(int ch) {
        return Math.toIntExact(Chunking.divUp(parts.count[ch], (long) heads * parts.chunkElems[ch]));
    }

    /** First element of head h's sub-chunk in loop i of channel ch (absolute). */
    private long start(int ch, int i, int h) {
        return parts.offset[ch] + ((long) i * heads + h) * parts.chunkElems[ch];
    }

    /** Elements of head h's sub-chunk in loop i of channel ch: min(chunk, rest), 0 when nothing is left. */
    private int count(int ch, int i, int h) {
        long rest = parts.offset[ch] + parts.count[ch] - start(ch, i, h);
        return (int) Math.max(0, Math.min(parts.chunkElems[ch], rest));
    }

    @Override
    public int stepCount(int actor, int ch, int lane) {
        int loops = loops(ch);
        if (actor >= n) return lane == 0 ? loops : 0;
        boolean perPeer = lane == 0 || lane == 3;
        return perPeer ? loops * (heads - 1) : loops;
    }

    @Override
    public void step(int actor, int ch, int lane, int i, StepCursor c) {
        if (actor >= n) {
            int h = actor - n;
            c.set(Primitive.SHARP_REDUCE, 0, 0, count(ch, i, h), 1);
            for (int k = 0; k < nHosts; k++) c.addRecv(byHost[k][h]);
            for (int k = 0; k < nHosts; k++) c.addSend(byHost[k][h]);
            c.useConns(1, 0);
            return;
        }
        int[] host = byHost[hostOf[actor]];
        int j = localOf[actor];
        if (lane == 0 || lane == 3) {
            int loop = i / (heads - 1);
            int m = i % (heads - 1);
            int h = (j + 1 + m) % heads;
            long off = start(ch, loop, h);
            if (lane == 0) {
                c.set(Primitive.SEND, off, off, count(ch, loop, h), 1);
                c.addSend(host[h]);
                c.useConns(0, 1);
            } else {
                c.set(Primitive.RECV, off, off, count(ch, loop, h), 1);
                c.addRecv(host[h]);
            }
            if (m > 0) c.markContinued();
            return;
        }
        long off = start(ch, i, j);
        int cnt = count(ch, i, j);
        if (lane == 1) {
            c.set(heads > 1 ? Primitive.RECV_REDUCE_SEND : Primitive.SEND, off, off, cnt, 1);
            for (int m = 1; m < heads; m++) c.addRecv(host[(j + m) % heads]);
            c.addSend(n + j);
            c.useConns(1, 1);
        } else {
            c.set(Primitive.RECV_POST_COPY_SEND, off, off, cnt, 1);
            c.addRecv(n + j);
            for (int m = 1; m < heads; m++) c.addSend(host[(j + m) % heads]);
        }
    }

    @Override
    public void connections(ConnectionSink sink) {
        for (int ch = 0; ch < nChannels; ch++) {
            if (loops(ch) == 0) continue;
            int c1 = ch + nChannels;
            for (int[] host : byHost) {
                for (int a = 0; a < heads; a++) {
                    for (int b = 0; b < heads; b++) {
                        if (a == b) continue;
                        sink.accept(c1, host[a], host[b]); // scatter to head b
                        sink.accept(ch, host[a], host[b]); // head a's broadcast
                    }
                    sink.accept(c1, host[a], n + a);
                    sink.accept(ch, n + a, host[a]);
                }
            }
        }
    }

    @Override public long footprintBytes() { return 64 + 8L * n + 16L * nHosts + parts.footprintBytes(); }
}
