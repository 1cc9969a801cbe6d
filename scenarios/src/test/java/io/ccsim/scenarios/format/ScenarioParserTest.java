package io.ccsim.scenarios.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.scenarios.Outcome;
import io.ccsim.scenarios.ScenarioFormatException;
import io.ccsim.scenarios.ScenarioResult;
import io.ccsim.scenarios.ScenarioRunner;
import org.junit.jupiter.api.Test;

/** Malformed scenario files get errors with the JSON path and what is valid; good ones parse fully. */
class ScenarioParserTest {
    private static final String OK = "{\"name\": \"x\", \"topology\": {\"name\": \"hgx-h100\"},"
            + " \"job\": {\"world_size\": 8, \"values\": {\"loss\": {\"default\": 1, \"ranks\": {\"3\": 5}}}, \"program\": ["
            + "{\"new_group\": {\"name\": \"tp\", \"block\": 4, \"eager\": true}},"
            + "{\"repeat\": {\"times\": 2, \"steps\": [{\"compute\": \"10ms\"},"
            + "  {\"collective\": {\"op\": \"all_gather\", \"group\": \"tp\", \"bytes\": \"1MiB\", \"dtype\": \"bfloat16\"}},"
            + "  {\"if\": {\"value\": \"loss\", \"ge\": 2, \"then\": [{\"barrier\": \"world\"}]}, \"ranks\": [3]},"
            + "  {\"checkpoint\": {\"duration\": \"1s\", \"every\": 2}}]}}]},"
            + " \"faults\": [{\"type\": \"link_flap\", \"link\": \"n0.gpu1~n0.nvs0\", \"at\": \"1s\", \"down_for\": \"2s\","
            + " \"up_for\": \"1s\", \"count\": 2}],"
            + " \"expect\": {\"outcome\": \"degraded\", \"diagnosis\": [{\"category\": \"LINK_FAILURE\", \"links\": [\"n0.gpu1~n0.nvs0\"]}]}}";

    private static void fails(String json, String path, String... fragments) {
        assertThatThrownBy(() -> ScenarioParser.parse(json, "f.json"))
                .isInstanceOf(ScenarioFormatException.class)
                .satisfies(e -> assertThat(((ScenarioFormatException) e).path()).isEqualTo(path))
                .hasMessageStartingWith("f.json: " + path + ": ")
                .hasMessageContainingAll(fragments);
    }

    @Test
    void parsesEveryPart() {
        Scenario s = ScenarioParser.parse(OK, "f.json");
        assertThat(s.job().worldSize()).isEqualTo(8);
        assertThat(s.job().values().get("loss")).containsExactly(1, 1, 1, 5, 1, 1, 1, 1);
        Step.NewGroup ng = (Step.NewGroup) s.job().program().get(0);
        assertThat(ng.members()).containsExactly(java.util.List.of(0, 1, 2, 3), java.util.List.of(4, 5, 6, 7));
        Step.Repeat rep = (Step.Repeat) s.job().program().get(1);
        Step.Collective c = (Step.Collective) rep.body().get(1);
        assertThat(c.op()).isEqualTo(CollectiveOp.ALL_GATHER);
        assertThat(c.dtype()).isEqualTo(DataType.BFLOAT16);
        assertThat(c.count()).isEqualTo((1 << 20) / 2);
        assertThat(rep.body().get(2).only()).containsExactly(3);
        assertThat(s.faults()).containsExactly(new Fault.LinkFlap("n0.gpu1~n0.nvs0", Units.s(1), Units.s(2), Units.s(1), 2));
        assertThat(s.expect().outcome()).isEqualTo(Outcome.DEGRADED);
    }

    @Test
    void ncclEnvIsReadWithNcclsGrammarAndCapsTheChannelsBySettings() {
        String withEnv = OK.replace("\"topology\": {\"name\": \"hgx-h100\"},",
                "\"topology\": {\"name\": \"hgx-h100\"}, \"settings\": {\"channels\": 8, \"nccl_env\": {\"NCCL_ALGO\": \"Ring\"}},");
        Settings st = ScenarioParser.parse(withEnv, "f.json").settings();
        assertThat(st.ncclEnv()).containsExactly(java.util.Map.entry("NCCL_ALGO", "Ring"));
        assertThat(st.nccl().maxChannels()).hasValue(8);
        assertThat(Settings.defaults().nccl().maxChannels()).hasValue(16);
        fails(withEnv.replace("\"Ring\"", "\"Ringo\""), "$.settings", "nccl_env", "Ringo");
        fails(withEnv.replace("\"NCCL_ALGO\"", "\"ALGO\""), "$.settings.nccl_env.ALGO", "valid: names starting with NCCL_");
        fails(withEnv.replace("\"Ring\"", "3"), "$.settings.nccl_env.NCCL_ALGO", "a string");
    }

    @Test
    void errorsNameThePathAndTheValidValues() {
        fails("{", "$", "malformed JSON at line 1 column 2: the document ends early");
        fails("", "$", "the document is empty; valid: a scenario object with fields [name, description");
        fails("// note\n" + OK, "$", "malformed JSON at line 1 column 2", "comments");
        fails(OK.replaceFirst("\"name\": ", "\"name\": \"a\", \"name\": "), "$.name", "key 'name' appears twice");
        fails("{\"name\":" + "[".repeat(255) + "]".repeat(255) + "}", "$", "nested deeper than 64 levels");
        fails(OK.replace("\"name\": \"x\",", "\"name\": \"x\", \"colour\": 1,"), "$.colour", "unknown field 'colour'", "valid fields");
        fails(OK.replace("hgx-h100", "dgx-9000"), "$.topology.name", "unknown topology 'dgx-9000'", "hgx-h200");
        fails(OK.replace("\"compute\": \"10ms\"", "\"compute\": \"10 fortnights\""), "$.job.program[1].repeat.steps[0].compute",
                "bad duration", "ps, ns, us, ms, s, min, h");
        fails(OK.replace("\"compute\": \"10ms\"", "\"computer\": \"10ms\""), "$.job.program[1].repeat.steps[0].computer",
                "unknown step kind 'computer'", "collective");
        fails(OK.replace("all_gather", "all_scatter"), "$.job.program[1].repeat.steps[1].collective.op", "unknown collective", "all_reduce");
        fails(OK.replace("\"ranks\": [3]", "\"ranks\": [8]"), "$.job.program[1].repeat.steps[2].ranks[0]", "[0, 7]");
        fails(OK.replace("\"value\": \"loss\"", "\"value\": \"gain\""), "$.job.program[1].repeat.steps[2].if.value",
                "unknown value 'gain'", "[loss]");
        fails(OK.replace("link_flap", "link_melt"), "$.faults[0].type", "unknown fault type 'link_melt'", "link_degrade");
        fails(OK.replace("\"count\": 2}", "\"count\": 0}"), "$.faults[0].count", "[1, 10000]");
        fails(OK.replace("\"block\": 4", "\"block\": 3"), "$.job.program[0].new_group.block", "must divide world_size 8");
        fails(OK.replace("\"degraded\"", "\"meh\""), "$.expect.outcome", "completed, hang, error, corrupted, degraded");
        fails(OK.replace("LINK_FAILURE", "GREMLINS"), "$.expect.diagnosis[0].category", "unknown category 'GREMLINS'", "SLOW_LINK");
        fails(OK.replace("\"world_size\": 8,", ""), "$.job.world_size", "required field is missing");
    }

    @Test
    void runTimeChecksAlsoNameTheirPath() {
        Scenario bad = ScenarioParser.parse(OK.replace("n0.gpu1~n0.nvs0\", \"at\"", "n0.gpu1~n9.nvs0\", \"at\""), "f.json");
        assertThatThrownBy(() -> ScenarioRunner.run(bad, 1)).isInstanceOf(ScenarioFormatException.class)
                .hasMessageContaining("$.faults[0]").hasMessageContaining("has no link 'n0.gpu1~n9.nvs0'");
        Scenario big = ScenarioParser.parse(OK.replace("\"world_size\": 8", "\"world_size\": 9")
                .replace("\"block\": 4", "\"block\": 3").replace("{\"3\": 5}", "{}"), "f.json");
        assertThatThrownBy(() -> ScenarioRunner.run(big, 1)).hasMessageContaining("$.job.world_size")
                .hasMessageContaining("valid: 1..8");
    }

    @Test
    void topologyFromAFileNextToTheScenario(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        String topo = io.ccsim.topology.json.TopologyJson.write(
                io.ccsim.topology.TopologyCatalog.build("hgx-h100", io.ccsim.topology.BuildOptions.of(4, 1)));
        java.nio.file.Files.writeString(dir.resolve("box.json"), topo);
        String scenario = "{\"name\": \"f\", \"topology\": {\"file\": \"box.json\"},"
                + " \"job\": {\"world_size\": 4, \"program\": [{\"barrier\": \"world\"}]}}";
        java.nio.file.Path file = dir.resolve("s.json");
        java.nio.file.Files.writeString(file, scenario);
        ScenarioResult r = ScenarioRunner.run(file, 1);
        assertThat(r.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(r.ranks()).extracting(ScenarioResult.RankSummary::gpu).containsExactly("n0.gpu0", "n0.gpu1", "n0.gpu2", "n0.gpu3");
        fails(scenario.replace("\"file\": \"box.json\"", "\"file\": \"nope.json\""), "$.topology.file", "no such file");
        fails(scenario.replace("{\"file\": \"box.json\"}", "{\"file\": \"box.json\", \"name\": \"hgx-h100\"}"), "$.topology",
                "exactly one of");
    }
}
