package io.ccsim.topology;

import java.util.Arrays;
import java.util.List;

/**
 * A path through the fabric, in terms of flow-network constraints.
 *
 * @param hops      one entry per traversed {@link LinkGroup}: {@code (groupIndex << 1) | (reverse ? 1 : 0)},
 *                  where reverse means traversing the group's links from b to a; never mutate
 * @param latencyPs sum of the one-way latencies of the links on the path, picoseconds
 * @param linkIds   ids of the concrete links of the chosen path, in order (for a striped group this is the
 *                  member through the switch the route passes, one representative of the stripe)
 */
public record Route(int[] hops, long latencyPs, List<String> linkIds) {

    private static final Route LOCAL = new Route(new int[0], 0, List.of());

    public Route {
        linkIds = List.copyOf(linkIds);
    }

    /** The empty route of a transfer that stays inside one node. */
    public static Route local() {
        return LOCAL;
    }

    /** Encodes a hop. */
    public static int hop(int groupIndex, boolean reverse) {
        return (groupIndex << 1) | (reverse ? 1 : 0);
    }

    /** Group index of hop {@code i}. */
    public int groupAt(int i) {
        return hops[i] >>> 1;
    }

    /** Whether hop {@code i} traverses its group from b to a. */
    public boolean reverseAt(int i) {
        return (hops[i] & 1) != 0;
    }

    /** Number of hops. */
    public int length() {
        return hops.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Route r && r.latencyPs == latencyPs && Arrays.equals(r.hops, hops)
                && r.linkIds.equals(linkIds);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(hops) * 31 + Long.hashCode(latencyPs);
    }

    @Override
    public String toString() {
        return "Route" + linkIds + " " + latencyPs + " ps";
    }
}
