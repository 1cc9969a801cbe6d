package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;

/**
 * PyTorch's symmetric-memory all-reduces as a plan: one-shot (every rank loads the whole buffer from every rank
 * and sums it) and two-shot (rank r loads its contiguous slice from every rank, sums it and stores the sum into
 * every rank). Loads and stores are one-sided memory steps as in {@link SymmetricSchedule}.
 */
final class TorchSymmSchedule implements Schedule, TwoShotSteps.Pieces {
    /*
     * PyTorch's data flow (torch/csrc/distributed/c10d/symm_mem/CUDASymmetricMemoryOps.cu, blob fd6c4b6a; see
     * TorchSymmMem): both kernels run grid-stride loops of 16 B vectors over up to 24 blocks between two
     * sync_remote_blocks barriers (their fixed cost is added by the caller, TorchSymmMem.BARRIER_US).
     * - one_shot_all_reduce: every thread loads its vector from all n ranks' buffers (issued from rank+0, summed in
     *   rank order 0..n-1, so every rank gets the same bits) and writes its output.
     * - two_shot_all_reduce_: rank r owns the contiguous slice r of numel_per_rank elements; it loads the slice from
     *   every rank, sums, and stores the sum into every rank's buffer (its own included).
     *
     * As a plan (channel = thread block; a channel's part is contiguous where PyTorch's blocks interleave 16 B
     * vectors, the bytes per block are the same):
     *   one-shot  lane 0: serve the chunk of its input to rank r, r+1, … (memory SENDs, its own rank included)
     *             lane 1: RECV from rank 0, RECV_REDUCE_COPY from 1, 2, …, n−1 into the output (rank order)
     *   two-shot  lane 0: serve its part of slice q to owner q (memory SEND)
     *             lane 1: RECV_REDUCE_COPY its own slice from r+1, r+2, …; then SEND the sum to r+1, r+2, …
     *             lane 2: accept the owners' stores (memory RECV, connection 1)
     * This is NCCL's AllReduce_RSxLD_AGxST plan with PyTorch's contiguous slices in place of NCCL's round-robin
     * pieces: channel ch of every owner walks the same sub-range of the owner's slice, in chunks.
     */
    private final Algorithm algo;
    private final long count;
    private final ChannelParts parts;
    private final long slice;
    private final int n;
    private final int nChannels;

    /**
     * @param parts one-shot: the channels' parts of the whole buffer; two-shot: of one slice (count = the slice)
     * @param slice two-shot's elements per rank (ignored for one-shot)
     */
    TorchSymmSchedule(CollectiveCall call, PlanOptions o, ChannelParts parts, long slice) {
        this.algo = o.algorithm();
        this.count = call.count();
        this.parts = parts;
        this.slice = slice;
        this.n = call.nRanks();
        this.nChannels = o.nChannels();
    }

    private boolean twoShot() { return algo == Algorithm.TORCH_TWO_SHOT; }

    @Override public int nLanes() { return twoShot() ? 3 : 2; }

    @Override public boolean usesSecondConnection() { return twoShot(); }

    @Override
    public int stepCount(int actor, int ch, int lane) {
        int loops = parts.chunks(ch);
        if (!twoShot()) return loops * n;
        return loops * (lane == 1 ? 2 * (n - 1) : n - 1);
    }

    @Override
    public void step(int r, int ch, int lane, int i, StepCursor c) {
        if (twoShot()) twoShot(r, ch, lane, i, c);
        else oneShot(r, ch, lane, i, c);
    }

    private void oneShot(int r, int ch, int lane, int i, StepCursor c) {
        int j = i / n;
        int k = i % n;
        long off = parts.chunkStart(ch, j);
        int cnt = (int) parts.chunkCount(ch, off);
        if (lane == 0) { // serve this rank's chunk to the loads of r, r+1, …
            c.set(Primitive.SEND, off, off, cnt, 1);
            c.addSend((r + k) % n);
            c.markMemory();
            return;
        }
        c.set(k == 0 ? Primitive.RECV : Primitive.RECV_REDUCE_COPY, off, off, cnt, 1);
        c.addRecv(k);
        if (k > 0) {
            c.markFromOutput();
            c.markContinued();
        }
    }

    /** First element of owner h's piece in chunk j of channel ch (absolute). */
    @Override
    public long pieceStart(int ch, int j, int h) {
        return h * slice + parts.chunkStart(ch, j);
    }

    /** Elements of owner h's piece in chunk j of channel ch (0 past the buffer's end). */
    @Override
    public int pieceCount(int ch, int j, int h) {
        long rel = parts.chunkStart(ch, j);
        long start = h * slice + rel;
        return (int) Math.max(0, Math.min(parts.chunkCount(ch, rel), count - start));
    }

    private void twoShot(int r, int ch, int lane, int i, StepCursor c) {
        TwoShotSteps.step(n, this, r, ch, lane, i, c);
    }

    @Override
    public void connections(ConnectionSink sink) {
        for (int ch = 0; ch < nChannels; ch++) {
            if (parts.chunks(ch) == 0) continue;
            for (int a = 0; a < n; a++) {
                for (int b = 0; b < n; b++) {
                    if (a == b && twoShot()) continue;
                    sink.accept(ch, a, b);
                    if (twoShot()) sink.accept(ch + nChannels, a, b);
                }
            }
        }
    }

    @Override public long footprintBytes() { return 56 + parts.footprintBytes(); }
}
