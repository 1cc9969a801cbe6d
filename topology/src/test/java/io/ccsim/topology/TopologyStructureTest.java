package io.ccsim.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ccsim.sim.Sharing;
import java.util.List;
import org.junit.jupiter.api.Test;

class TopologyStructureTest {

    static Link link(String id, String a, String b, long latencyPs) {
        return new Link(id, a, b, LinkKind.PCIE, 1e9, latencyPs, Sharing.FULL_DUPLEX, 16, 4, LinkHealth.HEALTHY);
    }

    static final List<Node> NODES = List.of(new Node("sw", NodeKind.PCIE_SWITCH, 0, 0),
            new Node("h1.g0", NodeKind.GPU, 1, 0), new Node("h0.g1", NodeKind.GPU, 0, 1),
            new Node("h0.g0", NodeKind.GPU, 0, 0));
    static final List<Link> LINKS = List.of(link("l0", "h1.g0", "sw", 10), link("l1", "sw", "h0.g1", 20),
            link("l2", "h0.g0", "sw", 30));

    static TopologyStructure structure(List<Node> nodes, List<Link> links) {
        return new TopologyStructure("t", nodes, links, List.of(), List.of(), null);
    }

    @Test
    void indexesNodesAndLinksInInsertionOrder() {
        TopologyStructure s = structure(NODES, LINKS);
        assertThat(s.nodeIndex).containsEntry("sw", 0).containsEntry("h0.g0", 3);
        assertThat(s.linkIndex).containsEntry("l2", 2);
        assertThat(s.linkA).containsExactly(1, 0, 3);
        assertThat(s.linkB).containsExactly(0, 2, 0);
        assertThat(s.linkLatency).containsExactly(10, 20, 30);
        assertThat(s.groups.size()).isEqualTo(3);
    }

    @Test
    void adjacencyListsEachNodesLinksInLinkOrder() {
        TopologyStructure s = structure(NODES, LINKS);
        assertThat(s.adjStart).containsExactly(0, 3, 4, 5, 6);
        // sw touches every link; each GPU its own
        assertThat(s.adjLink).containsExactly(0, 1, 2, 0, 1, 2);
    }

    @Test
    void gpusAreInRankOrderAndHostsCountsFromZero() {
        TopologyStructure s = structure(NODES, LINKS);
        assertThat(s.gpus).extracting(Node::id).containsExactly("h0.g0", "h0.g1", "h1.g0");
        assertThat(s.hosts).isEqualTo(2);
    }

    @Test
    void duplicatesAndMissingEndpointsAreNamed() {
        assertThatThrownBy(() -> structure(List.of(NODES.get(0), NODES.get(0)), List.of()))
                .hasMessage("topology 't': duplicate node id 'sw' (nodes #0 and #1); node ids must be unique");
        assertThatThrownBy(() -> structure(NODES, List.of(LINKS.get(0), LINKS.get(0))))
                .hasMessage("topology 't': duplicate link id 'l0' (links #0 and #1); link ids must be unique");
        assertThatThrownBy(() -> structure(NODES, List.of(link("x", "sw", "gone", 1))))
                .hasMessage("topology 't': link 'x' refers to missing node 'gone'; endpoints must be ids of declared"
                        + " nodes");
    }
}
