package io.ccsim.algorithms.profile;

import java.util.Map;

/**
 * NCCL's constants of one protocol (LL, LL128, Simple) as the Tuner reads them. The latency
 * constants are those of the ring algorithm (NCCL's {@code baseLatencies[RING][p]},
 * {@code hwLatencies[hw][RING][p]}); tree latencies live in {@link CalibrationProfile#treeLatencies()}.
 * The SimExecutor does not read these: it has its own fitted numbers in {@link CalibrationProfile#sim()}.
 *
 * @param baseLatencyUs    fixed cost of one collective call, µs, finite, ≥ 0: NCCL's baseLat (includes
 *                         {@link CalibrationProfile#kernelLaunchUs()}; JSON {@code base_latency_us})
 * @param maxChannelBwGbps per-channel throughput limit of the protocol's threads, GB/s (1 GB = 1e9 B) of
 *                         <em>wire</em> bytes, i.e. before the protocol's data efficiency (LL 0.5, LL128
 *                         0.9375) is applied; finite, &gt; 0 ({@code max_channel_bw_gbps})
 * @param hopLatencyUs     latency of one hop (pipeline step to the next rank) per link class (every class present),
 *                         µs, finite, ≥ 0: NCCL's hwLat ({@code hop_latency_us})
 */
public record ProtocolCosts(double baseLatencyUs, double maxChannelBwGbps,
                            Map<LinkClass, Double> hopLatencyUs) {

    public ProtocolCosts {
        Profiles.requireNonNegative(baseLatencyUs, "baseLatencyUs");
        Profiles.requirePositive(maxChannelBwGbps, "maxChannelBwGbps");
        hopLatencyUs = Profiles.completeLinkMap(hopLatencyUs, "hopLatencyUs");
    }

    /** Latency of one hop over {@code linkClass}, µs. */
    public double hopLatencyUs(LinkClass linkClass) { return hopLatencyUs.get(linkClass); }

    /** The ring latency constants of this protocol as a {@link LatencyCosts}. */
    public LatencyCosts latencies() { return new LatencyCosts(baseLatencyUs, hopLatencyUs); }
}
