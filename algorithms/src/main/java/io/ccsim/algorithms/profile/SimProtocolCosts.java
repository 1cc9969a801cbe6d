package io.ccsim.algorithms.profile;

import java.util.List;
import java.util.Map;

/**
 * What the simulator charges for one protocol (LL, LL128, Simple) of one algorithm family (ring, tree, point-to-point,
 * chain; see {@link SimCosts}): JSON {@code sim.<family>.<protocol>}. These are ccsim's own model parameters, fitted
 * to measurements; the Tuner never reads them (it keeps NCCL's constants in {@link CalibrationProfile#protocols()}).
 * The canonical constructor throws {@link IllegalArgumentException} naming the field of a value out of range.
 *
 * @param launchLatencyUs    time from a rank's kernel launch to its first step, µs, finite, ≥ 0: the fixed cost of a
 *                           call as the simulator sees it (launch, setup, first flag poll) (JSON
 *                           {@code launch_latency_us}, required)
 * @param stepOverheadNs     the overhead of a step that sends, ns, finite, ≥ 0: flag write, the peer's poll, fence; the
 *                           latency phase of the step's first flow ({@code step_overhead_ns}, required)
 * @param hopLatencyUs       time for data (or a credit) to become visible one hop away, per link class (every class
 *                           present), µs, finite, ≥ 0 ({@code hop_latency_us}, required)
 * @param maxChannelBwGbps   per-channel throughput limit of the protocol's threads, GB/s (1 GB = 1e9 B) of wire bytes
 *                           (before the protocol's data efficiency), finite, &gt; 0 ({@code max_channel_bw_gbps},
 *                           required)
 * @param pipelineBytes      the forwarding unit, bytes of data, ≥ 1: a step of B bytes moves as ceil(B / pipelineBytes)
 *                           sub-transfers in order, and the next rank may start on sub-transfer j as soon as it has
 *                           arrived ({@code pipeline_bytes}, required; the JSON reader takes whole numbers up to 2^40)
 * @param laneShares         per lane, the fraction of the thread block that lane gets on a (rank, channel) where more
 *                           than one lane has steps, each in (0, 1]; empty = every lane runs as if it had the whole
 *                           block ({@code lane_shares}, optional, 2 or 3 entries; default empty); see
 *                           {@link #NCCL_TREE_LL_SHARES}
 * @param recvStepOverheadNs the overhead of a step that sends nothing (receive-only or local), ns, finite, ≥ 0, or
 *                           {@link #SAME_AS_STEP} (NaN) = {@code stepOverheadNs} ({@code recv_step_overhead_ns},
 *                           optional; default {@link #SAME_AS_STEP})
 * @param registeredChannelBwGbps point-to-point Simple only: the per-channel limit of a send into the peer's registered
 *                           buffer (no FIFO, the receiver idle; {@code P2pSettings#registered}), GB/s of wire bytes,
 *                           finite, &gt; 0, or {@link #UNSET} (NaN): the profile cannot simulate registered buffers
 *                           ({@code registered_channel_bw_gbps}, optional, JSON {@code sim.p2p.Simple} only)
 */
public record SimProtocolCosts(double launchLatencyUs, double stepOverheadNs, Map<LinkClass, Double> hopLatencyUs,
                               double maxChannelBwGbps, long pipelineBytes, List<Double> laneShares, double recvStepOverheadNs,
                               double registeredChannelBwGbps) {
    /*
     * Lane shares. NCCL's tree all-reduce kernel splits one block between reduce-up (lane 0) and broadcast-down
     * (lane 1) on every non-root rank (runTreeSplit in NVIDIA/nccl src/device/all_reduce.h); ccsim's own kernels run
     * one block per (channel, lane) and set none.
     *
     * Receive-only steps. ccsim's Simple kernel fences (__threadfence_system) only before it publishes what it sent
     * (gpu-backend ccsim_prims.cu: if (nSend > 0) __threadfence_system()), and the fence is most of a sending step's
     * fixed cost. On 2 and 4 x H200 (experiments/h200x4-fidelity, Ring/Simple, 16 channels, 4 KiB),
     * all-gather and all-reduce at n = 2 and 4, with 2, 4, 6 and 12 sending steps and 2 receive-only ones each, fit
     * (least squares) a cost per sending step plus one for the launch and the two receive-only steps, which are far
     * cheaper. With one overhead for every step and the rest a hop latency, which a slice's transfer overlaps, the
     * simulated ring ramps up too early: all-reduce n = 4 at 4-16 MiB comes out 11-18 % fast.
     */

    /** {@code recvStepOverheadNs} when a step that sends nothing costs what any other step does ({@code stepOverheadNs}). */
    public static final double SAME_AS_STEP = Double.NaN;

    /** {@code registeredChannelBwGbps} of a profile without it. */
    public static final double UNSET = Double.NaN;

    /**
     * NCCL's tree split for LL and LL128: runTreeSplit (NVIDIA/nccl src/device/all_reduce.h) gives the reduce-up
     * half {@code nthreadsSplit = (nthreads*7/(10*WARP_SIZE))*WARP_SIZE} threads ("Use 70% for reduce and 30% for
     * bcast") of a block that has {@code nthreads = NCCL_MAX_NTHREADS = 640} for every tree call (src/enqueue.cc:
     * "Tree now uses all threads always"): 448 of 640 = 0.7, the broadcast-down half 192 of 640 = 0.3.
     */
    public static final List<Double> NCCL_TREE_LL_SHARES = List.of(448.0 / 640, 192.0 / 640);

    /**
     * NCCL's tree split for Simple: {@code nthreadsSplit = nthreads/2}, plus 64 when that is ≥ 256 (same source):
     * with 640 threads, 384 reduce up (0.6) and 256 broadcast down (0.4).
     */
    public static final List<Double> NCCL_TREE_SIMPLE_SHARES = List.of(384.0 / 640, 256.0 / 640);

    public SimProtocolCosts {
        Profiles.requireNonNegative(launchLatencyUs, "launchLatencyUs");
        Profiles.requireNonNegative(stepOverheadNs, "stepOverheadNs");
        hopLatencyUs = Profiles.completeLinkMap(hopLatencyUs, "hopLatencyUs");
        Profiles.requirePositive(maxChannelBwGbps, "maxChannelBwGbps");
        if (pipelineBytes < 1) throw new IllegalArgumentException("pipelineBytes must be >= 1 byte, got " + pipelineBytes);
        laneShares = List.copyOf(java.util.Objects.requireNonNull(laneShares, "laneShares"));
        if (!Double.isNaN(recvStepOverheadNs)) Profiles.requireNonNegative(recvStepOverheadNs, "recvStepOverheadNs"); // NaN: unset
        if (!Double.isNaN(registeredChannelBwGbps)) Profiles.requirePositive(registeredChannelBwGbps, "registeredChannelBwGbps");
        for (int i = 0; i < laneShares.size(); i++) {
            double v = laneShares.get(i);
            if (!(v > 0 && v <= 1)) {
                throw new IllegalArgumentException("laneShares[" + i + "] must be in (0, 1] (a fraction of the thread block), got " + v);
            }
        }
    }

    /** Costs without {@code registered_channel_bw_gbps}. */
    public SimProtocolCosts(double launchLatencyUs, double stepOverheadNs, Map<LinkClass, Double> hopLatencyUs,
                            double maxChannelBwGbps, long pipelineBytes, List<Double> laneShares, double recvStepOverheadNs) {
        this(launchLatencyUs, stepOverheadNs, hopLatencyUs, maxChannelBwGbps, pipelineBytes, laneShares, recvStepOverheadNs, UNSET);
    }

    /** Costs whose steps all pay {@code stepOverheadNs} (no {@code recv_step_overhead_ns}). */
    public SimProtocolCosts(double launchLatencyUs, double stepOverheadNs, Map<LinkClass, Double> hopLatencyUs,
                            double maxChannelBwGbps, long pipelineBytes, List<Double> laneShares) {
        this(launchLatencyUs, stepOverheadNs, hopLatencyUs, maxChannelBwGbps, pipelineBytes, laneShares, SAME_AS_STEP);
    }

    /** Costs whose lanes each run as if they had the whole block (no {@code lane_shares}). */
    public SimProtocolCosts(double launchLatencyUs, double stepOverheadNs, Map<LinkClass, Double> hopLatencyUs,
                            double maxChannelBwGbps, long pipelineBytes) {
        this(launchLatencyUs, stepOverheadNs, hopLatencyUs, maxChannelBwGbps, pipelineBytes, List.of());
    }

    /** Whether steps that send nothing have their own overhead ({@code recv_step_overhead_ns} is set). */
    public boolean hasRecvStepOverhead() {
        return !Double.isNaN(recvStepOverheadNs);
    }

    /** The overhead of a step that sends nothing, ns: {@code recvStepOverheadNs} if set, else {@code stepOverheadNs}. */
    public double recvOnlyStepOverheadNs() {
        return hasRecvStepOverhead() ? recvStepOverheadNs : stepOverheadNs;
    }

    /**
     * The share of the block lane {@code lane} gets on a (rank, channel) where several lanes have steps: 1
     * without {@code laneShares}.
     *
     * @throws IllegalArgumentException if shares are set but not for this lane
     */
    public double laneShare(int lane) {
        if (laneShares.isEmpty()) return 1.0;
        if (lane < 0 || lane >= laneShares.size()) {
            throw new IllegalArgumentException("lane " + lane + " has no share: lane_shares lists " + laneShares.size()
                    + " lanes " + laneShares);
        }
        return laneShares.get(lane);
    }

    /** A copy with other lane shares (empty: none). */
    public SimProtocolCosts withLaneShares(List<Double> shares) {
        return new SimProtocolCosts(launchLatencyUs, stepOverheadNs, hopLatencyUs, maxChannelBwGbps, pipelineBytes,
                shares, recvStepOverheadNs, registeredChannelBwGbps);
    }

    /** Latency of one hop over {@code linkClass}, µs. */
    public double hopLatencyUs(LinkClass linkClass) { return hopLatencyUs.get(linkClass); }

    /** The launch and hop latencies as a {@link LatencyCosts} (its base = this launch latency). */
    public LatencyCosts latencies() { return new LatencyCosts(launchLatencyUs, hopLatencyUs); }

    /** A copy with other latencies. */
    public SimProtocolCosts withLatencies(double launchUs, Map<LinkClass, Double> hopUs) {
        return new SimProtocolCosts(launchUs, stepOverheadNs, hopUs, maxChannelBwGbps, pipelineBytes, laneShares,
                recvStepOverheadNs, registeredChannelBwGbps);
    }

    /** A copy with another step overhead, ns. */
    public SimProtocolCosts withStepOverheadNs(double ns) {
        return new SimProtocolCosts(launchLatencyUs, ns, hopLatencyUs, maxChannelBwGbps, pipelineBytes, laneShares,
                recvStepOverheadNs, registeredChannelBwGbps);
    }

    /** A copy with another per-channel limit, GB/s. */
    public SimProtocolCosts withMaxChannelBwGbps(double gbps) {
        return new SimProtocolCosts(launchLatencyUs, stepOverheadNs, hopLatencyUs, gbps, pipelineBytes, laneShares,
                recvStepOverheadNs, registeredChannelBwGbps);
    }

    /** A copy with another forwarding unit, bytes. */
    public SimProtocolCosts withPipelineBytes(long bytes) {
        return new SimProtocolCosts(launchLatencyUs, stepOverheadNs, hopLatencyUs, maxChannelBwGbps, bytes,
                laneShares, recvStepOverheadNs, registeredChannelBwGbps);
    }

    /** Whether the costs can simulate registered point-to-point buffers ({@code registered_channel_bw_gbps} is set). */
    public boolean hasRegisteredChannelBw() {
        return !Double.isNaN(registeredChannelBwGbps);
    }

    /** A copy with another per-channel limit of a registered send, GB/s ({@link #UNSET}: none). */
    public SimProtocolCosts withRegisteredChannelBwGbps(double gbps) {
        return new SimProtocolCosts(launchLatencyUs, stepOverheadNs, hopLatencyUs, maxChannelBwGbps, pipelineBytes, laneShares,
                recvStepOverheadNs, gbps);
    }

    /** A copy with another overhead for steps that send nothing, ns ({@link #SAME_AS_STEP}: as every other step). */
    public SimProtocolCosts withRecvStepOverheadNs(double ns) {
        return new SimProtocolCosts(launchLatencyUs, stepOverheadNs, hopLatencyUs, maxChannelBwGbps, pipelineBytes,
                laneShares, ns, registeredChannelBwGbps);
    }
}
