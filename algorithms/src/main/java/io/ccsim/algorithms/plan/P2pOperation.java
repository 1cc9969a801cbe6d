package io.ccsim.algorithms.plan;

/**
 * How NCCL splits one send or receive of a grouped point-to-point call: its channel count, its parts and its chunk
 * (NVIDIA/nccl 2.28.9 src/enqueue.cc {@code scheduleP2pTasksToPlan} and {@code addP2pToPlan}, src/include/device.h
 * {@code ncclP2pPartBounds}, src/include/bitops.h {@code u32fp8Encode}).
 *
 * <pre>
 *   nChannelsMax = p2pnChannelsPerPeer
 *   nChannelsMin = nChannelsMax, halved while nChannelsMin · nRanks &gt; P and &gt; 1
 *   step         = p2pChunkSize (Simple) or the LL buffer / NCCL_STEPS (LL)
 *   minPart      = step / 2 on several nodes, else step / 8;   maxPart = step on several nodes, else 32 · step
 *   channels     = min(nChannelsMin, ⌈bytes / minPart⌉), doubled while max(minPart, ⌈bytes / channels⌉) &gt; maxPart
 *                  and channels ≤ nChannelsMax / 2;  1 for an empty operation
 *   part p       = [min(p · s, bytes), min((p + 1) · s, bytes)),  s = ⌈bytes / channels⌉ rounded up to 4 KiB
 *   chunk        = step, over the network /4 (Simple, bytes &lt; step) or /2 (bytes &lt; 8 · step); LL carries half
 *                  of it; kept to its 4 leading bits (u32fp8)
 * </pre>
 */
public final class P2pOperation {
    private P2pOperation() { }

    /** NCCL_P2P_LL_THRESHOLD's default (src/enqueue.cc): bytes per channel of nChannelsMax below which LL is used. */
    public static final long LL_THRESHOLD_BYTES = 16384;
    /** Alignment of a part's bytes ({@code ncclP2pPartBounds}). */
    static final long PART_ALIGN_BYTES = 4096;

    /** NCCL's nChannelsMin: {@code perPeer} halved while it times {@code nRanks} exceeds the p2p channels. */
    public static int minChannels(int perPeer, int nRanks, int p2pChannels) {
        int min = perPeer;
        while ((long) min * nRanks > p2pChannels && min > 1) min /= 2;
        return min;
    }

    /**
     * The channels of an operation of {@code bytes}.
     *
     * @param stepBytes the protocol's step (Simple: the p2p chunk; LL: the slot's wire bytes), bytes
     * @param multiNode whether the communicator spans several nodes
     */
    public static int channels(long bytes, int minChannels, int maxChannels, long stepBytes, boolean multiNode) {
        if (bytes <= 0) return 1;
        long minPart = multiNode ? stepBytes / 2 : stepBytes / 8;
        long maxPart = multiNode ? stepBytes : stepBytes * 32;
        minPart = Math.max(1, minPart);
        int nc = (int) Math.min(minChannels, Chunking.divUp(bytes, minPart));
        long part = Math.max(minPart, Chunking.divUp(bytes, nc));
        while (part > maxPart && nc <= maxChannels / 2) {
            nc *= 2;
            part = Chunking.divUp(bytes, nc);
        }
        return nc;
    }

    /** First byte of part {@code part} of {@code parts} of an operation of {@code bytes}. */
    static long partBegin(long bytes, int parts, int part) {
        long s = Chunking.divUp(Chunking.divUp(bytes, parts), PART_ALIGN_BYTES) * PART_ALIGN_BYTES;
        return Math.min(part * s, bytes);
    }

    /**
     * The data bytes a step of the operation carries.
     *
     * @param stepBytes the protocol's step (see {@link #channels})
     * @param network   whether the connection crosses the network
     * @param ll        whether the operation uses LL (half of each step is flags)
     */
    static long chunkDataBytes(long bytes, long stepBytes, boolean network, boolean ll) {
        long chunk = stepBytes;
        if (network) {
            if (!ll && bytes < stepBytes) chunk /= 4;
            else if (bytes < 8 * stepBytes) chunk /= 2;
        }
        if (ll) chunk /= 2;
        return u32fp8(chunk);
    }

    /** {@code x} kept to its leading bit and the three below it (NCCL's u32fp8 encoding and decoding). */
    static long u32fp8(long x) {
        if (x < 16) return x;
        int shift = 63 - Long.numberOfLeadingZeros(x) - 3;
        return x >>> shift << shift;
    }
}
