package io.ccsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.ccsim.sim.RunControl;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ccsim sweep: rows as perf's, provenance, what-if expansion, sampling, resume after a stop, and refusals. */
class SweepCommandTest {
    private static final String GRID = "{\"topology\": \"hgx-h200\", \"gpus\": [2, 4], \"ops\": [\"all_reduce\", \"all_gather\"],"
            + " \"sizes\": {\"min\": \"1K\", \"max\": \"16M\", \"factor\": 16}, \"env\": {\"NCCL_PROTO\": [\"LL\", \"Simple\"]}}";

    @TempDir Path dir;

    private Path spec(String json) throws IOException {
        Path p = dir.resolve("study.json");
        Files.writeString(p, json, StandardCharsets.UTF_8);
        return p;
    }

    private static List<JsonObject> rows(String jsonl) {
        List<JsonObject> out = new ArrayList<>();
        for (String l : jsonl.split("\n")) if (!l.isBlank()) out.add(JsonParser.parseString(l).getAsJsonObject());
        return out;
    }

    @Test
    void eachRowIsThePerfRowOfItsPoint() throws IOException {
        CliTest.Result r = CliTest.run("sweep", spec(GRID).toString(), "--format", "jsonl", "--jobs", "2");
        assertThat(r.code()).as(r.err()).isZero();
        List<JsonObject> rows = rows(r.out());
        assertThat(rows).hasSize(2 * 2 * 2 * 4);   // gpus x NCCL_PROTO x ops x sizes (1K to 16M by 16: 1K, 16K, 256K, 4M)
        JsonObject row = rows.stream().filter(o -> o.get("ranks").getAsInt() == 4 && o.get("op").getAsString().equals("all_gather")
                && o.get("env").getAsString().equals("NCCL_PROTO=Simple") && o.get("bytes").getAsLong() == 4 << 20).findFirst().orElseThrow();
        CliTest.Result perf = CliTest.run(Map.of("NCCL_PROTO", "Simple"), "perf", "--topology", "hgx-h200", "--gpus", "4", "--op",
                "all_gather", "-b", "4M", "-e", "4M", "--format", "json");
        JsonObject p = JsonParser.parseString(perf.out()).getAsJsonArray().get(0).getAsJsonObject();
        for (String k : List.of("time_us", "algbw_gbps", "busbw_gbps", "algo", "proto", "channels", "count")) {
            assertThat(row.get(k)).as(k).isEqualTo(p.get(k));
        }
        assertThat(row.get("topology").getAsString()).isEqualTo("hgx-h200-4g");
        assertThat(row.get("profile").getAsString()).isEqualTo("h200");
        assertThat(row.get("gpu").getAsString()).isEqualTo("H200");
        assertThat(row.get("calibrated").getAsBoolean()).isTrue();
        assertThat(row.get("nccl_model").getAsString()).isEqualTo("2.28.9");
        assertThat(row.get("events").getAsLong()).isPositive();
        Set<String> ids = new HashSet<>();
        for (JsonObject o : rows) ids.add(o.get("id").getAsString());
        assertThat(ids).hasSize(rows.size());
    }

    @Test
    void eachCableOfARailDegradedInTurnIsOnePointPerCable() throws IOException {
        String json = "{\"topology\": \"hgx-h100\", \"nodes\": 2, \"ops\": \"all_reduce\", \"sizes\": \"64M\","
                + " \"what_if\": [{}, {\"each\": \"n*.nic3~leaf*\", \"factor\": 0.1}]}";
        CliTest.Result r = CliTest.run("sweep", spec(json).toString(), "--format", "jsonl");
        assertThat(r.code()).as(r.err()).isZero();
        List<JsonObject> rows = rows(r.out());
        // rail 3: the cable of NIC 3 of each of the 2 nodes to its leaf
        assertThat(rows).hasSize(3);
        assertThat(rows.get(0).get("what_if").getAsString()).isEmpty();
        assertThat(rows.get(1).get("what_if").getAsString()).matches("--degrade n0\\.nic3~leaf\\.r3\\.\\d+=0\\.1");
        assertThat(rows.get(2).get("what_if").getAsString()).matches("--degrade n1\\.nic3~leaf\\.r3\\.\\d+=0\\.1");
        double healthy = rows.get(0).get("time_us").getAsDouble();
        assertThat(rows.get(1).get("time_us").getAsDouble()).isGreaterThan(2 * healthy);
    }

    @Test
    void aSampleIsDistinctPointsOfTheGridTheSameEveryRun() throws IOException {
        String json = GRID.substring(0, GRID.length() - 1) + ", \"sample\": {\"count\": 5, \"seed\": 7}}";
        Path s = spec(json);
        CliTest.Result a = CliTest.run("sweep", s.toString(), "--dry-run");
        assertThat(a.out()).startsWith("5 points; ");
        CliTest.Result r1 = CliTest.run("sweep", s.toString(), "--format", "jsonl");
        CliTest.Result r2 = CliTest.run("sweep", s.toString(), "--format", "jsonl", "--jobs", "1");
        assertThat(r1.out()).isEqualTo(r2.out());
        Set<String> all = new HashSet<>();
        for (JsonObject o : rows(CliTest.run("sweep", spec(GRID).toString(), "--format", "jsonl").out())) all.add(o.get("id").getAsString());
        List<JsonObject> sample = rows(r1.out());
        assertThat(sample).hasSize(5);
        for (JsonObject o : sample) assertThat(all).contains(o.get("id").getAsString());
    }

    @Test
    void aStoppedSweepKeepsItsRowsAndTheRerunAddsOnlyTheRest() throws Exception {
        Path s = spec(GRID);
        Path csv = dir.resolve("rows.csv");
        Path jsonl = dir.resolve("rows.jsonl");
        String[] args = {"sweep", s.toString(), "--out", csv.toString(), "--out", jsonl.toString(), "--jobs", "1"};
        RunControl control = new RunControl();
        Thread stopper = new Thread(() -> {
            try {
                while (!Files.exists(jsonl) || Files.readAllLines(jsonl).size() < 5) Thread.sleep(5);
            } catch (IOException | InterruptedException e) {
                return;
            }
            control.requestStop("SIGINT");
        });
        stopper.start();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(new StringWriter(), true), new PrintWriter(err, true), Map.of(),
                new Main.Session(control, false, System::nanoTime, Runtime.getRuntime().maxMemory()));
        stopper.join();
        assertThat(code).as(err.toString()).isEqualTo(130);
        int kept = Files.readAllLines(jsonl).size();
        assertThat(kept).isBetween(5, 31);
        assertThat(Files.readAllLines(csv)).hasSize(kept + 1);
        // a kill can cut the last line and leave the files one row apart: the rerun drops both
        Files.writeString(jsonl, Files.readString(jsonl) + "{\"point\":3,\"id\":\"cut", java.nio.file.StandardOpenOption.TRUNCATE_EXISTING);
        CliTest.Result rerun = CliTest.run(args);
        assertThat(rerun.code()).as(rerun.err()).isZero();
        assertThat(rerun.err()).contains("32 points: " + (32 - kept) + " simulated now, " + kept + " done before");
        CliTest.Result fresh = CliTest.run("sweep", s.toString(), "--format", "jsonl");
        assertThat(Files.readString(jsonl)).isEqualTo(fresh.out());
        CliTest.Result freshCsv = CliTest.run("sweep", s.toString());
        assertThat(Files.readString(csv)).isEqualTo(freshCsv.out());
    }

    @Test
    void aWhatIfSetMayRouteTheFabricOtherwise() throws IOException {
        // 64 hosts of one GPU on two leaves: PAT's steps cross the spines, where ECMP's hash collides and d-mod-k does not
        String json = "{\"topology\": \"hgx-h100\", \"gpus\": 1, \"nodes\": 64, \"ops\": \"all_gather\", \"sizes\": \"16M\","
                + " \"what_if\": [{}, {\"routing\": \"ecmp\"}, {\"routing\": \"dmodk\"}]}";
        CliTest.Result r = CliTest.run("sweep", spec(json).toString(), "--format", "jsonl");
        assertThat(r.code()).as(r.err()).isZero();
        List<JsonObject> rows = rows(r.out());
        assertThat(rows).hasSize(3);
        assertThat(rows.get(0).get("what_if").getAsString()).isEmpty();
        assertThat(rows.get(1).get("what_if").getAsString()).isEqualTo("--routing ecmp");
        assertThat(rows.get(2).get("what_if").getAsString()).isEqualTo("--routing dmodk");
        double fabric = rows.get(0).get("time_us").getAsDouble();
        assertThat(rows.get(2).get("time_us").getAsDouble()).as("InfiniBand's own routing is d-mod-k").isEqualTo(fabric);
        assertThat(rows.get(1).get("time_us").getAsDouble()).as("ECMP collides on spine cables").isGreaterThan(fabric);
        CliTest.Result perf = CliTest.run("perf", "--topology", "hgx-h100", "--gpus", "1", "--nodes", "64", "--op", "all_gather",
                "-b", "16M", "-e", "16M", "--routing", "ecmp", "--format", "json");
        assertThat(rows.get(1).get("time_us")).isEqualTo(JsonParser.parseString(perf.out()).getAsJsonArray().get(0)
                .getAsJsonObject().get("time_us"));
        CliTest.Result flags = CliTest.run("sweep", "--topology", "hgx-h100", "--gpus", "1", "--nodes", "64", "--op",
                "all_gather", "-b", "16M", "-e", "16M", "--routing", "ecmp", "--format", "jsonl");
        assertThat(rows(flags.out()).get(0).get("id")).as("the flag is the file's key").isEqualTo(rows.get(1).get("id"));
        CliTest.Result bad = CliTest.run("sweep", spec("{\"topology\": \"hgx-h100\", \"ops\": \"all_reduce\", \"sizes\": \"1M\","
                + " \"what_if\": [{\"routing\": \"adaptive\"}]}").toString());
        assertThat(bad.code()).isEqualTo(1);
        assertThat(bad.err()).isEqualTo("ccsim: error: " + dir.resolve("study.json") + ": $.what_if[0].routing: invalid"
                + " \"adaptive\"; valid: \"ecmp\" (a hash per connection and channel, RoCE) or \"dmodk\" (by destination,"
                + " InfiniBand; absent: the fabric's own)\n");
    }

    /**
     * sim_mode extrapolated: a point's row is perf --sim-mode extrapolated's (time, choice, law and its bound), its
     * cluster named but never built; a degraded link, which no law of the node count describes, is the point's error.
     */
    @Test
    void anExtrapolatedPointIsPerfsExtrapolatedRow() throws IOException {
        CliTest.Result r = CliTest.run("sweep", spec("{\"topology\": \"hgx-h100\", \"gpus\": 2, \"nodes\": 40, \"ops\":"
                + " \"all_gather\", \"sizes\": \"64M\", \"env\": {\"NCCL_ALGO\": \"Ring\"}, \"sim_mode\": [\"folded\","
                + " \"extrapolated\"], \"what_if\": [{}, {\"degrade\": [\"n5.nic0~*=0.5\"]}]}").toString(), "--format", "jsonl");
        assertThat(r.code()).as(r.err()).isZero();
        List<JsonObject> rows = rows(r.out());
        assertThat(rows).extracting(o -> o.get("sim_mode").getAsString() + " " + o.get("what_if").getAsString())
                .containsExactlyInAnyOrder("folded ", "extrapolated ", "folded --degrade n5.nic0~*=0.5",
                        "extrapolated --degrade n5.nic0~*=0.5");
        JsonObject ex = rows.stream().filter(o -> o.get("sim_mode").getAsString().equals("extrapolated")
                && o.get("what_if").getAsString().isEmpty()).findFirst().orElseThrow();
        CliTest.Result perf = CliTest.run(Map.of("NCCL_ALGO", "Ring"), "perf", "--topology", "hgx-h100", "--gpus", "2",
                "--nodes", "40", "--op", "all_gather", "-b", "64M", "-e", "64M", "--sim-mode", "extrapolated", "--format",
                "json");
        JsonObject p = JsonParser.parseString(perf.out()).getAsJsonArray().get(0).getAsJsonObject();
        for (String k : List.of("time_us", "algo", "proto", "channels", "count", "topology", "ranks", "nodes", "law")) {
            assertThat(ex.get(k)).as(k).isEqualTo(p.get(k));
        }
        assertThat(ex.get("error_bound_pct").getAsDouble()).isEqualTo(1.7);
        assertThat(ex.get("error").getAsString()).isEmpty();
        JsonObject folded = rows.stream().filter(o -> o.get("sim_mode").getAsString().equals("folded")
                && o.get("what_if").getAsString().isEmpty()).findFirst().orElseThrow();
        assertThat(folded.get("law").isJsonNull()).isTrue();
        assertThat(folded.get("error_bound_pct").isJsonNull()).isTrue();
        double err = ex.get("time_us").getAsDouble() / folded.get("time_us").getAsDouble() - 1;
        assertThat(100 * Math.abs(err)).isLessThanOrEqualTo(1.7);
        JsonObject degraded = rows.stream().filter(o -> o.get("sim_mode").getAsString().equals("extrapolated")
                && !o.get("what_if").getAsString().isEmpty()).findFirst().orElseThrow();
        assertThat(degraded.get("time_us").isJsonNull()).isTrue();
        assertThat(degraded.get("topology").getAsString()).isEqualTo("hgx-h100-2g-40n");
        assertThat(degraded.get("error").getAsString()).startsWith("sim_mode extrapolated simulates fewer of the same"
                + " healthy nodes; a degraded or down link makes the run asymmetric");
        CliTest.Result bad = CliTest.run("sweep", spec("{\"topology\": \"hgx-h100\", \"ops\": \"all_reduce\", \"sizes\":"
                + " \"1M\", \"sim_mode\": \"exact\"}").toString());
        assertThat(bad.err()).isEqualTo("ccsim: error: " + dir.resolve("study.json") + ": $.sim_mode: invalid \"exact\"; valid:"
                + " \"folded\", \"full\", \"extrapolated\" or \"auto\"\n");
    }

    /**
     * sim_mode auto, as perf's: folded up to 1,024 GPUs; beyond, extrapolated where a law serves NCCL's choice (a 1 MiB
     * broadcast on 1,200 GPUs: the chain law) and folded where none does (all-gather's ring across more than 4 leaf
     * groups), the row then perf's folded one.
     */
    @Test
    void autoExtrapolatesBeyondItsFoldedLimitWhereALawServes() throws IOException {
        CliTest.Result r = CliTest.run(Map.of("NCCL_PROTO", "LL128"), "sweep", "--topology", "hgx-h100", "--gpus", "2",
                "--nodes", "8,600", "--op", "all_gather,broadcast", "-b", "1M", "-e", "1M", "--sim-mode", "auto", "--format",
                "jsonl");
        assertThat(r.code()).as(r.err()).isZero();
        List<JsonObject> rows = rows(r.out());
        assertThat(rows).extracting(o -> o.get("nodes").getAsInt() + " " + o.get("op").getAsString() + " "
                + (o.get("law").isJsonNull() ? "simulated" : o.get("law").getAsString()))
                .containsExactly("8 all_gather simulated", "8 broadcast simulated", "600 all_gather simulated",
                        "600 broadcast CHAIN");
        assertThat(rows).extracting(o -> o.get("sim_mode").getAsString()).containsOnly("auto");
        CliTest.Result perf = CliTest.run(Map.of("NCCL_PROTO", "LL128"), "perf", "--topology", "hgx-h100", "--gpus", "2",
                "--nodes", "600", "--op", "all_gather", "-b", "1M", "-e", "1M", "--format", "json");
        assertThat(rows.get(2).get("time_us")).isEqualTo(JsonParser.parseString(perf.out()).getAsJsonArray().get(0)
                .getAsJsonObject().get("time_us"));
        assertThat(rows.get(3).get("error").getAsString()).isEmpty();
        assertThat(rows.get(3).get("time_us").getAsDouble()).isPositive();
    }

    /**
     * sim_mode auto beyond 1,024 GPUs where NCCL's choices are trees (Tree/LL128 at 4 MiB, NVLSTree at 64 MiB on 520
     * nodes of 2 GPUs), whose law reads them beyond the scale goals' 2 %: each point is simulated folded, its row perf's
     * folded one and without a law.
     */
    @Test
    void autoSimulatesFoldedWhereTheLawMissesTheGoal() throws IOException {
        CliTest.Result r = CliTest.run("sweep", "--topology", "hgx-h100", "--gpus", "2", "--nodes", "520", "--op",
                "all_reduce", "-b", "4M", "-e", "64M", "-f", "16", "--sim-mode", "auto", "--format", "jsonl");
        assertThat(r.code()).as(r.err()).isZero();
        List<JsonObject> rows = rows(r.out());
        assertThat(rows).extracting(o -> o.get("bytes").getAsLong() + " " + o.get("algo").getAsString() + "/"
                + o.get("proto").getAsString() + " " + (o.get("law").isJsonNull() ? "simulated" : o.get("law").getAsString()))
                .containsExactly("4194304 Tree/LL128 simulated", "67108864 NVLSTree/Simple simulated");
        CliTest.Result perf = CliTest.run("perf", "--topology", "hgx-h100", "--gpus", "2", "--nodes", "520", "--op",
                "all_reduce", "-b", "4M", "-e", "4M", "--format", "json");
        assertThat(rows.get(0).get("time_us")).isEqualTo(JsonParser.parseString(perf.out()).getAsJsonArray().get(0)
                .getAsJsonObject().get("time_us"));
    }

    /**
     * sim_mode auto where the target's folded run does not fit the heap (520 nodes of 2 GPUs in a 16 MiB budget): the
     * tree point is read from its law after all, its bound stated, as perf does.
     */
    @Test
    void autoReadsTheLawWhereTheTargetsFoldedRunDoesNotFit() {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int code = Main.execute(new String[] {"sweep", "--topology", "hgx-h100", "--gpus", "2", "--nodes", "520", "--op",
            "all_reduce", "-b", "4M", "-e", "4M", "--sim-mode", "auto", "--format", "jsonl"}, new PrintWriter(o, true),
                new PrintWriter(e, true), Map.of(), new Main.Session(new RunControl(), false, System::nanoTime, 16L << 20));
        assertThat(code).as(e.toString()).isZero();
        JsonObject row = rows(o.toString()).get(0);
        assertThat(row.get("law").isJsonNull()).as(row.toString()).isFalse();
        assertThat(List.of(row.get("algo").getAsString() + "/" + row.get("proto").getAsString(), row.get("law").getAsString(),
                row.get("error_bound_pct").getAsString(), row.get("time_us").getAsString())).containsExactly("Tree/LL128", "TREE",
                "6.8", "327.612");
    }

    @Test
    void aBadSpecIsOneLineWithFilePathAndWhatIsValid() throws IOException {
        Path s = spec("{\"topology\": \"hgx-h200\", \"ops\": \"all_reduce\", \"sizes\": \"1M\", \"what_if\": [{\"each\": \"x*\"}]}");
        CliTest.Result r = CliTest.run("sweep", s.toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("ccsim: error: " + s + ": $.what_if[0]: \"each\" needs either \"factor\": F in (0, 1]"
                + " (each link degraded in turn) or \"down\": true (each link down in turn)\n");
        CliTest.Result bad = CliTest.run("sweep", spec("{\"topology\": \"hgx-h200\", \"ops\": \"all_reduce\", \"sizes\": \"1M\","
                + " \"gpus\": [2, -1]}").toString());
        assertThat(bad.err()).isEqualTo("ccsim: error: " + s + ": $.gpus[1]: invalid -1; valid: an integer >= 0 (0: the board's)\n");
        CliTest.Result key = CliTest.run("sweep", spec("{\"topology\": \"hgx-h200\", \"ops\": \"all_reduce\", \"size\": 1}").toString());
        assertThat(key.err()).startsWith("ccsim: error: " + s + ": $.size: unknown key; valid keys: topology, gpus,");
        assertThat(key.err().lines().count()).isEqualTo(1);
    }

    @Test
    void flagsDescribeASimpleGridAsTheFileWould() throws IOException {
        CliTest.Result flags = CliTest.run("sweep", "--topology", "hgx-h200", "--gpus", "2,4", "--op", "all_reduce", "-b", "1K",
                "-e", "1M", "-f", "32", "--format", "jsonl");
        CliTest.Result file = CliTest.run("sweep", spec("{\"topology\": \"hgx-h200\", \"gpus\": [2, 4], \"ops\": \"all_reduce\","
                + " \"sizes\": {\"min\": \"1K\", \"max\": \"1M\", \"factor\": 32}}").toString(), "--format", "jsonl");
        assertThat(flags.code()).as(flags.err()).isZero();
        assertThat(flags.out()).isEqualTo(file.out());
        assertThat(rows(flags.out())).hasSize(2 * 3);
    }
}
