package io.ccsim.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.ccsim.sim.Sharing;
import java.util.List;
import org.junit.jupiter.api.Test;

class ModelTest {

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
        assertThatThrownBy(() -> new Flap(0, 10, 5, 2)).hasMessageContaining("periodPs must be >= durationPs");
        assertThatThrownBy(() -> new Node("g", NodeKind.GPU, -1, 0)).hasMessageContaining("host must be >= 0");
    }

    @Test
    void flapSchedule() {
        Flap f = new Flap(1000, 100, 500, 3); // down [1000,1100), [1500,1600), [2000,2100)
        assertThat(f.isDownAt(999)).isFalse();
        assertThat(f.isDownAt(1000)).isTrue();
        assertThat(f.isDownAt(1099)).isTrue();
        assertThat(f.isDownAt(1100)).isFalse();
        assertThat(f.isDownAt(1550)).isTrue();
        assertThat(f.isDownAt(2099)).isTrue();
        assertThat(f.isDownAt(2500)).isFalse();
    }

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
    void builderValidation() {
        assertThatThrownBy(() -> Topology.builder("t", 0).node(new Node("a", NodeKind.GPU, 0, 0))
                .node(new Node("a", NodeKind.GPU, 0, 1)).build()).hasMessageContaining("duplicate node id 'a'");
        assertThatThrownBy(() -> Topology.builder("t", 0).node(new Node("a", NodeKind.GPU, 0, 0))
                .link(l("x", "a", "zz", 1, 1)).build()).hasMessageContaining("missing node 'zz'");
        assertThatThrownBy(() -> Topology.builder("t", 0).node(new Node("a", NodeKind.GPU, 0, 0))
                .node(new Node("b", NodeKind.GPU, 0, 1)).link(l("x", "a", "b", 1, 1)).link(l("x", "b", "a", 1, 1))
                .build()).hasMessageContaining("duplicate link id 'x'");
        assertThatThrownBy(() -> Topology.builder("t", 0).node(new Node("a", NodeKind.GPU, 0, 0))
                .node(new Node("b", NodeKind.GPU, 0, 1)).link(l("x", "a", "b", 1, 1)).link(l("y", "b", "a", 1, 1))
                .stripedGroup("g", List.of("x", "y")).build()).hasMessageContaining("same node (endpoint a)");
    }

    @Test
    void unknownIdsAreNamed() {
        Topology t = TopologyCatalog.build("hgx-h200");
        assertThatThrownBy(() -> t.node("n0.gpu9")).hasMessageContaining("no node 'n0.gpu9'");
        assertThatThrownBy(() -> t.link("nope")).hasMessageContaining("no link 'nope'");
    }
}
