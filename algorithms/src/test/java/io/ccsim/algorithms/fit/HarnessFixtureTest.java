package io.ccsim.algorithms.fit;

import io.ccsim.algorithms.measurements.MeasuredRow;
import io.ccsim.algorithms.measurements.Measurements;
import io.ccsim.algorithms.profile.CalibrationProfile;
import org.junit.jupiter.api.Test;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whose per-call costs the built-in profile reads (experiments/nccl-tests-h200x4/harness: one lease of 4 × H200, NCCL
 * 2.28.9, every op 8 B to 16 MiB): nccl-tests' calls captured in CUDA graphs ({@code -t N -G 10}), NCCL's own API
 * captured one process a GPU ({@code mp/}, tools/nccl-measure/mp_graph.cu) and PyTorch's captured calls
 * (tools/nccl-measure/measure.py, the profile's fixtures' harness). Up to 1 MiB the process model changes nothing,
 * PyTorch's harness costs 3 to 6 µs a call more, and the profile sits with PyTorch, so its nccl-tests rows under
 * {@code -G} read high there (docs/calibration.md, "Remaining gaps"). A refit that moved the profile to NCCL's own
 * calls fails the last test, which is then to change with the nccl-tests commands' header line.
 */
class HarnessFixtureTest {
    private static final Path DIR = RegisteredP2pFixtureTest.DIR.resolve("harness");
    private static final String[] OPS = {"all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce", "alltoall",
        "sendrecv"};
    private final CalibrationProfile h200 = CalibrationProfile.builtin("h200");

    /** nccl-tests' {@code -G} rows of {@code op} at {@code n} ranks in folder {@code dir}, by size, µs. */
    private static Map<Long, Double> ncclTests(Path dir, String op, int n) throws IOException {
        Map<Long, Double> t = new HashMap<>();
        for (MeasuredRow r : rows(dir, op, n)) t.put(r.bytes(), r.timeUs());
        return t;
    }

    private static List<MeasuredRow> rows(Path dir, String op, int n) throws IOException {
        String f = op + "-t" + n + "-graph.txt";
        return Measurements.read(f, Files.readString(dir.resolve(f)), false).rows();
    }

    /** measure.py's graph rows of {@code op} (its name: all_to_all) at {@code n} ranks, NCCL's default, by size, µs. */
    private static Map<Long, Double> pytorch(String op, int n) throws IOException {
        String name = op.equals("alltoall") ? "all_to_all" : op;
        Map<Long, Double> t = new HashMap<>();
        for (String line : Files.readAllLines(DIR.resolve("pytorch/rows-n" + n + ".jsonl"))) {
            JsonObject o = JsonParser.parseString(line).getAsJsonObject();
            if (o.get("op").getAsString().equals(name) && o.get("mode").getAsString().equals("default")
                    && o.get("graph").getAsBoolean()) {
                t.put(o.get("bytes").getAsLong(), o.get("time_us").getAsDouble());
            }
        }
        return t;
    }

    /** mp_graph's rows (bytes, µs a call, K, R) of {@code op} at {@code n} ranks, by size. */
    private static Map<Long, Double> processes(String op, int n) throws IOException {
        Map<Long, Double> t = new HashMap<>();
        for (String line : Files.readAllLines(DIR.resolve("mp/mp-" + op + "-n" + n + ".txt"))) {
            String[] f = line.trim().split("\\s+");
            t.put(Long.parseLong(f[0]), Double.parseDouble(f[1]));
        }
        return t;
    }

    @Test
    void upToOneMiBTheProcessModelChangesNothing() throws IOException {
        for (String op : new String[] {"all_reduce", "broadcast", "sendrecv"}) {
            for (int n : new int[] {2, 4}) {
                Map<Long, Double> one = processes(op, n);
                Map<Long, Double> nt = ncclTests(DIR.resolve("mp"), op, n);   // the same lease's
                int compared = 0;
                for (Map.Entry<Long, Double> e : one.entrySet()) {
                    if (e.getKey() > ErrorTable.KERNEL_LARGE_BYTES || !nt.containsKey(e.getKey())) continue;
                    assertThat(Math.abs(e.getValue() - nt.get(e.getKey()))).as("%s n=%d %d B", op, n, e.getKey())
                            .isLessThan(1.5);
                    compared++;
                }
                assertThat(compared).as("%s n=%d", op, n).isGreaterThan(10);
            }
        }
    }

    @Test
    void pytorchsCapturedCallCostsThreeToSixMicrosecondsMore() throws IOException {
        for (String op : OPS) {
            for (int n : new int[] {2, 4}) {
                double gap = pytorch(op, n).get(32768L) - ncclTests(DIR, op, n).get(32768L);
                assertThat(gap).as("%s n=%d at 32 KiB", op, n).isBetween(3.0, 6.5);
            }
        }
    }

    @Test
    void theProfileSitsWithPytorchBelowOneMiB() throws IOException {
        List<Double> toPytorch = new ArrayList<>();
        List<Double> toNcclTests = new ArrayList<>();
        for (String op : OPS) {
            for (int n : new int[] {2, 4}) {
                Map<Long, Double> pt = pytorch(op, n);
                List<MeasuredRow> small = rows(DIR, op, n).stream()
                        .filter(r -> r.bytes() >= 1024 && r.bytes() < ErrorTable.KERNEL_LARGE_BYTES && pt.containsKey(r.bytes()))
                        .toList();
                for (Prediction p : new FixturePredictor().predictAll(h200, small)) {
                    toPytorch.add(Math.abs(p.timeUs() / pt.get(p.row().bytes()) - 1));
                    toNcclTests.add(p.timeUs() / p.row().timeUs() - 1);
                }
            }
        }
        assertThat(toPytorch).hasSizeGreaterThan(100);
        assertThat(median(toPytorch)).as("median |error| against PyTorch's calls").isLessThan(0.12);
        assertThat(median(toNcclTests)).as("median error against nccl-tests' -G calls").isGreaterThan(0.4);
    }

    private static double median(List<Double> v) {
        List<Double> s = new ArrayList<>(v);
        s.sort(null);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }
}
