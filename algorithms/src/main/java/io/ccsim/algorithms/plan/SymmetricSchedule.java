package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;

/**
 * NCCL's symmetric-memory kernels that read and write peers' windows with the SMs of one side (NVIDIA/nccl v2.28.9
 * src/device/symmetric/all_reduce.cuh, all_gather.cuh, reduce_scatter.cuh; the multimem kernels are
 * {@link NvlsSchedule} with memory lanes, the LL kernels {@link SymmetricLlSchedule}).
 *
 * <h2>NCCL's data flow (n ranks, one block per channel)</h2>
 * <ul>
 *   <li>AllReduce_RSxLD_AGxST (two-shot): rank r owns every n-th piece; for an owned piece it loads its own input
 *       and every peer's input (LSA peer pointers, rank+1 first), reduces, and stores the sum into every rank's
 *       output.</li>
 *   <li>AllGather_ST: rank r stores its input into every peer's output at r × count.</li>
 *   <li>ReduceScatter_LD: rank r loads block r of every peer's input, reduces with its own, writes its output.</li>
 * </ul>
 *
 * <h2>As a plan</h2>
 * A one-sided load has no active sender: rank p's memory serving r's load of p's input is a step of p that SENDs to
 * r and is marked {@link StepCursor#memory()} (no overhead, no thread-block rate: the flow runs at what the links
 * give), and r's step receives it and pays the reduction. A store is an ordinary SEND by the storing rank; the step
 * of the rank stored into is a memory RECV (no SM work, no time of its own). Ranks keep one peer
 * per step ({@link StepCursor#MAX_PEERS} is the kernel encoding's limit): a rank's n − 1 loads, or stores,
 * are n − 1 steps, all but the first {@link StepCursor#continued() continued} (one NCCL call); reductions after the
 * first add to the partial sum in the output ({@link StepCursor#fromOutput()}). Lanes run at once:
 * <pre>
 * two-shot     lane 0: serve own input piece to its owner    lane 1: RECV_REDUCE_COPY own piece from r+1, r+2, …,
 *                      (memory SEND)                                  then SEND it to r+1, r+2, … (connection 1)
 *              lane 2: accept the owners' stores (memory RECV, connection 1)
 * all-gather   lane 0: LOCAL_COPY to out[r·count], SEND to r+1, r+2, …    lane 1: accept (memory RECV) into out[p·count]
 * reduce-scat. lane 0: serve in[q·count] to q (memory SEND)  lane 1: RECV_REDUCE_COPY in[r·count] from r+1, r+2, …
 * </pre>
 * Loads and stores by one rank thus travel one peer at a time per channel, where NCCL's warps interleave the peers
 * (2 per unroll); across channels and lanes all peers are busy at once. Two-shot ownership: a channel's part is cut
 * into loops of n pieces of one chunk, piece r owned by rank r (NCCL interleaves 2 KiB warp chunks round-robin; the
 * bytes per owner are the same). Deviations: the load's rate is the link's, not bounded by the reader's block
 * (NCCL's smBw); the reduction is paid by the reader after the data arrived, overlapped only as far as the
 * simulator's cut-through sub-transfers go.
 */
final class SymmetricSchedule implements Schedule, TwoShotSteps.Pieces {
    private final Algorithm kernel;
    private final long count;
    private final ChannelParts parts;
    private final int n;
    private final int nChannels;

    SymmetricSchedule(CollectiveCall call, PlanOptions o, ChannelParts parts) {
        this.kernel = o.algorithm();
        this.count = call.count();
        this.parts = parts;
        this.n = call.nRanks();
        this.nChannels = o.nChannels();
    }

    @Override public int nLanes() { return kernel == Algorithm.SYM_AR_TWO_SHOT ? 3 : 2; }

    @Override public boolean usesSecondConnection() { return kernel == Algorithm.SYM_AR_TWO_SHOT; }

    /** Loops (two-shot: of n pieces) or chunks of channel ch. */
    private int loops(int ch) {
        if (kernel != Algorithm.SYM_AR_TWO_SHOT) return parts.chunks(ch);
        return Math.toIntExact(Chunking.divUp(parts.count[ch], (long) n * parts.chunkElems[ch]));
    }

    /** Two-shot: the piece size of loop j (the last loop splits its rest evenly). */
    private long piece(int ch, int j) {
        long chunk = parts.chunkElems[ch];
        long rest = parts.count[ch] - j * n * chunk;
        return rest >= n * chunk ? chunk : Chunking.divUp(rest, n);
    }

    /** Two-shot: first element of rank h's piece in loop j (absolute). */
    @Override
    public long pieceStart(int ch, int j, int h) {
        return parts.offset[ch] + j * n * parts.chunkElems[ch] + h * piece(ch, j);
    }

    @Override
    public int pieceCount(int ch, int j, int h) {
        long end = parts.offset[ch] + parts.count[ch];
        return (int) Math.max(0, Math.min(piece(ch, j), end - pieceStart(ch, j, h)));
    }

    @Override
    public int stepCount(int actor, int ch, int lane) {
        int loops = loops(ch);
        boolean reduceStore = kernel == Algorithm.SYM_AR_TWO_SHOT && lane == 1;
        boolean nSteps = kernel == Algorithm.SYM_AG_ST && lane == 0;
        return loops * (reduceStore ? 2 * (n - 1) : nSteps ? n : n - 1);
    }

    @Override
    public void step(int r, int ch, int lane, int i, StepCursor c) {
        switch (kernel) {
            case SYM_AR_TWO_SHOT: twoShot(r, ch, lane, i, c); break;
            case SYM_AG_ST: allGather(r, ch, lane, i, c); break;
            default: reduceScatter(r, ch, lane, i, c);
        }
    }

    private int chunkCount(int ch, int j) {
        return (int) parts.chunkCount(ch, parts.chunkStart(ch, j));
    }

    private void twoShot(int r, int ch, int lane, int i, StepCursor c) {
        TwoShotSteps.step(n, this, r, ch, lane, i, c);
    }

    private void allGather(int r, int ch, int lane, int i, StepCursor c) {
        if (lane == 0) {
            int j = i / n;
            int m = i % n;
            long off = parts.chunkStart(ch, j);
            if (m == 0) {
                c.set(Primitive.LOCAL_COPY, off, r * count + off, chunkCount(ch, j), 0);
            } else {
                c.set(Primitive.SEND, off, off, chunkCount(ch, j), 1);
                c.addSend((r + m) % n);
                if (m > 1) c.markContinued();
            }
            return;
        }
        int j = i / (n - 1);
        int p = (r - (i % (n - 1) + 1) + n) % n;
        long off = parts.chunkStart(ch, j);
        c.set(Primitive.RECV, off, p * count + off, chunkCount(ch, j), 1);
        c.addRecv(p);
        c.markMemory();
    }

    private void reduceScatter(int r, int ch, int lane, int i, StepCursor c) {
        int j = i / (n - 1);
        int k = i % (n - 1) + 1;
        long off = parts.chunkStart(ch, j);
        if (lane == 0) { // serve block q of this rank's input to q's load
            int q = (r - k + n) % n;
            c.set(Primitive.SEND, q * count + off, off, chunkCount(ch, j), 1);
            c.addSend(q);
            c.markMemory();
            return;
        }
        c.set(Primitive.RECV_REDUCE_COPY, r * count + off, off, chunkCount(ch, j), 1);
        c.addRecv((r + k) % n);
        if (k > 1) {
            c.markFromOutput();
            c.markContinued();
        }
    }

    @Override
    public void connections(ConnectionSink sink) {
        for (int ch = 0; ch < nChannels; ch++) {
            if (loops(ch) == 0) continue;
            for (int a = 0; a < n; a++) {
                for (int b = 0; b < n; b++) {
                    if (a == b) continue;
                    sink.accept(ch, a, b);
                    if (kernel == Algorithm.SYM_AR_TWO_SHOT) sink.accept(ch + nChannels, a, b);
                }
            }
        }
    }

    @Override public long footprintBytes() { return 48 + parts.footprintBytes(); }
}
