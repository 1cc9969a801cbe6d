package io.ccsim.algorithms.measurements;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The importer on real nccl-tests output of several format versions (fixtures: nccltests/SOURCES.md). */
class NcclTestsLogTest {

    static String fixture(String name) throws IOException {
        try (InputStream in = NcclTestsLogTest.class.getResourceAsStream("/io/ccsim/algorithms/measurements/nccltests/" + name)) {
            assertThat(in).as("fixture " + name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** A 2.19.6 log of {@code op} on 2 GPUs, {@code graph: G}, ranks in processes {@code pids[r]}. */
    private static String log(String op, int graph, String... pids) {
        StringBuilder b = new StringBuilder("# nccl-tests version 2.19.6 nccl-headers=22809 nccl-library=22809\n"
                + "# Collective test starting: " + op + "_perf\n"
                + "# nThread 1 nGpus 2 minBytes 4194304 maxBytes 4194304 step: 2(factor) warmup iters: 5 iters: 50 agg iters: 1"
                + " validation: 1 graph: " + graph + " unalign: 0\n#\n# Using devices\n");
        for (int r = 0; r < pids.length; r++) {
            b.append("#  Rank  ").append(r).append(" Group  0 Pid ").append(pids[r]).append(" on         vm device  ").append(r)
                    .append(" [0000:00:0").append(6 + r).append("] NVIDIA H200\n");
        }
        b.append("#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong\n");
        b.append("     4194304       1048576     float     sum      -1    26.92  155.81  155.81       0    26.62  157.56  157.56       0\n");
        return b.toString();
    }

    /**
     * A log whose thread launched both GPUs' calls eagerly ({@code nGpus 2}, {@code graph: 0}) says so in a file note
     * (nccl-tests' host floor, not simulated), and its rows are not NCCL's own captured calls; under {@code -G}, or with
     * a thread a GPU, no note, and {@code -G}'s rows are.
     */
    @Test
    void anEagerLogOfSeveralGpusAThreadCarriesTheHostLaunchNote() {
        MeasuredFile eager = Measurements.read("e.txt", log("all_reduce", 0, "7", "7"), false);
        assertThat(NcclTestsLog.parse(log("all_reduce", 0, "7", "7"), "e.txt").sections().get(0).gpusPerThread()).isEqualTo(2);
        assertThat(eager.notes()).singleElement().satisfies(n -> assertThat(n).startsWith("a thread launched 2 GPUs' calls"
                + " eagerly (nGpus 2, no -G): the host's launches set a floor per call that ccsim does not simulate"));
        assertThat(eager.rows()).noneMatch(MeasuredRow::ownCalls);
        MeasuredFile graphs = Measurements.read("g.txt", log("all_reduce", 10, "7", "7"), false);
        assertThat(graphs.notes()).isEmpty();
        assertThat(graphs.rows()).allMatch(MeasuredRow::ownCalls);
        String threads = log("all_reduce", 0, "7", "7").replace("nThread 1 nGpus 2", "nThread 2 nGpus 1");
        assertThat(Measurements.read("t.txt", threads, false).notes()).isEmpty();
    }

    @Test
    void aPointToPointLogCapturedInGraphsByOneProcessIsReadAsRegistered() {
        // experiments/nccl-tests-h200x4: NCCL registers graph-captured p2p buffers (NCCL_GRAPH_REGISTER); across processes,
        // eager, or for a collective, the rows are not registered
        NcclTestsLog.Section s = NcclTestsLog.parse(log("sendrecv", 10, "1447", "1447"), "s.txt").sections().get(0);
        assertThat(s.graphLaunches()).isEqualTo(10);
        assertThat(s.processes()).isEqualTo(1);
        assertThat(registered(Measurements.read("s.txt", log("sendrecv", 10, "1447", "1447"), false))).containsOnly(true);
        assertThat(registered(Measurements.read("a.txt", log("alltoall", 10, "9", "9"), false))).containsOnly(true);
        assertThat(registered(Measurements.read("s.txt", log("sendrecv", 0, "1447", "1447"), false))).containsOnly(false);
        assertThat(registered(Measurements.read("s.txt", log("sendrecv", 10, "1447", "1448"), false))).containsOnly(false);
        assertThat(registered(Measurements.read("r.txt", log("all_reduce", 10, "1447", "1447"), false))).containsOnly(false);
        // NCCL's own output (NCCL_DEBUG=INFO) saying NCCL_GRAPH_REGISTER=0, before or within the section: not registered;
        // saying 1: registered
        String env = "vm:1447:1447 [0] NCCL INFO NCCL_GRAPH_REGISTER set by environment to %s.\n";
        String graphed = log("sendrecv", 10, "1447", "1447");
        String within = graphed.replace("# Using devices\n", "# Using devices\n" + String.format(env, "0"));
        assertThat(within).isNotEqualTo(graphed);
        assertThat(NcclTestsLog.parse(within, "s.txt").sections().get(0).graphRegisterOff()).isTrue();
        assertThat(registered(Measurements.read("s.txt", within, false))).containsOnly(false);
        assertThat(registered(Measurements.read("s.txt", String.format(env, "0") + graphed, false))).containsOnly(false);
        assertThat(registered(Measurements.read("s.txt", String.format(env, "1") + graphed, false))).containsOnly(true);
        // a later section of the same process keeps what NCCL printed once
        String two = within + log("alltoall", 10, "1447", "1447");
        assertThat(registered(Measurements.read("s.txt", two, false))).containsOnly(false);
    }

    private static java.util.List<Boolean> registered(MeasuredFile f) {
        assertThat(f.rows()).isNotEmpty();
        return f.rows().stream().map(MeasuredRow::registered).toList();
    }

    @Test
    void v2FormatWithGroupRedopRootAndWrong() throws IOException {
        NcclTestsLog log = NcclTestsLog.parse(fixture("a100-8gpu-all_reduce-v2.txt"), "a100");
        assertThat(log.sections()).hasSize(1);
        NcclTestsLog.Section s = log.sections().get(0);
        assertThat(s.op()).isEqualTo(CollectiveOp.ALL_REDUCE);
        assertThat(s.ranks()).isEqualTo(8);
        // 8 B .. 4 GiB by factor 2: 30 sizes
        assertThat(s.rows()).hasSize(30);
        assertThat(s.avgBusBandwidth()).hasValue(66.2058);
        assertThat(s.outOfBounds()).isZero();
        NcclTestsLog.Row last = s.rows().get(29);
        assertThat(last.sizeBytes()).isEqualTo(4L << 30);
        assertThat(last.count()).isEqualTo((4L << 30) / 4);
        assertThat(last.dtype()).contains(DataType.FLOAT32);
        assertThat(last.redop()).isEqualTo("sum");
        assertThat(last.root()).isEqualTo(-1);
        assertThat(last.oop().timeUs()).isEqualTo(32336.0);
        assertThat(last.inPlace().busbwGBps()).isEqualTo(231.59);
        assertThat(last.oop().wrong()).isZero();
        assertThat(last.oop().maxError()).isNaN();
        // the printed numbers obey nccl-tests' definitions: algbw = size / time, busbw = algbw * 2(n-1)/n
        for (NcclTestsLog.Row r : s.rows()) {
            if (r.sizeBytes() < (1 << 20)) continue; // two printed decimals lose small values
            double algbw = r.sizeBytes() / (r.oop().timeUs() * 1e-6) / 1e9;
            assertThat(r.oop().algbwGBps()).isCloseTo(algbw, within(0.01 * algbw + 0.01));
            assertThat(r.oop().busbwGBps()).isCloseTo(r.oop().algbwGBps() * 2 * 7 / 8.0, within(0.02 * algbw + 0.01));
        }
    }

    @Test
    void mpirunNoiseBetweenRowsIsSkipped() throws IOException {
        NcclTestsLog log = NcclTestsLog.parse(fixture("a100-mpirun-interleaved-noise.txt"), "mpirun");
        assertThat(log.rows()).hasSize(7);
        assertThat(log.rows()).allMatch(r -> r.op() == CollectiveOp.ALL_REDUCE);
        assertThat(log.rows().get(6).sizeBytes()).isEqualTo(4294967296L);
        assertThat(log.sections().get(0).avgBusBandwidth()).hasValue(72.7724);
    }

    @Test
    void oldFormatWithoutRedopRootHasErrorColumnAndTheNextCommandStartsANewSection() throws IOException {
        NcclTestsLog log = NcclTestsLog.parse(fixture("nccl340-old-error-column.txt"), "nccl340",
                CollectiveOp.ALL_GATHER);
        assertThat(log.sections()).hasSize(2);
        NcclTestsLog.Section first = log.sections().get(0);
        assertThat(first.op()).isEqualTo(CollectiveOp.ALL_GATHER);
        assertThat(first.rows()).hasSize(12);
        assertThat(first.avgBusBandwidth()).hasValue(6.6972);
        NcclTestsLog.Row r = first.rows().get(6);
        assertThat(r.sizeBytes()).isEqualTo(4194304);
        assertThat(r.redop()).isEmpty();
        assertThat(r.root()).isEqualTo(-1);
        assertThat(r.oop().timeUs()).isEqualTo(120.1);
        assertThat(r.oop().wrong()).isEqualTo(-1);
        assertThat(r.oop().maxError()).isEqualTo(0.0);
        assertThat(r.inPlace().algbwGBps()).isEqualTo(18.16);
        assertThat(log.sections().get(1).op()).isEqualTo(CollectiveOp.BROADCAST);
        assertThat(log.sections().get(1).rows()).isEmpty();
    }

    @Test
    void oldFormatWithRedopAndRoot() throws IOException {
        NcclTestsLog log = NcclTestsLog.parse(fixture("nccl340-reduce-root-error.txt"), "nccl340-reduce",
                CollectiveOp.REDUCE);
        List<NcclTestsLog.Row> rows = log.rows();
        assertThat(rows).hasSize(12);
        assertThat(rows).allMatch(r -> r.root() == 0 && r.redop().equals("sum") && r.oop().maxError() == 0.0);
        assertThat(rows.get(11).oop().busbwGBps()).isEqualTo(12.81);
    }

    @Test
    void wrongElementCountsAndEllipsis() throws IOException {
        NcclTestsLog log = NcclTestsLog.parse(fixture("h100-simple-wrong-values.txt"), "nccl1184", CollectiveOp.ALL_REDUCE);
        assertThat(log.rows()).hasSize(3);
        NcclTestsLog.Row bad = log.rows().get(2);
        assertThat(bad.oop().wrong()).isEqualTo(237858);
        assertThat(bad.inPlace().wrong()).isEqualTo(238038);
    }

    @Test
    void largeSizesAndAverage() throws IOException {
        NcclTestsLog log = NcclTestsLog.parse(fixture("gb200-nvl72-group.txt"), "gb200", CollectiveOp.ALL_REDUCE);
        assertThat(log.rows()).hasSize(5);
        assertThat(log.rows().get(4).sizeBytes()).isEqualTo(8L << 30);
        assertThat(log.rows().get(4).count()).isEqualTo(2147483648L);
        // the printed average is the mean of the out-of-place and in-place busbw of all rows (nccl-tests common.cu)
        double sum = 0;
        for (NcclTestsLog.Row r : log.rows()) sum += r.oop().busbwGBps() + r.inPlace().busbwGBps();
        assertThat(log.sections().get(0).avgBusBandwidth().getAsDouble()).isCloseTo(sum / 10, within(0.01));
        // the excerpt shows the line of rank 71 only: 72 ranks, on one host, of one device name
        assertThat(log.sections().get(0).ranks()).isEqualTo(72);
        assertThat(log.sections().get(0).hosts()).isEqualTo(1);
        assertThat(log.sections().get(0).gpus()).containsExactly("NVIDIA Graphics Device");
    }

    @Test
    void rowsOfAnUnnamedTestNeedAnExplicitCollective() throws IOException {
        String text = fixture("nccl340-reduce-root-error.txt");
        assertThatThrownBy(() -> NcclTestsLog.parse(text, "x.log"))
                .isInstanceOf(NcclTestsLog.FormatException.class)
                .hasMessageContaining("x.log:1:")
                .hasMessageContaining("all_reduce_perf, all_gather_perf");
    }

    @Test
    void malformedRowNamesTheLine() {
        String text = "./build/all_reduce_perf -b 8\n       1024           256     float     sum      -1    42.05    0.02\n";
        assertThatThrownBy(() -> NcclTestsLog.parse(text, "bad.log"))
                .isInstanceOf(NcclTestsLog.FormatException.class)
                .hasMessageContaining("bad.log:2:")
                .hasMessageContaining("7 columns");
    }

    @Test
    void unknownBinaryIsAnError() {
        assertThatThrownBy(() -> NcclTestsLog.parse("./build/hypercube_perf -g 8\n", "h.log"))
                .hasMessageContaining("hypercube_perf")
                .hasMessageContaining("valid:");
    }

    @Test
    void textWithoutRowsIsAnError() {
        assertThatThrownBy(() -> NcclTestsLog.parse("# nThread 1 nGpus 8\n", "empty.log"))
                .hasMessageContaining("no nccl-tests table rows");
    }
}
