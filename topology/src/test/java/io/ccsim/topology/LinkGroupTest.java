package io.ccsim.topology;

import static io.ccsim.topology.LinkTest.l;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.ccsim.sim.Sharing;
import java.util.List;
import org.junit.jupiter.api.Test;

class LinkGroupTest {

    @Test
    void stripedCapacityIsLanesTimesSlowestLane() {
        double lane = 26.562e9;
        List<Link> m = List.of(l("a", "g", "s0", 5 * lane, 5), l("b", "g", "s1", 4 * lane, 4),
                l("c", "g", "s2", 4 * lane, 4), l("d", "g", "s3", 5 * lane, 5));
        LinkGroup g = new LinkGroup(0, "g.nvl", m, true, Sharing.FULL_DUPLEX);
        assertThat(g.capacityBytesPerSec()).isCloseTo(18 * lane, within(1.0));
        // one member at half rate paces every lane
        List<Link> slow = List.of(m.get(0).withHealth(LinkHealth.degraded(0.5)), m.get(1), m.get(2), m.get(3));
        assertThat(new LinkGroup(0, "g", slow, true, Sharing.FULL_DUPLEX).capacityBytesPerSec())
                .isCloseTo(18 * lane * 0.5, within(1.0));
        // a down member removes its 5 lanes
        List<Link> down = List.of(m.get(0).withHealth(LinkHealth.linkDown()), m.get(1), m.get(2), m.get(3));
        assertThat(new LinkGroup(0, "g", down, true, Sharing.FULL_DUPLEX).capacityBytesPerSec())
                .isCloseTo(13 * lane, within(1.0));
        assertThatThrownBy(() -> new LinkGroup(0, "p", m, false, Sharing.FULL_DUPLEX))
                .hasMessageContaining("exactly one member");
    }

    @Test
    void liveLanesNominalCapacityAndAnchor() {
        List<Link> m = List.of(l("a", "g", "s0", 10e9, 5), l("b", "g", "s1", 4e9, 4));
        LinkGroup g = new LinkGroup(3, "g.nvl", List.of(m.get(0).withHealth(LinkHealth.linkDown()), m.get(1)), true,
                Sharing.FULL_DUPLEX);
        assertThat(g.liveLanes()).isEqualTo(4);
        // nominal ignores health: 9 lanes x min(2, 1) GB/s per lane
        assertThat(g.nominalCapacityBytesPerSec()).isEqualTo(9e9);
        assertThat(g.anchor()).isEqualTo("g");
        LinkGroup allDown = new LinkGroup(0, "x", List.of(m.get(0).withHealth(LinkHealth.linkDown())), true,
                Sharing.FULL_DUPLEX);
        assertThat(allDown.capacityBytesPerSec()).isZero();
    }
}
