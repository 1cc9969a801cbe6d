package io.ccsim.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Study files in YAML: the same study as its JSON twin, and errors naming the file, the line and the path. */
class StudyYamlTest {
    private static final Path FIXTURES = Path.of("src", "test", "resources", "golden", "fixtures");

    private static List<String> points(SweepSpec s) {
        return SweepPlanner.points(s).stream().map(p -> p.toJson().toString()).toList();
    }

    @Test
    void theYamlTwinOfAJsonStudyGivesTheSamePointsInTheSameOrder() throws IOException {
        String json = Files.readString(FIXTURES.resolve("sweep-rail3.json"), StandardCharsets.UTF_8);
        String yaml = Files.readString(FIXTURES.resolve("sweep-rail3.yaml"), StandardCharsets.UTF_8);
        List<String> fromJson = points(SweepSpec.parse(json, "s.json"));
        // 2 ops x 2 sizes x (healthy + 2 cables of rail 3) x 2 NCCL_ALGO
        assertThat(fromJson).hasSize(2 * 2 * 3 * 2);
        assertThat(points(SweepSpec.parse(yaml, "s.yaml"))).isEqualTo(fromJson);
    }

    @Test
    void scalarsTakeYamlsTypesAndSizesStayStrings() {
        String yaml = "topology: hgx-h200\ngpus: [2, 4]\noversubscription: 1.0\nsharp: false\nops: all_reduce\n"
                + "sizes: {min: 1K, max: 4K, factor: 2}\nenv: {NCCL_MIN_NCHANNELS: 4}\nseeds: [0, 7]\n";
        String json = "{\"topology\": \"hgx-h200\", \"gpus\": [2, 4], \"oversubscription\": 1.0, \"sharp\": false,"
                + " \"ops\": \"all_reduce\", \"sizes\": {\"min\": \"1K\", \"max\": \"4K\", \"factor\": 2},"
                + " \"env\": {\"NCCL_MIN_NCHANNELS\": 4}, \"seeds\": [0, 7]}";
        assertThat(points(SweepSpec.parse(yaml, "s.yml"))).isEqualTo(points(SweepSpec.parse(json, "s.json"))).hasSize(2 * 2 * 3);
    }

    @Test
    void aBadValueNamesTheFileItsLineAndItsPath() {
        String yaml = "topology: hgx-h200\nops: all_reduce\nsizes: 1M\ngpus:\n  - 2\n  - -1\n";
        assertThatThrownBy(() -> SweepSpec.parse(yaml, "study.yaml")).isInstanceOf(UserException.class)
                .hasMessage("study.yaml:6: $.gpus[1]: invalid -1; valid: an integer >= 0 (0: the board's)");
        String whatIf = "topology: hgx-h100\nnodes: 2\nops: all_reduce\nsizes: 1M\nwhat_if:\n  - {}\n  - each: \"n*\"\n    factr: 0.1\n";
        assertThatThrownBy(() -> SweepSpec.parse(whatIf, "w.yaml")).hasMessageStartingWith("w.yaml:8: $.what_if[1].factr: unknown key");
    }

    @Test
    void aMissingKeyPointsAtTheDocument() {
        assertThatThrownBy(() -> SweepSpec.parse("# a study\ntopology: hgx-h200\nops: all_reduce\n", "m.yaml"))
                .hasMessage("m.yaml:2: $.sizes: missing; a study needs topology, ops and sizes");
    }

    @Test
    void syntaxErrorsDuplicateKeysAndNonMappingsAreRefusedWithTheirLine() {
        assertThatThrownBy(() -> SweepSpec.parse("topology: hgx-h200\nops: [all_reduce\nsizes: 1M\n", "x.yaml"))
                .isInstanceOf(UserException.class).hasMessageStartingWith("x.yaml:").hasMessageContaining("not YAML");
        assertThatThrownBy(() -> SweepSpec.parse("topology: hgx-h200\nops: all_reduce\nsizes: 1M\nops: all_gather\n", "d.yaml"))
                .hasMessage("d.yaml:4: $.ops: given twice; give each key once");
        assertThatThrownBy(() -> SweepSpec.parse("- topology\n- ops\n", "l.yaml"))
                .hasMessageStartingWith("l.yaml:1: $: a study is an object (JSON) or a mapping (YAML)");
        assertThatThrownBy(() -> SweepSpec.parse("", "e.yaml")).hasMessageStartingWith("e.yaml: empty");
        // a global tag naming a class is refused by the reader itself (SnakeYAML 2's default), never constructed
        assertThatThrownBy(() -> SweepSpec.parse("topology: !!javax.script.ScriptEngineManager [x]\nops: a\nsizes: 1\n", "t.yaml"))
                .isInstanceOf(UserException.class).hasMessageStartingWith("t.yaml:1: not YAML: Global tag is not allowed");
    }

    @Test
    void sweepRunsAYamlStudyAsItsJsonTwin(@TempDir Path dir) throws IOException {
        String yaml = "topology: hgx-h200\ngpus: 2\nops: [all_reduce]\nsizes: [1M]\nenv:\n  NCCL_PROTO: [LL, Simple]\n";
        Path y = dir.resolve("s.yaml");
        Files.writeString(y, yaml);
        Path j = dir.resolve("s.json");
        Files.writeString(j, "{\"topology\": \"hgx-h200\", \"gpus\": 2, \"ops\": [\"all_reduce\"], \"sizes\": [\"1M\"],"
                + " \"env\": {\"NCCL_PROTO\": [\"LL\", \"Simple\"]}}");
        CliTest.Result fromYaml = CliTest.run("sweep", y.toString(), "--format", "jsonl", "--jobs", "1");
        CliTest.Result fromJson = CliTest.run("sweep", j.toString(), "--format", "jsonl", "--jobs", "1");
        assertThat(fromYaml.code()).as(fromYaml.err()).isZero();
        assertThat(fromYaml.out()).isEqualTo(fromJson.out());
        assertThat(fromYaml.out().lines()).hasSize(2);
    }
}
