package io.ccsim.gpu.study;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.ccsim.algorithms.measurements.MeasuredRow;
import io.ccsim.algorithms.measurements.Measurements;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** experiments/h200x2 (the fidelity sweep on 2 × H200) is what FidelitySchedule asks for and what the kernel fit reads. */
class CommittedFidelityResultsTest {
    private static final Path FILE = Path.of("target", "test-classes", "experiments", "h200x2", "timing.json");

    @Test
    void everyScheduledGroupHasEveryTrialAndSizeAndBusbwFollowsTheTime() throws Exception {
        List<FidelitySchedule.Item> items = FidelitySchedule.forRanks(2);
        Map<String, Integer> expected = new HashMap<>();
        for (FidelitySchedule.Item it : items) {
            for (long b : it.sizes()) {
                expected.merge(it.set() + " " + it.trial() + " " + it.op().cliName() + " " + it.algo().ncclName() + " "
                        + it.proto().ncclName() + " " + it.channels() + " " + b, 1, Integer::sum);
            }
        }
        Map<String, Integer> seen = new HashMap<>();
        for (JsonElement e : JsonParser.parseString(Files.readString(FILE)).getAsJsonArray()) {
            JsonObject r = e.getAsJsonObject();
            assertThat(r.get("n").getAsInt()).isEqualTo(2);
            assertThat(r.get("graph").getAsBoolean()).isTrue();
            long bytes = r.get("bytes").getAsLong();
            double t = r.get("time_us").getAsDouble();
            // algbw = bytes / time (both rounded to 3 decimals in the file)
            double algbw = bytes / (t * 1e-6) / 1e9;
            assertThat(r.get("algbw_gbps").getAsDouble()).isCloseTo(algbw, within(0.002 + 1e-3 * algbw));
            // busbw factor at n = 2 (nccl-tests doc/PERFORMANCE.md): all-reduce 2(n-1)/n = 1, all-gather (n-1)/n = 1/2
            double busbw = r.get("busbw_gbps").getAsDouble();
            if (r.get("op").getAsString().equals("all_reduce")) assertThat(busbw).isCloseTo(algbw, within(0.002 + 1e-3 * algbw));
            if (r.get("op").getAsString().equals("all_gather")) assertThat(busbw).isCloseTo(algbw / 2, within(0.002 + 1e-3 * algbw));
            seen.merge(r.get("set").getAsString() + " " + r.get("trial").getAsInt() + " " + r.get("op").getAsString() + " "
                    + r.get("algo").getAsString() + " " + r.get("proto").getAsString() + " " + r.get("channels").getAsInt() + " "
                    + bytes, 1, Integer::sum);
        }
        assertThat(seen).isEqualTo(expected);
    }

    @Test
    void kernelTimingsMergesTheTrialsOfEachMeasurement() throws Exception {
        // the trials of one (op, algo, proto, channels, bytes) become one row with the median time
        List<MeasuredRow> rows = Measurements.kernelTimings(FILE);
        // 3 trials of the fidelity set, 1 of the channel sweep
        long fidelity = rows.stream().filter(r -> r.planChannels().getAsInt() == 16).count();
        assertThat(rows).hasSize(FidelitySchedule.rows(FidelitySchedule.forRanks(2)) - (int) fidelity * (FidelitySchedule.TRIALS - 1));
        assertThat(rows).filteredOn(r -> r.planChannels().getAsInt() == 16)
                .allMatch(r -> r.where().contains("median of " + FidelitySchedule.TRIALS + " trials"));
        assertThat(rows).allMatch(r -> r.n() == 2 && r.planChannels().isPresent());
    }
}
