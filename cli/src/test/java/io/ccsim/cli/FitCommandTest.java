package io.ccsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.algorithms.profile.CalibrationProfile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ccsim fit nccl|kernels}: option errors as one line, and a small fit of each end to end. */
class FitCommandTest {

    static CliTest.Result run(String... args) { return CliTest.run(args); }

    private static void assertError(CliTest.Result r, String... expected) {
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(1);
        assertThat(r.err().strip()).startsWith("ccsim: error: ").doesNotContain("\n").contains(expected);
    }

    @Test
    void fitWithoutSubcommandIsAUsageError() {
        CliTest.Result r = run("fit");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("missing fit command").contains("usage: ccsim fit --help");
    }

    @Test
    void ncclRejectsUnknownProtocolsAndBlocks(@TempDir Path dir) {
        String fixture = dir.resolve("f.json").toString();
        String out = dir.resolve("x.json").toString();
        assertError(run("fit", "nccl", "--out", out, "--cta", "LL64", fixture), "LL64", "LL, LL128, Simple");
        assertError(run("fit", "nccl", "--out", out, "--blocks", "nope", fixture), "matches no block", "cta LL");
        assertError(run("fit", "nccl", "--out", out, "--min-pipeline", "LL:4096", fixture), "PROTO=BYTES");
        assertError(run("fit", "nccl", "--out", out, "--min-pipeline", "LL=512", "--rounds", "0", fixture), "cannot read", "f.json");
    }

    @Test
    void kernelsRejectsBlocksThatMatchNothingAndAMarginOutOfRange(@TempDir Path dir) {
        String[] common = {"fit", "kernels", "--base", "x.json", "--out", "y.json", "--date", "2026-11-22"};
        assertError(run(concat(common, "--blocks", "nope", "t.json")), "--blocks nope matches no block", "p2p Simple");
        assertError(run(concat(common, "--criterion", "1.5", "t.json")), "--criterion 1.5: the margin must be in (0, 1]");
        CliTest.Result bogus = run(concat(common, "--bogus", "t.json"));
        assertThat(bogus.code()).isEqualTo(2);
        assertThat(bogus.err()).contains("--bogus").contains("usage: ccsim fit kernels --help");
        assertThat(run("fit", "kernels", "--help").out()).contains("--sparse", "--blocks", "--large-weight", "--criterion", "--fit-n");
    }

    /** all_gather Ring/LL n = 2 forced, at three sizes the NCCL fit's search simulates (8 x 4^k). */
    @Test
    void ncclFitsTheSharedBlockOfATinyFixture(@TempDir Path dir) throws Exception {
        Path fixture = dir.resolve("tiny.json");
        List<String> rows = new ArrayList<>();
        long[] sizes = {128 << 10, 512 << 10, 2 << 20};
        double[] us = {20.0, 40.0, 110.0};
        for (int i = 0; i < sizes.length; i++) {
            rows.add(String.format(Locale.ROOT, "{\"op\": \"all_gather\", \"n\": 2, \"mode\": \"Ring/LL\", \"bytes\": %d, \"time_us\": %.1f,"
                    + " \"graph\": true, \"nccl_reported_algo\": \"RING\", \"nccl_reported_proto\": \"LL\", \"nccl_reported_channels\": 2}",
                    sizes[i], us[i]));
        }
        Files.writeString(fixture, "{\"source\": {}, \"rows\": [" + String.join(",", rows) + "]}");
        Path out = dir.resolve("fitted.json");
        CliTest.Result r = run("fit", "nccl", "--out", out.toString(), "--rounds", "1", "--max-eval", "20", "--blocks", "shared",
                "--date", "2026-11-26", "--note", "a test", fixture.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).startsWith("round 1 shared      rows=  3 evals=").contains(" reduce_bw_gbps=");
        assertThat(r.out()).contains("all_gather      Ring/LL").contains("loss ").contains("over 3 rows").endsWith("wrote " + out + "\n");
        CalibrationProfile p = CalibrationProfile.load(out);
        assertThat(p.fit().orElseThrow().date()).isEqualTo("2026-11-26");
        assertThat(p.fit().orElseThrow().source()).startsWith("Fitted by io.ccsim.algorithms.fit.ProfileFitter").contains("tiny.json")
                .contains("Fitted: reduce_bw_gbps, copy_bw_gbps").endsWith(". a test. Written by ccsim " + BuildInfo.current().label() + ".");
        assertThat(p.fit().orElseThrow().residuals()).containsKey("median_rel_err all_gather Ring/LL n=2 >=64KiB");
    }

    /** Ring/Simple at 16 channels, n = 2 and 4: fitted on n = 2, n = 4 held out. */
    @Test
    void kernelsFitsOneRankCountAndHoldsTheOtherOut(@TempDir Path dir) throws Exception {
        Path base = dir.resolve("base.json");
        CalibrationProfile.builtin("h200").write(base);
        Path timing = dir.resolve("timing.json");
        List<String> rows = new ArrayList<>();
        for (int n : new int[] {2, 4}) {
            for (long b : new long[] {64 << 10, 256 << 10}) {
                rows.add(String.format(Locale.ROOT, "{\"op\": \"all_reduce\", \"n\": %d, \"algo\": \"Ring\", \"proto\": \"Simple\", \"channels\": 16,"
                        + " \"bytes\": %d, \"dtype\": \"float\", \"redop\": \"sum\", \"root\": 0, \"graph\": true, \"time_us\": %.1f}", n, b, 10.0 * n));
            }
        }
        Files.writeString(timing, "[" + String.join(",", rows) + "]");
        Path out = dir.resolve("fitted.json");
        CliTest.Result r = run("fit", "kernels", "--base", base.toString(), "--out", out.toString(), "--date", "2026-11-26",
                "--rounds", "1", "--max-eval", "20", "--blocks", "links", "--fit-n", "2", timing.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).startsWith("round 1 links       rows=  2 evals=");
        assertThat(r.out()).contains("held out (not fitted), n != 2:").contains("loss ").contains("over 4 rows (fitted on 2)")
                .endsWith("wrote " + out + "\n");
        assertThat(CalibrationProfile.load(out).fit().orElseThrow().source()).startsWith("Fitted by io.ccsim.algorithms.fit.KernelFit")
                .contains("(rows with n = 2 only)").contains("Start: " + base)
                .endsWith(" Written by ccsim " + BuildInfo.current().label() + ".");
        assertError(run("fit", "kernels", "--base", base.toString(), "--out", out.toString(), "--date", "2026-11-26", "--fit-n", "8",
                timing.toString()), "no timing rows with n = 8");
    }

    private static String[] concat(String[] a, String... b) {
        String[] c = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
