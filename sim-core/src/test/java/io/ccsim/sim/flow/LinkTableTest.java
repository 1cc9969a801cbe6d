package io.ccsim.sim.flow;

import io.ccsim.sim.Sharing;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The link table: constraints per sharing, direction capacities C or C x e, and its checks. */
class LinkTableTest {
    private static final double C = 1e11;

    @Test
    void eachSharingHasItsConstraints() {
        LinkTable t = new LinkTable();
        int fd = t.add("fd", C, Sharing.FULL_DUPLEX);
        int sh = t.add("sh", 2 * C, Sharing.SHARED);
        int fp = t.add("fp", 3 * C, Sharing.FAT_PIPE);
        assertThat(t.count()).isEqualTo(3);
        // FULL_DUPLEX: one shared constraint per direction, id = hop
        assertThat(t.forward(fd)).isNotSameAs(t.reverse(fd));
        assertThat(t.forward(fd).id).isEqualTo(FlowNetwork.hop(fd, false));
        assertThat(t.reverse(fd).id).isEqualTo(FlowNetwork.hop(fd, true));
        assertThat(t.direction(FlowNetwork.hop(fd, true))).isSameAs(t.reverse(fd));
        // SHARED: one shared constraint for both directions; FAT_PIPE: one per-flow bound; id = link << 1
        assertThat(t.forward(sh)).isSameAs(t.reverse(sh));
        assertThat(t.forward(sh).shared).isTrue();
        assertThat(t.forward(sh).id).isEqualTo(sh << 1);
        assertThat(t.forward(fp)).isSameAs(t.reverse(fp));
        assertThat(t.forward(fp).shared).isFalse();
        assertThat(t.forward(fp).capacity).isEqualTo(3 * C);
        assertThat(t.name(sh)).isEqualTo("sh");
        assertThat(t.sharing(fp)).isEqualTo(Sharing.FAT_PIPE);
        assertThat(t.duplexEfficiency(fd)).isEqualTo(1.0);
    }

    @Test
    void aDirectionHasCTimesEWhileTheOppositeOneIsBusy() {
        LinkTable t = new LinkTable();
        int l = t.add("nvl", C, Sharing.FULL_DUPLEX);
        int fwd = FlowNetwork.hop(l, false);
        int rev = FlowNetwork.hop(l, true);
        assertThat(t.hasDuplexLimit(t.forward(l))).isFalse();
        assertThat(t.leastCapacity(l)).isEqualTo(C);
        t.setDuplexEfficiency(l, 0.5);
        assertThat(t.hasDuplexLimit(t.forward(l))).isTrue();
        assertThat(t.leastCapacity(l)).isEqualTo(C * 0.5);
        assertThat(t.directionCapacity(fwd)).isEqualTo(C); // the opposite direction is idle
        t.reverse(l).size = 1; // a flow in its bandwidth phase the other way
        assertThat(t.directionCapacity(fwd)).isEqualTo(C * 0.5);
        assertThat(t.directionCapacity(rev)).isEqualTo(C);
        t.setCapacity(l, 2 * C);
        assertThat(t.directionCapacity(fwd)).isEqualTo(2 * C * 0.5);
        assertThat(t.forward(l).capacity).as("constraints are re-derived by the network").isEqualTo(C);
    }

    @Test
    void checksNameTheLinkAndWhatIsValid() {
        LinkTable t = new LinkTable();
        int sh = t.add("pcie", C, Sharing.SHARED);
        int fd = t.add("nvl", C, Sharing.FULL_DUPLEX);
        assertThatThrownBy(() -> t.add("x", -1, Sharing.SHARED)).hasMessageContaining("addLink 'x'")
                .hasMessageContaining("finite and >= 0 bytes/s, was -1.0");
        assertThatThrownBy(() -> t.add("x", Double.POSITIVE_INFINITY, Sharing.SHARED)).hasMessageContaining("finite");
        assertThatThrownBy(() -> t.add(null, C, Sharing.SHARED)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> t.add("x", C, null)).hasMessageContaining("sharing must not be null for link 'x'");
        assertThatThrownBy(() -> t.check("capacity", 2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("capacity: link index 2 out of range; valid is 0..1 (2 links)");
        assertThatThrownBy(() -> t.checkDuplexEfficiency(sh, 0.5)).hasMessageContaining("'pcie'")
                .hasMessageContaining("only a FULL_DUPLEX link");
        assertThatThrownBy(() -> t.checkDuplexEfficiency(fd, 0)).hasMessageContaining("must be in (0, 1], was 0.0");
        assertThatThrownBy(() -> t.checkDuplexEfficiency(fd, Double.NaN)).hasMessageContaining("must be in (0, 1]");
        t.checkDuplexEfficiency(fd, 1.0);
        assertThat(t.count()).isEqualTo(2);
    }

    @Test
    void growsPastItsInitialArrays() {
        LinkTable t = new LinkTable();
        for (int i = 0; i < 100; i++) {
            assertThat(t.add("l" + i, i, Sharing.values()[i % 3])).isEqualTo(i);
        }
        for (int i = 0; i < 100; i++) {
            assertThat(t.capacity(i)).isEqualTo(i);
            assertThat(t.forward(i).link).isEqualTo(i);
        }
    }
}
