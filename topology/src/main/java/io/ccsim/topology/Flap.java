package io.ccsim.topology;

/**
 * A scheduled series of link outages: the link is down during
 * {@code [startPs + k*periodPs, startPs + k*periodPs + durationPs)} for {@code k = 0..count-1}.
 *
 * @param startPs    start of the first outage, simulated picoseconds, >= 0
 * @param durationPs length of each outage in picoseconds, > 0
 * @param periodPs   time between outage starts in picoseconds, >= durationPs when count > 1
 * @param count      number of outages, >= 1
 */
public record Flap(long startPs, long durationPs, long periodPs, int count) {

    public Flap {
        if (startPs < 0) {
            throw new IllegalArgumentException("flap startPs must be >= 0, got " + startPs);
        }
        if (durationPs <= 0) {
            throw new IllegalArgumentException("flap durationPs must be > 0, got " + durationPs);
        }
        if (count < 1) {
            throw new IllegalArgumentException("flap count must be >= 1, got " + count);
        }
        if (count > 1 && periodPs < durationPs) {
            throw new IllegalArgumentException("flap periodPs must be >= durationPs (" + durationPs
                    + ") when count > 1, got " + periodPs);
        }
        if (periodPs < 0) {
            throw new IllegalArgumentException("flap periodPs must be >= 0, got " + periodPs);
        }
    }

    /** Whether the link is down at simulated time {@code timePs} because of this flap. */
    boolean isDownAt(long timePs) {
        if (timePs < startPs) {
            return false;
        }
        long since = timePs - startPs;
        long k = count == 1 || periodPs == 0 ? 0 : Math.min(since / periodPs, count - 1L);
        long offset = since - k * periodPs;
        return offset < durationPs;
    }
}
