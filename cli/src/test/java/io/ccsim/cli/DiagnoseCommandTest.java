package io.ccsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ccsim diagnose}: the real incidents of experiments/incidents-h100x2, bad input, and --to-scenario. */
class DiagnoseCommandTest {
    private static final String REAL = "target/test-classes/experiments/incidents-h100x2/";

    @Test
    void theStarvedNcclTestsRunIsJudgedAgainstTheSimulatedBoard() {
        CliTest.Result r = CliTest.run("diagnose", "--format", "json", REAL + "nccl-tests");
        assertThat(r.code()).isZero();
        JsonObject o = JsonParser.parseString(r.out()).getAsJsonObject();
        // only the run with NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 (2.76 GB/s at 1 GiB) is below a quarter of ccsim's hgx-h100
        assertThat(o.getAsJsonArray("diagnosis")).singleElement().satisfies(d -> {
            assertThat(d.getAsJsonObject().get("category").getAsString()).isEqualTo("SLOW_LINK");
            assertThat(d.getAsJsonObject().get("summary").getAsString()).contains("all_reduce_g2_starved.txt");
        });
        assertThat(o.getAsJsonArray("evidence").get(0).toString()).contains("ccsim simulates").contains("on hgx-h100, 2 ranks");
    }

    @Test
    void aTruncatedPickleIsOneLineAndExit1(@TempDir Path dir) throws Exception {
        byte[] whole = Files.readAllBytes(Path.of(REAL + "sleep/nccl_trace_rank_0"));
        Path f = dir.resolve("nccl_trace_rank_0");
        Files.write(f, Arrays.copyOf(whole, whole.length / 3));
        CliTest.Result r = CliTest.run("diagnose", dir.toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().strip()).doesNotContain("\n").doesNotContain("Exception")
                .isEqualTo("ccsim: error: " + f + ": truncated or corrupt Python pickle (" + whole.length / 3 + " bytes); expected a"
                        + " complete PyTorch flight-recorder dump as TORCH_NCCL_DUMP_ON_TIMEOUT=1 writes it");
    }

    @Test
    void aJsonThatIsNotADumpAndAnEmptyDirectoryAreExit1(@TempDir Path dir) throws Exception {
        CliTest.Result empty = CliTest.run("diagnose", dir.toString());
        assertThat(empty.code()).isEqualTo(1);
        assertThat(empty.err()).startsWith("ccsim: error: " + dir + ": no incident files in this directory (it is empty); expected");
        Path f = dir.resolve("fr_rank0.json");
        Files.writeString(f, "{\"results\": []}");
        CliTest.Result json = CliTest.run("diagnose", f.toString());
        assertThat(json.code()).isEqualTo(1);
        assertThat(json.err().strip()).startsWith("ccsim: error: " + f + ": a JSON object that is not a flight-recorder dump")
                .doesNotContain("\n");
    }

    @Test
    void noPathIsAUsageError() {
        CliTest.Result r = CliTest.run("diagnose");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("PATH");
    }

    @Test
    void theWrittenScenarioRunsToTheSameCulprit(@TempDir Path dir) throws Exception {
        Path sc = dir.resolve("sleep-repro.json");
        CliTest.Result d = CliTest.run("diagnose", REAL + "sleep", "--to-scenario", sc.toString());
        assertThat(d.code()).isZero();
        assertThat(d.out()).contains("[MISSING_RANK] ranks 1").contains("scenario written to " + sc);
        CliTest.Result run = CliTest.run("scenario", "run", "--format", "json", sc.toString());
        assertThat(run.code()).isZero();
        JsonObject first = JsonParser.parseString(run.out()).getAsJsonObject().getAsJsonArray("diagnosis").get(0).getAsJsonObject();
        assertThat(first.get("category").getAsString()).isEqualTo("MISSING_RANK");
        assertThat(first.getAsJsonArray("ranks").get(0).getAsInt()).isEqualTo(1);
    }

    @Test
    void aScenarioCannotBeWrittenWhereNothingToReproduce(@TempDir Path dir) {
        Path sc = dir.resolve("x.json");
        CliTest.Result r = CliTest.run("diagnose", REAL + "nccl-tests/all_reduce_g2.txt", "--to-scenario", sc.toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).startsWith("ccsim: error: --to-scenario: the incident has no flight-recorder entries");
        assertThat(sc).doesNotExist();
    }
}
