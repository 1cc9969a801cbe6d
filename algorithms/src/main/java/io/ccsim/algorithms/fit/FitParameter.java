package io.ccsim.algorithms.fit;

import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.CtaCosts;
import io.ccsim.algorithms.profile.LinkClass;
import io.ccsim.algorithms.profile.SimCosts;
import io.ccsim.algorithms.profile.SimProtocolCosts;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * One free parameter of a {@link CalibrationProfile} that {@link ProfileFitter} adjusts, with its
 * bounds in the parameter's own unit (named as in the profile JSON, e.g. {@code protocols.LL.base_latency_us}).
 *
 * @param name  the JSON path of the value
 * @param lower smallest allowed value (> 0)
 * @param upper largest allowed value
 * @param get   reads the value from a profile
 * @param set   returns a copy of a profile with the value replaced
 */
public record FitParameter(String name, double lower, double upper, ToDoubleFunction<CalibrationProfile> get, Setter set) {

    /** Replaces one value of a profile. */
    @FunctionalInterface
    public interface Setter {
        /** A copy of {@code p} with the value {@code v}. */
        CalibrationProfile apply(CalibrationProfile p, double v);
    }

    public FitParameter {
        if (!(lower > 0 && upper > lower)) {
            throw new IllegalArgumentException(name + ": bounds must satisfy 0 < lower < upper, got [" + lower + ", " + upper + "]");
        }
    }

    /**
     * The simulator parameters of protocol {@code p} in family {@code f} ({@code sim.F.P.*}): launch latency,
     * NVLink hop latency, step overhead, per-channel limit and forwarding unit. They live in the profile's
     * {@code sim} section, which the Tuner never reads, so fitting them cannot move NCCL's choices (NCCL's
     * own constants in {@code protocols}/{@code tree}/{@code tuner} stay as NCCL documents them).
     */
    public static List<FitParameter> sim(SimCosts.Family f, Protocol p) {
        return sim(f, p, 65536.0, true, false);
    }

    /**
     * As {@link #sim(SimCosts.Family, Protocol)}, with the forwarding unit's lower bound {@code minPipelineBytes},
     * the per-channel limit free or not ({@code channelCap}; with {@code sim.cta} costs the thread block's streams set
     * the rate and the limit stays where it is), and with {@code recvStepOverhead} also the overhead of a step that
     * sends nothing ({@code recv_step_overhead_ns}, in the same bounds as the step overhead; fitted only where the
     * profile sets it: {@link SimProtocolCosts#hasRecvStepOverhead}).
     */
    public static List<FitParameter> sim(SimCosts.Family f, Protocol p, double minPipelineBytes, boolean channelCap, boolean recvStepOverhead) {
        String k = "sim." + f.jsonName() + "." + p.ncclName() + ".";
        List<FitParameter> l = new ArrayList<>();
        l.add(new FitParameter(k + "launch_latency_us", 0.1, 30.0, q -> sp(q, f, p).launchLatencyUs(),
                (q, v) -> with(q, f, p, sp(q, f, p).withLatencies(v, sp(q, f, p).hopLatencyUs()))));
        l.add(new FitParameter(k + "hop_latency_us.nvlink", 0.05, 10.0, q -> sp(q, f, p).hopLatencyUs(LinkClass.NVLINK),
                (q, v) -> with(q, f, p, sp(q, f, p).withLatencies(sp(q, f, p).launchLatencyUs(), withNvlink(sp(q, f, p).hopLatencyUs(), v)))));
        l.add(new FitParameter(k + "step_overhead_ns", 10.0, 20000.0, q -> sp(q, f, p).stepOverheadNs(),
                (q, v) -> with(q, f, p, sp(q, f, p).withStepOverheadNs(v))));
        if (recvStepOverhead) {
            l.add(new FitParameter(k + "recv_step_overhead_ns", 10.0, 20000.0, q -> sp(q, f, p).recvOnlyStepOverheadNs(),
                    (q, v) -> with(q, f, p, sp(q, f, p).withRecvStepOverheadNs(v))));
        }
        if (channelCap) {
            l.add(new FitParameter(k + "max_channel_bw_gbps", 5.0, 400.0, q -> sp(q, f, p).maxChannelBwGbps(),
                    (q, v) -> with(q, f, p, sp(q, f, p).withMaxChannelBwGbps(v))));
        }
        // bounds [minPipelineBytes, 4 MiB]: the simulation cost grows with the sub-transfers per step, and at
        // scale (a 1 GiB ring all-reduce on 1,024 GPUs moves steps of ~64 KiB) a unit far below the step
        // multiplies the flows; the NCCL fixtures favour 6-8 KiB for Simple and LL, but 64 KiB already
        // gives most of the cut-through effect.
        l.add(new FitParameter(k + "pipeline_bytes", minPipelineBytes, 4194304.0, q -> sp(q, f, p).pipelineBytes(),
                (q, v) -> with(q, f, p, sp(q, f, p).withPipelineBytes(Math.round(v)))));
        return l;
    }

    /**
     * The thread-block stream costs of protocol {@code p} ({@code sim.cta.P.*}, {@link CtaCosts}), ns per KiB in
     * [0.5, 5000], and the channel load and send overlap; the profile must have them for {@code p}
     * ({@link SimCosts#withCta}). With {@code l2} also the cache effect (a protocol whose profile has none,
     * {@code l2_miss_factor} 1, keeps none: for ccsim's Simple kernel the step from 16 to 32 MiB is not in the
     * measurements, its stream costs fit without it, experiments/h200x4-fidelity); with {@code gpuSend} the
     * shared send limit and its part per block ({@link CtaCosts#limitsGpuSend}; a profile without the limit fits
     * neither); with {@code overlapLoads} the send overlap's share of the loads ({@link CtaCosts#narrowsOverlap}: fitted
     * where the profile narrows it).
     */
    public static List<FitParameter> cta(Protocol p, boolean l2, boolean gpuSend, boolean overlapLoads) {
        List<FitParameter> l = new ArrayList<>();
        for (int i = 0; i < CtaCosts.KEYS.size(); i++) {
            String key = CtaCosts.KEYS.get(i);
            if (!l2 && key.startsWith("l2_")) continue;
            if (!gpuSend && (i == CtaCosts.GPU_SEND || i == CtaCosts.GPU_SEND + 1)) continue;
            if (!overlapLoads && i == CtaCosts.OVERLAP_LOADS) continue;
            final int s = i;
            l.add(new FitParameter("sim.cta." + p.ncclName() + "." + key, CTA_LOWER[i], CTA_UPPER[i],
                    q -> ctaOf(q, p).toArray()[s], (q, v) -> q.withSim(q.sim().withCta(p, ctaOf(q, p).with(s, v)))));
        }
        return l;
    }

    /**
     * Search bounds of the {@link CtaCosts#KEYS}, in their order: the five stream costs in [0.5, 5000] ns/KiB;
     * l2_bytes in [16 MB, 256 MB]; l2_miss_factor in [1, 4]; channel_load in [1e-4, 0.1] (the search is in the
     * logarithm, so not 0; at 0.1 a block of 64 costs 7.3 x a lone one); send_overlap in [1e-3, 1] (a profile's 0 starts
     * the search at 1e-3, where it changes nothing measurable: seed it higher to let it move); gpu_send_gbps in [10, 2000] GB/s;
     * gpu_send_gbps_per_block in [1e-3, 50] GB/s; send_overlap_loads in [1e-3, 1] (as send_overlap: 1e-3 is the
     * output stores alone, to within what can be measured).
     */
    private static final double[] CTA_LOWER = {0.5, 0.5, 0.5, 0.5, 0.5, 16e6, 1.0, 1e-4, 1e-3, 10, 1e-3, 1e-3};
    private static final double[] CTA_UPPER = {5000, 5000, 5000, 5000, 5000, 256e6, 4.0, 0.1, 1.0, 2000, 50, 1.0};

    private static CtaCosts ctaOf(CalibrationProfile q, Protocol p) {
        CtaCosts c = q.sim().ctaOf(p);
        if (c == null) throw new IllegalArgumentException("profile has no sim.cta." + p.ncclName() + " costs to fit; add them first");
        return c;
    }

    /** NVLink efficiency and duplex efficiency: the shared parameters that matter when every protocol has cta costs. */
    public static List<FitParameter> links() {
        return shared().subList(2, 4);
    }

    private static SimProtocolCosts sp(CalibrationProfile q, SimCosts.Family f, Protocol p) { return q.sim().get(f, p); }

    private static CalibrationProfile with(CalibrationProfile q, SimCosts.Family f, Protocol p, SimProtocolCosts c) {
        return q.withSim(q.sim().with(f, p, c));
    }

    /** Parameters shared by every algorithm and protocol: reduce and copy throughput, NVLink efficiency and duplex efficiency. */
    public static List<FitParameter> shared() {
        return List.of(
                new FitParameter("reduce_bw_gbps", 10.0, 1000.0, CalibrationProfile::reduceBwGbps,
                        (q, v) -> q.withThroughputs(v, q.copyBwGbps(), q.linkEfficiency())),
                new FitParameter("copy_bw_gbps", 10.0, 1000.0, CalibrationProfile::copyBwGbps,
                        (q, v) -> q.withThroughputs(q.reduceBwGbps(), v, q.linkEfficiency())),
                new FitParameter("link_efficiency.nvlink", 0.3, 1.0, q -> q.linkEfficiency(LinkClass.NVLINK),
                        (q, v) -> q.withThroughputs(q.reduceBwGbps(), q.copyBwGbps(), withNvlink(q.linkEfficiency(), v))),
                // both directions of an NVLink busy vs one (sim.duplex_efficiency, SimCosts): all_gather vs
                // broadcast at n = 2 in experiments/nccl-h200 differ by 268 vs 361 GB/s per direction
                new FitParameter("sim.duplex_efficiency.nvlink", 0.5, 1.0, q -> q.sim().duplexEfficiency(LinkClass.NVLINK),
                        (q, v) -> q.withSim(q.sim().withDuplexEfficiency(LinkClass.NVLINK, v))));
    }

    private static Map<LinkClass, Double> withNvlink(Map<LinkClass, Double> m, double v) {
        EnumMap<LinkClass, Double> c = new EnumMap<>(m);
        c.put(LinkClass.NVLINK, v);
        return c;
    }

    /** {@code p} with {@code values[i]} set for {@code params.get(i)}, each clamped to its bounds. */
    public static CalibrationProfile apply(CalibrationProfile p, List<FitParameter> params, double[] values) {
        CalibrationProfile q = p;
        for (int i = 0; i < params.size(); i++) {
            FitParameter f = params.get(i);
            q = f.set().apply(q, Math.min(f.upper(), Math.max(f.lower(), values[i])));
        }
        return q;
    }

}
