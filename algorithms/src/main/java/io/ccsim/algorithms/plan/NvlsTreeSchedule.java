package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.profile.NcclNvlsConstants;
import java.util.Arrays;

/**
 * NVLSTree all-reduce: NVLS inside every node, NCCL's double binary tree across nodes between the nodes' same-index
 * heads, with each node's NVLink switch as actors of the plan ({@link NvlsSchedule} for the node-local part).
 *
 * <h2>NCCL's data flow (NVIDIA/nccl v2.28.9 src/device/all_reduce.h RunWorkColl NVLS_TREE; connect.cc connectNvls)</h2>
 * Head h of every node (the GPU of NIC h: one rail) joins tree {@code c mod 2} of channel c over the nodes
 * (ncclGetDtree). Per loop of {@code heads × chunk} elements, sub-chunk h belongs to head h:
 * <ul>
 *   <li><em>scatter</em> (every rank): its input sub-chunk h for head h's multicast buffer;</li>
 *   <li><em>reduce</em> (heads): a non-root head reduces the node's {@code multimem.ld_reduce} of sub-chunk h with
 *       what its child nodes' heads send and sends the sum to its parent node's head; the root reduces the same
 *       and starts the broadcast: {@code multimem.st} into its node and sends to its children;</li>
 *   <li><em>bcast</em> (non-root heads): receives the result from the parent, {@code multimem.st}s it into the node
 *       and sends it to its children;</li>
 *   <li><em>gather</em> (every rank): copies every head's result to its output.</li>
 * </ul>
 *
 * <h2>As a plan</h2>
 * Per node k and head h a reduction actor {@code R_kh} (the switch summing sub-chunk h of the node's GPUs for head
 * (k, h)) and a multicast actor {@code M_kh}. Lanes: 0 scatter (per loop one SEND of sub-chunk h to every R_kh of
 * the rank's node, {@link StepCursor#hasParts() in parts}, as NCCL's one {@code scatter} call), 1 reduce (heads:
 * {@link Primitive#RECV_REDUCE_FORWARD} from R_kh and the child heads, to the parent head — or, at the root, to M_kh
 * and the child heads), 2 bcast (non-root heads: RECV_COPY_SEND from the parent head to M_kh and the child heads),
 * 3 gather (per loop one RECV of sub-chunk h from every M_kh, in parts). A head has at most 3 peers each way besides
 * its node's switch actors. The chunk is NCCL's NVLSTree chunk:
 * NCCL_NVLS_CHUNKSIZE (128 KiB), at most 64 KiB from 4 nodes (NCCL_NVLSTREE_MAX_CHUNKSIZE), shrunk for small sizes.
 */
final class NvlsTreeSchedule implements Schedule {
    /** the sequence key of a GPU that is no head */
    private static final long NON_HEAD = 1L << 31;
    private final ChannelParts parts;
    private final int n;
    private final int nNodes;
    private final int ppn;
    private final int heads;
    private final int nChannels;
    private final int alignElems;
    private final int[][] byHost;
    private final int[] hostOf;
    private final int[] localOf;
    /** per head index, its GPU's local index (the NICs' GPUs, {@link PlanOptions#netHeads}) */
    private final int[] headLocal;
    /** per local index, its head index, or −1 for a GPU that is no head */
    private final int[] headOf;
    /** [tree][node*3 + k]: {parent, child0, child1} node indices, −1 for none */
    private final int[][] nodeTree = new int[2][];

    NvlsTreeSchedule(CollectiveCall call, PlanOptions o, ChannelParts parts) {
        this.parts = parts;
        this.n = call.nRanks();
        this.byHost = call.layout().ranksByHost();
        this.nNodes = byHost.length;
        this.ppn = byHost[0].length;
        int[] locals = o.netHeadsOf(ppn);
        this.heads = Math.min(locals.length, NcclNvlsConstants.MAX_HEADS);
        this.headLocal = Arrays.copyOf(locals, heads);
        this.headOf = new int[ppn];
        Arrays.fill(headOf, -1);
        for (int h = 0; h < heads; h++) {
            if (headLocal[h] >= ppn) {
                throw new UnsupportedAlgorithmException("NVLSTree head GPU " + headLocal[h] + " is not one of a node's "
                        + ppn);
            }
            headOf[headLocal[h]] = h;
        }
        this.nChannels = o.nChannels();
        this.alignElems = Math.max(1, 16384 / call.dtype().bytes());
        this.hostOf = new int[n];
        this.localOf = new int[n];
        for (int k = 0; k < nNodes; k++) {
            for (int i = 0; i < byHost[k].length; i++) {
                hostOf[byHost[k][i]] = k;
                localOf[byHost[k][i]] = i;
            }
        }
        for (int t = 0; t < 2; t++) {
            nodeTree[t] = new int[3 * nNodes];
            for (int k = 0; k < nNodes; k++) {
                System.arraycopy(TreeAllReducePlanner.dtree(nNodes, k, t), 0, nodeTree[t], 3 * k, 3);
            }
        }
    }

    @Override public int nLanes() { return 4; }

    @Override public int switchActors() { return 2 * nNodes * heads; }

    @Override public int switchHost(int actor) { return ((actor - n) % (nNodes * heads)) / heads; }

    @Override public int maxPeers() { return Math.max(StepCursor.MAX_PEERS, ppn); }

    private int reduceActor(int node, int h) { return n + node * heads + h; }

    private int castActor(int node, int h) { return n + nNodes * heads + node * heads + h; }

    private int head(int node, int h) { return byHost[node][headLocal[h]]; }

    private int loops(int ch) {
        return Math.toIntExact(Chunking.divUp(parts.count[ch], heads * parts.chunkElems[ch]));
    }

    private long chunk(int ch, int j) {
        long chunk = parts.chunkElems[ch];
        long rest = parts.count[ch] - j * heads * chunk;
        if (rest >= heads * chunk) return chunk;
        return Chunking.alignUp(Chunking.divUp(rest, heads), alignElems);
    }

    private long start(int ch, int j, int h) { return j * heads * parts.chunkElems[ch] + h * chunk(ch, j); }

    private int count(int ch, int j, int h) {
        return (int) Math.max(0, Math.min(chunk(ch, j), parts.count[ch] - start(ch, j, h)));
    }

    @Override
    public int stepCount(int actor, int ch, int lane) {
        int loops = loops(ch);
        if (actor >= n) return lane == 0 ? loops : 0;
        boolean isHead = headOf[localOf[actor]] >= 0;
        switch (lane) {
            case 0: case 3: return loops;
            case 1: return isHead ? loops : 0;
            default: return isHead && nodeTree[ch % 2][3 * hostOf[actor]] >= 0 ? loops : 0;
        }
    }

    @Override
    public void step(int actor, int ch, int lane, int i, StepCursor c) {
        long base = parts.offset[ch];
        int[] tree = nodeTree[ch % 2];
        if (actor >= n) {
            int idx = (actor - n) % (nNodes * heads);
            int node = idx / heads;
            int h = idx % heads;
            c.set(actor - n < nNodes * heads ? Primitive.MULTIMEM_REDUCE : Primitive.MULTIMEM_FORWARD, 0, 0, count(ch, i, h), 1);
            if (actor - n < nNodes * heads) {
                for (int r : byHost[node]) c.addRecv(r);
                c.addSend(head(node, h));
            } else {
                c.addRecv(head(node, h));
                for (int r : byHost[node]) c.addSend(r);
            }
            return;
        }
        int node = hostOf[actor];
        if (lane == 0 || lane == 3) {
            long off = base + start(ch, i, 0);
            int part = (int) chunk(ch, i);
            int total = (int) Math.min((long) heads * part, parts.count[ch] - start(ch, i, 0));
            c.setScatterGather(lane == 0 ? Primitive.SEND : Primitive.RECV, off, total, part, part,
                    lane == 0 ? reduceActor(node, 0) : castActor(node, 0), heads);
            return;
        }
        int h = headOf[localOf[actor]];
        long off = base + start(ch, i, h);
        int parent = tree[3 * node];
        if (lane == 1) {
            c.set(Primitive.RECV_REDUCE_FORWARD, off, off, count(ch, i, h), 1);
            c.addRecv(reduceActor(node, h));
            addChildren(c, tree, node, h, true);
            if (parent >= 0) {
                c.addSend(head(parent, h));
            } else {
                c.addSend(castActor(node, h));
                addChildren(c, tree, node, h, false);
            }
        } else {
            c.set(Primitive.RECV_COPY_SEND, off, off, count(ch, i, h), 1);
            c.addRecv(head(parent, h));
            c.addSend(castActor(node, h));
            addChildren(c, tree, node, h, false);
        }
    }

    private void addChildren(StepCursor c, int[] tree, int node, int h, boolean receiving) {
        for (int k = 1; k <= 2; k++) {
            int child = tree[3 * node + k];
            if (child < 0) continue;
            if (receiving) c.addRecv(head(child, h));
            else c.addSend(head(child, h));
        }
    }

    /*
     * Sequence keys. A rank's steps in a channel depend on the channel (counts) and on three facts of its place: its
     * head index when it is a head (which sub-chunk it reduces and broadcasts: the last loop's counts differ by head),
     * whether its node is the root of the channel's tree (no bcast lane, the reduce lane ends at the multicast actor)
     * and how many child nodes it has (the peers of lanes 1 and 2). Peers are met in one order for every rank of one
     * key: lane 0 the node's reduction actors by head, lane 1 its own reduction actor, the children, then the parent
     * or the multicast actor and the children, lane 2 the parent, the multicast actor and the children, lane 3 the
     * node's multicast actors by head (lanes 0 and 3 in parts of the loop's sub-chunk size). A non-head (a GPU without
     * a NIC of its own, or beyond MAX_HEADS) has lanes 0 and 3 alone, the same for all. A switch actor's steps depend on its kind and head alone (a reduction actor receives from the
     * node's GPUs in local order and sends to the head; a multicast actor the reverse). Rank keys are below 2^32,
     * switch keys at 2^40 and above, so they never collide.
     */
    @Override
    public long switchSequenceKey(int actor, int ch, int lane) {
        int idx = actor - n;
        return (1L << 40) | ((long) (idx / (nNodes * heads)) << 20) | (idx % heads);
    }

    @Override
    public long sequenceKey(int actor, int ch, int lane) {
        int head = headOf[localOf[actor]];
        if (head < 0) return NON_HEAD;
        int[] tree = nodeTree[ch % 2];
        int node = hostOf[actor];
        int children = (tree[3 * node + 1] >= 0 ? 1 : 0) + (tree[3 * node + 2] >= 0 ? 1 : 0);
        return ((long) head << 3) | (tree[3 * node] < 0 ? 4 : 0) | children;
    }

    /*
     * A channel's steps depend on it through its counts (count and chunk) and its tree (c mod 2) alone; the offsets it
     * carries are not part of a step's timing.
     */
    @Override
    public boolean sameChannelSteps(int r, int c) {
        return r % 2 == c % 2 && parts.count[r] == parts.count[c] && parts.chunkElems[r] == parts.chunkElems[c];
    }

    @Override
    public void connections(ConnectionSink sink) {
        for (int ch = 0; ch < nChannels; ch++) {
            if (loops(ch) == 0) continue;
            int[] tree = nodeTree[ch % 2];
            for (int node = 0; node < nNodes; node++) {
                for (int h = 0; h < heads; h++) {
                    for (int r : byHost[node]) {
                        sink.accept(ch, r, reduceActor(node, h));
                        sink.accept(ch, castActor(node, h), r);
                    }
                    sink.accept(ch, reduceActor(node, h), head(node, h));
                    sink.accept(ch, head(node, h), castActor(node, h));
                    int parent = tree[3 * node];
                    if (parent >= 0) {
                        sink.accept(ch, head(node, h), head(parent, h));
                        sink.accept(ch, head(parent, h), head(node, h));
                    }
                }
            }
        }
    }

    @Override public long footprintBytes() { return 64 + parts.footprintBytes() + 8L * n + 24L * nNodes; }
}
