package io.ccsim.sim.flow;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Per-direction accounting: bytes = sum of rate x time, settled when a rate changes; rates back to 0 when idle. */
class LinkTrafficTest {
    private static final long PS = 1_000_000_000_000L;

    @Test
    void bytesAreRateTimesTimeThroughRateChanges() {
        LinkTraffic t = new LinkTraffic();
        t.addLink(0, 0);
        int[] route = {0};
        t.join(route);
        t.changeRate(route, 1e9, 1, 0); // 1 GB/s from 0
        assertThat(t.rate(0)).isEqualTo(1e9);
        assertThat(t.bytes(0, PS / 1000)).isEqualTo(1e6); // 1 ms
        t.join(route);
        t.changeRate(route, 5e8, 2, PS / 1000); // a second flow standing for 2, at 0.5 GB/s each, from 1 ms
        assertThat(t.rate(0)).isEqualTo(2e9);
        assertThat(t.bytes(0, 3 * PS / 1000)).isEqualTo(1e6 + 2e9 * 2e-3); // 2 ms more at 2 GB/s
        assertThat(t.bytes(1, 3 * PS / 1000)).as("the other direction").isZero();
        // the second flow leaves at 3 ms, counted 10 B per replica beyond its size: taken back
        t.leave(route, 5e8, 2, 10, 3 * PS / 1000);
        assertThat(t.rate(0)).isEqualTo(1e9);
        assertThat(t.bytes(0, 3 * PS / 1000)).isEqualTo(1e6 + 2e9 * 2e-3 - 20);
        t.leave(route, 1e9, 1, 0, 4 * PS / 1000);
        assertThat(t.rate(0)).as("exactly 0 once idle").isZero();
        assertThat(t.bytes(0, 9 * PS / 1000)).isEqualTo(1e6 + 2e9 * 2e-3 - 20 + 1e6);
    }

    @Test
    void aHopListedTwiceCountsTwiceAndARoundingRemainderIsClamped() {
        LinkTraffic t = new LinkTraffic();
        t.addLink(0, 0);
        t.addLink(40, 0); // grows
        int[] twice = {81, 81};
        t.join(twice);
        t.join(new int[] {81});
        t.changeRate(twice, 0.1, 1, 0);
        t.changeRate(new int[] {81}, 0.2, 1, 0);
        assertThat(t.rate(81)).isEqualTo(0.1 + 0.1 + 0.2);
        t.leave(twice, 0.3, 1, 0, 0); // more than it added: 0.4 - 0.3 - 0.3 < 0
        assertThat(t.rate(81)).isZero();
        t.leave(new int[] {81}, 0.2, 1, 0, 0);
        assertThat(t.rate(81)).isZero();
    }
}
