package io.ccsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code --chart} option of perf, tune, validate and scenario run: the file, its format, its content, bad paths. */
class ChartsTest {
    private static final String NCCL_TESTS_LOG = "src/test/resources/golden/fixtures/a100-8gpu-all_reduce-v2.txt";

    /** The text of an SVG file with its XML entities for quotes and ampersands read back. */
    private static String svgText(Path svg) throws java.io.IOException {
        return Files.readString(svg).replace("&apos;", "'").replace("&quot;", "\"").replace("&amp;", "&");
    }

    /** Asserts that {@code text} contains each of {@code parts}, naming the missing one (not the whole SVG). */
    private static void assertHas(String text, String... parts) {
        for (String p : parts) assertThat(text.contains(p)).as("chart contains '%s'", p).isTrue();
    }

    @Test
    void perfDrawsAPngOfTheAnnouncedSizeAndTheTextSaysWhere(@TempDir Path dir) throws Exception {
        Path png = dir.resolve("busbw.png");
        CliTest.Result r = CliTest.run("perf", "--topology", "hgx-h200", "--gpus", "4", "--op", "all_reduce", "-b", "1K", "-e", "16M", "-f", "16",
                "--chart", png.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("# chart: " + png + " (PNG, " + PerfChart.WIDTH + " x " + PerfChart.HEIGHT + " px)");
        BufferedImage img = ImageIO.read(png.toFile());
        assertThat(img.getWidth()).isEqualTo(PerfChart.WIDTH);
        assertThat(img.getHeight()).isEqualTo(PerfChart.HEIGHT);
    }

    @Test
    void perfSvgNamesOpTopologyRanksProfileAndLeavesJsonParseable(@TempDir Path dir) throws Exception {
        Path svg = dir.resolve("busbw.SVG");
        CliTest.Result r = CliTest.run("perf", "--topology", "hgx-h200", "--gpus", "4", "--op", "all_gather", "-b", "1K", "-e", "1M", "-f", "32",
                "--format", "json", "--chart", svg.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out().strip()).startsWith("[").endsWith("]");   // no chart line in JSON
        String text = svgText(svg);
        assertThat(text).startsWith("<!DOCTYPE svg");
        assertHas(text, "all_gather busbw on hgx-h200", "4 ranks, 1 node, profile H200", "size (bytes, log2 scale)", "simulated (NCCL");
        // the build that drew it, as every output names it
        assertHas(text, "ccsim " + BuildInfo.current().label());
    }

    @Test
    void tuneDrawsTheCrossoverMapWithBothMarks(@TempDir Path dir) throws Exception {
        Path svg = dir.resolve("map.svg");
        CliTest.Result r = CliTest.run("tune", "--topology", "hgx-h200", "--gpus", "4", "--op", "all_reduce", "-b", "1K", "-e", "4M", "-f", "64",
                "--chart", svg.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("# chart: " + svg + " (SVG, " + CrossoverChart.WIDTH + " x ");
        assertHas(svgText(svg), "all_reduce crossover map on hgx-h200", "4 ranks", "fastest (simulated)", "NCCL's pick (cost model)",
                ">Ring/LL<");
    }

    /**
     * A candidate without a time at a size (not extrapolated there) is no block of the map, so it stays blank rather
     * than taking a colour of the scale; the candidates with one are blocks at their slowdown.
     */
    @Test
    void aCandidateWithoutATimeIsNoBlock() {
        TuneCommand.Line line = new TuneCommand.Line(1 << 20, 1 << 20, java.util.List.of(
                new TuneCommand.Cell("Tree/LL", io.ccsim.algorithms.Algorithm.TREE, io.ccsim.algorithms.Protocol.LL, 16, 100),
                new TuneCommand.Cell("Tree/Simple", io.ccsim.algorithms.Algorithm.TREE, io.ccsim.algorithms.Protocol.SIMPLE, 16,
                        250)), "Tree/LL", "Ring/LL");
        double[][] b = CrossoverChart.blocks(java.util.List.of(line), java.util.List.of("Tree/LL", "Ring/LL", "Tree/Simple"));
        assertThat(b[0]).containsExactly(0, 0);
        assertThat(b[1]).containsExactly(0, 2);
        assertThat(b[2]).containsExactly(1.0, 2.5);
    }

    @Test
    void crossoverColoursRankBySlowdown() {
        assertThat(CrossoverChart.colorOf(1.0)).isNotEqualTo(CrossoverChart.colorOf(1.1));
        assertThat(CrossoverChart.colorOf(1.1)).isNotEqualTo(CrossoverChart.colorOf(3.0));
        assertThat(CrossoverChart.colorOf(5.0)).isNotEqualTo(CrossoverChart.colorOf(3.0));
        assertThat(CrossoverChart.colorOf(5.0)).isEqualTo(CrossoverChart.colorOf(50.0));
    }

    @Test
    void validateOfAnNcclTestsLogLabelsMeasuredAndNcclsChoice(@TempDir Path dir) throws Exception {
        Path svg = dir.resolve("fidelity.svg");
        CliTest.Result r = CliTest.run("validate", "--measured", NCCL_TESTS_LOG, "--topology", "hgx-h100", "--chart", svg.toString());
        assertThat(r.code()).as(r.err()).isZero();
        String text = svgText(svg);
        assertHas(text, ">measured<", ">simulated (NCCL's choice)<", "all_reduce, 8 ranks, NCCL's choice", "topology hgx-h100");
        assertThat(text.contains("auto")).as("no 'auto' label").isFalse();
    }

    /** A log NCCL registered (graphs in one process) and an eager one of the same op and ranks: a panel each. */
    @Test
    void validateGivesRegisteredBuffersTheirOwnPanel(@TempDir Path dir) throws Exception {
        Path svg = dir.resolve("registered.svg");
        String d = GpuCommandsTest.EXPERIMENTS + "nccl-tests-h200x4/";
        CliTest.Result r = CliTest.run("validate", "--measured", d + "sendrecv-g4-graph.txt", d + "sendrecv-g4.txt", "--chart", svg.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("2 panels");
        assertHas(svgText(svg), "sendrecv, 4 ranks, NCCL's choice, registered buffers", "sendrecv, 4 ranks, NCCL's choice<");
    }

    @Test
    void scenarioTimelineShowsTheStalledCollectivesAndTheProcessEnds(@TempDir Path dir) throws Exception {
        Path svg = dir.resolve("timeline.svg");
        CliTest.Result r = CliTest.run("scenario", "run", "05-skipped-collective", "--chart", svg.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("chart: " + svg + " (SVG, " + TimelineChart.WIDTH + " x " + (170 + 22 * 8) + " px)");
        assertHas(svgText(svg), "scenario 05-skipped-collective: error after", ">rank 7<", "stalled (never completed)", "process fails",
                ">rank 3 [MISSING_RANK]<");
    }

    @Test
    void timelineTellsTheCrashedRankFromThePeersTheAgentStopped(@TempDir Path dir) throws Exception {
        Path svg = dir.resolve("timeline.svg");
        CliTest.Result r = CliTest.run("scenario", "run", "08-rank-crash-elastic", "--chart", svg.toString());
        assertThat(r.code()).as(r.err()).isZero();
        String text = svgText(svg);
        assertHas(text, ">rank 3 [RANK_CRASH]<", "process fails (crash", "process stopped (killed, aborted)");
        assertThat(text).doesNotContain(">rank 0 [");
    }

    @Test
    void faultNotesGiveTheirTimeInSeconds() {
        assertThat(TimelineChart.faultTime("502.000 ms: link n1.nic2~leaf.r2.0 down for 2.000 s")).isCloseTo(0.502, Offset.offset(1e-12));
        assertThat(TimelineChart.faultTime("2.502 s: link n1.nic2~leaf.r2.0 up")).isCloseTo(2.502, Offset.offset(1e-12));
        assertThat(TimelineChart.faultTime("0 s: GPU of rank 6 hangs")).isZero();
        assertThat(TimelineChart.faultTime("no time here")).isNaN();
    }

    @Test
    void aChartWithAnotherExtensionIsRefusedBeforeAnySimulation(@TempDir Path dir) {
        Path jpg = dir.resolve("busbw.jpg");
        CliTest.Result r = CliTest.run("perf", "--topology", "hgx-h200", "--op", "all_reduce", "--chart", jpg.toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().strip()).isEqualTo("ccsim: error: --chart " + jpg + ": unknown image type; valid: a file name ending in .png or .svg");
        assertThat(jpg).doesNotExist();
    }

    @Test
    void aMissingFolderIsAnErrorAndIsNotCreated(@TempDir Path dir) {
        Path png = dir.resolve("missing/map.png");
        CliTest.Result r = CliTest.run("tune", "--topology", "hgx-h200", "--op", "all_reduce", "--chart", png.toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("--chart " + png + ": folder " + dir.resolve("missing") + " does not exist; create it first");
        assertThat(dir.resolve("missing")).doesNotExist();
    }
}
