package io.ccsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliTest {
    record Result(int code, String out, String err) { }

    static Result run(Map<String, String> env, String... args) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int code = Main.execute(args, new PrintWriter(o, true), new PrintWriter(e, true), env);
        return new Result(code, o.toString(), e.toString());
    }

    static Result run(String... args) { return run(Map.of(), args); }

    @Test
    void topologySummaryOfAnHgxSubset() {
        Result r = run("topology", "hgx-h200", "--gpus", "4");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("gpu=4").contains("nvswitch=4");
        // 18 NVLink4 links x 26.562 GB/s per direction
        assertThat(r.out()).contains(String.format(java.util.Locale.ROOT, "%.3f GB/s", 18 * 26.562));
    }

    @Test
    void topologyJsonRoundTripsThroughAFile(@TempDir Path dir) throws Exception {
        Result r = run("topology", "hgx-h100", "--nodes", "2", "--format", "json");
        assertThat(r.code()).isZero();
        Path f = dir.resolve("t.json");
        Files.writeString(f, r.out());
        Result again = run("topology", f.toString(), "--format", "json");
        assertThat(again.code()).as(again.err()).isZero();
        assertThat(again.out()).isEqualTo(r.out());
    }

    @Test
    void badArgumentsAreOneLineAndNonZero() {
        Result unknown = run("topology", "no-such-board");
        assertThat(unknown.code()).isEqualTo(1);
        assertThat(unknown.err().strip().lines().count()).isEqualTo(1);
        assertThat(unknown.err()).contains("valid names").contains("hgx-h200").doesNotContain("Exception");

        Result badOpt = run("topology", "hgx-h200", "--gpus", "many");
        assertThat(badOpt.code()).isEqualTo(2);
        assertThat(badOpt.err()).contains("--gpus").doesNotContain("\tat ");

        Result badGpus = run("topology", "hgx-h200", "--gpus", "9");
        assertThat(badGpus.code()).isEqualTo(1);
        assertThat(badGpus.err()).doesNotContain("\tat ");

        Result badOp = run("perf", "--topology", "hgx-h200", "--op", "allreduce_typo");
        assertThat(badOp.code()).isEqualTo(2);
        assertThat(badOp.err()).contains("all_reduce");

        Result badSize = run("perf", "--topology", "hgx-h200", "--op", "all_reduce", "-b", "8X");
        assertThat(badSize.code()).isEqualTo(1);
        assertThat(badSize.err()).contains("-b").contains("K, M, G");
    }

    @Test
    void perfJsonHasExactlyTheContractKeys() {
        Result r = run("perf", "--topology", "hgx-h200", "--gpus", "8", "--op", "all_reduce", "-b", "8", "-e", "64M", "-f", "8",
                "--format", "json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonArray a = JsonParser.parseString(r.out()).getAsJsonArray();
        assertThat(a).hasSize(8); // 2^(3+3k) <= 2^26 (64M) for k = 0..7
        Set<String> keys = Set.of("op", "bytes", "count", "dtype", "redop", "root", "algo", "proto", "channels", "time_us",
                "algbw_gbps", "busbw_gbps", "ccsim_version", "nccl_model", "profile", "calibrated", "topology", "gpu", "ranks", "nodes", "seed");
        double prev = 0;
        for (var e : a) {
            JsonObject o = e.getAsJsonObject();
            assertThat(o.keySet()).isEqualTo(keys);
            long bytes = o.get("bytes").getAsLong();
            double t = o.get("time_us").getAsDouble();
            // nccl-tests: algbw = bytes / time; busbw = algbw * 2(n-1)/n for all-reduce
            assertThat(o.get("algbw_gbps").getAsDouble()).isCloseTo(bytes / (t * 1e3), Offset.offset(0.002));
            assertThat(o.get("busbw_gbps").getAsDouble()).isCloseTo(o.get("algbw_gbps").getAsDouble() * 2 * 7 / 8.0, Offset.offset(0.003));
            assertThat(o.get("count").getAsLong()).isEqualTo(bytes / 4);
            assertThat(t).isGreaterThanOrEqualTo(prev);
            prev = t;
            // provenance: this build, NCCL's modelled release, the calibrated built-in profile, the communicator
            assertThat(o.get("ccsim_version").getAsString()).isEqualTo(BuildInfo.current().label());
            assertThat(o.get("nccl_model").getAsString()).isEqualTo("2.28.9");
            assertThat(o.get("profile").getAsString()).isEqualTo("h200");
            assertThat(o.get("calibrated").getAsBoolean()).isTrue();
            assertThat(o.get("topology").getAsString()).isEqualTo("hgx-h200");
            assertThat(o.get("gpu").getAsString()).isEqualTo("H200");
            assertThat(o.get("ranks").getAsInt()).isEqualTo(8);
            assertThat(o.get("nodes").getAsInt()).isEqualTo(1);
        }
    }

    @Test
    void perfRowsReadBackIntoValidateWithTheirRankCount(@TempDir Path dir) throws Exception {
        for (String format : List.of("json", "csv")) {
            Result r = run("perf", "--topology", "hgx-h100", "--gpus", "4", "--op", "reduce_scatter", "-b", "64K", "-e", "4M", "-f", "8",
                    "--format", format);
            assertThat(r.code()).as(r.err()).isZero();
            Path f = dir.resolve("perf." + format);
            Files.writeString(f, r.out());
            // no --gpus: the rows say 4 ranks; simulated again with the plan they name, they match themselves
            Result v = run("validate", "--topology", "hgx-h100", "--measured", f.toString());
            assertThat(v.code()).as(v.err()).isZero();
            assertThat(v.out()).contains("# ccsim validate: 3 rows").contains("reduce_scatter  Ring    LL      4  64K..512K")
                    .contains("# all rows: < 1 MiB median 0.0% max 0.0% (2 rows); >= 1 MiB median 0.0% max 0.0% (1 rows)");
        }
    }

    @Test
    void perfItersTimesBackToBackCalls() {
        // a broadcast's root starts its next call while the last rank still receives: the mean of 20 back-to-back
        // calls is below one call's latency; a ring all-reduce cannot overlap, so its mean stays one call's time
        java.util.function.BiFunction<String, String, Double> t = (op, n) -> {
            Result r = run("perf", "--topology", "hgx-h200", "--gpus", "8", "--op", op, "-b", "64K", "-e", "64K", "-n", n,
                    "--format", "json");
            assertThat(r.code()).as(r.err()).isZero();
            return JsonParser.parseString(r.out()).getAsJsonArray().get(0).getAsJsonObject().get("time_us").getAsDouble();
        };
        assertThat(t.apply("broadcast", "20")).isLessThan(t.apply("broadcast", "1") * 0.9);
        assertThat(t.apply("all_reduce", "20")).isCloseTo(t.apply("all_reduce", "1"), Offset.offset(t.apply("all_reduce", "1") * 0.03));
        Result bad = run("perf", "--topology", "hgx-h200", "--gpus", "8", "--op", "broadcast", "-n", "0");
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err()).contains("-n/--iters: invalid 0; valid: a count >= 1");
    }

    @Test
    void perfTextMimicsNcclTests() {
        Result r = run("perf", "--topology", "hgx-h200", "--gpus", "4", "--op", "all_gather", "-b", "1K", "-e", "1M", "-f", "4");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("#       size         count      type   redop    root     time   algbw   busbw");
        assertThat(r.out()).contains("# Avg bus bandwidth    : ");
        List<String> rows = r.out().lines().filter(l -> !l.startsWith("#")).collect(Collectors.toList());
        assertThat(rows).hasSize(6);
        String[] first = rows.get(0).trim().split("\\s+");
        // all_gather: size is the gathered output, count is per rank: 1024 B / 4 B / 4 ranks = 64
        assertThat(first[0]).isEqualTo("1024");
        assertThat(first[1]).isEqualTo("64");
        assertThat(first[3]).isEqualTo("none");
        assertThat(first[4]).isEqualTo("-1");
    }

    @Test
    void perfCsvAndNcclEnvironment() {
        Result r = run(Map.of("NCCL_ALGO", "Tree", "NCCL_PROTO", "Simple"), "perf", "--topology", "hgx-h200", "--gpus", "8",
                "--op", "all_reduce", "-b", "1M", "-e", "4M", "--format", "csv");
        assertThat(r.code()).as(r.err()).isZero();
        List<String> lines = r.out().lines().collect(Collectors.toList());
        assertThat(lines.get(0)).isEqualTo("op,bytes,count,dtype,redop,root,algo,proto,channels,time_us,algbw_gbps,busbw_gbps,"
                + "ccsim_version,nccl_model,profile,calibrated,topology,gpu,ranks,nodes,seed");
        assertThat(lines).hasSize(4);
        for (String l : lines.subList(1, 4)) assertThat(l).contains(",Tree,Simple,");
    }

    @Test
    void unsupportedForcedAlgorithmIsReportedNotReplaced() {
        Result r = run(Map.of("NCCL_ALGO", "Tree"), "perf", "--topology", "hgx-h200", "--op", "all_gather", "-b", "1M", "-e", "1M");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("AllGather").contains("Ring");
        Result bad = run(Map.of("NCCL_PROTO", "LL256"), "perf", "--topology", "hgx-h200", "--op", "all_reduce", "-b", "1M", "-e", "1M");
        assertThat(bad.code()).isEqualTo(1);
        assertThat(bad.err()).contains("NCCL_PROTO").contains("LL128").contains("Simple");
    }

    @Test
    void tuneListsCandidatesAndCrossovers() {
        // NVLS off: the protocols' crossovers (with it, NVLS is the simulated fastest at every size on 8 GPUs)
        Result r = run(Map.of("NCCL_NVLS_ENABLE", "0"), "tune", "--topology", "hgx-h200", "--gpus", "8", "--op", "all_reduce",
                "-b", "1K", "-e", "1G", "-f", "16", "--format", "json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonObject o = JsonParser.parseString(r.out()).getAsJsonObject();
        JsonArray sizes = o.getAsJsonArray("sizes");
        assertThat(sizes).hasSize(6);
        for (var s : sizes) {
            JsonObject row = s.getAsJsonObject();
            assertThat(row.getAsJsonArray("candidates")).hasSize(6); // {Tree, Ring} x {LL, LL128, Simple}
            double best = Double.MAX_VALUE;
            String bestLabel = null;
            for (var c : row.getAsJsonArray("candidates")) {
                JsonObject co = c.getAsJsonObject();
                if (co.get("time_us").getAsDouble() < best) {
                    best = co.get("time_us").getAsDouble();
                    bestLabel = co.get("algo").getAsString() + "/" + co.get("proto").getAsString();
                }
            }
            assertThat(row.get("fastest").getAsString()).isEqualTo(bestLabel);
        }
        // small sizes are latency-bound (LL), large ones bandwidth-bound (Simple): at least one crossover
        assertThat(o.getAsJsonArray("crossovers")).isNotEmpty();
        assertThat(sizes.get(0).getAsJsonObject().get("fastest").getAsString()).endsWith("/LL");
        assertThat(sizes.get(5).getAsJsonObject().get("fastest").getAsString()).endsWith("/Simple");
    }

    @Test
    void tuneExportsNcclTunerPluginRowsThatPerfFollowsBack(@TempDir Path dir) throws Exception {
        Path conf = dir.resolve("nccl_tuner.conf");
        Map<String, String> noNvls = Map.of("NCCL_NVLS_ENABLE", "0");
        Result t = run(noNvls, "tune", "--topology", "hgx-h100", "--nodes", "2", "--op", "all_reduce", "-b", "1K", "-e", "64M",
                "-f", "8", "--format", "csv", "--tuner-config", conf.toString());
        assertThat(t.code()).as(t.err()).isZero();
        List<String> rows = t.out().lines().skip(1).collect(Collectors.toList());
        List<String> header = List.of(t.out().lines().findFirst().orElseThrow().split(","));
        assertThat(header.get(0)).isEqualTo("size");
        int fastest = header.indexOf("fastest");
        String text = Files.readString(conf);
        assertThat(text).contains("collective_type,min_bytes,max_bytes").contains(",2,16,-1,-1");
        Result p = run(Map.of("NCCL_NVLS_ENABLE", "0", "NCCL_TUNER_CONFIG_FILE", conf.toString()), "perf", "--topology",
                "hgx-h100", "--nodes", "2", "--op", "all_reduce", "-b", "1K", "-e", "64M", "-f", "8", "--format", "csv");
        assertThat(p.code()).as(p.err()).isZero();
        List<String> perf = p.out().lines().skip(1).collect(Collectors.toList());
        assertThat(perf).hasSameSizeAs(rows);
        String perfHeader = p.out().lines().findFirst().orElseThrow();
        List<String> ph = List.of(perfHeader.split(","));
        for (int i = 0; i < rows.size(); i++) {
            String[] tr = rows.get(i).split(",");
            String[] pr = perf.get(i).split(",");
            assertThat(pr[ph.indexOf("algo")] + "/" + pr[ph.indexOf("proto")]).as(rows.get(i)).isEqualTo(tr[fastest]);
            assertThat(pr[ph.indexOf("channels")]).isEqualTo(tr[header.indexOf(tr[fastest] + "_channels")]);
        }
        Result bad = run(Map.of("NCCL_TUNER_CONFIG_FILE", dir.resolve("missing.conf").toString()), "perf", "--topology",
                "hgx-h100", "--op", "all_reduce", "-b", "1K", "-e", "1K");
        assertThat(bad.code()).isNotZero();
        assertThat(bad.err().strip().lines().count()).isEqualTo(1);
        assertThat(bad.err()).contains("NCCL_TUNER_CONFIG_FILE=").contains("no such file").doesNotContain("Exception");
    }

    @Test
    void sameSeedSameOutput() {
        String[] args = {"perf", "--topology", "hgx-h100", "--nodes", "2", "--op", "all_reduce", "-b", "64K", "-e", "4M", "-f", "4", "--format", "json"};
        Result a = run(args);
        Result b = run(args);
        assertThat(a.code()).as(a.err()).isZero();
        assertThat(a.out()).isEqualTo(b.out());
    }

    @Test
    void scenarioListAndRunWithJsonContract(@TempDir Path dir) throws Exception {
        Result list = run("scenario", "list");
        assertThat(list.code()).isZero();
        assertThat(list.out()).contains("03-faulty-ib-cable").contains("04-missing-rank");
        Result r = run("scenario", "run", "04-missing-rank", "--format", "json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonObject o = JsonParser.parseString(r.out()).getAsJsonObject();
        assertThat(o.keySet()).contains("scenario", "outcome", "sim_time_s", "diagnosis");
        assertThat(o.get("outcome").getAsString()).isEqualTo("hang");
        JsonObject d = o.getAsJsonArray("diagnosis").get(0).getAsJsonObject();
        assertThat(d.keySet()).contains("category", "ranks", "links", "summary");
        assertThat(r.out()).contains("MISSING_RANK");

        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{\"name\": \"x\", \"topology\": 7}");
        Result e = run("scenario", "run", bad.toString());
        assertThat(e.code()).isEqualTo(1);
        assertThat(e.err().strip().lines().count()).isEqualTo(1);
        assertThat(e.err()).contains("$.").doesNotContain("\tat ");
    }

    @Test
    void validateReadsTheCalibrationFixtureFormat() {
        // experiments/nccl-h200/*.json wraps its rows in {"source": ..., "rows": [...]}
        Result r = run("validate", "--measured", GpuCommandsTest.EXPERIMENTS + "nccl-h200/nccl-2.28.9-h200-n2.json");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("all_reduce").contains("Ring").contains("groups within bounds");
    }

    /** perf -R 1: registered send/recv is faster where NCCL registers, and says why it changes nothing elsewhere. */
    @Test
    void perfRegisteredBuffersTakeEffectOnlyWhereNcclRegisters() {
        String[] args = {"perf", "--topology", "hgx-h200", "--gpus", "4", "--op", "sendrecv", "-b", "16M", "-e", "16M"};
        double plain = onlyTime(run(args));
        String[] reg = java.util.Arrays.copyOf(args, args.length + 2);
        reg[args.length] = "-R";
        reg[args.length + 1] = "1";
        Result r = run(reg);
        assertThat(r.out()).contains("# -R 1: both buffers registered with NCCL");
        assertThat(onlyTime(r)).isLessThan(0.6 * plain);   // 64.23 against 133.98 us (experiments/nccl-tests-h200x4)
        Result off = run(java.util.Map.of("NCCL_LOCAL_REGISTER", "0"), reg);
        assertThat(off.out()).contains("# -R 1: no effect: NCCL_LOCAL_REGISTER=0");
        assertThat(onlyTime(off)).isEqualTo(plain);
        Result one = run("perf", "--topology", "hgx-h200", "--gpus", "1", "--op", "sendrecv", "-b", "16M", "-e", "16M", "-R", "1");
        assertThat(one.code()).as(one.err()).isZero();
        assertThat(one.out()).contains("# -R 1: no effect on one rank");
    }

    /** The time of the one row of perf's text output, us. */
    private static double onlyTime(Result r) {
        assertThat(r.code()).as(r.err()).isZero();
        java.util.List<String> rows = r.out().lines().filter(l -> l.matches("\\s+\\d+\\s+\\d+\\s.*")).toList();
        assertThat(rows).hasSize(1);
        return Double.parseDouble(rows.get(0).trim().split("\\s+")[5]);
    }
}
