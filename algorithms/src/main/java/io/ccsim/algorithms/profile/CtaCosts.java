package io.ccsim.algorithms.profile;

/**
 * What one thread block (one channel's worker) spends per byte of data on each memory stream a step
 * touches, for one protocol (JSON {@code sim.cta.<protocol>}, optional; see {@link SimCosts#cta()}).
 *
 * <p>A step's primitive decides its streams: it reads a receive slot per receive peer ({@code recv}),
 * reads the rank's input ({@code src}), writes the rank's output ({@code dst}), writes the slot of each
 * send peer ({@code send}, over the link), and combines values when it reduces ({@code reduce}). The
 * block's time per byte is (before the overlap below) the sum of the costs of its streams, so its data rate is
 * {@code 1 / (recv·nRecv + src·[reads input] + dst·[writes output] + send·nSend + reduce·[reduces])}.
 * This is how a latency-bound copy loop behaves: each stream adds its loads or stores to every
 * iteration. Measured on ccsim's own kernels (4 × H200, LL, 16 channels, 16 MiB): fitted by least squares
 * on the ring and chain collectives of n = 2 and 4 (gpu-backend/results/h200x4/timing.json), these five
 * numbers predict all ten (op, n) groups' steady-state times within 9 % — a single per-channel limit cannot,
 * because all-gather (copy-send + recv) and reduce-scatter (reduce-send + reduce-copy) touch different
 * streams and a 2-rank ring spends half its steps receiving where a 4-rank ring spends a quarter.
 *
 * <p>The costs are per byte of data (before the protocol's wire efficiency), in ns per KiB (1 KiB = 1024 B):
 * 100 ns/KiB ≈ 10.24 GB/s.
 *
 * @param recvNsPerKiB   reading one receive slot
 * @param srcNsPerKiB    reading the rank's input buffer
 * @param dstNsPerKiB    writing the rank's output buffer
 * @param sendNsPerKiB   writing one send peer's slot
 * <p>The rank's own buffers are cheaper to read and write while they fit in the GPU's L2 cache (CUDA-graph
 * replays of one call touch the same buffers again): measured on 2 × H200 (gpu-backend/results/h200x2,
 * LL, 16 channels), broadcast reaches 98 GB/s at 16 MiB and 74-75 GB/s from 32 MiB on, a step between a
 * working set of 32 and 64 MiB per GPU. So the {@code src} and {@code dst} costs are multiplied by
 * {@code 1 + (l2MissFactor - 1)(1 - h)}, with the fraction that hits {@code h = 1 / (1 + (W / l2Bytes)^8)} for a
 * working set of W bytes per GPU (the call's input plus output buffer): about 1 below l2Bytes, 0 above
 * (a smooth step, so that a fit can move l2Bytes).
 *
 * <p>A block is slower when more blocks run beside it on the GPU (its loads and stores queue behind theirs):
 * measured on 2 and 4 × H200 (gpu-backend/results/h200x4-fidelity, ccsim's own ring all-reduce at 512 MiB), one
 * channel's work takes 9–17 % longer at 16 channels than at 4 with Simple and LL128 (LL: 1–2 %, its flag polling
 * dominates). So every cost is multiplied by {@code 1 + channelLoad × (channels − 1)} for a call that runs
 * {@code channels} thread blocks per GPU (0 = no such effect).
 *
 * <p>The link-side work overlaps the block's local work in part: a block's stores to a peer's slot over NVLink
 * are posted (nothing waits for them) while its loads and local stores go on. So with {@code local} the recv, src,
 * dst and reduce costs and {@code remote} the send costs of a step, its time per byte is
 * {@code local + remote − sendOverlap × min(local, remote)}: 0 is the plain sum above, 1 the larger of the two.
 * Measured on ccsim's kernels (gpu-backend/results/h200x4-fidelity, 2 × H200, Simple, 16 channels, from 32 MiB): a
 * 2-rank broadcast, whose root copy-sends (src + dst + send), and a 2-rank reduce, whose peer sends (src + send),
 * run at the same 274–281 GB/s, where the plain sum made the broadcast 15 % slower than the reduce (the extra
 * dst store is hidden behind the NVLink stores). Fitted with the other costs (KernelFit): Simple 0.53, LL128 0.38, LL
 * about 0 (0.0013: the all-block refit left it at its search bound); Simple 0.35 once refitted with the send limit
 * below, 0.19 once Simple's receive-only steps lost the fence cost (session 20): at 512 MiB the 2-rank broadcast and
 * reduce now both run at the send limit, and the costs added without either would make the ratio 1.12.
 *
 * <p>What the link-side work overlaps can be narrowed to the local stores: with {@code sendOverlapLoads} = k the
 * overlapped part is {@code min(dst + k × (local − dst), remote)}, where dst is the step's output-store cost (0 if it
 * writes no output). k = 1 (the default) is the form above; k = 0 hides the NVLink stores only behind the output
 * stores, so a step that loads (recv, src) and sends but writes no output pays its send in full. Why: ccsim's LL128
 * kernels at n = 4, 16 channels, 512 MiB (gpu-backend/results/h200x4-fidelity) give per-step times, from the ring
 * and chain collectives (all-gather, reduce-scatter, all-reduce, broadcast, reduce: sums and maxima of their steps),
 * of about 152 µs per MiB per block for recvReduceCopy, 161 for recvReduceSend and 165 for recvReduceCopySend: the
 * reduce-send costs what the reduce-copy does, and adding a send to a reduce-copy costs almost nothing. With k = 1
 * the overlap made the reduce-send the cheapest of the three (the send hid behind the two loads), and the 4-rank
 * reduce-scatter, two of whose four steps reduce-send, ran 7-8 % fast from 32 MiB. A warp's loads wait for their
 * data; its stores are posted, and two stores of the same registers (output and peer slot) share the wait.
 * Refitted with k = 0 (KernelFit on the LL128 blocks, session 21): LL128's overlap 0.52 of min(dst, send); a free k
 * stays at its search bound, 1e-3. The 4-rank reduce-scatter from 32 MiB is 5-6 % fast instead of 7-8 %.
 *
 * <p>The GPU's thread blocks share what its SMs can store over NVLink ({@code gpuSendGbps} &gt; 0; 0 = no such
 * limit): every flow a rank's blocks send over NVLink crosses one more flow-network constraint per rank and call,
 * of capacity {@code gpuSendGbps + gpuSendGbpsPerBlock × B} GB/s of the protocol's wire bytes, where B counts the
 * blocks that send on the rank: per channel with work there, its lanes with a step that sends (at least one). So a
 * tree's middle rank, whose up and down lanes both send, counts two per channel where its root and leaf count one
 * (an all-to-all one: its send lane goes round the peers in turn). Being a constraint, it binds only while the blocks
 * send at once, where a per-block multiplier ({@code channelLoad}) slows them all the time. Measured on ccsim's Simple
 * kernels at n = 4 (gpu-backend/results/h200x4-channels, all-reduce 256 MiB busbw by channels 4, 8, 12, 16, 24, 32, 48, 64: 74.8,
 * 139.5, 195.8, 256.2, 274.8, 294.0, 311.4, 329.8 GB/s): the GPU's total grows almost linearly to 16 blocks and by
 * ~1.5 GB/s per block after; a tree's middle rank at 16 channels (32 sending blocks) moves 274 GB/s each way,
 * as the ring does at 32 blocks, while at 64 channels (128 blocks) it reaches 323 GB/s, near the NVLink limit;
 * and at 1-16 MiB, where its up and down lanes take turns, the 16- and 64-channel trees take about the same time.
 * Fitted with the Simple costs (KernelFit): 293.8 + 0.88 × B GB/s, so 308 GB/s at 16 blocks and 322 at 32, while
 * the lone block got faster (send 32.5 → 24.3 ns/KiB) and the per-block load smaller (channel_load 0.018 → 0.012);
 * refitted in session 20 (receive-only steps without the fence cost, {@link SimProtocolCosts#recvStepOverheadNs}):
 * 308.4 + 0.84 × B GB/s, send 20.1 ns/KiB, channel_load 0.0097.
 *
 * @param reduceNsPerKiB combining the inputs (once per step that reduces)
 * @param l2Bytes        the working set per GPU, bytes, at which half the buffer traffic misses L2 (&gt; 0)
 * @param l2MissFactor   how much dearer src and dst bytes are when they miss L2 (&ge; 1; 1 = no cache effect)
 * @param channelLoad    how much dearer every byte is per other thread block of the call on the GPU (&ge; 0)
 * @param sendOverlap    the fraction of the shorter of the local and the link-side work that overlaps the other ([0, 1])
 * @param gpuSendGbps    GB/s (wire bytes) that a rank's sending blocks share, before the per-block term (0 = no limit)
 * @param gpuSendGbpsPerBlock GB/s more per sending block (&ge; 0)
 * @param sendOverlapLoads how much of the local loads (recv, src, reduce) the link-side work overlaps, relative to the
 *                       output stores ([0, 1]; 1 = all local work, the form without it)
 */
public record CtaCosts(double recvNsPerKiB, double srcNsPerKiB, double dstNsPerKiB, double sendNsPerKiB,
                       double reduceNsPerKiB, double l2Bytes, double l2MissFactor, double channelLoad, double sendOverlap,
                       double gpuSendGbps, double gpuSendGbpsPerBlock, double sendOverlapLoads) {

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
