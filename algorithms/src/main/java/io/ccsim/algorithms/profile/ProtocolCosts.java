package io.ccsim.algorithms.profile;

import java.util.Map;

/**
 * NCCL's constants of one protocol (LL, LL128, Simple) as the Tuner reads them. The latency
 * constants are those of the ring algorithm (NCCL's {@code baseLatencies[RING][p]},
 * {@code hwLatencies[hw][RING][p]}); tree latencies live in {@link CalibrationProfile#treeLatencies()}.
 * The SimExecutor does not read these: it has its own fitted numbers in {@link CalibrationProfile#sim()}.
 *
 * @param baseLatencyUs    fixed cost of one collective call in µs, NCCL's baseLat (includes
 *                         {@link CalibrationProfile#kernelLaunchUs()})
 * @param maxChannelBwGbps per-channel throughput limit of the protocol's threads in GB/s (1 GB = 1e9 B) of
 *                         <em>wire</em> bytes, i.e. before the protocol's data efficiency (LL 0.5, LL128
 *                         0.9375) is applied
 * @param hopLatencyUs     latency of one hop (pipeline step to the next rank) per link class in µs, NCCL's
 *                         hwLat analogue
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
