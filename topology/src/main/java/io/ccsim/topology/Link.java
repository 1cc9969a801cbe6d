package io.ccsim.topology;

import io.ccsim.sim.Sharing;
import java.util.Objects;

/**
 * An edge of the hardware graph between nodes {@code a} and {@code b}. "Forward" is a to b.
 *
 * @param id                                unique, non-blank id, e.g. {@code n0.gpu0~n0.nvs1}
 * @param a                                 id of the first endpoint
 * @param b                                 id of the second endpoint (differs from a)
 * @param kind                              link technology
 * @param bandwidthBytesPerSecPerDirection  nominal bandwidth in bytes/s per direction (all lanes), > 0, finite
 * @param latencyPs                         one-way latency in picoseconds, in [0, 10 ms = 10^10 ps]
 * @param sharing                           how the two directions share the capacity
 * @param lanes                             NVLink: number of bonded links; PCIe: width; else 1; >= 1
 * @param pcieGen                           PCIe generation 1..6 for PCIE links, 0 for every other kind
 * @param health                            current health
 */
public record Link(String id, String a, String b, LinkKind kind, double bandwidthBytesPerSecPerDirection,
                   long latencyPs, Sharing sharing, int lanes, int pcieGen, LinkHealth health) {

    /** Largest accepted one-way link latency: 10 ms in picoseconds. */
    static final long MAX_LATENCY_PS = 10_000_000_000L;

    public Link {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("link id must be a non-blank string, got '" + id + "'");
        }
        if (a == null || a.isBlank() || b == null || b.isBlank()) {
            throw new IllegalArgumentException("link '" + id + "': endpoints a and b must be non-blank node ids");
        }
        if (a.equals(b)) {
            throw new IllegalArgumentException("link '" + id + "': endpoints must differ, both are '" + a + "'");
        }
        Objects.requireNonNull(kind, () -> "link '" + id + "': kind must be one of "
                + java.util.Arrays.toString(LinkKind.values()));
        Objects.requireNonNull(sharing, () -> "link '" + id + "': sharing must be one of "
                + java.util.Arrays.toString(Sharing.values()));
        if (!(bandwidthBytesPerSecPerDirection > 0) || Double.isInfinite(bandwidthBytesPerSecPerDirection)) {
            throw new IllegalArgumentException("link '" + id + "': bandwidth must be a finite number > 0 bytes/s,"
                    + " got " + bandwidthBytesPerSecPerDirection);
        }
        if (latencyPs < 0 || latencyPs > MAX_LATENCY_PS) {
            throw new IllegalArgumentException("link '" + id + "': latency must be in [0, " + MAX_LATENCY_PS
                    + "] ps, got " + latencyPs);
        }
        if (lanes < 1) {
            throw new IllegalArgumentException("link '" + id + "': lanes must be >= 1, got " + lanes);
        }
        if (kind == LinkKind.PCIE ? (pcieGen < 1 || pcieGen > 6) : pcieGen != 0) {
            throw new IllegalArgumentException("link '" + id + "': pcieGen must be 1..6 for a PCIE link and 0"
                    + " for any other kind, got " + pcieGen + " for " + kind);
        }
        health = health == null ? LinkHealth.HEALTHY : health;
    }

    /** Bandwidth now delivered per direction in bytes/s: 0 if down, else nominal x degrade factor. */
    double effectiveBandwidth() {
        return health.down() ? 0.0 : bandwidthBytesPerSecPerDirection * health.degradeFactor();
    }

    /** This link with another health. */
    Link withHealth(LinkHealth newHealth) {
        return new Link(id, a, b, kind, bandwidthBytesPerSecPerDirection, latencyPs, sharing, lanes, pcieGen,
                newHealth);
    }

    /** This link with another nominal bandwidth per direction (all lanes), bytes/s. */
    Link withBandwidth(double bytesPerSecPerDirection) {
        return new Link(id, a, b, kind, bytesPerSecPerDirection, latencyPs, sharing, lanes, pcieGen, health);
    }

    /** The endpoint that is not {@code nodeId}. */
    public String other(String nodeId) {
        if (a.equals(nodeId)) {
            return b;
        }
        if (b.equals(nodeId)) {
            return a;
        }
        throw new IllegalArgumentException("node '" + nodeId + "' is not an endpoint of link '" + id + "'");
    }
}
