package io.ccsim.algorithms.measurements;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The kernel-fit reader of the CudaExecutor's timing.json: fixed plans, graph rows only, trials merged, errors named. */
class KernelTimingsTest {
    static final String ROW = "{\"op\": \"all_reduce\", \"n\": 4, \"algo\": \"%s\", \"proto\": \"%s\", \"channels\": %d, \"bytes\": 1024,"
            + " \"dtype\": \"%s\", \"redop\": \"sum\", \"root\": 0, \"graph\": true, \"time_us\": 10.0}";

    @Test
    void badRowsAreNamed() {
        String row = "[" + ROW + "]";
        assertThatThrownBy(() -> Measurements.kernelTimings("{\"rows\": []}", "t.json")).hasMessageContaining("t.json").hasMessageContaining("JSON array");
        assertThatThrownBy(() -> Measurements.kernelTimings(String.format(row, "NVLS", "Simple", 16, "float"), "t.json"))
                .hasMessageContaining("t.json [0].algo").hasMessageContaining("valid: Ring, Tree, P2P");
        assertThatThrownBy(() -> Measurements.kernelTimings(String.format(row, "Ring", "LL64", 16, "float"), "t.json"))
                .hasMessageContaining("t.json [0].proto").hasMessageContaining("LL, LL128, Simple");
        assertThatThrownBy(() -> Measurements.kernelTimings(String.format(row, "Ring", "LL", 0, "float"), "t.json"))
                .hasMessageContaining("t.json [0].channels: must be >= 1");
        assertThatThrownBy(() -> Measurements.kernelTimings(String.format(row, "Ring", "LL", 16, "half"), "t.json"))
                .hasMessageContaining("t.json [0].dtype").hasMessageContaining("valid: float");
        List<MeasuredRow> ok = Measurements.kernelTimings(String.format(row, "p2p", "ll128", 8, "float"), "t.json");
        assertThat(ok).singleElement().satisfies(r -> {
            assertThat(r.forcedAlgo()).contains(Algorithm.P2P);
            assertThat(r.forcedProto()).contains(Protocol.LL128);
            assertThat(r.planChannels().getAsInt()).isEqualTo(8);
        });
    }

    @Test
    void trialsMergeIntoTheirMedianAtTheFirstPlaceAndEagerRowsAreLeftOut() {
        String t1 = trial(0, 10.0), t2 = trial(1, 14.0), t3 = trial(2, 11.0);
        String other = String.format(ROW, "Ring", "LL", 16, "float").replace("\"bytes\": 1024", "\"bytes\": 2048");
        String eager = other.replace("\"graph\": true", "\"graph\": false");
        List<MeasuredRow> rows = Measurements.kernelTimings("[" + t1 + "," + other + "," + t2 + "," + eager + "," + t3 + "]", "t.json");
        // median of 10, 14, 11 = 11; the merged row stays where its first trial was
        assertThat(rows).extracting(MeasuredRow::bytes).containsExactly(1024L, 2048L);
        assertThat(rows.get(0).timeUs()).isEqualTo(11.0);
        assertThat(rows.get(0).where()).isEqualTo("t.json [0] (median of 3 trials)");
        assertThat(rows.get(1).where()).isEqualTo("t.json [1]");
        assertThat(rows).allSatisfy(r -> {
            assertThat(r.op()).isEqualTo(CollectiveOp.ALL_REDUCE);
            assertThat(r.n()).isEqualTo(4);
            assertThat(r.mode()).isEqualTo("Ring/LL");
        });
    }

    @Test
    void anAllToAllsPlacementIsReadAndKeepsItsTrialsApart() {
        String a2a = "{\"op\": \"all_to_all\", \"n\": 4, \"algo\": \"P2P\", \"proto\": \"Simple\", \"channels\": 32,"
                + " \"bytes\": 1048576, \"dtype\": \"float\", \"redop\": \"sum\", \"root\": 0, \"graph\": true,"
                + " \"time_us\": %s, \"trial\": %d%s}";
        String rows = "[" + String.format(a2a, "10.0", 1, ", \"placement\": \"nccl\"") + ","
                + String.format(a2a, "20.0", 1, ", \"placement\": \"striped\"") + ","
                + String.format(a2a, "12.0", 2, ", \"placement\": \"nccl\"") + ","
                + String.format(a2a, "22.0", 2, "") + "]";
        List<MeasuredRow> read = Measurements.kernelTimings(rows, "t.json");
        // placed trials merge with each other (median 11), striped ones (named or not) with each other (median 21)
        assertThat(read).extracting(MeasuredRow::ncclPlaced).containsExactly(true, false);
        assertThat(read).extracting(MeasuredRow::timeUs).containsExactly(11.0, 21.0);
        assertThatThrownBy(() -> Measurements.kernelTimings("[" + String.format(a2a, "10.0", 1, ", \"placement\": \"ring\"")
                + "]", "t.json")).hasMessage("t.json [0].placement: invalid 'ring'; valid: nccl (each peer's operation on its own"
                + " channels), striped");
        // the general reader (validate) too
        MeasuredFile f = Measurements.read("v.json", rows, false);
        assertThat(f.rows()).extracting(MeasuredRow::ncclPlaced).containsExactly(true, false);
        assertThatThrownBy(() -> Measurements.read("v.json", "[" + String.format(a2a, "10.0", 1, ", \"placement\": \"x\"") + "]",
                false)).hasMessageStartingWith("v.json: $[0].placement: invalid 'x'; valid: nccl");
    }

    private static String trial(int k, double us) {
        return String.format(ROW, "Ring", "LL", 16, "float").replace("\"time_us\": 10.0", "\"time_us\": " + us + ", \"trial\": " + k);
    }
}
