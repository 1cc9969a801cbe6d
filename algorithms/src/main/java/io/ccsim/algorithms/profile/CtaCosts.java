package io.ccsim.algorithms.profile;

/**
 * What one thread block (one channel's worker) spends per byte of data on each memory stream a step touches, for one
 * protocol: JSON {@code sim.cta.<protocol>}, optional ({@link SimCosts#cta()}). A step's time per data byte is
 * {@link #psPerByte}; a rank's sending blocks may share a send limit ({@link #gpuSendBytesPerSec}).
 *
 * <p>Stream costs are ns per KiB of data (1 KiB = 1024 B; before the protocol's wire efficiency): 100 ns/KiB is
 * about 10.24 GB/s. They are finite and ≥ 0, and not all five 0.
 *
 * @param recvNsPerKiB        reading one receive slot, ns/KiB (JSON {@code recv_ns_per_kib}, required)
 * @param srcNsPerKiB         reading the rank's input buffer, ns/KiB ({@code src_ns_per_kib}, required)
 * @param dstNsPerKiB         writing the rank's output buffer, ns/KiB ({@code dst_ns_per_kib}, required)
 * @param sendNsPerKiB        writing one send peer's slot, over the link, ns/KiB ({@code send_ns_per_kib}, required)
 * @param reduceNsPerKiB      combining the inputs, once per step that reduces, ns/KiB ({@code reduce_ns_per_kib},
 *                            required)
 * @param l2Bytes             the working set per GPU, bytes, at which half the input and output traffic misses L2;
 *                            finite, &gt; 0; default {@link #DEFAULT_L2_BYTES} ({@code l2_bytes})
 * @param l2MissFactor        how much dearer input and output bytes are when they miss L2; finite, ≥ 1; default 1 = no
 *                            cache effect ({@code l2_miss_factor})
 * @param channelLoad         how much dearer every byte is per other thread block of the call on the GPU; finite, ≥ 0
 *                            (the JSON reader takes [0, 1]); default 0 = no load effect ({@code channel_load})
 * @param sendOverlap         the fraction of the shorter of the local and the link-side work that the other hides, in
 *                            [0, 1]; default 0 = the streams add up ({@code send_overlap})
 * @param gpuSendGbps         GB/s of wire bytes (1 GB = 1e9 B) that a rank's sending blocks share over NVLink, before
 *                            the per-block term; finite, ≥ 0 (the JSON reader takes (0, 1e6)); default 0 = no shared
 *                            limit ({@code gpu_send_gbps}, only with {@code gpu_send_gbps_per_block})
 * @param gpuSendGbpsPerBlock GB/s more per sending block; finite, ≥ 0 (the JSON reader takes [0, 1e6)); default 0
 *                            ({@code gpu_send_gbps_per_block})
 * @param sendOverlapLoads    how much of the local loads (recv, src, reduce) the link-side work overlaps, relative to
 *                            the output stores, in [0, 1]; default {@link #ALL_LOCAL_WORK} = all local work, 0 = the
 *                            output stores only ({@code send_overlap_loads})
 */
public record CtaCosts(double recvNsPerKiB, double srcNsPerKiB, double dstNsPerKiB, double sendNsPerKiB,
                       double reduceNsPerKiB, double l2Bytes, double l2MissFactor, double channelLoad, double sendOverlap,
                       double gpuSendGbps, double gpuSendGbpsPerBlock, double sendOverlapLoads) {
    /*
     * Model. A step's primitive decides its streams: it reads a receive slot per receive peer (recv), reads the rank's
     * input (src), writes the rank's output (dst), writes the slot of each send peer (send, over the link), and
     * combines values when it reduces (reduce). With W the call's working set per GPU (input plus output buffer,
     * bytes) and B the call's thread blocks per GPU (its channels), in ns per KiB of data:
     *
     *   buffer(W)  = 1 + (l2MissFactor - 1)(1 - h),  h = 1 / (1 + (W / l2Bytes)^8)
     *   local      = recv * nRecv + (src * [reads input] + dst * [writes output]) * buffer(W) + reduce * [reduces]
     *   remote     = send * nSend
     *   stores     = dst * [writes output] * buffer(W)
     *   overlapped = stores + sendOverlapLoads * (local - stores)        (= local when sendOverlapLoads = 1)
     *   t          = local + remote - sendOverlap * min(overlapped, remote)                  (psPerByte: t * 1000 / 1024)
     *   load(B)    = 1 + channelLoad * (B - 1)                                  (the simulator multiplies t by it)
     *
     * The rank's sending blocks share (gpuSendGbps + gpuSendGbpsPerBlock * S) GB/s of wire bytes, S the blocks that
     * send on the rank (at least 1): a flow-network constraint per rank and call that every NVLink flow the rank
     * sends crosses.
     *
     * Why these terms (measurements: experiments/, ccsim's own kernels on H200):
     *  - Sum of streams. A latency-bound copy loop adds each stream's loads or stores to every iteration. Fitted by
     *    least squares on the ring and chain collectives of n = 2 and 4 (h200x4/timing.json, LL, 16 channels,
     *    16 MiB), the five stream costs predict all ten (op, n) groups' steady-state times within 9 %; a single
     *    per-channel limit cannot, because all-gather (copy-send + recv) and reduce-scatter (reduce-send +
     *    reduce-copy) touch different streams, and a 2-rank ring spends half its steps receiving where a 4-rank ring
     *    spends a quarter.
     *  - L2. The rank's own buffers are cheaper to read and write while they fit in the GPU's L2 (CUDA-graph replays
     *    of one call touch the same buffers again): a 2-rank LL broadcast (h200x2) drops from 98 GB/s at 16 MiB to
     *    74-75 GB/s from 32 MiB on, a step between working sets of 32 and 64 MiB per GPU. The hit fraction h is a
     *    smooth step so that a fit can move l2Bytes.
     *  - Channel load. A block is slower when more blocks run beside it on the GPU (its loads and stores queue behind
     *    theirs): one channel's work of a ring all-reduce at 512 MiB takes 9-17 % longer at 16 channels than at 4
     *    with Simple and LL128, 1-2 % with LL, whose flag polling dominates (h200x4-fidelity).
     *  - Send overlap. A block's stores to a peer's slot over NVLink are posted (nothing waits for them) while its
     *    loads and local stores go on: a 2-rank broadcast, whose root copy-sends (src + dst + send), and a 2-rank
     *    reduce, whose peer sends (src + send), run at the same rate with Simple from 32 MiB, where the plain sum
     *    would make the broadcast 15 % slower (h200x4-fidelity): the extra dst store hides behind the NVLink stores.
     *  - Overlap with the stores only (sendOverlapLoads = 0). A warp's loads wait for their data; its stores are
     *    posted, and two stores of the same registers (output and peer slot) share the wait. ccsim's LL128 kernels at
     *    n = 4, 16 channels, 512 MiB (h200x4-fidelity) give per-step times (sums and maxima of the ring and chain
     *    collectives' steps) of about 152 us per MiB per block for recvReduceCopy, 161 for recvReduceSend and 165
     *    for recvReduceCopySend: adding a send to a reduce-copy costs almost nothing, while an overlap with the
     *    loads would make the reduce-send the cheapest of the three and the 4-rank reduce-scatter too fast.
     *  - Send limit. The GPU's thread blocks share what its SMs can store over NVLink. ccsim's Simple all-reduce at
     *    n = 4, 256 MiB (h200x4-channels) grows almost linearly with the blocks up to 16 and by about 1.5 GB/s per
     *    block after; a tree's middle rank at 16 channels (32 sending blocks: its up and down lanes both send) moves
     *    what the ring does at 32 blocks. Being a constraint, it binds only while the blocks send at once, where the
     *    channel load slows them all the time.
     */

    /** Costs whose send overlap covers all local work ({@code sendOverlapLoads} 1). */
    public CtaCosts(double recvNsPerKiB, double srcNsPerKiB, double dstNsPerKiB, double sendNsPerKiB, double reduceNsPerKiB,
                    double l2Bytes, double l2MissFactor, double channelLoad, double sendOverlap, double gpuSendGbps,
                    double gpuSendGbpsPerBlock) {
        this(recvNsPerKiB, srcNsPerKiB, dstNsPerKiB, sendNsPerKiB, reduceNsPerKiB, l2Bytes, l2MissFactor, channelLoad, sendOverlap,
                gpuSendGbps, gpuSendGbpsPerBlock, ALL_LOCAL_WORK);
    }

    /** Costs without a shared send limit. */
    public CtaCosts(double recvNsPerKiB, double srcNsPerKiB, double dstNsPerKiB, double sendNsPerKiB, double reduceNsPerKiB,
                    double l2Bytes, double l2MissFactor, double channelLoad, double sendOverlap) {
        this(recvNsPerKiB, srcNsPerKiB, dstNsPerKiB, sendNsPerKiB, reduceNsPerKiB, l2Bytes, l2MissFactor, channelLoad, sendOverlap, 0.0, 0.0);
    }

    /** Costs without send overlap: the streams add up. */
    public CtaCosts(double recvNsPerKiB, double srcNsPerKiB, double dstNsPerKiB, double sendNsPerKiB, double reduceNsPerKiB,
                    double l2Bytes, double l2MissFactor, double channelLoad) {
        this(recvNsPerKiB, srcNsPerKiB, dstNsPerKiB, sendNsPerKiB, reduceNsPerKiB, l2Bytes, l2MissFactor, channelLoad, 0.0);
    }

    /** Costs without a cache effect or a load effect. */
    public CtaCosts(double recvNsPerKiB, double srcNsPerKiB, double dstNsPerKiB, double sendNsPerKiB, double reduceNsPerKiB) {
        this(recvNsPerKiB, srcNsPerKiB, dstNsPerKiB, sendNsPerKiB, reduceNsPerKiB, DEFAULT_L2_BYTES, 1.0, 0.0);
    }

    /** Costs without a load effect. */
    public CtaCosts(double recvNsPerKiB, double srcNsPerKiB, double dstNsPerKiB, double sendNsPerKiB, double reduceNsPerKiB,
                    double l2Bytes, double l2MissFactor) {
        this(recvNsPerKiB, srcNsPerKiB, dstNsPerKiB, sendNsPerKiB, reduceNsPerKiB, l2Bytes, l2MissFactor, 0.0);
    }

    /** The default {@code sendOverlapLoads}: the link-side work overlaps all of a step's local work. */
    public static final double ALL_LOCAL_WORK = 1.0;

    /** H200's L2 as PyTorch reports it (60 MB), bytes: the default l2Bytes. */
    public static final double DEFAULT_L2_BYTES = 60e6;

    public CtaCosts {
        Profiles.requireNonNegative(recvNsPerKiB, "recvNsPerKiB");
        Profiles.requireNonNegative(srcNsPerKiB, "srcNsPerKiB");
        Profiles.requireNonNegative(dstNsPerKiB, "dstNsPerKiB");
        Profiles.requireNonNegative(sendNsPerKiB, "sendNsPerKiB");
        Profiles.requireNonNegative(reduceNsPerKiB, "reduceNsPerKiB");
        if (!(l2Bytes > 0) || Double.isInfinite(l2Bytes)) throw new IllegalArgumentException("l2Bytes must be > 0, got " + l2Bytes);
        if (!(l2MissFactor >= 1) || Double.isInfinite(l2MissFactor)) {
            throw new IllegalArgumentException("l2MissFactor must be >= 1 (1 = no cache effect), got " + l2MissFactor);
        }
        if (!(channelLoad >= 0) || Double.isInfinite(channelLoad)) {
            throw new IllegalArgumentException("channelLoad must be a finite number >= 0 (0 = no load effect), got " + channelLoad);
        }
        Profiles.requireUnitInterval(sendOverlap, "sendOverlap", "0 = the streams add up");
        if (!(gpuSendGbps >= 0) || Double.isInfinite(gpuSendGbps)) {
            throw new IllegalArgumentException("gpuSendGbps must be a finite number of GB/s >= 0 (0 = no shared send limit), got " + gpuSendGbps);
        }
        if (!(gpuSendGbpsPerBlock >= 0) || Double.isInfinite(gpuSendGbpsPerBlock)) {
            throw new IllegalArgumentException("gpuSendGbpsPerBlock must be a finite number of GB/s >= 0, got " + gpuSendGbpsPerBlock);
        }
        Profiles.requireUnitInterval(sendOverlapLoads, "sendOverlapLoads", "1 = the send overlaps all local work");
        if (recvNsPerKiB + srcNsPerKiB + dstNsPerKiB + sendNsPerKiB + reduceNsPerKiB <= 0) {
            throw new IllegalArgumentException("cta costs are all zero: a thread block would move data in no time; at least one must be > 0");
        }
    }

    /** The multiplier of the src and dst costs for a working set of {@code workingSetBytes} per GPU (1 when it fits L2). */
    public double bufferFactor(double workingSetBytes) {
        if (l2MissFactor == 1.0) return 1.0;
        double x = Math.pow(workingSetBytes / l2Bytes, 8);
        double hit = 1.0 / (1.0 + x);
        return 1.0 + (l2MissFactor - 1.0) * (1.0 - hit);
    }

    /** The multiplier of every cost for a call of {@code channels} thread blocks per GPU (1 for one block). */
    public double loadFactor(int channels) {
        return 1.0 + channelLoad * (Math.max(1, channels) - 1);
    }

    /** Whether a rank's sending blocks share a send limit ({@link #gpuSendBytesPerSec}). */
    public boolean limitsGpuSend() {
        return gpuSendGbps > 0;
    }

    /** The send limit, bytes/s of wire bytes, that {@code blocks} sending blocks of a rank share. */
    public double gpuSendBytesPerSec(int blocks) {
        return (gpuSendGbps + gpuSendGbpsPerBlock * Math.max(1, blocks)) * 1e9;
    }

    /**
     * Picoseconds per byte of data for a step with these streams.
     *
     * @param nRecv        receive peers (slots read)
     * @param src          whether it reads the rank's input
     * @param dst          whether it writes the rank's output
     * @param nSend        send peers (slots written)
     * @param reduces      whether it combines values
     * @param bufferFactor {@link #bufferFactor} of the call's working set
     */
    public double psPerByte(int nRecv, boolean src, boolean dst, int nSend, boolean reduces, double bufferFactor) {
        double local = recvNsPerKiB * nRecv + ((src ? srcNsPerKiB : 0) + (dst ? dstNsPerKiB : 0)) * bufferFactor
                + (reduces ? reduceNsPerKiB : 0);
        double remote = sendNsPerKiB * nSend;
        double stores = dst ? dstNsPerKiB * bufferFactor : 0;
        double overlapped = sendOverlapLoads == ALL_LOCAL_WORK ? local : stores + sendOverlapLoads * (local - stores);
        double ns = local + remote - sendOverlap * Math.min(overlapped, remote);
        return ns * 1000.0 / 1024.0;
    }

    /** A copy with value {@code i} of {@link #toArray()} set to {@code v}. */
    public CtaCosts with(int i, double v) {
        double[] a = toArray();
        a[i] = v;
        return new CtaCosts(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11]);
    }

    /**
     * The values in {@link #KEYS} order: recv, src, dst, send, reduce (ns/KiB), l2 bytes, l2 miss factor, channel load, send
     * overlap, GPU send limit (GB/s), its part per sending block (GB/s), the send overlap's share of the loads.
     */
    public double[] toArray() {
        return new double[] {recvNsPerKiB, srcNsPerKiB, dstNsPerKiB, sendNsPerKiB, reduceNsPerKiB, l2Bytes, l2MissFactor, channelLoad, sendOverlap,
                gpuSendGbps, gpuSendGbpsPerBlock, sendOverlapLoads};
    }

    /** The five stream costs' JSON keys, in {@link #toArray()} order (all required). */
    public static final java.util.List<String> STREAM_KEYS = java.util.List.of("recv_ns_per_kib", "src_ns_per_kib",
            "dst_ns_per_kib", "send_ns_per_kib", "reduce_ns_per_kib");

    /**
     * Every JSON key, in {@link #toArray()} order: the streams, then the optional l2_bytes, l2_miss_factor, channel_load,
     * send_overlap, gpu_send_gbps and gpu_send_gbps_per_block (only together), send_overlap_loads.
     */
    public static final java.util.List<String> KEYS = java.util.stream.Stream.concat(STREAM_KEYS.stream(),
            java.util.stream.Stream.of("l2_bytes", "l2_miss_factor", "channel_load", "send_overlap", "gpu_send_gbps", "gpu_send_gbps_per_block",
                    "send_overlap_loads")).toList();

    /** Index of {@code gpu_send_gbps} in {@link #KEYS} and {@link #toArray()}. */
    public static final int GPU_SEND = 9;

    /** Index of {@code send_overlap_loads} in {@link #KEYS} and {@link #toArray()}. */
    public static final int OVERLAP_LOADS = 11;

    /** Whether the send overlap is narrowed from all local work ({@code sendOverlapLoads} below 1). */
    public boolean narrowsOverlap() {
        return sendOverlapLoads != ALL_LOCAL_WORK;
    }
}
