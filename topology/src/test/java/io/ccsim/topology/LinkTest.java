package io.ccsim.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.ccsim.sim.Sharing;
import java.util.List;
import org.junit.jupiter.api.Test;

class LinkTest {

    static Link l(String id, String a, String b, double bw, int lanes) {
        return new Link(id, a, b, LinkKind.NVLINK, bw, 1000, Sharing.FULL_DUPLEX, lanes, 0, LinkHealth.HEALTHY);
    }

    @Test
    void effectiveBandwidthFollowsHealth() {
        Link x = l("x", "a", "b", 100e9, 4);
        assertThat(x.effectiveBandwidth()).isEqualTo(100e9);
        assertThat(x.withHealth(LinkHealth.degraded(0.1)).effectiveBandwidth()).isCloseTo(100e9 * 0.1, within(1.0));
        assertThat(x.withHealth(LinkHealth.linkDown()).effectiveBandwidth()).isZero();
    }

    @Test
    void badValuesAreRejectedWithTheField() {
        assertThatThrownBy(() -> l("x", "a", "b", 0, 1)).hasMessageContaining("link 'x'").hasMessageContaining("> 0");
        assertThatThrownBy(() -> l("x", "a", "a", 1, 1)).hasMessageContaining("endpoints must differ");
        assertThatThrownBy(() -> new Link("x", "a", "b", LinkKind.PCIE, 1, 0, Sharing.SHARED, 16, 0, null))
                .hasMessageContaining("pcieGen must be 1..6");
        assertThatThrownBy(() -> new LinkHealth(0, false, List.of(), 0)).hasMessageContaining("(0, 1]");
        assertThatThrownBy(() -> new LinkHealth(1, false, List.of(), 1.0)).hasMessageContaining("[0, 1)");
    }

    @Test
    void latencyIsBoundedByTenMilliseconds() {
        assertThat(new Link("x", "a", "b", LinkKind.SMP, 1, Link.MAX_LATENCY_PS, Sharing.FULL_DUPLEX, 1, 0, null)
                .health()).isEqualTo(LinkHealth.HEALTHY);
        assertThatThrownBy(() -> new Link("x", "a", "b", LinkKind.SMP, 1, 10_000_000_001L, Sharing.FULL_DUPLEX, 1, 0,
                null)).hasMessageContaining("latency must be in [0, 10000000000] ps");
    }

    @Test
    void otherIsTheOppositeEndpoint() {
        Link x = l("x", "a", "b", 1, 1);
        assertThat(x.other("a")).isEqualTo("b");
        assertThat(x.other("b")).isEqualTo("a");
        assertThatThrownBy(() -> x.other("c")).hasMessage("node 'c' is not an endpoint of link 'x'");
    }
}
