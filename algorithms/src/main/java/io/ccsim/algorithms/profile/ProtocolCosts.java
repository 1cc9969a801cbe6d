package io.ccsim.algorithms.profile;

import java.util.Map;

/**
 * The costs of one protocol (LL, LL128, Simple) as the simulator and the tuner read them. The latency
 * constants are those of the ring algorithm (NCCL's {@code baseLatencies[RING][p]},
 * {@code hwLatencies[hw][RING][p]}); tree latencies live in {@link CalibrationProfile#treeLatencies()}.
 *
 * @param baseLatencyUs    fixed cost of one collective call in µs, NCCL's baseLat analogue. It includes
 *                         {@link CalibrationProfile#kernelLaunchUs()}: the SimExecutor charges the launch
 *                         at kernel start and {@code baseLatencyUs − kernelLaunchUs} as the remaining fixed
 *                         setup, never both in full.
 * @param stepOverheadNs   cost of one slice/step of the protocol in ns: the flag write, the peer's poll
 *                         that sees it and the memory fence (Simple), charged once per step per connection
 * @param maxChannelBwGbps per-channel throughput limit of the protocol's threads in GB/s (1 GB = 1e9 B) of
 *                         <em>wire</em> bytes, i.e. before the protocol's data efficiency (LL 0.5, LL128
 *                         0.9375) is applied
 * @param hopLatencyUs     latency of one hop (pipeline step to the next rank) per link class in µs, NCCL's
 *                         hwLat analogue
 */
public record ProtocolCosts(double baseLatencyUs, double stepOverheadNs, double maxChannelBwGbps,
                            Map<LinkClass, Double> hopLatencyUs) {

    public ProtocolCosts {
        Profiles.requireNonNegative(baseLatencyUs, "baseLatencyUs");
        Profiles.requireNonNegative(stepOverheadNs, "stepOverheadNs");
        Profiles.requirePositive(maxChannelBwGbps, "maxChannelBwGbps");
        hopLatencyUs = Profiles.completeLinkMap(hopLatencyUs, "hopLatencyUs");
    }

    /** Latency of one hop over {@code linkClass}, µs. */
    public double hopLatencyUs(LinkClass linkClass) { return hopLatencyUs.get(linkClass); }

    /** The ring latency constants of this protocol as a {@link LatencyCosts}. */
    public LatencyCosts latencies() { return new LatencyCosts(baseLatencyUs, hopLatencyUs); }
}
