package io.ccsim.topology;

import static io.ccsim.topology.LinkTest.l;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class TopologyTest {

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
        assertThatThrownBy(() -> Topology.builder(" ", 0)).hasMessage("topology name must be non-blank");
        assertThatThrownBy(() -> Topology.builder("t", 0).stripedGroup("", List.of()))
                .hasMessage("topology 't': group id must be non-blank");
    }

    @Test
    void unknownIdsAreNamed() {
        Topology t = TopologyCatalog.build("hgx-h200");
        assertThatThrownBy(() -> t.node("n0.gpu9")).hasMessageContaining("no node 'n0.gpu9'");
        assertThatThrownBy(() -> t.link("nope")).hasMessageContaining("no link 'nope'");
        assertThatThrownBy(() -> t.group("nope")).hasMessage("topology 'hgx-h200' has no link group 'nope'");
        assertThatThrownBy(() -> t.route(0, t.nodes().size(), 0)).hasMessageStartingWith("node index out of range");
    }

    @Test
    void aPlainGroupIsFoundByItsLinkIdAStripeMemberIsNot() {
        Topology t = TopologyCatalog.build("hgx-h200");
        assertThat(t.group("n0.cpu0~n0.cpu1").members()).extracting(Link::id).containsExactly("n0.cpu0~n0.cpu1");
        assertThatThrownBy(() -> t.group("n0.gpu0~n0.nvs0")).hasMessageContaining("no link group");
        assertThat(t.groupOf("n0.gpu0~n0.nvs0").id()).isEqualTo("n0.gpu0.nvl");
    }

    @Test
    void equalTopologiesHaveEqualContentNotIdentity() {
        Topology a = TopologyCatalog.build("pcie-8gpu");
        Topology b = TopologyCatalog.build("pcie-8gpu");
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a.withLinkHealth("n0.cpu0~n0.cpu1", LinkHealth.degraded(0.5))).isNotEqualTo(a);
        assertThat(a.hosts()).isEqualTo(1);
        // 2 CPUs + 4 switches + 4 NICs + 8 GPUs; 1 UPI + 4 switch uplinks + 4 NIC + 8 GPU links, each its group
        assertThat(a.toString()).isEqualTo("Topology[pcie-8gpu, 18 nodes, 17 links, 17 groups]");
    }

    @Test
    void indexedAdjacencyIsNeighboursByIndex() {
        Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 2));
        int checked = 0;
        for (int v = 0; v < t.nodes().size(); v++) {
            Node n = t.nodes().get(v);
            List<Link> ns = t.neighbours(n.id());
            assertThat(t.degree(v)).isEqualTo(ns.size());
            for (int i = 0; i < ns.size(); i++) {
                int li = t.neighbourLink(v, i);
                Link l = t.links().get(li);
                assertThat(l).isSameAs(ns.get(i));
                assertThat(t.nodes().get(t.linkA(li)).id()).isEqualTo(l.a());
                assertThat(t.nodes().get(t.otherEnd(li, v)).id()).isEqualTo(l.other(n.id()));
                assertThat(t.fabric().get(t.groupIndexOfLink(li))).isSameAs(t.groupOf(l.id()));
                checked++;
            }
        }
        assertThat(checked).isEqualTo(2 * t.links().size());
    }
}
