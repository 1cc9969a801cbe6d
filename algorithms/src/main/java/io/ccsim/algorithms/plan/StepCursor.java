package io.ccsim.algorithms.plan;

/**
 * A reusable, mutable view of one step, filled by {@link Plan#step}. One cursor per executor
 * thread; filling it allocates nothing. A step moves one slice: {@code count} elements that
 * occupy {@code slots} consecutive slots (NCCL "steps") of every connection it uses.
 *
 * <p>Flat encoding for kernels and simulators ({@link #encode}): 12 longs
 * {@code [prim, nRecv, r0, r1, r2, nSend, s0, s1, s2, srcOffset, dstOffset, count | slots << 32]}.
 */
public final class StepCursor {
    /** Maximum receive or send peers of one step (tree fan-in/out, NCCL_MAX_TREE_ARITY = 3). */
    public static final int MAX_PEERS = 3;
    /** Longs per step in {@link #encode}. */
    public static final int ENCODED_LONGS = 12;

    Primitive prim;
    int nRecv;
    final int[] recvPeers = new int[MAX_PEERS];
    int nSend;
    final int[] sendPeers = new int[MAX_PEERS];
    long srcOffset;
    long dstOffset;
    int count;
    int slots;

    public Primitive prim() { return prim; }

    /** Number of receive peers (0..3). */
    public int nRecv() { return nRecv; }

    /** Rank of receive peer i (0 ≤ i < nRecv). */
    public int recvPeer(int i) { return recvPeers[i]; }

    /** Number of send peers (0..3). */
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

    void set(Primitive p, long src, long dst, int cnt, int nSlots) {
        prim = p;
        srcOffset = src;
        dstOffset = dst;
        count = cnt;
        slots = nSlots;
        nRecv = 0;
        nSend = 0;
    }

    void addRecv(int peer) { recvPeers[nRecv++] = peer; }

    void addSend(int peer) { sendPeers[nSend++] = peer; }

    /** Writes the step as {@link #ENCODED_LONGS} longs at {@code out[pos..]}. */
    public void encode(long[] out, int pos) {
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
                .append(" slots=").append(slots).append(')').toString();
    }
}
