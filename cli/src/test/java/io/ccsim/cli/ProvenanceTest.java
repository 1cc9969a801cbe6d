package io.ccsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every output names what produced it: the ccsim build, NCCL's modelled release, the profile and whether it is
 * calibrated, the topology, its GPU, the ranks, the hosts and the seed ({@link Provenance}), each with the values
 * of the run that wrote it.
 */
class ProvenanceTest {
    /** The provenance of a run of {@code ranks} H200 ranks on one 4-GPU board with the built-in calibrated profile. */
    private static Provenance h200x4(long seed) {
        return new Provenance(BuildInfo.current().label(), "2.28.9", "h200", true, "hgx-h200-4g", "H200", 4, 1, seed);
    }

    private static void assertProvenance(JsonObject o, Provenance expected) {
        assertThat(o.keySet()).containsAll(Provenance.COLUMNS);
        JsonObject want = expected.toJson();
        for (String k : Provenance.COLUMNS) assertThat(o.get(k)).as(k).isEqualTo(want.get(k));
    }

    @Test
    void textLineNamesEveryField() {
        assertThat(h200x4(3).text()).isEqualTo("ccsim " + BuildInfo.current().label() + ", NCCL 2.28.9 model, profile h200"
                + " (calibrated), topology hgx-h200-4g (H200), 4 ranks on 1 node(s), seed 3");
    }

    @Test
    void tuneTextCsvJsonAndTunerConfigCarryTheRunsProvenance(@TempDir Path dir) throws IOException {
        String[] base = {"tune", "--topology", "hgx-h200", "--gpus", "4", "--op", "all_reduce", "-b", "1M", "-e", "4M", "-f", "4",
                "--seed", "5"};
        Provenance p = h200x4(5);
        Path conf = dir.resolve("tuner.conf");
        CliTest.Result text = CliTest.run(concat(base, "--tuner-config", conf.toString()));
        assertThat(text.code()).as(text.err()).isZero();
        assertThat(text.out().lines()).contains("# provenance: " + p.text());
        // the plugin skips lines whose first byte is '#'
        assertThat(Files.readAllLines(conf)).contains("# provenance: " + p.text());

        CliTest.Result csv = CliTest.run(concat(base, "--format", "csv"));
        assertThat(csv.code()).as(csv.err()).isZero();
        List<CSVRecord> records = CSVFormat.DEFAULT.builder().setHeader().get().parse(new StringReader(csv.out())).getRecords();
        assertThat(records).hasSize(2);
        for (CSVRecord r : records) {
            for (int k = 0; k < Provenance.COLUMNS.size(); k++) {
                assertThat(r.get(Provenance.COLUMNS.get(k))).isEqualTo(p.csvValues().get(k));
            }
        }

        CliTest.Result json = CliTest.run(concat(base, "--format", "json"));
        assertThat(json.code()).as(json.err()).isZero();
        assertProvenance(JsonParser.parseString(json.out()).getAsJsonObject().getAsJsonObject("provenance"), p);
    }

    @Test
    void sweepRowsHoldTheProvenanceColumnsWithPerfsValues() {
        assertThat(SweepRows.COLUMNS).containsSubsequence(Provenance.COLUMNS);
        CliTest.Result sweep = CliTest.run("sweep", "--topology", "hgx-h200", "--gpus", "4", "--op", "all_gather", "-b", "1M", "-e", "1M",
                "--format", "jsonl");
        assertThat(sweep.code()).as(sweep.err()).isZero();
        JsonObject row = JsonParser.parseString(sweep.out().lines().findFirst().orElseThrow()).getAsJsonObject();
        assertThat(List.copyOf(row.keySet())).isEqualTo(SweepRows.COLUMNS);
        CliTest.Result perf = CliTest.run("perf", "--topology", "hgx-h200", "--gpus", "4", "--op", "all_gather", "-b", "1M", "-e", "1M",
                "--format", "json");
        JsonObject p = JsonParser.parseString(perf.out()).getAsJsonArray().get(0).getAsJsonObject();
        for (String k : Provenance.COLUMNS) assertThat(row.get(k)).as(k).isEqualTo(p.get(k));
    }

    @Test
    void scenarioRunNamesItsTopologyProfileWorldSizeAndSeed() {
        CliTest.Result json = CliTest.run("scenario", "run", "05-skipped-collective", "--format", "json", "--seed", "3");
        assertThat(json.code()).as(json.err()).isZero();
        JsonObject o = JsonParser.parseString(json.out()).getAsJsonObject();
        assertThat(List.copyOf(o.keySet()).get(0)).isEqualTo("provenance");
        JsonObject p = o.getAsJsonObject("provenance");
        assertThat(p.get("ranks").getAsInt()).isEqualTo(o.getAsJsonArray("ranks").size());
        assertThat(p.get("seed").getAsLong()).isEqualTo(3);
        assertThat(p.get("ccsim_version").getAsString()).isEqualTo(BuildInfo.current().label());
        assertThat(p.get("profile").getAsString()).isEqualTo(p.get("gpu").getAsString().toLowerCase(java.util.Locale.ROOT));
        // the rest of the document is the scenario's own
        assertThat(o.get("scenario").getAsString()).isEqualTo("05-skipped-collective");
        CliTest.Result text = CliTest.run("scenario", "run", "05-skipped-collective", "--seed", "3");
        assertThat(text.out()).contains("provenance: ccsim " + BuildInfo.current().label() + ", NCCL 2.28.9 model, profile "
                + p.get("profile").getAsString());
        assertThat(text.out()).contains(p.get("ranks").getAsInt() + " ranks on " + p.get("nodes").getAsInt() + " node(s), seed 3");
    }

    @Test
    void ddpTextAndJsonCarryIt() {
        String[] base = {"ddp", "--model", "mlp:L=2,d=256,tokens=256", "--tflops", "100", "--topology", "hgx-h200", "--gpus", "4",
                "--seed", "2"};
        CliTest.Result json = CliTest.run(concat(base, "--format", "json"));
        assertThat(json.code()).as(json.err()).isZero();
        assertProvenance(JsonParser.parseString(json.out()).getAsJsonObject().getAsJsonObject("provenance"), h200x4(2));
        CliTest.Result text = CliTest.run(base);
        assertThat(text.out().lines()).contains("# provenance: " + h200x4(2).text());
    }

    @Test
    void validateNamesEachCommunicatorSimulated() {
        Path measured = Path.of("src/test/resources/golden/fixtures/h100-2node-all_reduce-v2.19.txt");
        CliTest.Result r = CliTest.run("validate", "--measured", measured.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out().lines().filter(l -> l.startsWith("# provenance: ccsim " + BuildInfo.current().label()))).hasSize(1);
        assertThat(r.out()).contains("(H100), 16 ranks on 2 node(s), seed 0");
    }

    @Test
    void ncclTestsJsonKeepsItsKeysAndAddsTheProvenanceUnderCcsim(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("r.json");
        CliTest.Result r = CliTest.run("all_gather_perf", "-g", "4", "-b", "1M", "-e", "1M", "-J", f.toString());
        assertThat(r.code()).as(r.err()).isZero();
        JsonObject o = JsonParser.parseString(Files.readString(f)).getAsJsonObject();
        assertProvenance(o.getAsJsonObject("ccsim"), h200x4(0));
        JsonArray results = o.getAsJsonArray("results");
        assertThat(results.get(0).getAsJsonObject().keySet()).startsWith("size", "count", "type", "redop", "root", "out_of_place", "in_place");
        assertThat(r.out()).contains("# ccsim " + BuildInfo.current().label() + ": simulated (NCCL 2.28.9 model) on hgx-h200-4g");
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
