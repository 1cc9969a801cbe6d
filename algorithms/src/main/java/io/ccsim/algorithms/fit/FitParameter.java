package io.ccsim.algorithms.fit;

import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.LatencyCosts;
import io.ccsim.algorithms.profile.LinkClass;
import io.ccsim.algorithms.profile.ProtocolCosts;
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
     * The ring parameters of protocol {@code p} that are ccsim's own (step overhead, per-channel
     * bandwidth). The ring base and hop latencies are NCCL's tuner constants (tuning.cc baseLat/hwLat)
     * and the Tuner reads them to choose (algorithm, protocol): fitting them to the simulator's timing
     * moved NCCL's default choices (agreement with NCCL's log fell from 98 % to 90 % when they were
     * free), so they stay NCCL's; see {@link #ringLatencies(Protocol)} for a fit that frees them.
     */
    public static List<FitParameter> ring(Protocol p) {
        String k = "protocols." + p.ncclName() + ".";
        List<FitParameter> l = new ArrayList<>();
        l.add(new FitParameter(k + "step_overhead_ns", 10.0, 5000.0, q -> q.protocol(p).stepOverheadNs(),
                (q, v) -> withProtocol(q, p, pc -> new ProtocolCosts(pc.baseLatencyUs(), v, pc.maxChannelBwGbps(), pc.hopLatencyUs()))));
        l.add(new FitParameter(k + "max_channel_bw_gbps", 5.0, 200.0, q -> q.protocol(p).maxChannelBwGbps(),
                (q, v) -> withProtocol(q, p, pc -> new ProtocolCosts(pc.baseLatencyUs(), pc.stepOverheadNs(), v, pc.hopLatencyUs()))));
        return l;
    }

    /** The ring base latency and NVLink hop latency of protocol {@code p} (NCCL tuner constants; see {@link #ring}). */
    public static List<FitParameter> ringLatencies(Protocol p) {
        String k = "protocols." + p.ncclName() + ".";
        return List.of(
                new FitParameter(k + "base_latency_us", 3.0, 30.0, q -> q.protocol(p).baseLatencyUs(),
                        (q, v) -> withProtocol(q, p, pc -> new ProtocolCosts(Math.max(v, q.kernelLaunchUs()), pc.stepOverheadNs(), pc.maxChannelBwGbps(), pc.hopLatencyUs()))),
                new FitParameter(k + "hop_latency_us.nvlink", 0.05, 10.0, q -> q.protocol(p).hopLatencyUs(LinkClass.NVLINK),
                        (q, v) -> withProtocol(q, p, pc -> new ProtocolCosts(pc.baseLatencyUs(), pc.stepOverheadNs(), pc.maxChannelBwGbps(), withNvlink(pc.hopLatencyUs(), v)))));
    }

    /** The tree parameters of protocol {@code p}: base latency and NVLink hop latency. */
    public static List<FitParameter> tree(Protocol p) {
        String k = "tree." + p.ncclName() + ".";
        return List.of(
                new FitParameter(k + "base_latency_us", 3.0, 30.0, q -> q.treeLatencies().get(p).baseLatencyUs(),
                        (q, v) -> withTree(q, p, new LatencyCosts(v, q.treeLatencies().get(p).hopLatencyUs()))),
                new FitParameter(k + "hop_latency_us.nvlink", 0.05, 10.0, q -> q.treeLatencies().get(p).hopLatencyUs(LinkClass.NVLINK),
                        (q, v) -> withTree(q, p, new LatencyCosts(q.treeLatencies().get(p).baseLatencyUs(), withNvlink(q.treeLatencies().get(p).hopLatencyUs(), v)))));
    }

    /** Parameters shared by every algorithm and protocol: reduce and copy throughput, NVLink efficiency. */
    public static List<FitParameter> shared() {
        return List.of(
                new FitParameter("reduce_bw_gbps", 10.0, 1000.0, CalibrationProfile::reduceBwGbps,
                        (q, v) -> new CalibrationProfile(q.gpu(), q.computeCapability(), q.kernelLaunchUs(), q.protocols(), q.treeLatencies(),
                                v, q.copyBwGbps(), q.linkEfficiency(), q.tuner(), q.fit())),
                new FitParameter("copy_bw_gbps", 10.0, 1000.0, CalibrationProfile::copyBwGbps,
                        (q, v) -> new CalibrationProfile(q.gpu(), q.computeCapability(), q.kernelLaunchUs(), q.protocols(), q.treeLatencies(),
                                q.reduceBwGbps(), v, q.linkEfficiency(), q.tuner(), q.fit())),
                new FitParameter("link_efficiency.nvlink", 0.3, 1.0, q -> q.linkEfficiency(LinkClass.NVLINK),
                        (q, v) -> new CalibrationProfile(q.gpu(), q.computeCapability(), q.kernelLaunchUs(), q.protocols(), q.treeLatencies(),
                                q.reduceBwGbps(), q.copyBwGbps(), withNvlink(q.linkEfficiency(), v), q.tuner(), q.fit())));
    }

    private static Map<LinkClass, Double> withNvlink(Map<LinkClass, Double> m, double v) {
        EnumMap<LinkClass, Double> c = new EnumMap<>(m);
        c.put(LinkClass.NVLINK, v);
        return c;
    }

    private static CalibrationProfile withProtocol(CalibrationProfile q, Protocol p, java.util.function.UnaryOperator<ProtocolCosts> f) {
        EnumMap<Protocol, ProtocolCosts> m = new EnumMap<>(q.protocols());
        m.put(p, f.apply(m.get(p)));
        return q.withProtocols(m);
    }

    private static CalibrationProfile withTree(CalibrationProfile q, Protocol p, LatencyCosts lc) {
        EnumMap<Protocol, LatencyCosts> m = new EnumMap<>(q.treeLatencies());
        m.put(p, lc);
        return new CalibrationProfile(q.gpu(), q.computeCapability(), q.kernelLaunchUs(), q.protocols(), m,
                q.reduceBwGbps(), q.copyBwGbps(), q.linkEfficiency(), q.tuner(), q.fit());
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
