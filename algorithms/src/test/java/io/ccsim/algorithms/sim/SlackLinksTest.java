package io.ccsim.algorithms.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.sim.Sharing;
import io.ccsim.sim.Simulator;
import io.ccsim.sim.flow.FlowNetwork;
import org.junit.jupiter.api.Test;

/**
 * A constraint is slack when the connections crossing it cannot fill it: sum over connections of flows × multiplicity
 * × times crossed × (the least of the rate cap and capacity / weight of each shared constraint on the route) stays
 * below its least capacity (C × e for a full-duplex link with a duplex limit; both directions together for a shared
 * link).
 */
class SlackLinksTest {
    private static final double G = 1e9;

    private static FlowNetwork net(double... capacities) {
        FlowNetwork n = new FlowNetwork(new Simulator(1));
        for (int i = 0; i < capacities.length; i++) n.addLink("l" + i, capacities[i], Sharing.FULL_DUPLEX);
        return n;
    }

    private static int[] hops(int... links) {
        int[] h = new int[links.length];
        for (int i = 0; i < links.length; i++) h[i] = FlowNetwork.hop(links[i], false);
        return h;
    }

    /** Link 0 (100 GB/s) is crossed by k connections capped at 20 GB/s: 4 fit (80), 5 fit exactly (100), 6 do not. */
    @Test
    void aLinkIsSlackWhileItsConnectionsCapsFitBelowItsCapacity() {
        for (int k : new int[] {4, 5, 6}) {
            FlowNetwork n = net(100 * G);
            int[][] h = new int[k][];
            int[] ones = new int[k];
            double[] cap = new double[k];
            for (int i = 0; i < k; i++) {
                h[i] = hops(0);
                ones[i] = 1;
                cap[i] = 20 * G;
            }
            // exactly full (5 x 20 = 100) may bind: only 4 is slack
            assertThat(SlackLinks.of(n, h, ones, ones, cap)[FlowNetwork.hop(0, false)]).as("%d connections", k)
                    .isEqualTo(k < 5);
            // the reverse direction carries nothing
            assertThat(SlackLinks.of(n, h, ones, ones, cap)[FlowNetwork.hop(0, true)]).isTrue();
        }
    }

    /** Without a rate cap a flow is bounded by its route: three flows whose other hop is 30 GB/s fit on 100. */
    @Test
    void withoutACapTheRoutesLeastCapacityBoundsAFlow() {
        FlowNetwork n = net(100 * G, 30 * G, 40 * G);
        int[][] h = {hops(0, 1), hops(0, 1), hops(0, 1)};
        int[] ones = {1, 1, 1};
        double[] none = {Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY};
        boolean[] s = SlackLinks.of(n, h, ones, ones, none);
        assertThat(s[FlowNetwork.hop(0, false)]).isTrue(); // 3 x min(100, 30) = 90 < 100
        assertThat(s[FlowNetwork.hop(1, false)]).isFalse(); // 3 x 30 = 90 > 30
        // through the 40 GB/s link instead: 3 x 40 = 120 > 100
        int[][] h2 = {hops(0, 2), hops(0, 2), hops(0, 2)};
        assertThat(SlackLinks.of(n, h2, ones, ones, none)[FlowNetwork.hop(0, false)]).isFalse();
    }

    /** Multiplicity and concurrent flows both multiply the load; multiplicity also divides the route bound. */
    @Test
    void multiplicityAndConcurrentFlowsCount() {
        FlowNetwork n = net(100 * G, 1000 * G);
        int[][] h = {hops(0, 1)};
        double[] cap = {30 * G};
        assertThat(SlackLinks.of(n, h, new int[] {3}, new int[] {1}, cap)[0]).isTrue(); // 3 x 30 = 90
        assertThat(SlackLinks.of(n, h, new int[] {4}, new int[] {1}, cap)[0]).isFalse(); // 4 x 30 = 120
        assertThat(SlackLinks.of(n, h, new int[] {1}, new int[] {4}, cap)[0]).isFalse(); // 4 flows x 30
        // a route crossing link 0 twice weighs twice
        int[][] twice = {new int[] {FlowNetwork.hop(0, false), FlowNetwork.hop(1, false), FlowNetwork.hop(0, false)}};
        assertThat(SlackLinks.of(n, twice, new int[] {1}, new int[] {1}, new double[] {40 * G})[0]).isTrue(); // 80
        assertThat(SlackLinks.of(n, twice, new int[] {1}, new int[] {1}, new double[] {60 * G})[0]).isFalse(); // 2 x 50
    }

    /** A duplex limit e makes C × e the capacity to fit; a shared link fits both directions together. */
    @Test
    void duplexEfficiencyAndSharedLinksAreHonoured() {
        FlowNetwork n = net(100 * G);
        n.setDuplexEfficiency(0, 0.8);
        int[][] h = {hops(0), hops(0)};
        int[] ones = {1, 1};
        assertThat(SlackLinks.of(n, h, ones, ones, new double[] {39 * G, 39 * G})[0]).isTrue(); // 78 < 80
        assertThat(SlackLinks.of(n, h, ones, ones, new double[] {41 * G, 41 * G})[0]).isFalse(); // 82 > 80

        FlowNetwork shared = new FlowNetwork(new Simulator(1));
        shared.addLink("s", 100 * G, Sharing.SHARED);
        int[][] both = {new int[] {FlowNetwork.hop(0, false)}, new int[] {FlowNetwork.hop(0, true)}};
        boolean[] s = SlackLinks.of(shared, both, ones, ones, new double[] {45 * G, 60 * G}); // 105 > 100
        assertThat(s[0]).isFalse();
        assertThat(s[1]).isFalse();
        assertThat(SlackLinks.of(shared, both, ones, ones, new double[] {45 * G, 50 * G})[1]).isTrue(); // 95

        FlowNetwork down = net(0, 100 * G);
        boolean[] d = SlackLinks.of(down, new int[][] {hops(0, 1)}, new int[] {1}, new int[] {1}, new double[] {G});
        assertThat(d[0]).as("a link that is down binds (its flows stall)").isFalse();
        assertThat(d[FlowNetwork.hop(1, false)]).as("behind it, a stalled flow loads nothing").isTrue();

        FlowNetwork fat = new FlowNetwork(new Simulator(1));
        fat.addLink("f", 100 * G, Sharing.FAT_PIPE);
        assertThat(SlackLinks.of(fat, new int[][] {hops(0)}, new int[] {1}, new int[] {1}, new double[] {G})[0])
                .as("a fat pipe is a per-flow bound, never dropped").isFalse();
    }
}
