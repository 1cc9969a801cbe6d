package io.ccsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sweep --chart}: busbw vs size, one line per setup, the legend naming only what differs. */
class SweepChartTest {
    private static Map<String, String> row(String op, String ranks, String env, long bytes, String busbw) {
        Map<String, String> r = new LinkedHashMap<>();
        for (String c : SweepRows.COLUMNS) r.put(c, "");
        r.put("op", op);
        r.put("topology", "hgx-h200-" + ranks + "g");
        r.put("ranks", ranks);
        r.put("nodes", "1");
        r.put("env", env);
        r.put("dtype", "float");
        r.put("seed", "0");
        r.put("sim_mode", "folded");
        r.put("bytes", Long.toString(bytes));
        r.put("busbw_gbps", busbw);
        return r;
    }

    @Test
    void oneLinePerSetupNamedByWhatDiffersAndRowsWithoutNumbersLeftOut(@TempDir Path dir) throws IOException {
        List<Map<String, String>> rows = new ArrayList<>();
        for (String env : List.of("NCCL_PROTO=LL", "NCCL_PROTO=Simple")) {
            for (long b : new long[] {1024, 1 << 20}) rows.add(row("all_reduce", "8", env, b, b == 1024 ? "1.5" : "120.25"));
        }
        rows.add(row("all_reduce", "8", "NCCL_PROTO=LL", 1L << 30, ""));   // a point that did not run
        Path svg = dir.resolve("s.svg");
        SweepChart.Summary s = SweepChart.write(svg, "study.yaml", rows);
        assertThat(s.lines()).isEqualTo(2);
        assertThat(s.points()).isEqualTo(4);
        assertThat(s.leftOut()).isEqualTo(1);
        String text = Files.readString(svg, StandardCharsets.UTF_8);
        // the legend: the NCCL variables, the only axis that differs; the title: what every line shares
        assertThat(text).contains("NCCL_PROTO=LL").contains("NCCL_PROTO=Simple");
        assertThat(text).contains("sweep study.yaml: busbw vs size").contains("all_reduce").contains("8 ranks");
        assertThat(SweepChart.part("nodes", "1")).isEqualTo("1 node");
        assertThat(SweepChart.part("what_if", "")).isEqualTo("no what-if");
    }

    @Test
    void sweepDrawsThePngOfEveryRowTheOutputFileHolds(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("rows.csv");
        Path png = dir.resolve("busbw.png");
        String[] args = {"sweep", "--topology", "hgx-h200", "--gpus", "2,4", "--op", "all_gather", "-b", "64K", "-e", "16M", "-f", "16",
            "--out", out.toString(), "--chart", png.toString(), "--jobs", "1"};
        CliTest.Result r = CliTest.run(args);
        assertThat(r.code()).as(r.err()).isZero();
        // 2 GPU counts x 3 sizes (64K, 1M, 16M): two lines of three points
        assertThat(r.err()).contains("ccsim: sweep: chart " + png + " (PNG, " + PerfChart.WIDTH + " x " + PerfChart.HEIGHT
                + " px, 2 lines, 6 points)");
        BufferedImage img = ImageIO.read(png.toFile());
        assertThat(img.getWidth()).isEqualTo(PerfChart.WIDTH);
        // a rerun simulates nothing and still draws every row of the file
        Files.delete(png);
        CliTest.Result again = CliTest.run(args);
        assertThat(again.err()).contains("0 simulated now, 6 done before").contains("2 lines, 6 points");
        assertThat(png).exists();
    }

    @Test
    void aBadChartNameIsRefusedBeforeAnyPointRuns(@TempDir Path dir) {
        CliTest.Result r = CliTest.run("sweep", "--topology", "hgx-h200", "--op", "all_gather", "-b", "1M", "-e", "1M",
                "--chart", dir.resolve("x.jpg").toString());
        assertThat(r.code()).isEqualTo(ExitCode.FAILED.code);
        assertThat(r.err()).contains("--chart").contains(".png").doesNotContain("ccsim: sweep: 1 points");
        assertThat(r.out()).isEmpty();
    }
}
