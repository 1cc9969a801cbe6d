package io.ccsim.algorithms.measurements;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The nccl-tests formats beyond the plain 13-column log (fixtures: nccltests/SOURCES.md): device lines of several
 * hosts, logs without the binary's name, per-iteration and timestamp columns, cputime, the {@code -J} JSON, quoted CSV
 * and ccsim perf's own text.
 */
class NcclTestsFormatsTest {
    private static String fixture(String name) throws IOException {
        return NcclTestsLogTest.fixture(name);
    }

    @Test
    void aTwoNodeLogGivesRanksHostsAndTheGpuModel() throws IOException {
        MeasuredFile f = Measurements.read("h100-2node-all_reduce-v2.19.txt", fixture("h100-2node-all_reduce-v2.19.txt"), false);
        assertThat(f.rows()).hasSize(7);   // 1 MiB .. 8 GiB by factor 4
        for (MeasuredRow r : f.rows()) {
            assertThat(r.op()).isEqualTo(CollectiveOp.ALL_REDUCE);
            assertThat(r.n()).isEqualTo(16);
            assertThat(r.nodes()).isEqualTo(2);
            assertThat(r.gpu()).isEqualTo("NVIDIA H100 80GB HBM3");
        }
        assertThat(f.rows().get(0).timeUs()).isEqualTo(71.13);
    }

    @Test
    void aLogThatNamesNoBinaryTakesTheCollectiveFromTheFileNameOrTheCaller() throws IOException {
        String text = fixture("reduce_scatter_perf-h100x8-nccl2.18.log");
        MeasuredFile f = Measurements.read("logs/reduce_scatter_perf-h100x8-nccl2.18.log", text, false);
        assertThat(f.rows()).hasSize(10).allSatisfy(r -> {   // 1 KiB .. 256 MiB by factor 4
            assertThat(r.op()).isEqualTo(CollectiveOp.REDUCE_SCATTER);
            assertThat(r.n()).isEqualTo(8);
            assertThat(r.nodes()).isEqualTo(1);
            assertThat(r.gpu()).isEqualTo("NVIDIA H100 80GB HBM3");
        });
        // the old print: one decimal from 100 us
        assertThat(f.rows().get(8).timeUs()).isEqualTo(185.9);
        assertThat(Measurements.read("run7.log", text, false, CollectiveOp.REDUCE_SCATTER).rows()).hasSize(10);
        assertThatThrownBy(() -> Measurements.read("run7.log", text, false))
                .hasMessageContaining("run7.log:16: table rows but the log names no test binary")
                .hasMessageContaining("validate --collective NAME");
    }

    @Test
    void fileNamesNameOneCollective() {
        assertThat(NcclTestsLog.opOfFileName("/x/all_gather_perf.log")).contains(CollectiveOp.ALL_GATHER);
        assertThat(NcclTestsLog.opOfFileName("allreduce-8gpu.txt")).contains(CollectiveOp.ALL_REDUCE);
        assertThat(NcclTestsLog.opOfFileName("run3_reduce_scatter.out")).contains(CollectiveOp.REDUCE_SCATTER);
        assertThat(NcclTestsLog.opOfFileName("nccl340-reduce-root-error.txt")).contains(CollectiveOp.REDUCE);
        assertThat(NcclTestsLog.opOfFileName("bcast.log")).contains(CollectiveOp.BROADCAST);
        assertThat(NcclTestsLog.opOfFileName("alltoall_perf_mpi.log")).contains(CollectiveOp.ALL_TO_ALL);
        assertThat(NcclTestsLog.opOfFileName("all_reduce-vs-all_gather.log")).as("two named").isEmpty();
        assertThat(NcclTestsLog.opOfFileName("nccl340-old-error-column.txt")).isEmpty();
        assertThat(NcclTestsLog.opOfFileName("preduced.txt")).as("inside a word").isEmpty();
    }

    @Test
    void perIterationColumnsAndTimestampsAreReadByTheColumnHeader() throws IOException {
        NcclTestsLog log = NcclTestsLog.parse(fixture("h200x4-all_gather-per-iter-timestamps.txt"), "pi");
        List<NcclTestsLog.Row> rows = log.rows();
        assertThat(rows).hasSize(3);
        assertThat(rows.get(0).oop().timeUs()).isEqualTo(14.06);
        assertThat(rows.get(0).oop().wrong()).isZero();
        assertThat(rows.get(0).inPlace().timeUs()).isEqualTo(14.10);
        assertThat(rows.get(2).inPlace().busbwGBps()).isEqualTo(246.39);
        assertThat(rows.get(2).redop()).isEqualTo("none");
        assertThat(log.sections().get(0).ranks()).isEqualTo(4);
    }

    @Test
    void cputimeColumnsAreTimes() {
        String text = "# Collective test starting: broadcast_perf\n"
                + "#       size         count      type   redop    root  cputime   algbw   busbw  #wrong  cputime   algbw   busbw  #wrong \n"
                + "     1048576        262144     float    none       2    17.46   60.04   60.04    N/A    17.50   59.92   59.92    N/A\n";
        NcclTestsLog.Row r = NcclTestsLog.parse(text, "c").rows().get(0);
        assertThat(r.root()).isEqualTo(2);
        assertThat(r.oop().timeUs()).isEqualTo(17.46);
        assertThat(r.oop().wrong()).isEqualTo(-1);
        assertThat(r.inPlace().timeUs()).isEqualTo(17.50);
    }

    @Test
    void aRowOfAnotherWidthThanItsHeaderIsAnError() {
        String text = "# Collective test starting: broadcast_perf\n"
                + "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong \n"
                + "     1048576        262144     float    none       2    17.46   60.04   60.04    N/A    17.50   59.92   59.92\n";
        assertThatThrownBy(() -> NcclTestsLog.parse(text, "w.log")).hasMessageContaining("w.log:3: a table row has 12 columns;"
                + " the log's column header above names 13");
    }

    @Test
    void mpirunTagOutputPrefixesAreStripped() {
        String text = "[1,0]<stdout>:# Collective test starting: all_reduce_perf\n"
                + "[1,0]<stdout>:#  Rank  0 Group  0 Pid   4711 on      nodeA device  0 [0000:1b:00] NVIDIA H200\n"
                + "[1,0]<stdout>:#  Rank  1 Group  0 Pid   4712 on      nodeB device  0 [0000:1b:00] NVIDIA H200\n"
                + "[1,0]<stdout>:     1048576        262144     float     sum      -1    52.61   19.93   34.88      0    53.03   19.77   34.60      0\n";
        MeasuredFile f = Measurements.read("t.log", text, false);
        assertThat(f.rows()).singleElement().satisfies(r -> {
            assertThat(r.n()).isEqualTo(2);
            assertThat(r.nodes()).isEqualTo(2);
            assertThat(r.timeUs()).isEqualTo(52.61);
        });
    }

    @Test
    void ncclTestsJsonHasOneDeviceEntryPerProcess() throws IOException {
        MeasuredFile f = Measurements.read("rs.json", fixture("h100-2x4-reduce_scatter.json"), false);
        assertThat(f.rows()).hasSize(3);   // 1 MiB .. 256 MiB by 16
        MeasuredRow r = f.rows().get(1);
        assertThat(r.where()).isEqualTo("rs.json: $.results[1]");
        assertThat(r.op()).as("from args: ./build/reduce_scatter_perf").isEqualTo(CollectiveOp.REDUCE_SCATTER);
        // 2 processes (devices entries) x 1 thread x 4 GPUs
        assertThat(r.n()).isEqualTo(8);
        assertThat(r.nodes()).isEqualTo(2);
        assertThat(r.gpu()).isEqualTo("NVIDIA H100 80GB HBM3");
        assertThat(r.bytes()).isEqualTo(16L << 20);
        assertThat(r.redop()).contains(ReduceOp.SUM);
        assertThat(r.timeUs()).isCloseTo(16.0 * (1 << 20) * 7 / 8 / 118e3 + 35, within(2.0));
    }

    @Test
    void quotedCsvIsReadAsRfc4180() throws IOException {
        MeasuredFile f = Measurements.read("q.csv", fixture("h200x8-quoted.csv"), false);
        assertThat(f.rows()).hasSize(4);
        MeasuredRow r = f.rows().get(3);
        assertThat(r.where()).isEqualTo("q.csv:5");
        assertThat(r.op()).isEqualTo(CollectiveOp.ALL_GATHER);
        assertThat(r.n()).isEqualTo(8);
        assertThat(r.gpu()).isEqualTo("NVIDIA H200");
        assertThat(r.timeUs()).isEqualTo(77.5);
        assertThat(r.redop()).isEmpty();
        assertThatThrownBy(() -> Measurements.read("b.csv", "\"op\",\"bytes\",\"dtype\",\"time_us\"\n\"all_reduce\",\"1\n", false))
                .hasMessageStartingWith("b.csv: not valid CSV");
    }

    @Test
    void ccsimPerfTextNamesItsPlanRanksAndGpu() {
        String text = "# ccsim 0.1.0 (git abc) perf (simulated, NCCL 2.28.9 model): all_to_all_perf on hgx-h100-2n, nRanks 16 nNodes 2,"
                + " profile H100 (built-in, uncalibrated: the H200 fit, same NVLink4 board)\n"
                + "# minBytes 1048576 maxBytes 1048576 step: 2(factor)  graph: 16 channels x 23.2 GB/s nvlink\n#\n"
                + "#       size         count      type   redop    root     time   algbw   busbw    algo   proto  nch\n"
                + "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)\n"
                + "     1048576         16384     float    none      -1    61.20   17.13   16.06     P2P  Simple    8\n"
                + "# Avg bus bandwidth    : 16.06\n";
        MeasuredFile f = Measurements.read("perf.txt", text, false);
        assertThat(f.rows()).singleElement().satisfies(r -> {
            assertThat(r.where()).isEqualTo("perf.txt:6");
            assertThat(r.op()).isEqualTo(CollectiveOp.ALL_TO_ALL);
            assertThat(r.n()).isEqualTo(16);
            assertThat(r.nodes()).isEqualTo(2);
            assertThat(r.gpu()).isEqualTo("H100");
            assertThat(r.dtype()).isEqualTo(DataType.FLOAT32);
            assertThat(r.mode()).isEqualTo("P2P/Simple");
            assertThat(r.planChannels().getAsInt()).isEqualTo(8);
            assertThat(r.timeUs()).isEqualTo(61.20);
        });
    }
}
