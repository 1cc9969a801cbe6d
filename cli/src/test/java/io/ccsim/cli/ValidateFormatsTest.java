package io.ccsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * validate on every measured format: nccl-tests logs of several hosts and of old versions, their -J JSON, quoted CSV,
 * and ccsim's own outputs read back; the topology from the GPU model the file names.
 */
class ValidateFormatsTest {
    private static final String FIXTURES = "src/test/resources/golden/fixtures/";

    @Test
    void aTwoNodeLogIsSimulatedOnTwoBoardsOfItsGpu() {
        CliTest.Result r = CliTest.run("validate", "--measured", FIXTURES + "h100-2node-all_reduce-v2.19.txt");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("# ccsim validate: 7 rows, topology hgx-h100-2n, profile H100 (built-in");
        assertThat(r.out()).contains("  all_reduce      auto    auto   2x8  1M..4G");
    }

    @Test
    void aGpuWithoutABoardNeedsATopology() {
        CliTest.Result r = CliTest.run("validate", "--measured", FIXTURES + "a100-8gpu-all_reduce-v2.txt");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("a100-8gpu-all_reduce-v2.txt:17: measured on NVIDIA A100-SXM4-80GB, for which ccsim has no board")
                .contains("pass --topology NAME|FILE");
        CliTest.Result on = CliTest.run("validate", "--measured", FIXTURES + "a100-8gpu-all_reduce-v2.txt", "--topology", "hgx-h200");
        assertThat(on.code()).as(on.err()).isZero();
        assertThat(on.out()).contains("# note: " + FIXTURES + "a100-8gpu-all_reduce-v2.txt was measured on NVIDIA A100-SXM4-80GB;"
                + " simulated on 8 ranks of hgx-h200 as --topology asks");
    }

    @Test
    void anOldLogNamesItsCollectiveByFileNameOrFlag(@TempDir Path dir) throws Exception {
        CliTest.Result byName = CliTest.run("validate", "--measured", FIXTURES + "reduce_scatter_perf-h100x8-nccl2.18.log");
        assertThat(byName.code()).as(byName.err()).isZero();
        assertThat(byName.out()).contains("  reduce_scatter  auto    auto    8  1K..256M");
        Path unnamed = dir.resolve("run7.log");
        Files.copy(Path.of(FIXTURES + "reduce_scatter_perf-h100x8-nccl2.18.log"), unnamed);
        CliTest.Result none = CliTest.run("validate", "--measured", unnamed.toString());
        assertThat(none.code()).isEqualTo(1);
        assertThat(none.err()).contains("run7.log:16: table rows but the log names no test binary");
        CliTest.Result flag = CliTest.run("validate", "--measured", unnamed.toString(), "--collective", "reduce_scatter_perf");
        assertThat(flag.code()).as(flag.err()).isZero();
        assertThat(flag.out()).isEqualTo(byName.out().replace(FIXTURES + "reduce_scatter_perf-h100x8-nccl2.18.log", unnamed.toString()));
    }

    @Test
    void ncclTestsJsonAndQuotedCsv() {
        CliTest.Result r = CliTest.run("validate", "--measured", FIXTURES + "h100-2x4-reduce_scatter.json", FIXTURES + "h200x8-quoted.csv");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("h100-2x4-reduce_scatter.json: 3 rows").contains("h200x8-quoted.csv: 4 rows");
        assertThat(r.out()).contains("topology hgx-h100-4g-2n, hgx-h200");
        assertThat(r.out()).contains("  reduce_scatter  auto    auto   2x4  1M..256M").contains("  all_gather      auto    auto    8  16M..16M");
    }

    @Test
    void ccsimsOwnOutputsReadBackAsThemselves(@TempDir Path dir) throws Exception {
        // one call per size (-n 1), so that the simulation of each row is the row
        CliTest.Result t = CliTest.run("all_reduce_perf", "-g", "4", "-b", "1M", "-e", "64M", "-f", "8", "-n", "1", "--topology", "hgx-h100",
                "-J", dir.resolve("ar.json").toString());
        assertThat(t.code()).as(t.err()).isZero();
        Files.writeString(dir.resolve("ar.txt"), t.out());
        CliTest.Result p = CliTest.run("perf", "--topology", "hgx-h100", "--gpus", "4", "--op", "all_gather", "-b", "1M", "-e", "64M", "-f", "8");
        Files.writeString(dir.resolve("ag.txt"), p.out());
        CliTest.Result v = CliTest.run("validate", "--measured", dir.resolve("ar.txt").toString(), dir.resolve("ar.json").toString(),
                dir.resolve("ag.txt").toString());
        assertThat(v.code()).as(v.err()).isZero();
        assertThat(v.out()).contains("ar.txt: 3 rows").contains("ar.json: 3 rows").contains("ag.txt: 3 rows");
        assertThat(v.out()).contains("# ccsim validate: 9 rows, topology hgx-h100-4g,");
        assertThat(v.out()).contains("# all rows: < 1 MiB median - max - (0 rows); >= 1 MiB median 0.0% max 0.0% (9 rows)");
    }

    /** perf -R 1's JSON and CSV say their buffers were registered, and validate simulates them so: the rows back exactly. */
    @Test
    void registeredRowsReadBackAsRegistered(@TempDir Path dir) throws Exception {
        for (String op : new String[] {"sendrecv", "all_to_all"}) {
            for (String format : new String[] {"json", "csv"}) {
                CliTest.Result p = CliTest.run("perf", "--topology", "hgx-h200", "--gpus", "4", "--op", op, "-b", "4M", "-e", "64M", "-f", "4",
                        "-R", "1", "--format", format);
                assertThat(p.code()).as(p.err()).isZero();
                assertThat(p.out()).contains("registered_buffers");
                Path f = dir.resolve(op + "." + format);
                Files.writeString(f, p.out());
                CliTest.Result v = CliTest.run("validate", "--measured", f.toString());
                assertThat(v.code()).as(v.err()).isZero();
                assertThat(v.out()).as(op + " " + format).contains("NCCL registered the user buffers, simulated so")
                        .contains("# all rows: < 1 MiB median - max - (0 rows); >= 1 MiB median 0.0% max 0.0% (3 rows)");
                // the same rows without the field are simulated unregistered, and miss
                Path plain = dir.resolve(op + "-plain." + format);
                Files.writeString(plain, format.equals("json") ? p.out().replaceAll(",\\s*\"registered_buffers\": \"true\"", "")
                        : p.out().replaceAll(",registered_buffers", "").replaceAll(",true(\\R)", "$1"));
                CliTest.Result u = CliTest.run("validate", "--measured", plain.toString());
                assertThat(u.code()).as(u.err()).isZero();
                assertThat(u.out()).as(op + " " + format + " unregistered").doesNotContain("median 0.0% max 0.0%");
            }
        }
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, CliTest.run("perf", "--topology", "hgx-h200", "--gpus", "2", "--op", "sendrecv", "-b", "4M", "-e", "4M",
                "-R", "1", "--format", "json").out().replace("\"registered_buffers\": \"true\"", "\"registered_buffers\": \"yes\""));
        CliTest.Result b = CliTest.run("validate", "--measured", bad.toString());
        assertThat(b.code()).isEqualTo(1);
        assertThat(b.err()).contains("$[0].registered_buffers: invalid 'yes'; valid: true");
    }
}
