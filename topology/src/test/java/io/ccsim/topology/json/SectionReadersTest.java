package io.ccsim.topology.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.ccsim.sim.Sharing;
import io.ccsim.topology.Flap;
import io.ccsim.topology.LinkHealth;
import io.ccsim.topology.LinkKind;
import io.ccsim.topology.NodeKind;
import io.ccsim.topology.Topology;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The readers of $.nodes, $.links (with health) and $.groups, each on its own section. */
class SectionReadersTest {

    final JsonFields f = new JsonFields("s.json");

    static JsonObject json(String s) {
        return JsonParser.parseString(s).getAsJsonObject();
    }

    static final String NODES = """
            {"nodes": [{"id": "g0", "kind": "gpu", "host": 0, "local": 0, "attrs": {"model": "H200"}},
                       {"id": "s0", "kind": "nvswitch", "host": 0, "local": 0}]}""";

    @Test
    void nodesReaderAddsNodesAndReturnsTheirIds() {
        Topology.Builder b = Topology.builder("t", 0);
        Set<String> ids = NodesReader.read(json(NODES), f, b);
        assertThat(ids).containsExactlyInAnyOrder("g0", "s0");
        Topology t = b.build();
        assertThat(t.node("g0").attr("model")).isEqualTo("H200");
        assertThat(t.node("s0").kind()).isEqualTo(NodeKind.NVSWITCH);
    }

    @Test
    void nodesReaderErrors() {
        assertThatThrownBy(() -> NodesReader.read(json("{}"), f, Topology.builder("t", 0)))
                .hasMessage("s.json: $.nodes: missing required field 'nodes'");
        assertThatThrownBy(() -> NodesReader.read(json(NODES.replace("\"model\": \"H200\"", "\"model\": 1")), f,
                Topology.builder("t", 0))).hasMessage("s.json: $.nodes[0].attrs.model: expected a string, got number 1");
        // what Node itself rejects is reported at the node
        assertThatThrownBy(() -> NodesReader.read(json(NODES.replace("\"host\": 0, \"local\": 0}]",
                "\"host\": 0, \"local\": -1}]")), f, Topology.builder("t", 0)))
                .hasMessage("s.json: $.nodes[1]: node 's0': localIndex must be >= 0, got -1");
    }

    static final String LINKS = """
            {"links": [{"id": "l0", "a": "g0", "b": "s0", "kind": "nvlink", "bandwidth_gbps": 26.562,
                        "latency_ns": 0.25, "lanes": 2},
                       {"id": "l1", "a": "s0", "b": "g0", "kind": "pcie", "bandwidth_gbps": 1,
                        "latency_ns": 1, "pcie_gen": 5, "lanes": 16, "sharing": "shared",
                        "health": {"degrade": 0.5}}]}""";

    Map<String, String> readLinks(String doc, Topology.Builder b) {
        return LinksReader.read(json(doc), f, b, Set.of("g0", "s0"));
    }

    @Test
    void linksReaderConvertsUnitsAndDefaults() {
        Topology.Builder b = Topology.builder("t", 0);
        NodesReader.read(json(NODES), f, b);
        assertThat(readLinks(LINKS, b)).containsExactlyInAnyOrderEntriesOf(Map.of("l0", "g0", "l1", "s0"));
        Topology t = b.build();
        assertThat(t.link("l0").bandwidthBytesPerSecPerDirection()).isEqualTo(26.562e9);
        assertThat(t.link("l0").latencyPs()).isEqualTo(250);
        assertThat(t.link("l0").sharing()).isEqualTo(Sharing.FULL_DUPLEX);
        assertThat(t.link("l0").pcieGen()).isZero();
        assertThat(t.link("l1").kind()).isEqualTo(LinkKind.PCIE);
        assertThat(t.link("l1").sharing()).isEqualTo(Sharing.SHARED);
        assertThat(t.link("l1").health().degradeFactor()).isEqualTo(0.5);
    }

    @Test
    void linksReaderErrors() {
        assertThatThrownBy(() -> readLinks(LINKS.replace("\"latency_ns\": 0.25", "\"latency_ns\": 0.0001"),
                Topology.builder("t", 0))).hasMessage("s.json: $.links[0].latency_ns: latency must be a whole number"
                + " of picoseconds (at most 3 decimals in ns) within range, got 0.0001");
        assertThatThrownBy(() -> readLinks(LINKS.replace("\"sharing\": \"shared\"", "\"sharing\": \"half\""),
                Topology.builder("t", 0))).hasMessageStartingWith("s.json: $.links[1].sharing: unknown Sharing 'half'");
        assertThatThrownBy(() -> readLinks(LINKS.replace("\"a\": \"s0\"", "\"a\": \"x9\""), Topology.builder("t", 0)))
                .hasMessage("s.json: $.links[1].a: link 'l1' refers to missing node 'x9'; endpoints must be ids"
                        + " declared in $.nodes");
    }

    @Test
    void healthReaderReadsEveryFieldWithDefaults() {
        assertThat(HealthReader.read(json("{}"), f, "$.h")).isEqualTo(LinkHealth.HEALTHY);
        LinkHealth h = HealthReader.read(json("""
                {"degrade": 0.25, "down": true, "bit_error_rate": 1e-9,
                 "flaps": [{"start_ps": 5, "duration_ps": 10, "period_ps": 100, "count": 3}]}"""), f, "$.h");
        assertThat(h).isEqualTo(new LinkHealth(0.25, true, List.of(new Flap(5, 10, 100, 3)), 1e-9));
    }

    @Test
    void healthReaderErrors() {
        assertThatThrownBy(() -> HealthReader.read(json("{\"bit_error_rate\": 1}"), f, "$.h"))
                .hasMessage("s.json: $.h.bit_error_rate: bit_error_rate must be in [0, 1), got 1.0");
        assertThatThrownBy(() -> HealthReader.read(json("{\"down\": 1}"), f, "$.h"))
                .hasMessage("s.json: $.h.down: expected true or false, got number 1");
        assertThatThrownBy(() -> HealthReader.read(json("{\"flaps\": [{\"start_ps\": 0}]}"), f, "$.h"))
                .hasMessage("s.json: $.h.flaps[0].duration_ps: missing required field 'duration_ps'");
        assertThatThrownBy(() -> HealthReader.read(json("{\"flaps\": [{\"start_ps\": 0, \"duration_ps\": 10,"
                + " \"period_ps\": 5, \"count\": 2}]}"), f, "$.h"))
                .hasMessageStartingWith("s.json: $.h.flaps[0]: flap periodPs must be >= durationPs");
    }

    static final String GROUPS = """
            {"groups": [{"id": "g0.nvl", "members": ["l0", "l2"]}]}""";

    @Test
    void groupsReaderDeclaresStripedGroups() {
        Topology.Builder b = Topology.builder("t", 0);
        NodesReader.read(json("""
                {"nodes": [{"id": "g0", "kind": "gpu", "host": 0, "local": 0},
                           {"id": "s0", "kind": "nvswitch", "host": 0, "local": 0},
                           {"id": "s1", "kind": "nvswitch", "host": 0, "local": 1}]}"""), f, b);
        Map<String, String> linkA = LinksReader.read(json("""
                {"links": [{"id": "l0", "a": "g0", "b": "s0", "kind": "nvlink", "bandwidth_gbps": 1, "latency_ns": 1},
                           {"id": "l1", "a": "s0", "b": "s1", "kind": "nvlink", "bandwidth_gbps": 1, "latency_ns": 1},
                           {"id": "l2", "a": "g0", "b": "s1", "kind": "nvlink", "bandwidth_gbps": 1, "latency_ns": 1}]}
                """), f, b, Set.of("g0", "s0", "s1"));
        GroupsReader.read(json(GROUPS), f, b, linkA);
        Topology t = b.build();
        assertThat(t.group("g0.nvl").striped()).isTrue();
        assertThat(t.groupOf("l2").id()).isEqualTo("g0.nvl");
        assertThat(t.groupOf("l1").striped()).isFalse();
        // no groups section: nothing to declare
        GroupsReader.read(json("{}"), f, Topology.builder("t", 0), linkA);
    }

    @Test
    void groupsReaderErrors() {
        Map<String, String> linkA = Map.of("l0", "g0", "l1", "s0", "l2", "g0");
        assertThatThrownBy(() -> GroupsReader.read(json(GROUPS.replace("\"l2\"", "\"l1\"")), f,
                Topology.builder("t", 0), linkA)).hasMessage("s.json: $.groups[0].members[1]: all members of a striped"
                + " group must have the same endpoint a; 'l1' starts at 's0'");
        assertThatThrownBy(() -> GroupsReader.read(json(GROUPS.replace("\"l2\"", "\"l0\"")), f,
                Topology.builder("t", 0), linkA)).hasMessage("s.json: $.groups[0].members[1]: link 'l0' is already in"
                + " another group; a link belongs to at most one group");
        assertThatThrownBy(() -> GroupsReader.read(json(GROUPS.replace("\"g0.nvl\"", "\"l1\"")), f,
                Topology.builder("t", 0), linkA)).hasMessage("s.json: $.groups[0].id: duplicate group id 'l1'; a group"
                + " id must differ from other groups and from link ids");
        assertThatThrownBy(() -> GroupsReader.read(json(GROUPS.replace("[\"l0\", \"l2\"]", "[]")), f,
                Topology.builder("t", 0), linkA)).hasMessage("s.json: $.groups[0].members: a group needs at least one"
                + " member link id");
        assertThatThrownBy(() -> GroupsReader.read(json(GROUPS.replace("]}]}", "], \"striped\": false}]}")), f,
                Topology.builder("t", 0), linkA)).hasMessageStartingWith("s.json: $.groups[0].striped: only striped"
                + " groups are listed");
    }
}
