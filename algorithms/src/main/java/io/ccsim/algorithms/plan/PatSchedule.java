package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.CollectiveOp;

/**
 * PAT (Parallel Aggregated Trees): all-gather and reduce-scatter over binomial trees of distances 2^d, one rank per
 * node, as NCCL's PAT kernels run them.
 *
 * <h2>NCCL's data flow (NVIDIA/nccl v2.28.9)</h2>
 * Connections (src/transport/generic.cc ncclTransportPatConnect; prims_simple.h, the PAT constructor): for every
 * dimension d with 2^d &lt; n, all-gather receives from {@code r + 2^d} and sends to {@code r − 2^d}, reduce-scatter
 * receives from {@code r − 2^d} and sends to {@code r + 2^d} (ranks mod n), each an 8-slot network connection.
 * {@code PatAGAlgorithm} / {@code PatRSAlgorithm} (src/include/collectives.h) generate one {@code ncclPatStep} at a
 * time: at most one receive dimension and one send dimension, an input or output offset, and whether the step
 * releases its receive slot and publishes its send slot. Seen as trees, with node offset {@code k} = the distance
 * from a rank to the block it works on (all-gather: block {@code r + k} arrived over the tree rooted at its owner;
 * reduce-scatter: the partial sum for block {@code r + k}):
 * <ul>
 *   <li>all-gather is a binomial broadcast of every block: node k receives once from dimension lowbit(k) and
 *       forwards to k + 2^e for every e &lt; lowbit(k) (every e for k = 0) with k + 2^e &lt; n;</li>
 *   <li>reduce-scatter is its mirror: node k adds the partials of its children k + 2^e to its input block and sends
 *       the sum on dimension lowbit(k); node 0 adds them into the output.</li>
 * </ul>
 * Every rank sends n − 1 pieces per chunk. Traced from NCCL's generators for n = 8 (rank 0, one piece per slot):
 * all-gather runs the tree edges by send dimension, largest first, nodes ascending, and ends with the receives of the
 * leaves (send to 4; to 6; receive 4 → 6; own to 7; receive 2 → 7; 4 again to 7; receive 6 → 7; receive 1, 3, 5, 7);
 * reduce-scatter visits nodes in descending bit-reversed order (7, 3, 5, 1, 6, 2, 4, 0).
 *
 * <h2>As a plan (chunk by chunk; one step per NCCL step where the model can say it)</h2>
 * <pre>
 * all-gather      for e = D−1 .. 0, node k ascending with an edge k → k + 2^e:
 *                   k = 0, first edge     COPY_SEND   in → out[r], send to r − 2^e
 *                   k = 0, later          SEND        in, send to r − 2^e
 *                   k &gt; 0, first edge   RECV_COPY_SEND  recv r + 2^lowbit(k) → out[r+k], send to r − 2^e
 *                   k &gt; 0, later        SEND (from output) out[r+k], send to r − 2^e
 *                 then nodes without edges, ascending: RECV from r + 2^lowbit(k) → out[r+k]
 * reduce-scatter  nodes k in descending bit-reversed order (D = ⌈log2 n⌉ bits), children e ascending:
 *                   leaf                  SEND        in[r+k] to r + 2^lowbit(k)
 *                   first child           RECV_REDUCE_COPY in[r+k] ⊕ recv r − 2^e → out   (RECV_REDUCE_SEND
 *                                                       to the parent if it is the only child of k &gt; 0)
 *                   later children        RECV_REDUCE_COPY (from output) out ⊕ recv → out; the last one of k &gt; 0
 *                                         RECV_REDUCE_SEND (from output) to r + 2^lowbit(k)
 * </pre>
 * Both orders keep every connection first-in first-out on both ends (bit reversal turns k → k + 2^e into a constant
 * shift) and run children before parents, so no rank waits on a later step of another.
 *
 * <h2>Where the plan differs from NCCL</h2>
 * <ul>
 *   <li>NCCL reads a receive slot twice (all-gather forwarding one block on two dimensions); a plan step consumes its
 *       slot, so the later forwards read the block back from the output ({@link StepCursor#fromOutput()}).</li>
 *   <li>NCCL accumulates a reduce-scatter partial in the unpublished send slot; the plan accumulates it in the
 *       chunk's range of the output, which only node 0, visited last, uses for good. For that, a node's children
 *       are taken one after another (NCCL interleaves node 4's and node 0's for n = 8).</li>
 *   <li>Aggregation: where a channel's part of a block is less than half a slot, NCCL packs the pieces of up to n/2
 *       blocks into one slot message ({@code aggFactor}) and runs up to 16 steps at once ({@code parallelFactor});
 *       the plan sends one piece per message, one step after another, so small sizes pay n − 1 step overheads
 *       where NCCL pays about log2(n) messages (docs/calibration.md compares the times with NCCL's model).</li>
 * </ul>
 * Chunk: the Simple slot (512 KiB), halved while chunk × 32 (all-gather) or × 16 (reduce-scatter) exceeds the
 * channel's share of the whole buffer (n × channel count × element size), not below 64 KiB (enqueue.cc
 * calcCollChunking); every slot carries one piece of at most one chunk.
 */
final class PatSchedule implements Schedule {
    private static final byte SEND = 0;
    private static final byte COPY_SEND = 1;
    private static final byte RECV_COPY_SEND = 2;
    private static final byte RECV = 3;
    private static final byte RECV_REDUCE_COPY = 4;
    private static final byte RECV_REDUCE_SEND = 5;
    /**
     * All-gather: messages one dimension holds before the oldest is received: NCCL_STEPS − 2, so that a received
     * slot's credit is back before the sender needs it (with all 8, every send after the eighth waited a credit round
     * trip: a 1 KiB all-gather on 64 one-GPU nodes took 328 µs simulated, 174 µs with 6).
     */
    static final int IN_FLIGHT = io.ccsim.algorithms.Protocol.NCCL_STEPS - 2;
    private static final Primitive[] PRIMS = {Primitive.SEND, Primitive.COPY_SEND, Primitive.RECV_COPY_SEND,
        Primitive.RECV, Primitive.RECV_REDUCE_COPY, Primitive.RECV_REDUCE_SEND};

    private final boolean gather;
    private final long count;
    private final ChannelParts parts;
    private final int n;
    private final int nChannels;
    /** per step of one chunk: primitive code, node offset k, receive and send distance (0: none), reads output */
    private final byte[] prim;
    private final int[] node;
    private final int[] recvDist;
    private final int[] sendDist;
    private final boolean[] fromOutput;
    /** steps of one chunk */
    private int len;

    PatSchedule(CollectiveCall call, PlanOptions o, ChannelParts parts) {
        this.gather = call.op() == CollectiveOp.ALL_GATHER;
        this.count = call.count();
        this.parts = parts;
        this.n = call.nRanks();
        this.nChannels = o.nChannels();
        int max = 2 * n; // AG: n − 1 edges and at most n − 1 leaf receives; RS: one step per edge or leaf
        prim = new byte[max];
        node = new int[max];
        recvDist = new int[max];
        sendDist = new int[max];
        fromOutput = new boolean[max];
        if (gather) buildGather();
        else buildScatter();
    }

    /** Number of dimensions: the least D with 2^D ≥ n. */
    static int dims(int n) { return 32 - Integer.numberOfLeadingZeros(n - 1); }

    /** 2^lowbit(k) for k &gt; 0; for the root (k = 0) 2^D, larger than every edge. */
    private int lowDist(int k) { return k == 0 ? 1 << dims(n) : Integer.lowestOneBit(k); }

    private void add(byte p, int k, int recv, int send, boolean out) {
        prim[len] = p;
        node[len] = k;
        recvDist[len] = recv;
        sendDist[len] = send;
        fromOutput[len] = out;
        len++;
    }

    /*
     * All-gather: tree edges by send dimension e (largest first), nodes ascending. Messages sent on dimension d wait
     * in a first-in first-out list until the receiver takes them: fused with the node's first forward where the node
     * is at the head of its list when it forwards, else as a RECV into the output (later forwards then read it back).
     * A dimension never holds more than IN_FLIGHT ≤ NCCL_STEPS messages: before one more send its oldest is
     * received. Every rank runs the same list, so each connection is FIFO on both ends, a receive comes after its
     * send and before the send that would need its slot: no rank can wait on a later step of another.
     */
    private void buildGather() {
        int dims = dims(n);
        boolean[] received = new boolean[n];
        java.util.ArrayDeque<Integer>[] inFlight = queues(dims);
        for (int e = dims - 1; e >= 0; e--) {
            int dist = 1 << e;
            for (int k = 0; k < n; k++) {
                if (dist >= lowDist(k) || k + dist >= n) continue;
                boolean fuse = false;
                if (k > 0 && !received[k]) {
                    java.util.ArrayDeque<Integer> q = inFlight[Integer.numberOfTrailingZeros(k)];
                    while (q.peekFirst() != k) receiveGather(q.pollFirst(), received);
                    q.pollFirst();
                    received[k] = true;
                    fuse = true;
                }
                if (inFlight[e].size() == IN_FLIGHT) {
                    receiveGather(inFlight[e].pollFirst(), received);
                }
                if (k == 0) add(e == dims - 1 ? COPY_SEND : SEND, 0, 0, dist, false);
                else if (fuse) add(RECV_COPY_SEND, k, lowDist(k), dist, false);
                else add(SEND, k, 0, dist, true);
                inFlight[e].addLast(k + dist);
            }
        }
        for (java.util.ArrayDeque<Integer> q : inFlight) while (!q.isEmpty()) receiveGather(q.pollFirst(), received);
    }

    private void receiveGather(int k, boolean[] received) {
        add(RECV, k, lowDist(k), 0, false);
        received[k] = true;
    }

    @SuppressWarnings("unchecked")
    private static java.util.ArrayDeque<Integer>[] queues(int dims) {
        java.util.ArrayDeque<Integer>[] q = new java.util.ArrayDeque[Math.max(1, dims)];
        for (int d = 0; d < q.length; d++) q[d] = new java.util.ArrayDeque<>();
        return q;
    }

    /*
     * Reduce-scatter: nodes one at a time, children before parents, in blocks of 2^b consecutive offsets
     * (b = min(D, 4)): blocks in descending order, inside a block descending bit-reversed low bits. For n ≤ 16 that is
     * NCCL's order (7, 3, 5, 1, 6, 2, 4, 0 for n = 8): every leaf sends first, so a node's children are there when it
     * comes. A block's nodes send at most 2^(b−1) = NCCL_STEPS messages on one dimension before the block takes them;
     * between blocks one message per dimension waits. Shifting k by 2^e (bit e clear) keeps this order, so each
     * connection is FIFO on both ends.
     */
    private void buildScatter() {
        int d = dims(n);
        int b = Math.min(d, 4);
        for (int hi = (n - 1) >> b; hi >= 0; hi--) {
            for (int rev = (1 << b) - 1; rev >= 0; rev--) {
                int k = hi << b | (b == 0 ? 0 : Integer.reverse(rev) >>> (32 - b));
                if (k < n) addScatterNode(k);
            }
        }
    }

    private void addScatterNode(int k) {
        int parent = k == 0 ? 0 : lowDist(k);
        int children = 0;
        for (int dist = 1; dist < lowDist(k) && k + dist < n; dist <<= 1) children++;
        if (children == 0) {
            add(SEND, k, 0, parent, false);
            return;
        }
        for (int c = 0; c < children; c++) {
            boolean last = c == children - 1;
            add(last && k != 0 ? RECV_REDUCE_SEND : RECV_REDUCE_COPY, k, 1 << c, last ? parent : 0, c > 0);
        }
    }

    /** Steps of one chunk (the same on every rank and channel). */
    int stepsPerChunk() { return len; }

    @Override public int nLanes() { return 1; }

    @Override
    public int stepCount(int rank, int ch, int lane) {
        return lane == 0 ? parts.chunks(ch) * len : 0;
    }

    @Override
    public void step(int rank, int ch, int lane, int index, StepCursor c) {
        int j = index / len;
        int t = index - j * len;
        long off = parts.chunkStart(ch, j);
        int cnt = (int) parts.chunkCount(ch, off);
        long block = (long) ((rank + node[t]) % n) * count + off;
        if (gather) c.set(PRIMS[prim[t]], off, block, cnt, 1);
        else c.set(PRIMS[prim[t]], block, off, cnt, 1);
        // all-gather receives from r + dist and sends to r − dist; reduce-scatter the other way round
        int sign = gather ? 1 : -1;
        if (recvDist[t] > 0) c.addRecv(Math.floorMod(rank + sign * recvDist[t], n));
        if (sendDist[t] > 0) c.addSend(Math.floorMod(rank - sign * sendDist[t], n));
        if (fromOutput[t]) c.markFromOutput();
    }

    /*
     * Every rank of a channel runs the same steps: primitive, count and slots depend on the channel and the step alone,
     * and a step's peers are r + 2^d and r − 2^d for its dimensions, so the order in which a rank first meets each of
     * its receive and send connections is every rank's (distinct dimensions name distinct peers on each side, 2^d < n).
     */
    @Override
    public long sequenceKey(int rank, int ch, int lane) { return lane == 0 ? ch : Plan.NO_KEY; }

    @Override
    public void connections(ConnectionSink sink) {
        int sign = gather ? 1 : -1;
        for (int ch = 0; ch < nChannels; ch++) {
            if (parts.count[ch] == 0) continue;
            for (int r = 0; r < n; r++) {
                for (int dist = 1; dist < n; dist <<= 1) sink.accept(ch, r, Math.floorMod(r - sign * dist, n));
            }
        }
    }

    @Override public long footprintBytes() { return 64 + 14L * prim.length + parts.footprintBytes(); }
}
