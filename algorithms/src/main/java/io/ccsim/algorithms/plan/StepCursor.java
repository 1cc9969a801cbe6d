package io.ccsim.algorithms.plan;

/**
 * A reusable, mutable view of one step, filled by {@link Plan#step}. One cursor per executor
 * thread; filling it allocates nothing once the cursor holds {@link Plan#maxPeers()} peers (the
 * default cursor holds {@link #MAX_PEERS}; a switch actor's step names every rank of its domain and
 * grows it once). A step moves one slice: {@code count} elements that occupy {@code slots}
 * consecutive slots (NCCL "steps") of every connection it uses.
 *
 * <p>Flat encoding for kernels ({@link #encode}), for steps of at most {@link #MAX_PEERS} peers each way:
 * 12 longs {@code [prim, nRecv, r0, r1, r2, nSend, s0, s1, s2, srcOffset, dstOffset, count | slots << 32]}.
 */
public final class StepCursor {
    /** Maximum receive or send peers of a rank's step (tree fan-in/out, NCCL_MAX_TREE_ARITY = 3), and of the encoding. */
    public static final int MAX_PEERS = 3;
    /** Longs per step in {@link #encode}. */
    public static final int ENCODED_LONGS = 12;

    Primitive prim;
    int nRecv;
    int[] recvPeers;
    int nSend;
    int[] sendPeers;
    long srcOffset;
    long dstOffset;
    int count;
    int slots;
    boolean continued;
    int recvConn;
    int sendConn;
    boolean fromOutput;
    boolean memory;
    boolean direct;
    int partElems;
    long partStride;

    /** A cursor for steps of up to {@link #MAX_PEERS} peers each way (it grows for more). */
    public StepCursor() { this(MAX_PEERS); }

    /** A cursor sized for steps of up to {@code maxPeers} peers each way ({@link Plan#maxPeers()}). */
    public StepCursor(int maxPeers) {
        int cap = Math.max(MAX_PEERS, maxPeers);
        recvPeers = new int[cap];
        sendPeers = new int[cap];
    }

    public Primitive prim() { return prim; }

    /** Number of receive peers (0..{@link Plan#maxPeers()}). */
    public int nRecv() { return nRecv; }

    /** Rank of receive peer i (0 ≤ i < nRecv). */
    public int recvPeer(int i) { return recvPeers[i]; }

    /** Number of send peers (0..{@link Plan#maxPeers()}). */
    public int nSend() { return nSend; }

    /** Rank of send peer i (0 ≤ i < nSend). */
    public int sendPeer(int i) { return sendPeers[i]; }

    /** Offset into the rank's input buffer, in elements. */
    public long srcOffset() { return srcOffset; }

    /** Offset into the rank's output buffer, in elements. */
    public long dstOffset() { return dstOffset; }

    /** Elements moved by this slice; may be 0 (NCCL still posts empty slices to keep peers in step). */
    public int count() { return count; }

    /** Connection slots (NCCL steps) this slice occupies on each connection: sliceSteps; 0 for local steps. */
    public int slots() { return slots; }

    /**
     * Whether this step continues the previous step's primitive call: one NCCL call that moves a part to each of
     * several peers (NVLS's {@code scatter} and {@code gather}), whose flag and fence are paid once per call.
     */
    public boolean continued() { return continued; }

    /**
     * NCCL's connection index (0 or 1) of the step's receive connections: a channel has two connections per peer and
     * direction; every algorithm but CollNet Direct uses connection 0 ({@link Plan#connectionChannel}).
     */
    public int recvConn() { return recvConn; }

    /** NCCL's connection index (0 or 1) of the step's send connections (see {@link #recvConn()}). */
    public int sendConn() { return sendConn; }

    /**
     * Whether the step's local operand is the rank's output at {@code dstOffset} (data an earlier step of the rank
     * wrote there) instead of its input at {@code srcOffset}: a {@code SEND} forwards a block received before, a
     * reduction adds to a partial sum kept in the output (PAT). No pre-operator is applied to it.
     */
    public boolean fromOutput() { return fromOutput; }

    /**
     * Whether the step is one side of a one-sided memory access (symmetric kernels): a rank's memory serving a peer's
     * load ({@code SEND}), or receiving a peer's store ({@code RECV}). The peer's thread block does the work; this
     * rank's SMs do nothing, so the step has no overhead, no thread-block rate and no local time.
     */
    public boolean memory() { return memory; }

    /**
     * Whether the step moves its elements between registered user buffers ({@link P2pSettings#registered()}): the
     * sender writes them into the receiver's output, so no slot of the connection holds them and {@link #count()} is
     * not bounded by the {@link #slots()} (which still order the connection's steps). A direct receive is also a
     * {@link #memory()} step.
     */
    public boolean direct() { return direct; }

    /**
     * Whether the step is one call of NCCL's {@code scatter} or {@code gather} primitive (prims_simple.h
     * ScatterGatherOp, NVIDIA/nccl v2.28.9): it moves a different part of its {@link #count()} elements to each send
     * peer (a scatter) or from each receive peer (a gather), waits for every peer before it moves any, and posts all of
     * them when the last part is moved. Peer i's part is {@link #partCount(int)} elements at offset
     * {@code i × }{@link #partStride()} from {@code srcOffset} (a scatter's input) or {@code dstOffset} (a gather's
     * output); its connection carries only that part. The parts are of the step's one direction with several peers.
     */
    public boolean hasParts() { return partElems > 0; }

    /** Elements of each part but the last ones ({@link #hasParts()}), 0 for a step without parts. */
    public int partElems() { return partElems; }

    /** Elements between the starts of consecutive parts in the rank's buffer ({@link #hasParts()}). */
    public long partStride() { return partStride; }

    /**
     * Elements of peer i's part: {@code partElems} up to what is left of {@code count}, at least 0 (NCCL's
     * {@code realPeerSize}; a peer past the end still gets its empty slice posted); {@link #count()} without parts.
     */
    public int partCount(int i) {
        if (partElems == 0) return count;
        return (int) Math.max(0, Math.min(partElems, count - (long) i * partElems));
    }

    void set(Primitive p, long src, long dst, int cnt, int nSlots) {
        prim = p;
        srcOffset = src;
        dstOffset = dst;
        count = cnt;
        slots = nSlots;
        nRecv = 0;
        nSend = 0;
        continued = false;
        recvConn = 0;
        sendConn = 0;
        fromOutput = false;
        memory = false;
        direct = false;
        partElems = 0;
        partStride = 0;
    }

    /**
     * Makes the step a scatter or gather of parts of {@code elems} elements, {@code stride} elements apart
     * ({@link #hasParts()}).
     */
    void markParts(int elems, long stride) {
        if (elems <= 0 || stride < elems) {
            throw new IllegalArgumentException("parts of " + elems + " elements " + stride + " apart");
        }
        partElems = elems;
        partStride = stride;
    }

    /**
     * Fills a scatter ({@code SEND}) or gather ({@code RECV}) of {@code total} elements at {@code offset}, one slot, with
     * peers {@code firstPeer} to {@code firstPeer + peers − 1}: peer i's part {@code partElems} elements at
     * {@code offset + i × stride} ({@link #hasParts()}; no parts where {@code partElems} is 0, a loop with no data).
     */
    void setScatterGather(Primitive p, long offset, int total, int partElems, long stride, int firstPeer, int peers) {
        if (p != Primitive.SEND && p != Primitive.RECV) {
            throw new IllegalArgumentException("a scatter or gather is a SEND or a RECV, not " + p);
        }
        set(p, offset, offset, total, 1);
        for (int i = 0; i < peers; i++) {
            if (p == Primitive.SEND) addSend(firstPeer + i);
            else addRecv(firstPeer + i);
        }
        if (partElems > 0) markParts(partElems, stride);
    }

    /** Marks the step as a one-sided memory access served by this rank's memory ({@link #memory()}). */
    void markMemory() { memory = true; }

    /** Marks the step as moving between registered user buffers ({@link #direct()}); a receive becomes one-sided too. */
    void markDirect() {
        direct = true;
        if (prim == Primitive.RECV) memory = true;
    }

    /** Sets the connection indices of the step's receive and send connections (0 or 1). */
    void useConns(int recv, int send) {
        recvConn = recv;
        sendConn = send;
    }

    /** Marks the step as reading its local operand from the output ({@link #fromOutput()}). */
    void markFromOutput() { fromOutput = true; }

    /** Marks the step as a continuation of the previous step's call ({@link #continued()}). */
    void markContinued() { continued = true; }

    void addRecv(int peer) {
        if (nRecv == recvPeers.length) recvPeers = java.util.Arrays.copyOf(recvPeers, 2 * nRecv);
        recvPeers[nRecv++] = peer;
    }

    void addSend(int peer) {
        if (nSend == sendPeers.length) sendPeers = java.util.Arrays.copyOf(sendPeers, 2 * nSend);
        sendPeers[nSend++] = peer;
    }

    /**
     * Writes the step as {@link #ENCODED_LONGS} longs at {@code out[pos..]}.
     *
     * @throws IllegalStateException if the step has more than {@link #MAX_PEERS} peers one way (a switch actor's step)
     *                               or reads its operand from the output ({@link #fromOutput()}, which ccsim's kernels
     *                               do not implement), or is a one-sided memory step ({@link #memory()}) or a
     *                               registered buffer's ({@link #direct()})
     */
    public void encode(long[] out, int pos) {
        if (fromOutput) {
            throw new IllegalStateException("a step that reads its operand from the output (PAT) has no kernel encoding");
        }
        if (memory || direct) {
            throw new IllegalStateException("a one-sided memory step (a symmetric kernel's load or store, a registered"
                    + " buffer's write) has no kernel encoding");
        }
        if (partElems > 0) {
            throw new IllegalStateException("a scatter or gather step (NVLS) has no kernel encoding");
        }
        if (nRecv > MAX_PEERS || nSend > MAX_PEERS) {
            throw new IllegalStateException("a step with " + Math.max(nRecv, nSend) + " peers (an NVLink switch's step)"
                    + " has no kernel encoding: at most " + MAX_PEERS + " peers each way");
        }
        out[pos] = prim.ordinal();
        out[pos + 1] = nRecv;
        for (int i = 0; i < MAX_PEERS; i++) out[pos + 2 + i] = i < nRecv ? recvPeers[i] : -1;
        out[pos + 5] = nSend;
        for (int i = 0; i < MAX_PEERS; i++) out[pos + 6 + i] = i < nSend ? sendPeers[i] : -1;
        out[pos + 9] = srcOffset;
        out[pos + 10] = dstOffset;
        out[pos + 11] = (count & 0xFFFF_FFFFL) | ((long) slots << 32);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(prim == null ? "?" : prim.name());
        sb.append("(recv=");
        for (int i = 0; i < nRecv; i++) sb.append(i == 0 ? "" : ",").append(recvPeers[i]);
        sb.append(" send=");
        for (int i = 0; i < nSend; i++) sb.append(i == 0 ? "" : ",").append(sendPeers[i]);
        return sb.append(" src=").append(srcOffset).append(" dst=").append(dstOffset).append(" count=").append(count)
                .append(" slots=").append(slots).append(recvConn + sendConn > 0 ? " conn=" + recvConn + "/" + sendConn : "")
                .append(fromOutput ? " fromOutput" : "").append(memory ? " memory" : "").append(direct ? " direct" : "")
                .append(partElems > 0 ? " parts=" + partElems + "/" + partStride : "").append(')').toString();
    }
}
