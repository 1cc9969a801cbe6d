package io.ccsim.algorithms.measurements;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import org.junit.jupiter.api.Test;

/** {@link Measurements#read}: the format detected from the text, each row as it names itself, errors naming the place. */
class MeasurementsTest {
    static final String PERF_ROW = "{\"op\":\"all_reduce\",\"bytes\":1024,\"dtype\":\"bfloat16\",\"redop\":\"max\",\"root\":0,"
            + "\"algo\":\"Ring\",\"proto\":\"LL128\",\"channels\":16,\"time_us\":5.0,\"n\":2}";

    @Test
    void perfJsonRowsNameTheirPlan() {
        MeasuredFile f = Measurements.read("p.json", "  [" + PERF_ROW + "]\n", false);
        assertThat(f.skipped()).isEmpty();
        MeasuredRow r = f.rows().get(0);
        assertThat(r.where()).isEqualTo("p.json: $[0]");
        assertThat(r.op()).isEqualTo(CollectiveOp.ALL_REDUCE);
        assertThat(r.dtype()).isEqualTo(DataType.BFLOAT16);
        assertThat(r.redop()).contains(ReduceOp.MAX);
        assertThat(r.forcedAlgo()).contains(Algorithm.RING);
        assertThat(r.forcedProto()).contains(Protocol.LL128);
        assertThat(r.planChannels().getAsInt()).isEqualTo(16);
        assertThat(r.n()).isEqualTo(2);
        // perf's provenance columns name the ranks "ranks"
        String withProvenance = PERF_ROW.replace(",\"n\":2}", ",\"ccsim_version\":\"0.1\",\"ranks\":8,\"nodes\":1}");
        assertThat(Measurements.read("q.json", "[" + withProvenance + "]", false).rows().get(0).n()).isEqualTo(8);
    }

    @Test
    void aRowsObjectLeavesEagerRowsOutUnlessKeptAndMergesTrials() {
        String eager = PERF_ROW.replace("}", ",\"graph\":false}");
        String t0 = PERF_ROW.replace("5.0", "4.0").replace("}", ",\"graph\":true,\"trial\":0}");
        String t1 = PERF_ROW.replace("5.0", "6.0").replace("}", ",\"graph\":true,\"trial\":1}");
        String text = "{\"source\": {}, \"rows\": [" + t0 + "," + eager + "," + t1 + "]}";
        MeasuredFile f = Measurements.read("c.json", text, false);
        assertThat(f.rows()).singleElement().satisfies(r -> {
            assertThat(r.timeUs()).isEqualTo(5.0);
            assertThat(r.where()).isEqualTo("c.json: $.rows[0] (median of 2 trials)");
        });
        assertThat(f.skipped()).isEqualTo("1 rows with \"graph\": false (eager launches: host launch cost, which the simulator does not model;"
                + " --include-eager keeps them)");
        assertThat(Measurements.read("c.json", text, true).rows()).hasSize(2);
    }

    @Test
    void csvRowsWithoutAlgorithmAreNcclsChoice() {
        MeasuredFile f = Measurements.read("m.csv", "op,bytes,dtype,time_us,algo\nall_gather,4096,float,7.5,\n\nbroadcast,8192,half,9,Tree\n", false);
        assertThat(f.rows()).hasSize(2);
        MeasuredRow a = f.rows().get(0);
        assertThat(a.where()).isEqualTo("m.csv:2");
        assertThat(a.forced()).isFalse();
        assertThat(a.n()).as("not in the file").isZero();
        MeasuredRow b = f.rows().get(1);
        assertThat(b.where()).isEqualTo("m.csv:4");
        assertThat(b.algo()).contains(Algorithm.TREE);
        assertThat(b.forced()).as("no protocol named").isFalse();
    }

    @Test
    void ncclTestsLogsGiveOutOfPlaceTimesAndRanks() {
        String log = "./build/all_reduce_perf -b 8 -e 16 -g 2\n#  Rank  0 Group  0 Pid 1 on h device  0 [0x07] X\n"
                + "#  Rank  1 Group  0 Pid 1 on h device  1 [0x08] X\n"
                + "           8             2     float     sum      -1    40.12    0.00    0.00      0    39.00    0.00    0.00      0\n"
                + "           0             0     float     sum      -1     0.10    0.00    0.00      0     0.10    0.00    0.00      0\n";
        MeasuredFile f = Measurements.read("a.log", log, false);
        assertThat(f.skipped()).isEqualTo("1 rows of size 0 or time 0");
        assertThat(f.rows()).singleElement().satisfies(r -> {
            assertThat(r.where()).isEqualTo("a.log:4");
            assertThat(r.n()).isEqualTo(2);
            assertThat(r.timeUs()).isEqualTo(40.12);
            assertThat(r.redop()).contains(ReduceOp.SUM);
            assertThat(r.algo()).isEmpty();
        });
    }

    @Test
    void errorsNameFileAndPlace() {
        assertThatThrownBy(() -> Measurements.read("b.json", "[" + PERF_ROW + ",{\"op\":\"all_reduce\",\"bytes\":2048}]", false))
                .hasMessage("b.json: $[1]: missing 'time_us'");
        assertThatThrownBy(() -> Measurements.read("b.json", "[{\"op\":\"all_reduce_typo\",\"bytes\":1,\"time_us\":1}]", false))
                .hasMessageStartingWith("b.json: $[0].op: invalid 'all_reduce_typo'");
        assertThatThrownBy(() -> Measurements.read("b.json", "[{\"op\":\"all_reduce\",\"bytes\":1,\"time_us\":-1}]", false))
                .hasMessage("b.json: $[0].time_us: must be a time > 0 in us, got -1.0");
        assertThatThrownBy(() -> Measurements.read("b.json", "{\"x\": 1}", false)).hasMessageContaining("b.json: expected a JSON array of rows");
        assertThatThrownBy(() -> Measurements.read("b.csv", "op,bytes,dtype,time_us\nall_reduce,1\n", false))
                .hasMessage("b.csv:2: 2 fields, the header has 4");
        assertThatThrownBy(() -> Measurements.read("b.csv", "op,bytes,time_us\n", false)).hasMessageStartingWith("b.csv:1: the CSV header has no 'dtype' column");
        assertThatThrownBy(() -> Measurements.read("b.txt", "hello\n", false))
                .hasMessageStartingWith("b.txt: no nccl-tests table rows found")
                .hasMessageEndingWith("(not JSON or CSV either: expected a JSON array of perf rows, a CSV with header 'op,bytes,...', ccsim perf's text,"
                        + " or nccl-tests output)");
    }
}
