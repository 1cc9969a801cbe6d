package io.ccsim.algorithms.plan;

/**
 * The step lists of a two-shot all-reduce over one-sided loads and stores, shared by NCCL's AllReduce_RSxLD_AGxST
 * ({@link SymmetricSchedule}) and PyTorch's two_shot_all_reduce ({@link TorchSymmSchedule}), which differ only in
 * which elements each rank owns ({@link Pieces}). Per loop j and rank r:
 * <ul>
 *   <li>lane 1 (the owner's thread blocks): load-reduce its piece from r+1, r+2, … (RECV_REDUCE_COPY, the sum kept
 *       in the output), then store the sum into r+1, r+2, … (SEND from the output, connection 1); all but the
 *       first load and the first store continue their call;</li>
 *   <li>lane 0 (memory): rank r's input serving each owner's load (a memory SEND);</li>
 *   <li>lane 2 (memory): each owner's store landing in rank r's output (a memory RECV on connection 1).</li>
 * </ul>
 */
final class TwoShotSteps {
    /** Which elements of loop j of channel ch rank {@code owner} reduces. */
    interface Pieces {
        /** First element, in the rank's buffers. */
        long pieceStart(int ch, int loop, int owner);

        /** Elements (0 when the owner has none in this loop). */
        int pieceCount(int ch, int loop, int owner);
    }

    private TwoShotSteps() { }

    /** Fills {@code c} with step {@code i} of rank {@code r}'s {@code lane} on channel {@code ch}. */
    static void step(int n, Pieces p, int r, int ch, int lane, int i, StepCursor c) {
        if (lane == 1) {
            int per = 2 * (n - 1);
            int j = i / per;
            int m = i % per;
            long off = p.pieceStart(ch, j, r);
            int cnt = p.pieceCount(ch, j, r);
            if (m < n - 1) { // load-reduce from r+1, r+2, …
                c.set(Primitive.RECV_REDUCE_COPY, off, off, cnt, 1);
                c.addRecv((r + m + 1) % n);
                if (m > 0) c.markFromOutput();
            } else { // store the sum into r+1, r+2, …
                c.set(Primitive.SEND, off, off, cnt, 1);
                c.addSend((r + m - (n - 1) + 1) % n);
                c.markFromOutput();
                c.useConns(0, 1);
            }
            if (m != 0 && m != n - 1) c.markContinued();
            return;
        }
        int j = i / (n - 1);
        int owner = (r - (i % (n - 1) + 1) + n) % n;
        long off = p.pieceStart(ch, j, owner);
        int cnt = p.pieceCount(ch, j, owner);
        if (lane == 0) { // serve the owner's load of this rank's input
            c.set(Primitive.SEND, off, off, cnt, 1);
            c.addSend(owner);
        } else { // the owner's store lands in this rank's output
            c.set(Primitive.RECV, off, off, cnt, 1);
            c.addRecv(owner);
            c.useConns(1, 0);
        }
        c.markMemory();
    }
}
