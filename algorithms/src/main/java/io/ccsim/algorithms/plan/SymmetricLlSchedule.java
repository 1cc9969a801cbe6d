package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.CollectiveOp;

/**
 * NCCL's symmetric LL kernels: every rank stores 8-byte packs, each with its flag (16-byte LL lines), into slots of the
 * receivers' LL buffers, and every rank then reads the n slots of its own buffer (NVIDIA/nccl v2.28.9
 * src/device/symmetric/all_reduce.cuh, all_gather.cuh, reduce_scatter.cuh on ncclLLA2ASession).
 *
 * <h2>NCCL's data flow (n ranks, per block and epoch of at most 512 packs)</h2>
 * <ul>
 *   <li>AllReduce_AGxLL_R: thread t {@code bcast}s its input pack into slot {@code rank·nIterPacks + t} of every
 *       rank's buffer (its own included), then {@code recvReduce}s slots {@code t + p·nIterPacks}, p = 0..n−1, and
 *       writes the sum to its output.</li>
 *   <li>AllReduce_AGxLLMC_R: the same with one multicast store of the pack (the switch writes it into every
 *       rank's buffer) in place of n stores.</li>
 *   <li>AllGather_LL / AllGather_LLMC: {@code bcast} of its input packs, unicast or multicast as above, then a copy
 *       of each slot p into the output at {@code p × count}.</li>
 *   <li>ReduceScatter_LL: {@code send} of block q of its input ({@code input + q × count}) into slot
 *       {@code rank·nIterPacks + pack} of rank q's buffer, for every q (itself included), then {@code recvReduce}
 *       of its n slots into its output.</li>
 * </ul>
 *
 * <h2>As a plan</h2>
 * Every access is a store by the sender's SMs or a read of the reader's own memory, so there are no memory steps:
 * stores are LL SENDs, reads LL RECVs, and the plan's protocol is LL (16-byte lines carry 8 bytes of data: the wire
 * bytes are twice the data, as the simulator charges for LL). A multicast store is a SEND to a switch actor
 * {@code M_r = n + r} whose {@link Primitive#MULTIMEM_FORWARD} step writes the chunk into every rank. Lanes run at
 * once, one chunk at a time:
 * <pre>
 * lane 0 (store)  unicast: SEND to r, r+1, …, r−1 (reduce-scatter: block q of the input to q)
 *                 multicast: SEND to M_r
 * lane 1 (read)   all-reduce, reduce-scatter: RECV from rank 0, RECV_REDUCE_COPY from 1, …, n−1 (from M_p when
 *                 multicast): rank order, as recvReduce sums, so that every all-reduce rank gets the same bits;
 *                 all-gather: RECV from r, r−1, …, r+1 into out[p·count] (each p's chunk as it arrives)
 * </pre>
 * A rank's n stores or reads per chunk are one-peer steps ({@link StepCursor#MAX_PEERS} is the kernel encoding's
 * limit), all but the first {@link StepCursor#continued() continued} (one NCCL call); reductions after the first add
 * to the partial sum in the output ({@link StepCursor#fromOutput()}). Deviations: NCCL's threads store to all peers
 * at once where a lane here stores one peer after another (ReduceScatter_LL's threads store peer 0 first on every
 * rank; the plan starts at the rank's own block, so the ranks' first stores do not all meet at rank 0); the chunk is
 * ccsim's ({@link Chunking}: 32 KiB, shrinking for small sizes), where NCCL's epoch is 512 packs (4 KiB) per block.
 */
final class SymmetricLlSchedule implements Schedule {
    private final CollectiveOp op;
    private final long count;
    private final ChannelParts parts;
    private final int n;
    private final int nChannels;
    private final boolean multicast;

    SymmetricLlSchedule(CollectiveCall call, PlanOptions o, ChannelParts parts) {
        this.op = call.op();
        this.count = call.count();
        this.parts = parts;
        this.n = call.nRanks();
        this.nChannels = o.nChannels();
        this.multicast = SymmetricSupport.multimem(o.algorithm());
    }

    @Override public int nLanes() { return 2; }

    @Override public int switchActors() { return multicast ? n : 0; }

    @Override public int switchHost(int actor) { return 0; }

    @Override public int maxPeers() { return multicast ? Math.max(StepCursor.MAX_PEERS, n) : StepCursor.MAX_PEERS; }

    @Override
    public int stepCount(int actor, int ch, int lane) {
        int chunks = parts.chunks(ch);
        if (actor >= n) return lane == 0 ? chunks : 0;
        return lane == 0 && multicast ? chunks : chunks * n;
    }

    @Override
    public void step(int actor, int ch, int lane, int i, StepCursor c) {
        if (actor >= n) { // the switch writes M_h's chunk into every rank's LL buffer
            c.set(Primitive.MULTIMEM_FORWARD, 0, 0, chunkCount(ch, i), 1);
            c.addRecv(actor - n);
            for (int r = 0; r < n; r++) c.addSend(r);
        } else if (lane == 0) {
            store(actor, ch, i, c);
        } else {
            read(actor, ch, i, c);
        }
    }

    private void store(int r, int ch, int i, StepCursor c) {
        if (multicast) {
            long off = parts.chunkStart(ch, i);
            c.set(Primitive.SEND, off, off, chunkCount(ch, i), 1);
            c.addSend(n + r);
            return;
        }
        int j = i / n;
        int k = i % n;
        int q = (r + k) % n;
        long off = parts.chunkStart(ch, j);
        long src = op == CollectiveOp.REDUCE_SCATTER ? q * count + off : off;
        c.set(Primitive.SEND, src, off, chunkCount(ch, j), 1);
        c.addSend(q);
        if (k > 0) c.markContinued();
    }

    private void read(int r, int ch, int i, StepCursor c) {
        int j = i / n;
        int k = i % n;
        long off = parts.chunkStart(ch, j);
        int p;
        if (op == CollectiveOp.ALL_GATHER) {
            p = (r - k + n) % n;
            c.set(Primitive.RECV, off, p * count + off, chunkCount(ch, j), 1);
        } else {
            p = k;
            c.set(k == 0 ? Primitive.RECV : Primitive.RECV_REDUCE_COPY, off, off, chunkCount(ch, j), 1);
            if (k > 0) c.markFromOutput();
        }
        c.addRecv(multicast ? n + p : p);
        if (k > 0) c.markContinued();
    }

    private int chunkCount(int ch, int j) {
        return (int) parts.chunkCount(ch, parts.chunkStart(ch, j));
    }

    @Override
    public void connections(ConnectionSink sink) {
        for (int ch = 0; ch < nChannels; ch++) {
            if (parts.chunks(ch) == 0) continue;
            for (int a = 0; a < n; a++) {
                if (multicast) {
                    sink.accept(ch, a, n + a);
                    for (int b = 0; b < n; b++) sink.accept(ch, n + a, b);
                } else {
                    for (int b = 0; b < n; b++) sink.accept(ch, a, b);
                }
            }
        }
    }

    @Override public long footprintBytes() { return 48 + parts.footprintBytes(); }
}
