package io.ccsim.algorithms.sim;

import java.util.HashMap;

/**
 * How many connections of each colour cross a link entity each way, counted once per entity on its first use
 * (RankRefinement's quotient: a quotient connection's weight on a hop is one such count).
 */
final class CrossingCounts {
    /*
     * Why counted once. All-to-all crosses a host's NIC with a connection to every rank of every other host, so
     * reading an entity's crossings anew for each quotient connection that crosses it is quadratic in the connections
     * (62 HGX H100 nodes: minutes, in a loop that did not poll the stop).
     */
    private record Key(int entity, int direction, long colour) { }

    private final int[] linkStart;
    private final int[] linkCross;
    private final long[] connectionColours;
    private final HashMap<Key, Integer> counts = new HashMap<>();
    private final boolean[] counted;

    /**
     * @param linkStart         per link entity, the start of its crossings in {@code linkCross} (CSR, one more entry)
     * @param linkCross         crossings: connection k crossing its way as {@code k * 2 + direction}
     * @param connectionColours per connection, its colour
     */
    CrossingCounts(int[] linkStart, int[] linkCross, long[] connectionColours) {
        this.linkStart = linkStart;
        this.linkCross = linkCross;
        this.connectionColours = connectionColours;
        this.counted = new boolean[linkStart.length - 1];
    }

    /** The connections of colour {@code colour} that cross link entity {@code entity} in direction {@code direction}. */
    int of(int entity, int direction, long colour) {
        if (!counted[entity]) {
            counted[entity] = true;
            for (int x = linkStart[entity]; x < linkStart[entity + 1]; x++) {
                int cross = linkCross[x];
                counts.merge(new Key(entity, cross & 1, connectionColours[cross >>> 1]), 1, Integer::sum);
            }
        }
        return counts.getOrDefault(new Key(entity, direction, colour), 0);
    }
}
