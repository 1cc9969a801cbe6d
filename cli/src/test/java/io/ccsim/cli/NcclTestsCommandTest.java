package io.ccsim.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.measurements.MeasuredFile;
import io.ccsim.algorithms.measurements.MeasuredRow;
import io.ccsim.algorithms.measurements.Measurements;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ccsim all_reduce_perf} and friends: nccl-tests' flags and output (src/common.cu, src/util.cu at
 * NVIDIA/nccl-tests v2.19.6), the rows being perf's.
 */
class NcclTestsCommandTest {
    /** The rows of a text output: its lines that are not comments, split on blanks as nccl-tests parsers split them. */
    static List<String[]> rows(String out) {
        return out.lines().filter(l -> !l.isBlank() && !l.startsWith("#")).map(l -> l.trim().split("\\s+")).collect(Collectors.toList());
    }

    @Test
    void allReduceOnEightGpusPrintsThirteenColumnsThatObeyNcclTestsDefinitions() {
        CliTest.Result r = CliTest.run("all_reduce_perf", "-b", "8", "-e", "1G", "-f", "2", "-g", "8");
        assertThat(r.code()).as(r.err()).isZero();
        List<String[]> rows = rows(r.out());
        assertThat(rows).hasSize(28);   // 8 B .. 1 GiB by factor 2
        double sum = 0;
        for (int i = 0; i < rows.size(); i++) {
            String[] t = rows.get(i);
            assertThat(t).as("row %d", i).hasSize(13);
            long size = 8L << i;
            assertThat(Long.parseLong(t[0])).isEqualTo(size);
            assertThat(Long.parseLong(t[1])).isEqualTo(size / 4);
            assertThat(t[2] + " " + t[3] + " " + t[4]).isEqualTo("float sum -1");
            assertThat(t[8]).isEqualTo("N/A");
            assertThat(t[12]).isEqualTo("N/A");
            double time = Double.parseDouble(t[5]);
            // algbw = size / time; busbw = algbw * 2(n-1)/n; each printed to 0.005 (the time's rounding, 0.005 us, moves
            // size / time by up to 0.005 / time of it)
            double algbw = size / (time * 1e3);
            assertThat(Double.parseDouble(t[6])).isCloseTo(algbw, within(0.005 + algbw * 0.0051 / time));
            // both printed to 0.005: busbw within 0.005 + 1.75 x 0.005 of algbw x 1.75
            assertThat(Double.parseDouble(t[7])).isCloseTo(Double.parseDouble(t[6]) * 2 * 7 / 8, within(0.014 + 1e-4 * Double.parseDouble(t[7])));
            assertThat(List.of(t[9], t[10], t[11])).as("in-place").containsExactly(t[5], t[6], t[7]);
            sum += Double.parseDouble(t[7]);
        }
        String avg = r.out().lines().filter(l -> l.startsWith("# Avg bus bandwidth    : ")).findFirst().orElseThrow();
        assertThat(Double.parseDouble(avg.substring(25).trim())).isCloseTo(sum / 28, within(0.01));
        assertThat(r.out()).startsWith("# nccl-tests version 2.19.6 nccl-headers=22809 nccl-library=22809\n"
                + "# Collective test starting: all_reduce_perf\n"
                + "# nThread 1 nGpus 8 minBytes 8 maxBytes 1073741824 step: 2(factor) warmup iters: 1 iters: 20 agg iters: 1"
                + " validation: 0 graph: 0 unalign: 0\n");
        assertThat(r.out()).contains("#       size         count      type   redop    root     time   algbw   busbw  #wrong     time"
                + "   algbw   busbw  #wrong \n");
        assertThat(r.out()).contains("#  Rank  7 Group  0 Pid      0 on         n0 device  7 [0000:07:00] NVIDIA H200\n");
        assertThat(r.out()).endsWith("# Out of bounds values : 0 OK\n" + avg + "\n#\n# Collective test concluded: all_reduce_perf\n#\n\n");
    }

    @Test
    void validatesOwnReaderReadsTheOutputBack() {
        CliTest.Result r = CliTest.run("all_gather_perf", "-b", "1K", "-e", "1M", "-f", "4", "--np", "16", "--topology", "hgx-h100");
        assertThat(r.code()).as(r.err()).isZero();
        MeasuredFile f = Measurements.read("ag.txt", r.out(), false);
        assertThat(f.rows()).hasSize(6);
        for (MeasuredRow m : f.rows()) {
            assertThat(m.op()).isEqualTo(CollectiveOp.ALL_GATHER);
            assertThat(m.n()).isEqualTo(16);
        }
        assertThat(f.rows().get(0).bytes()).isEqualTo(1024);
    }

    @Test
    void timesArePerfsMeanOfBackToBackCalls() {
        // -n 5 -m 2: the mean of 10 calls, as perf -n 10
        CliTest.Result t = CliTest.run("broadcast_perf", "-g", "4", "-b", "64K", "-e", "64K", "-n", "5", "-m", "2", "-r", "1");
        CliTest.Result p = CliTest.run("perf", "--topology", "hgx-h200", "--gpus", "4", "--op", "broadcast", "-b", "64K", "-e", "64K",
                "-n", "10", "-r", "1", "--format", "json");
        assertThat(t.code()).as(t.err()).isZero();
        double perfUs = JsonParser.parseString(p.out()).getAsJsonArray().get(0).getAsJsonObject().get("time_us").getAsDouble();
        String[] row = rows(t.out()).get(0);
        assertThat(Double.parseDouble(row[5])).isCloseTo(perfUs, within(0.006));
        assertThat(row[3] + " " + row[4]).isEqualTo("none 1");
    }

    @Test
    void sizesBelowSixteenBytesARankPrintZeroRows() {
        // all_gather of 8..512 B by 4 on 8 ranks: 8 and 32 B give no whole 16-byte block a rank (nccl-tests prints 0 0)
        CliTest.Result r = CliTest.run("all_gather_perf", "-b", "8", "-e", "512", "-f", "4", "-g", "8");
        List<String[]> rows = rows(r.out());
        assertThat(rows).extracting(t -> t[0] + "/" + t[1] + "/" + t[5]).containsExactly("0/0/0.00", "0/0/0.00", "128/4/" + rows.get(2)[5],
                "512/16/" + rows.get(3)[5]);
        assertThat(Double.parseDouble(rows.get(2)[5])).isPositive();
    }

    @Test
    void allTypesReductionsAndRootsLoopAsNcclTests() {
        // reduce_perf loops types, then reductions, then roots: 12 types (fp8 on Hopper) x 6 reductions x 2 roots
        CliTest.Result r = CliTest.run("reduce_perf", "-g", "2", "-b", "1M", "-e", "1M", "-d", "all", "-o", "all", "-r", "-1");
        assertThat(r.code()).as(r.err()).isZero();
        List<String[]> rows = rows(r.out());
        assertThat(rows).hasSize(12 * 6 * 2);
        assertThat(rows.get(0)[2] + rows.get(0)[3] + rows.get(0)[4]).isEqualTo("int8sum0");
        assertThat(rows.get(1)[2] + rows.get(1)[3] + rows.get(1)[4]).isEqualTo("int8sum1");
        assertThat(rows.get(2)[3]).isEqualTo("prod");
        assertThat(rows.get(143)[2] + rows.get(143)[3]).isEqualTo("f8e5m2mulsum");
        assertThat(r.out()).contains("# ccsim: mulsum (NCCL's PreMulSum) is timed as sum");
        // all_gather has no reduction: -o is not looped, the column reads none
        CliTest.Result ag = CliTest.run("all_gather_perf", "-g", "2", "-b", "1M", "-e", "1M", "-o", "all");
        assertThat(rows(ag.out())).singleElement().satisfies(t -> assertThat(t[3]).isEqualTo("none"));
    }

    @Test
    void registeredBuffersInOneProcessAreSimulatedForPointToPointOnly() {
        // measured (experiments/nccl-tests-h200x4): in one process, graphs (-G) and registered buffers (-R 1) make NCCL
        // write point-to-point data straight into the user's buffers, which the simulation then does too
        String simulated = "-G 10: NCCL registers the user buffers and a sender writes each channel's part";
        for (String b : new String[] {"sendrecv_perf", "alltoall_perf"}) {
            double eager = time(CliTest.run(b, "-g", "4", "-b", "16M", "-e", "16M"));
            CliTest.Result one = CliTest.run(b, "-g", "4", "-b", "16M", "-e", "16M", "-G", "10");
            assertThat(one.out()).as(b).contains(simulated).doesNotContain("-G 10 (CUDA graphs");
            assertThat(time(one)).as(b).isLessThan(0.95 * eager);
            CliTest.Result reg = CliTest.run(b, "-g", "4", "-b", "16M", "-e", "16M", "-R", "1");
            assertThat(reg.out()).as(b).contains("# ccsim: -R 1: NCCL registers the user buffers")
                    .doesNotContain("-R 1 (only 2 changes NCCL's choice)");
            assertThat(time(reg)).as(b).isEqualTo(time(one));
            CliTest.Result threads = CliTest.run(b, "-t", "2", "-g", "2", "-b", "16M", "-e", "16M", "-G", "10");
            assertThat(threads.out()).as(b + " -t 2").contains(simulated);
            assertThat(time(threads)).as(b + " -t 2").isEqualTo(time(one));
            // graphs across processes (measured in one process only), or with NCCL_GRAPH_REGISTER=0: the unregistered calls;
            // -R 1 across processes registers (PyTorch's ncclMemAlloc'd, registered buffers: pytorch-registered-n4.jsonl)
            CliTest.Result procs = CliTest.run(b, "--np", "4", "-g", "1", "-b", "16M", "-e", "16M", "-G", "10");
            assertThat(procs.out()).as(b + " --np 4").doesNotContain(simulated).doesNotContain("-G 10 (CUDA graphs")
                    .contains("# ccsim: -G 10 across processes is simulated unregistered");
            // NCCL's own captured calls: each the profile's PyTorch-captured call less sim.framework_call_us (5 us)
            assertThat(time(procs)).as(b + " --np 4").isCloseTo(eager - 5.0, org.assertj.core.api.Assertions.within(0.011));
            CliTest.Result procsReg = CliTest.run(b, "--np", "4", "-g", "1", "-b", "16M", "-e", "16M", "-R", "1");
            assertThat(procsReg.out()).as(b + " --np 4 -R 1").contains("# ccsim: -R 1: NCCL registers the user buffers");
            assertThat(time(procsReg)).as(b + " --np 4 -R 1").isEqualTo(time(one));
            CliTest.Result off = CliTest.run(Map.of("NCCL_GRAPH_REGISTER", "0"), b, "-g", "4", "-b", "16M", "-e", "16M", "-G", "10");
            assertThat(off.out()).as(b + " NCCL_GRAPH_REGISTER=0").doesNotContain(simulated);
            assertThat(time(off)).as(b + " NCCL_GRAPH_REGISTER=0").isCloseTo(eager - 5.0, org.assertj.core.api.Assertions.within(0.011));
        }
        CliTest.Result ar = CliTest.run("all_reduce_perf", "-g", "4", "-b", "4M", "-e", "4M", "-G", "10");
        assertThat(ar.out()).doesNotContain(simulated).doesNotContain("-G 10 (CUDA graphs")
                .contains("# ccsim: -G 10: NCCL's own captured calls, each 5.0 us less than the profile's PyTorch-captured calls");
        assertThat(time(ar)).isCloseTo(time(CliTest.run("all_reduce_perf", "-g", "4", "-b", "4M", "-e", "4M")) - 5.0,
                org.assertj.core.api.Assertions.within(0.011));
        // where ccsim does not simulate NCCL's registered path (several nodes), the header says so
        CliTest.Result nodes = CliTest.run("sendrecv_perf", "-g", "8", "--nodes", "2", "-b", "16M", "-e", "16M", "-G", "10");
        assertThat(nodes.out()).contains("# ccsim: -G 10 is not simulated: NCCL then registers the user buffers and a peer"
                + " writes into them directly, but registered buffers are simulated on one node");
    }

    /** The out-of-place time of the one row of {@code r}, µs. */
    private static double time(CliTest.Result r) {
        assertThat(r.code()).as(r.err()).isZero();
        List<String[]> rows = rows(r.out());
        assertThat(rows).hasSize(1);
        return Double.parseDouble(rows.get(0)[5]);
    }

    @Test
    void everyNcclTestsFlagIsAcceptedAndThoseWithoutEffectAreNoted() {
        CliTest.Result r = CliTest.run("sendrecv_perf", "--nthreads", "1", "--ngpus=2", "-b", "64K", "--maxbytes", "128K",
                "--stepfactor", "2", "-n", "3", "-m", "1", "-w", "5", "-N", "2", "-p", "0", "-c", "1", "-o", "sum", "-d", "half", "-r", "0",
                "-z", "1", "-y", "0", "-T", "30", "-G", "10", "-C", "1", "-S", "1", "-a", "3", "-R", "1", "-x", "1", "-D", "0", "-V", "16",
                "-M", "1", "-u", "1", "-I", "1", "-K", "0", "-i", "1M");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("# ccsim: no effect on a simulation: -w 5 (warm-up), -c 1 (data check: no data is moved),"
                + " -p 0 (parallel init), -z 1 (blocking), -y 0 (NULL stream), -T 30 (timeout)");
        // send/recv in one process: -G and -R 1 register its buffers, which the header says instead of "no effect"
        assertThat(r.out()).contains("# ccsim: -R 1: NCCL registers the user buffers")
                .doesNotContain("-R 1 (only 2 changes NCCL's choice)").contains("-I 1 (per-iteration columns: not printed)");
        assertThat(CliTest.run("all_gather_perf", "-g", "2", "-b", "64K", "-e", "64K", "-R", "1").out())
                .contains("-R 1 (only 2 changes NCCL's choice)");
        assertThat(r.out()).contains("# Blocking Enabled: wait and barrier after each inner iteration (-m) \n");
        assertThat(r.out()).contains("  cputime   algbw");
        // -N 2 prints the two sizes twice; send/recv prints its reduction as nccl-tests does
        List<String[]> rows = rows(r.out());
        assertThat(rows).extracting(t -> t[0] + " " + t[2] + " " + t[3]).containsExactly("65536 half sum", "131072 half sum",
                "65536 half sum", "131072 half sum");
    }

    @Test
    void jsonOutputHasNcclTestsKeys(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("out.json");
        Files.writeString(f, "taken");
        CliTest.Result r = CliTest.run("reduce_scatter_perf", "-g", "4", "-b", "1M", "-e", "4M", "-f", "4", "-J", f.toString());
        assertThat(r.code()).as(r.err()).isZero();
        // an existing file is kept: nccl-tests writes FILE.0
        Path written = dir.resolve("out.json.0");
        assertThat(r.out()).startsWith("# Writing JSON output to " + written + "\n");
        assertThat(Files.readString(f)).isEqualTo("taken");
        JsonObject o = JsonParser.parseString(Files.readString(written, StandardCharsets.UTF_8)).getAsJsonObject();
        assertThat(o.keySet()).containsExactly("version", "start_time", "args", "env", "nccl_version", "config", "ccsim", "results",
                "out_of_bounds", "average_bus_bandwidth", "errors", "end_time");
        assertThat(o.get("version").getAsInt()).isEqualTo(3);
        assertThat(o.get("start_time").getAsString()).matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d");
        JsonObject config = o.getAsJsonObject("config");
        assertThat(config.get("ngpus").getAsInt()).isEqualTo(4);
        assertThat(config.get("step_factor").getAsLong()).isEqualTo(4);
        // one entry per process, as nccl-tests writes them: one process drives the 4 GPUs
        assertThat(config.getAsJsonArray("devices")).hasSize(1);
        assertThat(config.getAsJsonArray("devices").get(0).getAsJsonObject().get("device_info").getAsString()).isEqualTo("NVIDIA H200");
        JsonArray results = o.getAsJsonArray("results");
        assertThat(results).hasSize(2);
        List<String[]> rows = rows(r.out());
        for (int i = 0; i < 2; i++) {
            JsonObject res = results.get(i).getAsJsonObject();
            assertThat(res.get("size").getAsLong()).isEqualTo(Long.parseLong(rows.get(i)[0]));
            assertThat(res.get("root").getAsString()).isEqualTo("    -1");
            assertThat(res.get("redop").getAsString()).isEqualTo("sum");
            for (String half : List.of("out_of_place", "in_place")) {
                JsonObject h = res.getAsJsonObject(half);
                assertThat(h.keySet()).containsExactly("time", "alg_bw", "bus_bw", "nwrong");
                assertThat(h.get("nwrong").isJsonNull()).isTrue();
                assertThat(h.get("time").getAsDouble()).isCloseTo(Double.parseDouble(rows.get(i)[5]), within(0.006));
            }
            assertThat(res.getAsJsonObject("ccsim").get("algo").getAsString()).isNotEmpty();
        }
        assertThat(o.getAsJsonObject("average_bus_bandwidth").get("okay").getAsString()).isEqualTo("unchecked");
        assertThat(o.getAsJsonObject("ccsim").get("ranks").getAsInt()).isEqualTo(4);
        MeasuredFile back = Measurements.read(written.toString(), Files.readString(written), false);
        assertThat(back.rows()).hasSize(2);
        assertThat(back.rows().get(0).op()).isEqualTo(CollectiveOp.REDUCE_SCATTER);
        assertThat(back.rows().get(0).n()).isEqualTo(4);
    }

    @Test
    void aMeanBusBandwidthBelowNcclTestsMinBwFailsAsNcclTests() {
        String[] args = {"all_reduce_perf", "-g", "8", "-b", "64M", "-e", "64M"};
        CliTest.Result ok = CliTest.run(Map.of("NCCL_TESTS_MIN_BW", "100"), args);
        assertThat(ok.code()).as(ok.err()).isZero();
        String avg = ok.out().lines().filter(l -> l.startsWith("# Avg bus bandwidth")).findFirst().orElseThrow();
        double busbw = Double.parseDouble(avg.substring(25).replace("OK", "").trim());
        assertThat(avg).endsWith(" OK");
        assertThat(ok.out()).contains("# ccsim: NCCL_TESTS_MIN_BW=100: the mean bus bandwidth is checked against 0.9 x it")
                .doesNotContain("not modelled");
        // 0.9 x the minimum above the mean: nccl-tests prints FAILED and exits with testNumResults (7)
        CliTest.Result failed = CliTest.run(Map.of("NCCL_TESTS_MIN_BW", Double.toString(busbw / 0.89)), args);
        assertThat(failed.code()).isEqualTo(7);
        assertThat(failed.out()).contains(avg.replace(" OK", " FAILED"));
        assertThat(failed.err()).contains("is below 0.9 x NCCL_TESTS_MIN_BW");
    }

    @Test
    void badFlagsAreOneLineNamingTheFlag() {
        Map<String, String> cases = Map.of(
                "-g 16", "one process drives 16 GPUs, but a hgx-h200 node has 8",
                "-o median", "-o/--op: invalid reduction 'median'; valid: sum, prod, max, min, avg, mulsum, all",
                "-d float33", "-d/--datatype: invalid type 'float33'",
                "-b 8X", "invalid size specified for '-b/--minbytes': '8X'",
                "-n 0", "-n/--iters: invalid 0; valid: 1 or more",
                "-b 1M -e 8", "invalid sizes for 'minbytes' and 'maxbytes': 1048576 > 8",
                "-f 1 -i 0", "the sizes would not grow",
                "-J out.txt", "nccl-tests writes JSON only to a file named *.json");
        cases.forEach((args, message) -> {
            CliTest.Result r = CliTest.run(("all_reduce_perf " + args).split(" "));
            assertThat(r.code()).as(args).isEqualTo(1);
            assertThat(r.err().strip().lines().count()).as(args).isEqualTo(1);
            assertThat(r.err()).as(args).contains(message).doesNotContain("Exception");
        });
        CliTest.Result root = CliTest.run("broadcast_perf", "-g", "4", "-r", "4");
        assertThat(root.err()).contains("-r/--root: invalid 4 for 4 ranks; valid: 0..3, or -1 for every rank in turn");
    }
}
