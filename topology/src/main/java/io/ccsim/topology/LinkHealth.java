package io.ccsim.topology;

import java.util.List;

/**
 * The health of a link, changed by faults during a run.
 *
 * @param degradeFactor fraction of the nominal bandwidth the link delivers, in (0, 1]; 1 = healthy
 * @param down          whether the link carries no traffic at all
 * @param flaps         scheduled outages (copied)
 * @param bitErrorRate  probability that a transmitted bit is flipped, in [0, 1)
 */
public record LinkHealth(double degradeFactor, boolean down, List<Flap> flaps, double bitErrorRate) {

    /** A healthy link: full rate, up, no flaps, no bit errors. */
    public static final LinkHealth HEALTHY = new LinkHealth(1.0, false, List.of(), 0.0);

    public LinkHealth {
        if (!(degradeFactor > 0.0 && degradeFactor <= 1.0)) {
            throw new IllegalArgumentException("link health degradeFactor must be in (0, 1] (1 = healthy,"
                    + " 0.1 = one tenth of the rate), got " + degradeFactor);
        }
        if (!(bitErrorRate >= 0.0 && bitErrorRate < 1.0)) {
            throw new IllegalArgumentException("link health bitErrorRate must be in [0, 1), got " + bitErrorRate);
        }
        flaps = flaps == null ? List.of() : List.copyOf(flaps);
    }

    /** A healthy link slowed to {@code factor} of its rate. */
    public static LinkHealth degraded(double factor) {
        return new LinkHealth(factor, false, List.of(), 0.0);
    }

    /** A link that is down. */
    public static LinkHealth linkDown() {
        return new LinkHealth(1.0, true, List.of(), 0.0);
    }

    /** Whether this is exactly {@link #HEALTHY}. */
    public boolean isHealthy() {
        return equals(HEALTHY);
    }
}
