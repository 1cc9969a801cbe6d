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
 * PyTorch's harness costs 3 to 6 µs a call more (the profiles' {@code sim.framework_call_us}, 5 µs), and the profile
 * reads each harness's calls as such (docs/calibration.md, "Whose calls the profile times").
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
        return pytorch(DIR, op, n);
    }

    /** As {@link #pytorch(String, int)}, the run in folder {@code dir}. */
    private static Map<Long, Double> pytorch(Path dir, String op, int n) throws IOException {
        String name = op.equals("alltoall") ? "all_to_all" : op;
        Map<Long, Double> t = new HashMap<>();
        for (String line : Files.readAllLines(dir.resolve("pytorch/rows-n" + n + ".jsonl"))) {
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

    /**
     * The profile's calls are PyTorch's captured calls, and NCCL's own (nccl-tests' {@code -G} rows, read as such) are
     * {@code sim.framework_call_us} less: the same rows below 1 MiB predicted both ways sit with each harness, and
     * read as PyTorch's they miss nccl-tests' by far.
     */
    @Test
    void theFrameworkTermReadsBothHarnessesBelowOneMiB() throws IOException {
        assertThat(h200.sim().frameworkCallUs()).isEqualTo(5.0);
        List<Double> own = new ArrayList<>();
        List<Double> asPytorch = new ArrayList<>();
        List<Double> pytorchToNcclTests = new ArrayList<>();
        for (String op : OPS) {
            for (int n : new int[] {2, 4}) {
                Map<Long, Double> pt = pytorch(op, n);
                List<MeasuredRow> small = rows(DIR, op, n).stream()
                        .filter(r -> r.bytes() >= 1024 && r.bytes() < ErrorTable.KERNEL_LARGE_BYTES && pt.containsKey(r.bytes()))
                        .toList();
                assertThat(small).allMatch(MeasuredRow::ownCalls);
                for (Prediction p : new FixturePredictor().predictAll(h200, small)) {
                    own.add(Math.abs(p.timeUs() / p.row().timeUs() - 1));
                }
                for (Prediction p : new FixturePredictor().predictAll(h200, small.stream().map(r -> r.withOwnCalls(false)).toList())) {
                    asPytorch.add(Math.abs(p.timeUs() / pt.get(p.row().bytes()) - 1));
                    pytorchToNcclTests.add(p.timeUs() / p.row().timeUs() - 1);
                }
            }
        }
        assertThat(own).hasSizeGreaterThan(100);
        assertThat(median(own)).as("median |error| against nccl-tests' -G calls").isLessThan(0.12);
        assertThat(median(asPytorch)).as("median |error| against PyTorch's calls").isLessThan(0.12);
        assertThat(median(pytorchToNcclTests)).as("PyTorch's basis against nccl-tests' -G calls").isGreaterThan(0.4);
    }

    /**
     * Out of sample (three other leases: send/recv and all-to-all below 1 MiB, nccl-tests {@code -G}, 16 files): every
     * file's median within 25 % (1.5 to 20 %, the most where one thread drives 4 GPUs), their median 5.5 % where the
     * profile's basis gives 54 %.
     */
    @Test
    void otherLeasesPointToPointBelowOneMiB() throws IOException {
        List<String> files = new ArrayList<>();
        for (String op : new String[] {"sendrecv", "alltoall"}) {
            for (String f : List.of(op + "-g4-graph.txt", op + "-t4-graph.txt", op + "-g2-graph.txt", op + "-t2-graph.txt",
                    "lease2/" + op + "-g4-graph.txt", "lease2/" + op + "-t4-graph.txt", "lease3/" + op + "-g2-graph.txt",
                    "lease3/" + op + "-t2-graph.txt")) {
                files.add(f);
            }
        }
        List<Double> ownMedians = new ArrayList<>();
        List<Double> basisMedians = new ArrayList<>();
        for (String f : files) {
            List<MeasuredRow> small = Measurements.read(f, Files.readString(RegisteredP2pFixtureTest.DIR.resolve(f)), false)
                    .rows().stream().filter(r -> r.bytes() < ErrorTable.KERNEL_LARGE_BYTES).toList();
            assertThat(small).as(f).hasSizeGreaterThan(3).allMatch(MeasuredRow::ownCalls);
            List<Double> own = new ArrayList<>();
            for (Prediction p : new FixturePredictor().predictAll(h200, small)) own.add(Math.abs(p.timeUs() / p.row().timeUs() - 1));
            List<Double> basis = new ArrayList<>();
            for (Prediction p : new FixturePredictor().predictAll(h200, small.stream().map(r -> r.withOwnCalls(false)).toList())) {
                basis.add(Math.abs(p.timeUs() / p.row().timeUs() - 1));
            }
            assertThat(median(own)).as(f).isLessThan(0.25);
            ownMedians.add(median(own));
            basisMedians.add(median(basis));
        }
        assertThat(median(ownMedians)).isLessThan(median(basisMedians) / 4);
    }

    /**
     * Out of sample, a second lease of the harness run (lease2/, every op at n = 2 and 4): PyTorch's call again about
     * {@code sim.framework_call_us} above nccl-tests' (median of 237 pairs up to 1 MiB within 0.5 µs of it), and every
     * {@code -G} file's median below 1 MiB within 15 % (2.9 to 12.1 %).
     */
    @Test
    void aSecondLeaseEveryOpBelowOneMiB() throws IOException {
        Path lease = DIR.resolve("lease2");
        List<Double> gaps = new ArrayList<>();
        for (String op : OPS) {
            for (int n : new int[] {2, 4}) {
                Map<Long, Double> pt = pytorch(lease, op, n);
                List<MeasuredRow> small = rows(lease, op, n).stream()
                        .filter(r -> r.bytes() < ErrorTable.KERNEL_LARGE_BYTES).toList();
                for (MeasuredRow r : small) if (pt.containsKey(r.bytes())) gaps.add(pt.get(r.bytes()) - r.timeUs());
                List<Double> own = new ArrayList<>();
                for (Prediction p : new FixturePredictor().predictAll(h200, small)) {
                    own.add(Math.abs(p.timeUs() / p.row().timeUs() - 1));
                }
                assertThat(median(own)).as("%s n=%d", op, n).isLessThan(0.15);
            }
        }
        assertThat(gaps).hasSizeGreaterThan(200);
        assertThat(median(gaps)).isCloseTo(h200.sim().frameworkCallUs(), org.assertj.core.api.Assertions.within(0.5));
    }

    private static double median(List<Double> v) {
        List<Double> s = new ArrayList<>(v);
        s.sort(null);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }
}
