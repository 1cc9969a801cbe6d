package io.ccsim.algorithms.profile;

import java.util.Map;

/**
 * What the SimExecutor charges for one protocol (LL, LL128, Simple) of one algorithm family (ring, tree,
 * point-to-point; see {@link SimCosts}). These are ccsim's own model parameters,
 * fitted to measurements; the Tuner never reads them (it keeps NCCL's constants in
 * {@link CalibrationProfile#protocols()}).
 *
 * @param launchLatencyUs  time from a rank's kernel launch to its first step, µs (the fixed cost of a
 *                         call as the simulator sees it: launch, setup, first flag poll)
 * @param stepOverheadNs   cost of one step per send connection, ns: flag write, the peer's poll, fence;
 *                         the latency phase of the step's first flow
 * @param hopLatencyUs     time for data (or a credit) to become visible one hop away, per link class, µs
 * @param maxChannelBwGbps per-channel throughput limit of the protocol's threads in GB/s (1 GB = 1e9 B) of
 *                         wire bytes (before the protocol's data efficiency)
 * @param pipelineBytes    forwarding unit, bytes of data: a step of B bytes moves as ceil(B / pipelineBytes)
 *                         sub-transfers in order, and the next rank may start on sub-transfer j as soon as
 *                         it has arrived (cut-through at this granularity); ≥ 1
 */
public record SimProtocolCosts(double launchLatencyUs, double stepOverheadNs, Map<LinkClass, Double> hopLatencyUs,
                               double maxChannelBwGbps, long pipelineBytes) {

    public SimProtocolCosts {
        Profiles.requireNonNegative(launchLatencyUs, "launchLatencyUs");
        Profiles.requireNonNegative(stepOverheadNs, "stepOverheadNs");
        hopLatencyUs = Profiles.completeLinkMap(hopLatencyUs, "hopLatencyUs");
        Profiles.requirePositive(maxChannelBwGbps, "maxChannelBwGbps");
        if (pipelineBytes < 1) throw new IllegalArgumentException("pipelineBytes must be >= 1 byte, got " + pipelineBytes);
    }

    /** Latency of one hop over {@code linkClass}, µs. */
    public double hopLatencyUs(LinkClass linkClass) { return hopLatencyUs.get(linkClass); }

    /** The launch and hop latencies as a {@link LatencyCosts} (its base = this launch latency). */
    public LatencyCosts latencies() { return new LatencyCosts(launchLatencyUs, hopLatencyUs); }

    /** A copy with other latencies. */
    public SimProtocolCosts withLatencies(double launchUs, Map<LinkClass, Double> hopUs) {
        return new SimProtocolCosts(launchUs, stepOverheadNs, hopUs, maxChannelBwGbps, pipelineBytes);
    }

    /** A copy with another step overhead, ns. */
    public SimProtocolCosts withStepOverheadNs(double ns) {
        return new SimProtocolCosts(launchLatencyUs, ns, hopLatencyUs, maxChannelBwGbps, pipelineBytes);
    }

    /** A copy with another per-channel limit, GB/s. */
    public SimProtocolCosts withMaxChannelBwGbps(double gbps) {
        return new SimProtocolCosts(launchLatencyUs, stepOverheadNs, hopLatencyUs, gbps, pipelineBytes);
    }

    /** A copy with another forwarding unit, bytes. */
    public SimProtocolCosts withPipelineBytes(long bytes) {
        return new SimProtocolCosts(launchLatencyUs, stepOverheadNs, hopLatencyUs, maxChannelBwGbps, bytes);
    }
}
