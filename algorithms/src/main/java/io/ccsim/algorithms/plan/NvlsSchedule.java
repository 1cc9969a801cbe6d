package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.CollectiveOp;

/**
 * NVLS (NVLink SHARP) inside one NVLink domain: the switch reduces and multicasts, as NCCL's NVLS kernels
 * drive it, with the switch's work as actors of the plan.
 *
 * <h2>NCCL's data flow (NVIDIA/nccl v2.28.9)</h2>
 * The first min(n, 32) GPUs of the domain are heads (src/graph/search.cc: on one node the NVLS graph takes every
 * local GPU as a head, up to NCCL_MAX_NVLS_ARITY = 32); head h owns sub-chunk h of every loop. All-gather and
 * reduce-scatter make every rank a head and need n ≤ 32 (enqueue.cc updateCollCostTable: no NVLS entry beyond; the
 * symmetric kernels below have no such limit). Per channel and loop of {@code nHeads × chunk} elements:
 * <ul>
 *   <li>all-reduce (src/device/all_reduce.h, RunWorkColl NVLS, oneNode): <em>scatter</em> warps copy input
 *       sub-chunk h into the buffer bound to head h's multicast object; head h's <em>reduce</em> warps issue
 *       {@code multimem.ld_reduce} on it (the switch reads sub-chunk h from every GPU and returns the sum) and
 *       {@code multimem.st} the result (the switch writes it into every GPU); <em>gather</em> warps copy every
 *       head's result to the output. The last loop's chunk is {@code alignUp(divUp(rest, nHeads), 16384 B)}.</li>
 *   <li>all-gather (all_gather.h): rank r stores its own chunk with {@code multimem.st} (the switch writes it into
 *       every GPU); gather warps copy every rank's chunk to {@code out[h × count + offset]}.</li>
 *   <li>reduce-scatter (reduce_scatter.h): scatter warps copy {@code in[h × count + offset]} for head h; head r
 *       {@code multimem.ld_reduce}s its own part into the output.</li>
 * </ul>
 *
 * <h2>As a plan</h2>
 * The switch's in-network reduction for head h is a switch actor {@code R_h} (step {@link Primitive#MULTIMEM_REDUCE}:
 * one slice from every rank, the reduced slice to h); its multicast of head h's data is a switch actor {@code M_h}
 * ({@link Primitive#MULTIMEM_FORWARD}: one slice from h, copies to every rank). A rank's {@code SEND} to {@code R_h} is
 * the switch reading the rank's copy (traffic out of the rank's NVLink ports); a rank's {@code RECV} from
 * {@code M_h} is the switch's write into the rank. Lanes are NCCL's warp groups, which run at once:
 * <pre>
 * all-reduce      lane 0 scatter: SEND sub-chunk h to R_h, h < H            actors R_h = n + h, M_h = n + H + h
 *                 lane 1 head:    RECV_COPY_SEND from R_r to M_r (heads r < H only)
 *                 lane 2 gather:  RECV from M_h into sub-chunk h, h < H    (H = min(n, 32) heads; symmetric: n)
 * all-gather      lane 0 bcast:   SEND own chunk to M_r                    actors M_h = n + h
 *                 lane 1 gather:  RECV from M_h into out[h·count + offset], h = 0..n−1
 * reduce-scatter  lane 0 scatter: SEND in[h·count + offset] to R_h          actors R_h = n + h
 *                 lane 1 reduce:  RECV from R_r into the output
 * </pre>
 * Per GPU this moves about S + S/n each way for an all-reduce of S bytes (a ring: 2S(n − 1)/n), as NCCL's
 * multimem traffic does. NCCL's {@code scatter} and {@code gather} are one primitive call per loop that moves a part
 * to or from every head, waits for all of them first and posts all of them last (prims_simple.h ScatterGatherOp):
 * here one step per loop with a {@link StepCursor#hasParts() part per head}. The symmetric kernels' memory lanes
 * (below) have no such call: one step per head, all but the first {@link StepCursor#continued() continued}.
 * Slots are NVLS's: {@code NCCL_NVLS_CHUNKSIZE} = 128 KiB each (src/transport/nvls.cc), a
 * slice is one chunk; the chunk shrinks for small sizes as {@code calcCollChunking} shrinks it ({@link Chunking}).
 *
 * <p>NCCL's symmetric AllReduce_RSxLDMC_AGxSTMC (src/device/symmetric/all_reduce.cuh, v2.28.9) has the same data
 * flow without the copies: rank r {@code multimem.ld_reduce}s its owned part straight from every rank's input window
 * and {@code multimem.st}s the sum into every rank's output window. It is this all-reduce schedule with lanes 0 and 2
 * as one-sided memory steps (no SM work on the rank whose memory is read or written). Its warps own 4 KiB pieces
 * round-robin by rank, so every rank owns (H = n, any n: the kernels use one multicast object over all ranks,
 * dev_runtime.cc symTeamObtain, not NVLS's head channels, so NCCL_MAX_NVLS_ARITY does not apply); ccsim's loop is n
 * sub-chunks, the last loop's aligned to 4 KiB. AllGather_STMC (all_gather.cuh: rank r {@code multimem.st}s its
 * input into the multicast output at r × count) is the all-gather with the gather lane as memory RECVs (the switch
 * writes every output window); ReduceScatter_LDMC (reduce_scatter.cuh: rank r {@code multimem.ld_reduce}s block r
 * of the multicast input and stores it locally) is the reduce-scatter with the scatter lane as memory SENDs (the
 * switch reads every input window).
 */
final class NvlsSchedule implements Schedule {
    private final CollectiveOp op;
    private final long count;
    private final ChannelParts parts;
    private final int n;
    private final int heads;
    private final int nChannels;
    private final int alignElems;
    private final int reduceBase;
    private final int castBase;
    private final boolean memoryLanes;

    /** NVLS all-reduce: the last loop's sub-chunk is a multiple of 16 KiB (all_reduce.h lastChunkSize), bytes. */
    private static final int NVLS_ALIGN_BYTES = 16384;
    /** AllReduce_RSxLDMC_AGxSTMC: its warps own 4 KiB pieces round-robin by rank (all_reduce.cuh), bytes. */
    private static final int SYMMETRIC_ALIGN_BYTES = 4096;

    NvlsSchedule(CollectiveCall call, PlanOptions o, ChannelParts parts) { this(call, o, parts, false); }

    /**
     * @param memoryLanes NCCL's symmetric multimem kernels (AllReduce_RSxLDMC_AGxSTMC, AllGather_STMC,
     *                    ReduceScatter_LDMC): the switch reads the ranks' input windows and writes their output
     *                    windows directly, so the scatter and gather steps are one-sided memory steps
     *                    ({@link StepCursor#memory()}) where NVLS copies with the rank's SMs
     */
    NvlsSchedule(CollectiveCall call, PlanOptions o, ChannelParts parts, boolean memoryLanes) {
        this.memoryLanes = memoryLanes;
        this.op = call.op();
        this.count = call.count();
        this.parts = parts;
        this.n = call.nRanks();
        boolean everyRank = memoryLanes || op != CollectiveOp.ALL_REDUCE;
        this.heads = everyRank ? n : Math.min(n, io.ccsim.algorithms.profile.NcclNvlsConstants.MAX_HEADS);
        this.nChannels = o.nChannels();
        this.alignElems = Math.max(1, (memoryLanes ? SYMMETRIC_ALIGN_BYTES : NVLS_ALIGN_BYTES) / call.dtype().bytes());
        this.reduceBase = op == CollectiveOp.ALL_GATHER ? -1 : n;
        this.castBase = op == CollectiveOp.ALL_REDUCE ? n + heads : op == CollectiveOp.ALL_GATHER ? n : -1;
    }

    @Override public int nLanes() { return op == CollectiveOp.ALL_REDUCE ? 3 : 2; }

    @Override public int switchActors() { return op == CollectiveOp.ALL_REDUCE ? 2 * heads : n; }

    @Override public int switchHost(int actor) { return 0; }

    @Override public int maxPeers() { return Math.max(StepCursor.MAX_PEERS, n); }

    /** All-reduce loops of channel ch: ⌈count / (n × chunk)⌉; other ops: one per chunk. */
    private int loops(int ch) {
        if (op != CollectiveOp.ALL_REDUCE) return parts.chunks(ch);
        return Math.toIntExact(Chunking.divUp(parts.count[ch], heads * parts.chunkElems[ch]));
    }

    /** All-reduce: the chunk of loop j on channel ch (the last loop's is NCCL's lastChunkSize). */
    private long arChunk(int ch, int j) {
        long chunk = parts.chunkElems[ch];
        long loopCount = heads * chunk;
        long elemOffset = j * loopCount;
        long rest = parts.count[ch] - elemOffset;
        if (rest >= loopCount) return chunk;
        return Chunking.alignUp(Chunking.divUp(rest, heads), alignElems);
    }

    /** All-reduce: first element of head h's sub-chunk in loop j of channel ch, relative to the channel's part. */
    private long arStart(int ch, int j, int h) {
        return j * heads * parts.chunkElems[ch] + h * arChunk(ch, j);
    }

    /** All-reduce: elements of head h's sub-chunk in loop j (0 when the last loop leaves none for h). */
    private int arCount(int ch, int j, int h) {
        long c = Math.min(arChunk(ch, j), parts.count[ch] - arStart(ch, j, h));
        return (int) Math.max(0, c);
    }

    @Override
    public int stepCount(int actor, int ch, int lane) {
        int loops = loops(ch);
        if (actor >= n) return lane == 0 ? loops : 0;
        if (op == CollectiveOp.ALL_REDUCE && lane == 1 && actor >= heads) return 0; // not a head
        boolean perHead = op == CollectiveOp.ALL_REDUCE ? lane != 1 : op == CollectiveOp.ALL_GATHER ? lane == 1 : lane == 0;
        return perHead && memoryLanes ? loops * heads : loops; // NVLS: one scatter or gather step per loop
    }

    @Override
    public void step(int actor, int ch, int lane, int i, StepCursor c) {
        if (op == CollectiveOp.ALL_REDUCE) arStep(actor, ch, lane, i, c);
        else if (op == CollectiveOp.ALL_GATHER) agStep(actor, ch, lane, i, c);
        else rsStep(actor, ch, lane, i, c);
    }

    private void arStep(int actor, int ch, int lane, int i, StepCursor c) {
        long base = parts.offset[ch];
        if (actor >= castBase) {
            int h = actor - castBase;
            switchStep(c, Primitive.MULTIMEM_FORWARD, arCount(ch, i, h), h, -1);
        } else if (actor >= reduceBase) {
            int h = actor - reduceBase;
            switchStep(c, Primitive.MULTIMEM_REDUCE, arCount(ch, i, h), -1, h);
        } else if (lane == 1) {
            long off = base + arStart(ch, i, actor);
            c.set(Primitive.RECV_COPY_SEND, off, off, arCount(ch, i, actor), 1);
            c.addRecv(reduceBase + actor);
            c.addSend(castBase + actor);
        } else if (!memoryLanes) {
            long off = base + arStart(ch, i, 0);
            int part = (int) arChunk(ch, i);
            int total = (int) Math.min((long) heads * part, parts.count[ch] - arStart(ch, i, 0));
            c.setScatterGather(lane == 0 ? Primitive.SEND : Primitive.RECV, off, total, part, part,
                    lane == 0 ? reduceBase : castBase, heads);
        } else {
            int j = i / heads;
            int h = i % heads;
            long off = base + arStart(ch, j, h);
            if (lane == 0) {
                c.set(Primitive.SEND, off, off, arCount(ch, j, h), 1);
                c.addSend(reduceBase + h);
            } else {
                c.set(Primitive.RECV, off, off, arCount(ch, j, h), 1);
                c.addRecv(castBase + h);
            }
            if (h > 0) c.markContinued();
            c.markMemory();
        }
    }

    private void agStep(int actor, int ch, int lane, int i, StepCursor c) {
        if (actor >= n) {
            int j = i;
            switchStep(c, Primitive.MULTIMEM_FORWARD, chunkCount(ch, j), actor - castBase, -1);
        } else if (lane == 0) {
            long off = parts.chunkStart(ch, i);
            c.set(Primitive.SEND, off, off, chunkCount(ch, i), 1);
            c.addSend(castBase + actor);
        } else if (!memoryLanes) {
            long off = parts.chunkStart(ch, i);
            int part = chunkCount(ch, i);
            c.setScatterGather(Primitive.RECV, off, n * part, part, count, castBase, n);
        } else {
            int j = i / n;
            int h = i % n;
            long off = parts.chunkStart(ch, j);
            c.set(Primitive.RECV, off, h * count + off, chunkCount(ch, j), 1);
            c.addRecv(castBase + h);
            if (h > 0) c.markContinued();
            c.markMemory();
        }
    }

    private void rsStep(int actor, int ch, int lane, int i, StepCursor c) {
        if (actor >= n) {
            switchStep(c, Primitive.MULTIMEM_REDUCE, chunkCount(ch, i), -1, actor - reduceBase);
        } else if (lane == 0 && !memoryLanes) {
            long off = parts.chunkStart(ch, i);
            int part = chunkCount(ch, i);
            c.setScatterGather(Primitive.SEND, off, n * part, part, count, reduceBase, n);
        } else if (lane == 0) {
            int j = i / n;
            int h = i % n;
            long off = parts.chunkStart(ch, j);
            c.set(Primitive.SEND, h * count + off, off, chunkCount(ch, j), 1);
            c.addSend(reduceBase + h);
            if (h > 0) c.markContinued();
            c.markMemory();
        } else {
            long off = parts.chunkStart(ch, i);
            c.set(Primitive.RECV, off, off, chunkCount(ch, i), 1);
            c.addRecv(reduceBase + actor);
        }
    }

    private int chunkCount(int ch, int j) {
        return (int) parts.chunkCount(ch, parts.chunkStart(ch, j));
    }

    /** A switch step: from {@code from} (−1: every rank) to {@code to} (−1: every rank). */
    private void switchStep(StepCursor c, Primitive p, int cnt, int from, int to) {
        c.set(p, 0, 0, cnt, 1);
        if (from >= 0) c.addRecv(from);
        else for (int r = 0; r < n; r++) c.addRecv(r);
        if (to >= 0) c.addSend(to);
        else for (int r = 0; r < n; r++) c.addSend(r);
    }

    @Override
    public void connections(ConnectionSink sink) {
        for (int ch = 0; ch < nChannels; ch++) {
            if (loops(ch) == 0) continue;
            for (int h = 0; h < heads; h++) {
                if (reduceBase >= 0) {
                    for (int r = 0; r < n; r++) sink.accept(ch, r, reduceBase + h);
                    sink.accept(ch, reduceBase + h, h);
                }
                if (castBase >= 0) {
                    sink.accept(ch, h, castBase + h);
                    for (int r = 0; r < n; r++) sink.accept(ch, castBase + h, r);
                }
            }
        }
    }

    @Override public long footprintBytes() { return 64 + parts.footprintBytes(); }
}
