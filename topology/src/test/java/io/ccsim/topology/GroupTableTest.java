package io.ccsim.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ccsim.sim.Sharing;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GroupTableTest {

    static Link link(String id, String a, String b, Sharing sharing) {
        return new Link(id, a, b, LinkKind.NVLINK, 1e9, 1000, sharing, 1, 0, LinkHealth.HEALTHY);
    }

    /** p0 (plain), g~s0, q1 (plain), g~s1: one stripe over links 1 and 3. */
    static final List<Link> LINKS = List.of(link("p0", "x", "y", Sharing.FULL_DUPLEX),
            link("g~s0", "g", "s0", Sharing.FULL_DUPLEX), link("q1", "y", "z", Sharing.FULL_DUPLEX),
            link("g~s1", "g", "s1", Sharing.FULL_DUPLEX));

    static Map<String, Integer> index(List<Link> links) {
        Map<String, Integer> m = new HashMap<>();
        for (int i = 0; i < links.size(); i++) {
            m.put(links.get(i).id(), i);
        }
        return m;
    }

    static GroupTable table(List<Link> links, List<String> ids, List<List<String>> members) {
        return GroupTable.of("t", links, index(links), ids, members, null);
    }

    @Test
    void groupsAreOrderedByTheirFirstLinkAndPlainGroupsHaveTheLinkId() {
        GroupTable t = table(LINKS, List.of("g.nvl"), List.of(List.of("g~s1", "g~s0")));
        assertThat(t.size()).isEqualTo(3);
        assertThat(t.ids).containsExactly("p0", "g.nvl", "q1");
        assertThat(t.striped).containsExactly(false, true, false);
        // a stripe keeps its declaration order
        assertThat(t.members[1]).containsExactly(3, 1);
        assertThat(t.ofLink).containsExactly(0, 1, 2, 1);
        assertThat(t.stripedIndex).containsExactly(Map.entry("g.nvl", 1));
    }

    @Test
    void withoutStripesEveryLinkIsItsOwnGroup() {
        GroupTable t = table(LINKS, List.of(), List.of());
        assertThat(t.ids).containsExactly("p0", "g~s0", "q1", "g~s1");
        assertThat(t.stripedIndex).isEmpty();
    }

    @Test
    void invalidGroupsAreNamed() {
        assertThatThrownBy(() -> table(LINKS, List.of("e"), List.of(List.of())))
                .hasMessage("topology 't': group 'e' has no members; a group needs at least one link");
        assertThatThrownBy(() -> table(LINKS, List.of("e"), List.of(List.of("nope"))))
                .hasMessage("topology 't': group 'e' names missing link 'nope'");
        assertThatThrownBy(() -> table(LINKS, List.of("e", "f"), List.of(List.of("g~s0"), List.of("g~s0"))))
                .hasMessage("topology 't': link 'g~s0' is in two groups ('e' and 'f'); a link belongs to at most one"
                        + " group");
        assertThatThrownBy(() -> table(LINKS, List.of("e"), List.of(List.of("g~s0", "p0"))))
                .hasMessageContaining("striped group 'e': every member must start at the same node (endpoint a)");
        List<Link> mixed = List.of(link("a", "g", "s0", Sharing.FULL_DUPLEX), link("b", "g", "s1", Sharing.SHARED));
        assertThatThrownBy(() -> table(mixed, List.of("e"), List.of(List.of("a", "b"))))
                .hasMessageContaining("striped group 'e': members must have the same sharing");
        assertThatThrownBy(() -> table(LINKS, List.of("p0"), List.of(List.of("g~s0"))))
                .hasMessage("topology 't': group id 'p0' is used twice (a plain link's group has the link's id); group"
                        + " ids must be unique");
        assertThatThrownBy(() -> table(LINKS, List.of("e", "e"), List.of(List.of("g~s0"), List.of("g~s1"))))
                .hasMessageContaining("group id 'e' is used twice");
    }
}
