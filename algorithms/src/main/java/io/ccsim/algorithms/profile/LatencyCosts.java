package io.ccsim.algorithms.profile;

import java.util.Map;

/**
 * Latency constants of one (algorithm, protocol) pair, NCCL's {@code baseLatencies[a][p]} and
 * {@code hwLatencies[hw][a][p]} (src/graph/tuning.cc, ncclTunerConstantsDefaults).
 *
 * @param baseLatencyUs fixed cost of one collective call, µs, finite, ≥ 0 (NCCL baseLat; includes the kernel launch)
 * @param hopLatencyUs  latency of one pipeline step (hop) over each link class, µs, finite, ≥ 0 (NCCL hwLat);
 *                      holds all three {@link LinkClass}es
 */
public record LatencyCosts(double baseLatencyUs, Map<LinkClass, Double> hopLatencyUs) {

    public LatencyCosts {
        if (!(baseLatencyUs >= 0) || Double.isInfinite(baseLatencyUs)) {
            throw new IllegalArgumentException("baseLatencyUs must be finite and >= 0, got " + baseLatencyUs);
        }
        hopLatencyUs = Profiles.completeLinkMap(hopLatencyUs, "hopLatencyUs");
    }

    /** Convenience constructor with hop latencies for NVLink, PCIe and network, in µs. */
    public LatencyCosts(double baseLatencyUs, double nvlinkUs, double pcieUs, double netUs) {
        this(baseLatencyUs, Profiles.linkMap(nvlinkUs, pcieUs, netUs));
    }

    /** Latency of one hop over {@code linkClass}, µs. */
    public double hopLatencyUs(LinkClass linkClass) { return hopLatencyUs.get(linkClass); }
}
