package io.ccsim.algorithms.fit;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.SimCosts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The parameter blocks of a fit, in the order they are fitted each round: those of an NCCL fit ({@link #nccl}) and
 * those of a fit of ccsim's own kernels ({@link #kernel}). Which optional parameters a block holds follows the profile:
 * a protocol's cache effect, shared send limit, narrowed send overlap and receive-only step overhead are fitted only
 * where the profile has them.
 */
final class FitBlocks {
    private FitBlocks() {}

    /**
     * Smallest forwarding unit a kernel fit may choose, bytes. ccsim's kernels forward LL/LL128 per line, and
     * unsynchronised channels pipeline a Simple chain across channels on a shared link (one channel's hop 2
     * overlaps another's hop 1), which the folded, synchronised channels of the simulation only show with a
     * unit below the step size. The NCCL fit keeps 64 KiB (its profile runs the 1,024-GPU scale case).
     */
    static final double KERNEL_MIN_PIPELINE_BYTES = 4096.0;

    /**
     * Smallest forwarding unit of an NCCL fit by default, bytes: the built-in profiles run the 1,024-GPU scale
     * case (Ring/Simple), whose simulation cost grows with the sub-transfers per step (see
     * {@link FitParameter#sim(SimCosts.Family, Protocol)}).
     */
    static final double NCCL_MIN_PIPELINE_BYTES = 65536.0;

    /** Protocols the Tuner picks for send/recv and all-to-all on the NCCL fixtures. */
    static final List<Protocol> P2P_PROTOCOLS = List.of(Protocol.LL, Protocol.SIMPLE);

    /**
     * The blocks of a fit of ccsim's own kernels, whose profile has {@code sim.cta} costs for every protocol: every
     * family's launch latency first, together, on the rows below 1 MiB; per protocol the thread block's stream costs on
     * every row of that protocol (one kernel runs every family); per family and protocol the latencies and the
     * forwarding unit; then NVLink and duplex efficiency.
     *
     * @param base the profile to fit, or null for the block names only
     */
    static List<FitBlock> kernel(CalibrationProfile base) {
        List<FitBlock> b = new ArrayList<>();
        // the launch latencies first, on the rows below 1 MiB (where they weigh most, and which simulate fast): a
        // profile fitted without its timing's graph launch costs (sim.graph_launch_us) carries them in its
        // latencies, differently per family
        List<FitParameter> lat = new ArrayList<>();
        for (SimCosts.Family f : SimCosts.Family.values()) {
            for (Protocol p : Protocol.values()) lat.add(FitParameter.sim(f, p, KERNEL_MIN_PIPELINE_BYTES, false, false).get(0));
        }
        b.add(new FitBlock("launch", lat, r -> r.bytes() < (1L << 20)));
        // the streams next: they set every large row, which the latencies barely move
        for (Protocol p : Protocol.values()) {
            b.add(new FitBlock("cta " + p.ncclName(), cta(base, p), r -> r.forced() && r.forcedProto().get() == p));
        }
        for (SimCosts.Family f : SimCosts.Family.values()) {
            for (Protocol p : Protocol.values()) {
                b.add(new FitBlock(f.jsonName() + " " + p.ncclName(),
                        FitParameter.sim(f, p, KERNEL_MIN_PIPELINE_BYTES, false, hasRecvStepOverhead(base, f, p)),
                        r -> r.forced() && r.forcedProto().get() == p && SimCosts.Family.of(r.forcedAlgo().get(), r.op()) == f));
            }
        }
        b.add(new FitBlock("links", FitParameter.links(), r -> true));
        return b;
    }

    /**
     * The blocks of an NCCL fit of {@code profile}. For each protocol with {@code sim.cta} costs, a "cta P" block comes
     * first: the thread block's stream costs on every row that ran with protocol P (forced rows of P, default rows NCCL
     * logged with P). Then per protocol the ring and chain parameters on the forced Ring/P rows and the default rows NCCL
     * ran with Ring/P (split by op: broadcast and reduce are the chain), the tree parameters on the forced Tree/P rows,
     * the point-to-point parameters on the send/recv and all-to-all rows, and the shared parameters on all rows.
     *
     * @param minPipelineBytes per protocol, the smallest forwarding unit the fit may choose; absent protocols get
     *                         {@link #NCCL_MIN_PIPELINE_BYTES}
     */
    static List<FitBlock> nccl(CalibrationProfile profile, Map<Protocol, Double> minPipelineBytes) {
        List<FitBlock> b = new ArrayList<>();
        for (Protocol p : Protocol.values()) {
            if (profile.sim().ctaOf(p) == null) continue;
            b.add(new FitBlock("cta " + p.ncclName(), cta(profile, p),
                    r -> r.forced() ? r.forcedProto().get() == p : r.ncclProto().orElse(null) == p));
        }
        for (SimCosts.Family f : List.of(SimCosts.Family.RING, SimCosts.Family.CHAIN)) {
            for (Protocol p : Protocol.values()) {
                b.add(new FitBlock(f.jsonName() + " " + p.ncclName(), sim(profile, f, p, minPipelineBytes),
                        r -> SimCosts.Family.of(Algorithm.RING, r.op()) == f && (r.forced()
                                ? r.forcedAlgo().get() == Algorithm.RING && r.forcedProto().get() == p
                                : r.ncclAlgo().orElse(null) == Algorithm.RING && r.ncclProto().orElse(null) == p)));
            }
        }
        for (Protocol p : Protocol.values()) {
            b.add(new FitBlock("tree " + p.ncclName(), sim(profile, SimCosts.Family.TREE, p, minPipelineBytes),
                    r -> r.forced() && r.forcedAlgo().get() == Algorithm.TREE && r.forcedProto().get() == p));
        }
        // p2p rows carry no NCCL log of the protocol: the Tuner's choice decides which protocol's costs apply;
        // forced P2P rows (the CudaExecutor's timings) name their protocol
        for (Protocol p : Protocol.values()) {
            boolean tunerPicks = P2P_PROTOCOLS.contains(p);
            b.add(new FitBlock("p2p " + p.ncclName(), sim(profile, SimCosts.Family.P2P, p, minPipelineBytes),
                    r -> r.forced() ? r.forcedAlgo().get() == Algorithm.P2P && r.forcedProto().get() == p
                            : tunerPicks && r.ncclAlgo().isEmpty()));
        }
        b.add(new FitBlock("shared", FitParameter.shared(), r -> true));
        return b;
    }

    /**
     * The family parameters of an NCCL fit. The per-channel limit stays free with {@code sim.cta} costs too (a step's
     * rate is the smaller of the limit and the block's stream rate): NCCL's tree kernels run slower per byte than the
     * ring's streams predict, which the limit of the tree family absorbs.
     */
    private static List<FitParameter> sim(CalibrationProfile profile, SimCosts.Family f, Protocol p, Map<Protocol, Double> minPipelineBytes) {
        return FitParameter.sim(f, p, minPipelineBytes.getOrDefault(p, NCCL_MIN_PIPELINE_BYTES), true, hasRecvStepOverhead(profile, f, p));
    }

    private static List<FitParameter> cta(CalibrationProfile profile, Protocol p) {
        return FitParameter.cta(p, hasCacheEffect(profile, p), limitsGpuSend(profile, p), narrowsOverlap(profile, p));
    }

    /**
     * Whether protocol {@code p}'s stream costs in {@code profile} have a cache effect to fit (l2_bytes and
     * l2_miss_factor): not when its miss factor is 1 (none), or without a profile or costs (block names only).
     */
    private static boolean hasCacheEffect(CalibrationProfile profile, Protocol p) {
        return profile == null || profile.sim().ctaOf(p) == null || profile.sim().ctaOf(p).l2MissFactor() != 1.0;
    }

    /** Whether {@code profile} gives family {@code f}'s protocol {@code p} its own overhead for steps that send nothing. */
    private static boolean hasRecvStepOverhead(CalibrationProfile profile, SimCosts.Family f, Protocol p) {
        return profile != null && profile.sim().get(f, p).hasRecvStepOverhead();
    }

    /** Whether protocol {@code p}'s stream costs in {@code profile} narrow the send overlap to part of the loads. */
    private static boolean narrowsOverlap(CalibrationProfile profile, Protocol p) {
        return profile != null && profile.sim().ctaOf(p) != null && profile.sim().ctaOf(p).narrowsOverlap();
    }

    /** Whether protocol {@code p}'s stream costs in {@code profile} have the shared send limit of a GPU's blocks. */
    private static boolean limitsGpuSend(CalibrationProfile profile, Protocol p) {
        return profile != null && profile.sim().ctaOf(p) != null && profile.sim().ctaOf(p).limitsGpuSend();
    }
}
