package io.ccsim.algorithms.measurements;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.Protocol;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * The NCCL-fit reader of calibration fixtures: a default-mode row is NCCL's choice (what NCCL logged, nothing forced), a
 * forced one names its algorithm and protocol but not its channels; eager rows are left out; errors name the row.
 */
class CalibrationFixturesTest {
    static final String ROW = "{\"op\": \"all_reduce\", \"n\": 2, \"mode\": \"%s\", \"algo\": \"Ring\", \"proto\": \"LL\","
            + " \"nccl_reported_algo\": \"RING\", \"nccl_reported_proto\": \"LL\", \"nccl_reported_channels\": 2, \"bytes\": 8,"
            + " \"dtype\": \"float\", \"redop\": \"sum\", \"root\": 0, \"time_us\": 9.5, \"graph\": %s}";

    static String fixture(String... rows) {
        return "{\"source\": {}, \"rows\": [" + String.join(",", rows) + "]}";
    }

    @Test
    void defaultRowsAreNcclsChoiceAndForcedRowsNameTheirs() {
        List<MeasuredRow> rows = Measurements.calibrationFixture(fixture(String.format(ROW, "default", "true"),
                String.format(ROW, "Tree/LL128", "true"), String.format(ROW, "default", "false")), "f.json");
        assertThat(rows).hasSize(2);
        MeasuredRow d = rows.get(0);
        assertThat(d.forced()).isFalse();
        assertThat(d.mode()).isEqualTo("default");
        assertThat(d.algoProto()).isEqualTo("Ring/LL");
        assertThat(d.ncclChannels()).isEqualTo(OptionalInt.of(2));
        assertThat(d.planChannels()).isEmpty();
        MeasuredRow f = rows.get(1);
        assertThat(f.forcedAlgo()).contains(Algorithm.TREE);
        assertThat(f.forcedProto()).contains(Protocol.LL128);
        assertThat(f.planChannels()).as("NCCL chose the channels").isEmpty();
        assertThat(f.where()).isEqualTo("f.json rows[1]");
        assertThat(f.timeUs()).isEqualTo(9.5);
    }

    @Test
    void badRowsAreNamed() {
        assertThatThrownBy(() -> Measurements.calibrationFixture("[]", "f.json")).hasMessage("f.json: $: expected a JSON object with \"rows\"");
        assertThatThrownBy(() -> Measurements.calibrationFixture("{\"rows\": [], \"rows\": []}", "f.json"))
                .hasMessage("f.json: $.rows: key 'rows' appears twice in one object, at line 1 column 14; valid: each key once");
        assertThatThrownBy(() -> Measurements.calibrationFixture(fixture(String.format(ROW, "default", "true").replace("\"nccl_reported_channels\": 2", "\"nccl_reported_channels\": \"four\"")), "f.json"))
                .hasMessage("f.json rows[0].nccl_reported_channels: expected a number, got \"four\"");
        assertThatThrownBy(() -> Measurements.calibrationFixture(fixture(String.format(ROW, "Ring", "true")), "f.json"))
                .hasMessageContaining("f.json rows[0].mode: 'Ring' is neither 'default' nor 'Algo/Proto'");
        assertThatThrownBy(() -> Measurements.calibrationFixture(fixture(String.format(ROW, "NVLS/Simple", "true")), "f.json"))
                .hasMessageContaining("f.json rows[0].mode: algorithm 'NVLS' is not one ccsim fits; valid: Ring, Tree");
        assertThatThrownBy(() -> Measurements.calibrationFixture(fixture(String.format(ROW, "default", "true").replace("9.5", "0")), "f.json"))
                .hasMessageContaining("f.json rows[0].time_us: must be finite and > 0");
        assertThatThrownBy(() -> Measurements.calibrationFixture(fixture(String.format(ROW, "default", "true").replace("\"n\": 2, ", "")), "f.json"))
                .hasMessage("f.json rows[0]: missing field \"n\"");
    }
}
