package io.ccsim.topology.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Flap;
import io.ccsim.topology.LinkHealth;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import java.util.List;
import org.junit.jupiter.api.Test;

class TopologyJsonTest {

    @Test
    void roundTripEveryBuilder() {
        for (String name : TopologyCatalog.names()) {
            Topology t = TopologyCatalog.build(name);
            Topology back = TopologyJson.read(TopologyJson.write(t), name + ".json");
            assertThat(back).as(name).isEqualTo(t);
            assertThat(back.fabric()).as(name).isEqualTo(t.fabric());
        }
        Topology multi = TopologyCatalog.build("hgx-h100", new BuildOptions(4, 3, 1.0, 5));
        assertThat(TopologyJson.read(TopologyJson.write(multi), "m.json")).isEqualTo(multi);
        Topology sick = multi.withLinkHealth("n0.gpu0~n0.nvs1", new LinkHealth(0.1, false,
                List.of(new Flap(5, 10, 100, 3)), 1e-12));
        Topology back = TopologyJson.read(TopologyJson.write(sick), "s.json");
        assertThat(back).isEqualTo(sick);
        assertThat(back.link("n0.gpu0~n0.nvs1").health().degradeFactor()).isEqualTo(0.1);
    }

    static final String OK = """
            {"name": "t", "seed": 1,
             "nodes": [{"id": "g0", "kind": "gpu", "host": 0, "local": 0},
                       {"id": "g1", "kind": "gpu", "host": 0, "local": 1}],
             "links": [{"id": "l0", "a": "g0", "b": "g1", "kind": "nvlink", "bandwidth_gbps": 25,
                        "latency_ns": 300, "lanes": 1}]}
            """;

    static void fails(String json, String path, String... fragments) {
        assertThatThrownBy(() -> TopologyJson.read(json, "bad.json"))
                .isInstanceOf(TopologyFormatException.class)
                .hasMessageStartingWith("bad.json: " + path + ": ")
                .satisfies(e -> {
                    for (String f : fragments) {
                        assertThat(e.getMessage()).contains(f);
                    }
                });
    }

    @Test
    void minimalDocumentReads() {
        Topology t = TopologyJson.read(OK, "ok.json");
        assertThat(t.link("l0").bandwidthBytesPerSecPerDirection()).isEqualTo(25e9);
        assertThat(t.link("l0").latencyPs()).isEqualTo(300_000);
        assertThat(t.fabric()).hasSize(1);
    }

    @Test
    void everyValidationError() {
        fails(OK.replace("\"kind\": \"gpu\", \"host\": 0, \"local\": 1", "\"kind\": \"tpu\", \"host\": 0, \"local\": 1"),
                "$.nodes[1].kind", "unknown NodeKind 'tpu'", "nvswitch");
        fails(OK.replace("\"nvlink\"", "\"ethernet\""), "$.links[0].kind", "unknown LinkKind 'ethernet'", "infiniband");
        fails(OK.replace("\"b\": \"g1\"", "\"b\": \"g7\""), "$.links[0].b", "missing node 'g7'");
        fails(OK.replace("\"bandwidth_gbps\": 25", "\"bandwidth_gbps\": -25"), "$.links[0].bandwidth_gbps", "valid: 0.000001 (1 kB/s) to");
        fails(OK.replace("\"bandwidth_gbps\": 25", "\"bandwidth_gbps\": 0"), "$.links[0].bandwidth_gbps", "out of range");
        // a rate whose transfers never end on the picosecond clock
        fails(OK.replace("\"bandwidth_gbps\": 25", "\"bandwidth_gbps\": 1e-300"), "$.links[0].bandwidth_gbps",
                "bandwidth 1E-300 GB/s per direction is out of range");
        fails(OK.replace("\"latency_ns\": 300", "\"latency_ns\": -1"), "$.links[0].latency_ns", ">= 0");
        fails(OK.replace("\"id\": \"g1\"", "\"id\": \"g0\""), "$.nodes[1].id", "duplicate node id 'g0'");
        fails(OK.replace("\"host\": 0, \"local\": 0}", "\"local\": 0}"), "$.nodes[0].host", "missing required field");
        fails(OK.replace("\"host\": 0, \"local\": 0}", "\"host\": \"zero\", \"local\": 0}"), "$.nodes[0].host",
                "expected a number, got string");
        fails(OK.replace("\"lanes\": 1}", "\"lanes\": 1, \"health\": {\"degrade\": 1.5}}"),
                "$.links[0].health.degrade", "[1e-6, 1]");
        fails(OK.replace("\"lanes\": 1}", "\"lanes\": 1, \"health\": {\"flaps\": [{\"start_ps\": 0,"
                + " \"duration_ps\": 0, \"period_ps\": 1, \"count\": 1}]}}"), "$.links[0].health.flaps[0]",
                "durationPs must be > 0");
        fails(OK.replace("\"lanes\": 1}", "\"lanes\": 0}"), "$.links[0]", "lanes must be >= 1");
        fails(OK.replace("]}\n", "], \"groups\": [{\"id\": \"grp\", \"members\": [\"l9\"]}]}\n"),
                "$.groups[0].members[0]", "missing link 'l9'");
        fails(OK.replace("\"a\": \"g0\"", "\"a\": \"g0\"").replace("300,", "300,,"), "$", "malformed JSON",
                "line 5");
        fails("[1, 2]", "$", "expected an object");
        fails("{\"name\": \"t\",\n \"nodes\": [,], \"links\": []}", "$", "malformed JSON", "line 2");
        fails("{'name': 't', 'nodes': [], 'links': []}", "$", "malformed JSON", "line 1");
    }

    @Test
    void nonsenseThatParsesIsRefusedWithItsPath() {
        fails(OK.replace("\"seed\": 1,", "\"seed\": 1, \"seed\": 2,"), "$.seed", "key 'seed' appears twice", "line 1");
        fails(OK.replace("\"seed\": 1,", "\"seed\": 1, \"colour\": \"red\","), "$.colour", "unknown field 'colour'",
                "valid fields: [name, seed, nodes, links, groups]");
        fails(OK.replace("\"local\": 0}", "\"local\": 0, \"mem\": 1}"), "$.nodes[0].mem", "unknown field 'mem'");
        fails(OK.replace("\"lanes\": 1}", "\"lanes\": 1, \"rate\": 1}"), "$.links[0].rate", "unknown field 'rate'");
        fails(OK.replace("\"lanes\": 1}", "\"lanes\": 1, \"health\": {\"degraded\": 0.5}}"), "$.links[0].health.degraded",
                "unknown field");
        for (String mem : List.of("abc", "-1", "0", "1e9", "99999999999999999999")) {
            fails(OK.replace("\"local\": 0}", "\"local\": 0, \"attrs\": {\"memory_bytes\": \"" + mem + "\"}}"),
                    "$.nodes[0].attrs.memory_bytes", "'" + mem + "' is not a memory size", "valid: a whole number of bytes");
        }
        fails(OK.replace("\"kind\": \"gpu\", \"host\": 0, \"local\": 0", "\"kind\": \"cpu\", \"host\": 0, \"local\": 0")
                .replace("\"kind\": \"gpu\", \"host\": 0, \"local\": 1", "\"kind\": \"cpu\", \"host\": 0, \"local\": 1"),
                "$.nodes", "no node of kind gpu among 2 nodes");
        fails("{\"name\": \"e\", \"nodes\": [], \"links\": []}", "$.nodes", "no node of kind gpu among 0 nodes");
        fails(OK.replace("\"local\": 1}]", "\"local\": 1}, {\"id\": \"g2\", \"kind\": \"gpu\", \"host\": 0, \"local\": 2}]"), "$.nodes[2]",
                "GPU 'g2' is not connected to GPU 'g0'", "valid: every GPU reachable");
        fails("", "$", "the document is empty; valid: a topology object");
        fails("[".repeat(300) + "]".repeat(300), "$", "nested deeper than 64 levels");
    }

    @Test
    void duplicateLinkId() {
        String two = OK.replace("\"lanes\": 1}]", "\"lanes\": 1}, {\"id\": \"l0\", \"a\": \"g1\", \"b\": \"g0\","
                + " \"kind\": \"pcie\", \"bandwidth_gbps\": 25, \"latency_ns\": 1, \"pcie_gen\": 4, \"lanes\": 16}]");
        fails(two, "$.links[1].id", "duplicate link id 'l0'");
    }
}
