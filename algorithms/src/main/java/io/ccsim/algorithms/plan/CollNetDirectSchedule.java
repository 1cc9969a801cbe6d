package io.ccsim.algorithms.plan;

/**
 * CollNet Direct all-reduce: the GPUs of a host scatter to one head per NIC, the heads reduce and hand their part to
 * the SHARP network, which reduces across hosts and returns the result, and the heads broadcast it back, as NCCL's
 * kernel drives it; the network switch's aggregation is an actor of the plan.
 *
 * <h2>NCCL's data flow (NVIDIA/nccl v2.28.9 src/device/all_reduce.h, RunWorkColl COLLNET_DIRECT; wiring
 * src/graph/connect.cc connectCollNet)</h2>
 * Heads are one GPU per NIC (the CollNetDirect graph's {@code collNetIntra[0]} of each channel, each counted once);
 * head h owns sub-chunk h of every loop of {@code nHeads × chunk} elements per channel. A GPU's {@code up} peers are
 * the heads other than itself, a head's {@code down} peers every other GPU of its host. Four warp groups run at once:
 * <ul>
 *   <li><em>scatter</em> (GPUs with up peers): every GPU sends its input sub-chunk h to head h (its own skipped), the
 *       up peers in order rotated by {@code shift} = local index mod nHeads, so that GPUs do not all hit one head
 *       first ({@code prims.scatter}) — connection 1;</li>
 *   <li><em>reduce</em> (heads): {@code recvReduceDirectSend} — the down peers' sub-chunks plus its own input, sent to
 *       the CollNet peer (the proxy's {@code collNetIallreduce} over the heads of every host on this NIC rail) —
 *       connection 1; with one GPU per host a plain {@code send};</li>
 *   <li><em>bcast</em> (heads): receive the network's result, apply the post-operator, write it to the output and send
 *       it to the down peers ({@code directRecvCopyDirectSend(postOp=true)}) — connection 0;</li>
 *   <li><em>gather</em> (GPUs with up peers): receive sub-chunk h from every up head, same order — connection 0.</li>
 * </ul>
 * Every sub-chunk is {@code min(chunk, rest)} (no re-balancing of the last loop, unlike NVLS). With fewer NICs than
 * GPUs (4 NICs for 8 GPUs: heads are GPUs 0, 2, 4, 6, the NICs' local GPUs) a non-head scatters to and gathers from
 * all heads and has no reduce or bcast warps.
 *
 * <h2>As a plan</h2>
 * Actors 0..n−1 are the ranks, actor n + h is the SHARP aggregation for head h (local index {@code heads[h]}) of every
 * host ({@link SwitchKind#NETWORK}, {@link Primitive#SHARP_REDUCE}: one slice from each host's head h on connection 1,
 * the sum back to each on connection 0). Lanes 0..3 are scatter, reduce, bcast, gather. Heads come from
 * {@link PlanOptions#netHeads} (every GPU by default). Channel c covers a contiguous part ({@link ChannelParts})
 * instead of NCCL's grid-strided loop; NCCL's {@code scatter} and {@code gather} are one call per loop, here one step
 * per head, all but the first {@link StepCursor#continued() continued}.
 */
final class CollNetDirectSchedule implements Schedule {
    private final ChannelParts parts;
    private final int n;
    private final int ppn;
    private final int nHeads;
    private final int nHosts;
    private final int nChannels;
    private final int[][] byHost;
    private final int[] hostOf;
    private final int[] localOf;
    /** local index of head h */
    private final int[] headLocal;
    /** head index of local index j, −1 for a GPU that is not a head */
    private final int[] headOf;

    CollNetDirectSchedule(CollectiveCall call, PlanOptions o, ChannelParts parts) {
        this.parts = parts;
        this.n = call.nRanks();
        this.byHost = call.layout().ranksByHost();
        this.nHosts = byHost.length;
        this.ppn = byHost[0].length;
        this.nChannels = o.nChannels();
        this.headLocal = o.netHeadsOf(ppn);
        this.nHeads = headLocal.length;
        this.headOf = new int[ppn];
        java.util.Arrays.fill(headOf, -1);
        for (int h = 0; h < nHeads; h++) headOf[headLocal[h]] = h;
        this.hostOf = new int[n];
        this.localOf = new int[n];
        for (int k = 0; k < nHosts; k++) {
            for (int j = 0; j < ppn; j++) {
                hostOf[byHost[k][j]] = k;
                localOf[byHost[k][j]] = j;
            }
        }
    }

    @Override public int nLanes() { return 4; }

    @Override public int switchActors() { return nHeads; }

    @Override public SwitchKind switchKind(int actor) { return SwitchKind.NETWORK; }

    @Override public int switchRail(int actor) { return headLocal[actor - n]; }

    @Override public boolean usesSecondConnection() { return true; }

    @Override
    public int maxPeers() {
        int up = nHeads < ppn ? nHeads : nHeads - 1; // a GPU that is not a head scatters to every head
        return Math.max(StepCursor.MAX_PEERS, Math.max(Math.max(up, ppn - 1), nHosts));
    }

    private int loops(int ch) {
        return Math.toIntExact(Chunking.divUp(parts.count[ch], (long) nHeads * parts.chunkElems[ch]));
    }

    /** First element of head h's sub-chunk in loop i of channel ch (absolute). */
    private long start(int ch, int i, int h) {
        return parts.offset[ch] + ((long) i * nHeads + h) * parts.chunkElems[ch];
    }

    /** Elements of head h's sub-chunk in loop i of channel ch: min(chunk, rest), 0 when nothing is left. */
    private int count(int ch, int i, int h) {
        long rest = parts.offset[ch] + parts.count[ch] - start(ch, i, h);
        return (int) Math.max(0, Math.min(parts.chunkElems[ch], rest));
    }

    /** Up peers of local index j: the heads other than j itself. */
    private int nUp(int j) { return headOf[j] >= 0 ? nHeads - 1 : nHeads; }

    /**
     * The head (index) of local index j's m-th scatter or gather step in a loop: up peer (m + shift) mod nUp, the up
     * peers being the heads other than j in ascending order, shift = j mod nHeads (connect.cc; prims' ScatterGatherOp).
     */
    private int upHead(int j, int m) {
        int i = (m + j % nHeads) % nUp(j);
        int self = headOf[j];
        return self >= 0 && i >= self ? i + 1 : i;
    }

    @Override
    public int stepCount(int actor, int ch, int lane) {
        int loops = loops(ch);
        if (actor >= n) return lane == 0 ? loops : 0;
        int j = localOf[actor];
        if (lane == 0 || lane == 3) return loops * nUp(j);
        return headOf[j] >= 0 ? loops : 0;
    }

    @Override
    public void step(int actor, int ch, int lane, int i, StepCursor c) {
        if (actor >= n) {
            int h = actor - n;
            c.set(Primitive.SHARP_REDUCE, 0, 0, count(ch, i, h), 1);
            for (int k = 0; k < nHosts; k++) c.addRecv(byHost[k][headLocal[h]]);
            for (int k = 0; k < nHosts; k++) c.addSend(byHost[k][headLocal[h]]);
            c.useConns(1, 0);
            return;
        }
        int[] host = byHost[hostOf[actor]];
        int j = localOf[actor];
        if (lane == 0 || lane == 3) {
            int up = nUp(j);
            int loop = i / up;
            int m = i % up;
            int h = upHead(j, m);
            long off = start(ch, loop, h);
            if (lane == 0) {
                c.set(Primitive.SEND, off, off, count(ch, loop, h), 1);
                c.addSend(host[headLocal[h]]);
                c.useConns(0, 1);
            } else {
                c.set(Primitive.RECV, off, off, count(ch, loop, h), 1);
                c.addRecv(host[headLocal[h]]);
            }
            if (m > 0) c.markContinued();
            return;
        }
        int h = headOf[j];
        long off = start(ch, i, h);
        int cnt = count(ch, i, h);
        if (lane == 1) {
            c.set(ppn > 1 ? Primitive.RECV_REDUCE_SEND : Primitive.SEND, off, off, cnt, 1);
            for (int m = 1; m < ppn; m++) c.addRecv(host[(j + m) % ppn]);
            c.addSend(n + h);
            c.useConns(1, 1);
        } else {
            c.set(Primitive.RECV_POST_COPY_SEND, off, off, cnt, 1);
            c.addRecv(n + h);
            for (int m = 1; m < ppn; m++) c.addSend(host[(j + m) % ppn]);
        }
    }

    @Override
    public void connections(ConnectionSink sink) {
        for (int ch = 0; ch < nChannels; ch++) {
            if (loops(ch) == 0) continue;
            int c1 = ch + nChannels;
            for (int[] host : byHost) {
                for (int h = 0; h < nHeads; h++) {
                    int head = host[headLocal[h]];
                    for (int b = 0; b < ppn; b++) {
                        if (b == headLocal[h]) continue;
                        sink.accept(c1, host[b], head); // scatter to head h, its reduction's inputs
                        sink.accept(ch, head, host[b]); // head h's broadcast, the others' gather
                    }
                    sink.accept(c1, head, n + h);
                    sink.accept(ch, n + h, head);
                }
            }
        }
    }

    @Override public long footprintBytes() { return 64 + 8L * n + 8L * ppn + 16L * nHosts + parts.footprintBytes(); }
}
