package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;

/**
 * NCCL's size rules, reimplemented (src/enqueue.cc calcCollChunking, src/include/device.h
 * ncclProtoGrainSize, src/include/collectives.h):
 *
 * <ul>
 *   <li>slot ("step") size = buffSize / NCCL_STEPS wire bytes; payload per slot: Simple all, LL half
 *       (8-byte lines of 4 B data + 4 B flag), LL128 120/128;</li>
 *   <li>chunkSteps/sliceSteps: Ring + Simple uses the collective's constants — all_reduce,
 *       all_gather, reduce_scatter CHUNKSTEPS = NCCL_STEPS/2 = 4 and SLICESTEPS = NCCL_STEPS/4 = 2;
 *       broadcast and reduce 1/1; every other (algorithm, protocol) pair uses 1/1;</li>
 *   <li>chunkSize = stepSize × chunkSteps; LL: /2; LL128: /NCCL_LL128_LINEELEMS(16) ×
 *       NCCL_LL128_DATAELEMS(15);</li>
 *   <li>Tree + LL128 shrinks the chunk for small sizes: with nsteps = 1 + log2(nNodes) + 0.1·ppn,
 *       halve while nBytes/chunk &lt; nsteps·64/ppn and chunk &gt; 128 KiB, then while
 *       nBytes/chunk &lt; nsteps·16/ppn and chunk &gt; 32 KiB (nBytes per channel, integer division
 *       on the left as in NCCL);</li>
 *   <li>NVLS: slots are NCCL_NVLS_CHUNKSIZE = 128 KiB (src/transport/nvls.cc); the chunk is the Simple step
 *       capped at 128 KiB, then with {@code ops} = nHeads (one channel's part at a time, as for every CBD
 *       algorithm): 64 KiB if nBytes &lt; 64·ops·chunk, 32 KiB if &lt; 8·ops·chunk, 16 KiB if &lt; 2·ops·chunk
 *       (each test with the chunk so far; enqueue.cc calcCollChunking, v2.28.9);</li>
 *   <li>NVLSTree: the NVLS chunk (128 KiB), at most 64 KiB from 4 nodes (NCCL_NVLSTREE_MAX_CHUNKSIZE auto), then
 *       128 KiB if nBytes &lt; 16·ops·chunk, 64 KiB if &lt; 4·ops·chunk, 32 KiB if &lt; ops·chunk;</li>
 *   <li>CollNet: Direct starts from the Simple step, Chain from min(256 KiB, step); both shrink for small sizes
 *       ({@link #collNetChunk});</li>
 *   <li>PAT: the Simple slot, halved while chunk × 32 (all-gather) or × 16 (reduce-scatter) exceeds n × the
 *       channel's bytes per rank and the chunk is above 64 KiB (calcCollChunking runs per channel with the global
 *       bytes, v2.28.9);</li>
 *   <li>symmetric kernels (ccsim's choice: NCCL's kernels have no FIFO, they load and store peers' buffers directly;
 *       the plan's slots only pace the pipeline): the NVLS geometry and shrink with every rank as an owner; the
 *       LL kernels 32 KiB per step, halved while a channel's bytes are below 8 steps (down to 4 KiB);</li>
 *   <li>the chunk is rounded down to the protocol grain (LL 16 B, LL128 1920 B, Simple 512 B).
 *       ccsim deviation: a chunk smaller than one grain (only possible with test-sized buffers) is
 *       kept as is rather than rounded to zero.</li>
 * </ul>
 *
 * Channel partition (deviation, simplified from NCCL's countLo/countMid/countHi split in
 * enqueue.cc scheduleCollTasksToPlan): the per-rank count is cut into 16-byte cells, and channel c
 * gets the contiguous range of ⌈cells / nChannels⌉ cells starting at c × that; trailing channels
 * may be empty and then have no steps.
 */
final class Chunking {
    private Chunking() { }

    /** NCCL_LL128_LINEELEMS and NCCL_LL128_DATAELEMS (src/include/device.h): 8-byte elements per line. */
    static final int LL128_LINE_ELEMS = 16;
    static final int LL128_DATA_ELEMS = 15;
    /** Channel partition cell in bytes. */
    static final int CELL_BYTES = 16;
    /** NCCL_NVLS_CHUNKSIZE default (src/init.cc, src/transport/nvls.cc): an NVLS slot, bytes. */
    static final int NVLS_CHUNK_BYTES = 128 * 1024;
    /** Data per step of the symmetric LL kernels, before the shrink for small sizes, bytes. */
    static final int SYM_LL_CHUNK_BYTES = 32 * 1024;
    /** The least PAT chunk (enqueue.cc calcCollChunking), bytes. */
    static final int PAT_MIN_CHUNK_BYTES = 64 * 1024;

    /** ncclProtoGrainSize (src/include/device.h): LL 16, LL128 32 × 8 / 16 × 15 × 8 = 1920, Simple 512. */
    static int grainBytes(Protocol p) {
        switch (p) {
            case LL: return 16;
            case LL128: return 32 * 8 / LL128_LINE_ELEMS * LL128_DATA_ELEMS * 8;
            default: return 512;
        }
    }

    static int slotWireBytes(long bufferBytes) {
        return (int) (bufferBytes / Protocol.NCCL_STEPS);
    }

    static int slotDataBytes(Protocol p, int slotWire) {
        switch (p) {
            case LL: return slotWire / 2;
            case LL128: return slotWire / LL128_LINE_ELEMS * LL128_DATA_ELEMS;
            default: return slotWire;
        }
    }

    /** chunkSteps for (algorithm, op, protocol) as calcCollChunking picks them. */
    static int chunkSteps(Algorithm a, CollectiveOp op, Protocol p) {
        if (a != Algorithm.RING || p != Protocol.SIMPLE) return 1;
        switch (op) {
            case ALL_REDUCE: case ALL_GATHER: case REDUCE_SCATTER: return Protocol.NCCL_STEPS / 2;
            default: return 1;
        }
    }

    /** sliceSteps for (algorithm, op, protocol). */
    static int sliceSteps(Algorithm a, CollectiveOp op, Protocol p) {
        if (a != Algorithm.RING || p != Protocol.SIMPLE) return 1;
        switch (op) {
            case ALL_REDUCE: case ALL_GATHER: case REDUCE_SCATTER: return Protocol.NCCL_STEPS / 4;
            default: return 1;
        }
    }

    static ProtocolGeometry geometry(Algorithm a, CollectiveOp op, PlanOptions o) {
        Protocol p = o.protocol();
        if (SymmetricSupport.ll(a)) { // LL slots of SYM_LL_CHUNK_BYTES data
            return new ProtocolGeometry(p, 2 * SYM_LL_CHUNK_BYTES, SYM_LL_CHUNK_BYTES, 1, 1, SYM_LL_CHUNK_BYTES);
        }
        if (a == Algorithm.NVLS || a.isSymmetric()) {
            long chunk = Math.min(slotWireBytes(o.bufferBytes()), NVLS_CHUNK_BYTES);
            return new ProtocolGeometry(p, NVLS_CHUNK_BYTES, NVLS_CHUNK_BYTES, 1, 1, chunk);
        }
        if (a == Algorithm.NVLS_TREE) { // the NVLS chunk, not the Simple step (enqueue.cc calcCollChunking)
            return new ProtocolGeometry(p, NVLS_CHUNK_BYTES, NVLS_CHUNK_BYTES, 1, 1, NVLS_CHUNK_BYTES);
        }
        int wire = slotWireBytes(o.bufferBytes());
        int data = slotDataBytes(p, wire);
        if (a == Algorithm.COLLNET_CHAIN) return new ProtocolGeometry(p, wire, data, 1, 1, Math.min(COLLNET_CHAIN_CHUNK_BYTES, wire));
        int cs = chunkSteps(a, op, p);
        int ss = sliceSteps(a, op, p);
        long chunk = (long) wire * cs;
        if (p == Protocol.LL) chunk /= 2;
        if (p == Protocol.LL128) chunk = chunk / LL128_LINE_ELEMS * LL128_DATA_ELEMS;
        return new ProtocolGeometry(p, wire, data, cs, ss, chunk);
    }

    /** Chunk bytes for one channel carrying {@code channelBytes}, after the tree LL128 shrink and grain rounding. */
    static long chunkBytes(ProtocolGeometry g, Algorithm a, CollectiveOp op, long channelBytes, int nRanks, int nNodes) {
        return chunkBytes(g, a, op, channelBytes, nRanks, nNodes, Math.max(1, nRanks / Math.max(1, nNodes)));
    }

    /** As {@link #chunkBytes(ProtocolGeometry, Algorithm, CollectiveOp, long, int, int)}, with CollNet Direct's heads per host. */
    static long chunkBytes(ProtocolGeometry g, Algorithm a, CollectiveOp op, long channelBytes, int nRanks, int nNodes,
                           int netHeads) {
        long chunk = g.chunkBytes();
        if (a == Algorithm.TREE && g.protocol() == Protocol.LL128) {
            float ppn = nRanks / (float) nNodes;
            float nsteps = 1 + log2i(nNodes) + 0.1f * ppn;
            while (channelBytes / chunk < nsteps * 64 / ppn && chunk > 131072) chunk /= 2;
            while (channelBytes / chunk < nsteps * 16 / ppn && chunk > 32768) chunk /= 2;
        }
        if (a == Algorithm.NVLS_TREE) {
            long ops = Math.min(nRanks / Math.max(1, nNodes), io.ccsim.algorithms.profile.NcclNvlsConstants.MAX_HEADS);
            if (nNodes >= 4) chunk = Math.min(chunk, 65536); // NCCL_NVLSTREE_MAX_CHUNKSIZE auto
            if (channelBytes < 16 * ops * chunk && chunk > 131072) chunk = 131072;
            if (channelBytes < 4 * ops * chunk && chunk > 65536) chunk = 65536;
            if (channelBytes < ops * chunk && chunk > 32768) chunk = 32768;
        }
        if (SymmetricSupport.ll(a)) {
            while (channelBytes < 8 * chunk && chunk > 4096) chunk /= 2;
        } else if (a.isSymmetric()) {
            long ops = nRanks; // every rank owns a part of each loop, as NVLS heads do
            if (channelBytes < 64 * ops * chunk && chunk > 65536) chunk = 65536;
            if (channelBytes < 8 * ops * chunk && chunk > 32768) chunk = 32768;
            if (channelBytes < 2 * ops * chunk && chunk > 16384) chunk = 16384;
        }
        if (a == Algorithm.NVLS) {
            long ops = Math.min(nRanks / Math.max(1, nNodes), io.ccsim.algorithms.profile.NcclNvlsConstants.MAX_HEADS); // nHeads
            if (channelBytes < 64 * ops * chunk && chunk > 65536) chunk = 65536;
            if (channelBytes < 8 * ops * chunk && chunk > 32768) chunk = 32768;
            if (channelBytes < 2 * ops * chunk && chunk > 16384) chunk = 16384;
        }
        if (a == Algorithm.COLLNET_DIRECT || a == Algorithm.COLLNET_CHAIN) {
            long bytes = op == CollectiveOp.ALL_REDUCE ? channelBytes : channelBytes * nRanks; // AG/RS: the whole buffer
            chunk = collNetChunk(a, chunk, bytes, nRanks, nNodes, netHeads);
        }
        if (a == Algorithm.PAT) {
            long global = channelBytes * nRanks; // calcCollChunking gets the channel's share of the whole buffer
            long factor = op == CollectiveOp.ALL_GATHER ? 32 : 16;
            while (chunk * factor > global && chunk > PAT_MIN_CHUNK_BYTES) chunk /= 2;
        }
        int grain = grainBytes(g.protocol());
        if (chunk >= grain) chunk = chunk / grain * grain;
        return chunk;
    }

    /** CollNet Chain's largest chunk (enqueue.cc calcCollChunking: min(256 KiB, step)), bytes. */
    static final int COLLNET_CHAIN_CHUNK_BYTES = 256 * 1024;

    /**
     * calcCollChunking's CollNet shrink (v2.28.9), with ccsim's per-channel bytes for NCCL's nBytes / nChannels (for
     * all-gather and reduce-scatter the channel's share of the whole buffer, n × count: ncclFuncMaxSendRecvCount).
     * Direct: per = bytes / (nHeads × chunk); halve while per &lt; depth·64 (down to 128 KiB), &lt; depth·8 (64 KiB),
     * &lt; depth·8 (32 KiB), nHeads = the GPUs with a NIC of their own, depth 2, or 1 without intra-node peers. Chain:
     * per = bytes / chunk, halve while &lt; depth·64 (128 KiB), &lt; depth·8 (64 KiB), &lt; depth (32 KiB), depth = ppn.
     */
    private static long collNetChunk(Algorithm a, long chunk, long channelBytes, int nRanks, int nNodes, int directHeads) {
        int ppn = Math.max(1, nRanks / Math.max(1, nNodes));
        long heads = a == Algorithm.COLLNET_DIRECT ? directHeads : 1;
        long depth = a == Algorithm.COLLNET_DIRECT ? (ppn > 1 ? 2 : 1) : ppn;
        long third = a == Algorithm.COLLNET_DIRECT ? depth * 8 : depth;
        while (channelBytes / (heads * chunk) < depth * 64 && chunk > 131072) chunk /= 2;
        while (channelBytes / (heads * chunk) < depth * 8 && chunk > 65536) chunk /= 2;
        while (channelBytes / (heads * chunk) < third && chunk > 32768) chunk /= 2;
        return chunk;
    }

    static int log2i(int n) {
        return 31 - Integer.numberOfLeadingZeros(n);
    }

    /** Per-channel partition of {@code count} elements: offsets and counts. */
    static long[][] partition(long count, int eltBytes, int nChannels) {
        long cellElems = Math.max(1, CELL_BYTES / eltBytes);
        long cells = (count + cellElems - 1) / cellElems;
        long perCh = (cells + nChannels - 1) / nChannels * cellElems;
        long[] off = new long[nChannels];
        long[] cnt = new long[nChannels];
        for (int c = 0; c < nChannels; c++) {
            long o = Math.min(count, c * perCh);
            off[c] = o;
            cnt[c] = Math.min(count, o + perCh) - o;
        }
        return new long[][] {off, cnt};
    }

    static long divUp(long a, long b) {
        return (a + b - 1) / b;
    }

    static long alignUp(long a, long b) {
        return divUp(a, b) * b;
    }
}
