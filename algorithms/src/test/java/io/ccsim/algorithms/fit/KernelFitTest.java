package io.ccsim.algorithms.fit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.measurements.MeasuredRow;
import io.ccsim.algorithms.measurements.Measurements;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.CtaCosts;
import io.ccsim.algorithms.profile.SimCosts;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The fidelity check on the CudaExecutor's own timings (h200x4-fidelity/timing.json: 4 × H200, n = 2 and 4, every op ×
 * algorithm × protocol at 16 channels, 4 KiB .. 512 MiB, 3 trials merged into their median, and a 4/64-channel
 * all-reduce sweep): the profile fitted to them (h200x4-fidelity/profile-fitted.json, by {@link KernelFit}) predicts
 * every row with the plan that ran, as back-to-back calls like the graph replay that timed it. The fit is in-sample
 * (fitted on the same rows). Each group's median error must stay within what the fit reached (recorded in the profile's
 * {@code fit} section) plus one point, so that a simulator change that makes it worse is caught; and the number of
 * groups within the bounds (15 % below 1 MiB, 5 % from 1 MiB) must not drop below the 48 of 48 measured.
 */
class KernelFitTest {
    /** The CudaExecutor's timings on H200 hosts and the profiles fitted to them. */
    static final Path RESULTS = Path.of("target", "test-classes", "experiments");
    static final Path DIR = RESULTS.resolve("h200x4-fidelity");
    /**
     * Groups (op, algo, proto, n) within both bounds with profile-fitted.json: all 48 (the closest from 1 MiB:
     * all_to_all P2P/Simple n = 4 at 5.0 %, reduce_scatter Ring/LL128 n = 4 at 4.8 %).
     */
    static final int GROUPS_WITHIN_MEASURED = 48;

    static List<MeasuredRow> rows;
    static CalibrationProfile fitted;
    static ErrorTable table;

    @BeforeAll
    static void predict() throws IOException {
        rows = new ArrayList<>(Measurements.kernelTimings(DIR.resolve("timing.json")));
        fitted = CalibrationProfile.load(DIR.resolve("profile-fitted.json"));
        table = ErrorTable.of(new FixturePredictor().predictAll(fitted, rows), ErrorTable.KERNEL_LARGE_BYTES);
    }

    @Test
    void loaderKeepsGraphRowsWithTheirOwnPlan() {
        // 2,784 rows in the file: 2 × 432 points × 3 trials (merged into 864) + 2 × 96 channel-sweep rows
        assertThat(rows).hasSize(864 + 192);
        assertThat(rows).allMatch(r -> r.planChannels().isPresent() && r.forced());
        assertThat(rows.stream().mapToInt(r -> r.planChannels().getAsInt()).distinct().sorted().toArray())
                .containsExactly(4, 16, 64);
        assertThat(rows.stream().map(MeasuredRow::mode).distinct())
                .contains("Ring/LL", "Ring/LL128", "Ring/Simple", "Tree/LL", "Tree/LL128", "Tree/Simple", "P2P/LL", "P2P/LL128", "P2P/Simple");
    }

    @Test
    void predictionUsesTheRowsChannelCount() {
        // the channel sweep: same op and size, 4, 16 and 64 channels; the prediction must follow the plan that ran
        List<MeasuredRow> sweep = rows.stream().filter(r -> r.bytes() == 512L << 20 && r.n() == 4
                && r.op() == CollectiveOp.ALL_REDUCE && r.forcedAlgo().get() == Algorithm.RING
                && r.forcedProto().get() == Protocol.SIMPLE).toList();
        FixturePredictor p = new FixturePredictor();
        for (MeasuredRow r : sweep) assertThat(p.predict(fitted, r).channels()).isEqualTo(r.planChannels().getAsInt());
        MeasuredRow c4 = sweep.stream().filter(r -> r.planChannels().getAsInt() == 4).findFirst().orElseThrow();
        MeasuredRow c64 = sweep.stream().filter(r -> r.planChannels().getAsInt() == 64).findFirst().orElseThrow();
        assertThat(p.predict(fitted, c64).timeUs()).isLessThan(p.predict(fitted, c4).timeUs());
    }

    @Test
    void medianErrorsStayWithinWhatTheFitReached() {
        Map<String, Double> reached = fitted.fit().orElseThrow().residuals();
        List<String> failures = new ArrayList<>();
        for (ErrorTable.Group g : table.groups()) {
            Double r = reached.get("median_rel_err " + g.key());
            if (r == null) {
                failures.add(g.key() + ": not in profile-fitted.json's fit section");
            } else if (g.medianError() > r + 0.01) {
                failures.add(String.format(Locale.ROOT, "%s: median error %.1f %% > fitted %.1f %% + 1", g.key(), 100 * g.medianError(), 100 * r));
            }
        }
        assertThat(failures).as("groups worse than the fit in%n%s", table.format()).isEmpty();
        // 48 (op, algo, proto, n) groups, each with both size classes
        assertThat(table.groups()).hasSize(96);
    }

    @Test
    void groupsWithinTheBoundsDoNotDrop() {
        Map<String, double[]> byGroup = byGroup(table);
        assertThat(byGroup).hasSize(48);
        assertThat(within(byGroup)).isGreaterThanOrEqualTo(GROUPS_WITHIN_MEASURED);
    }

    /**
     * Out of sample: a fresh n = 2 sweep of the same kernels on another host 14 h later (h200x2-repeat/timing-a.json; it
     * repeats a second run of the same lease within 0.3 % from 1 MiB), which the profile never saw: at least 23 of its 24
     * groups within the bounds. The one it may miss, all_gather Ring/LL128 n = 2 from 1 MiB: the simulated curve steps at
     * the L2 size between 8 and 16 MiB, where neither host's measured one does.
     */
    @Test
    void freshRunOfTheKernelsOnAnotherHostStaysWithinTheBounds() throws IOException {
        List<MeasuredRow> fresh = Measurements.kernelTimings(RESULTS.resolve("h200x2-repeat").resolve("timing-a.json"));
        assertThat(fresh).hasSize(432 + 96).allMatch(r -> r.n() == 2);
        ErrorTable t = ErrorTable.of(new FixturePredictor().predictAll(fitted, fresh), ErrorTable.KERNEL_LARGE_BYTES);
        Map<String, double[]> byGroup = byGroup(t);
        assertThat(byGroup).hasSize(24);
        assertThat(within(byGroup)).as(t.format()).isGreaterThanOrEqualTo(23);
    }

    /**
     * What send_overlap and the GPU's shared send limit are for: a 2-rank Simple broadcast (the root copy-sends: src +
     * dst + send) and reduce (the peer sends: src + send) measure within 3 % of each other at 512 MiB (time ratio 1.028).
     * The simulated ratio must stay within 5 points of the measured one; with neither the overlap nor the limit, the
     * streams simply added, it must drift off by more than 5 points: the model needs one of the two to match.
     */
    @Test
    void twoRankBroadcastAndReduceRunAtTheSameRateAsMeasured() {
        FixturePredictor p = new FixturePredictor();
        MeasuredRow b = twoRankSimpleAt512MiB(CollectiveOp.BROADCAST);
        MeasuredRow r = twoRankSimpleAt512MiB(CollectiveOp.REDUCE);
        double measured = b.timeUs() / r.timeUs();
        double simulated = p.predict(fitted, b).timeUs() / p.predict(fitted, r).timeUs();
        assertThat(measured).isBetween(0.97, 1.06);
        assertThat(simulated).isCloseTo(measured, offset(0.05));
        CtaCosts c = fitted.sim().ctaOf(Protocol.SIMPLE);
        CalibrationProfile summed = fitted.withSim(fitted.sim().withCta(Protocol.SIMPLE,
                c.with(CtaCosts.GPU_SEND, 0.0).with(CtaCosts.KEYS.indexOf("send_overlap"), 0.0)));
        double plain = p.predict(summed, b).timeUs() / p.predict(summed, r).timeUs();
        assertThat(plain).as("ratio with the streams added, no shared limit: " + plain + " (fitted: " + simulated + ")")
                .isNotCloseTo(measured, offset(0.05));
    }

    private static MeasuredRow twoRankSimpleAt512MiB(CollectiveOp op) {
        return rows.stream()
                .filter(r -> r.op() == op && r.n() == 2 && r.bytes() == 512L << 20 && r.forcedProto().get() == Protocol.SIMPLE)
                .findFirst().orElseThrow();
    }

    /** Per (op, mode, n): the median errors below 1 MiB [0] and from 1 MiB [1]. */
    private static Map<String, double[]> byGroup(ErrorTable t) {
        Map<String, double[]> byGroup = new java.util.TreeMap<>();
        for (ErrorTable.Group g : t.groups()) {
            String k = g.op() + " " + g.mode() + " n=" + g.nRanks();
            byGroup.computeIfAbsent(k, x -> new double[] {0, 0})[g.large() ? 1 : 0] = g.medianError();
        }
        return byGroup;
    }

    private static long within(Map<String, double[]> byGroup) {
        return byGroup.values().stream().filter(e -> e[0] <= ErrorTable.KERNEL_BOUND_SMALL && e[1] <= ErrorTable.KERNEL_BOUND_LARGE).count();
    }

    @Test
    void fittedProfileCarriesTheMeasuredGraphLaunchCosts() {
        // measured, not fitted (h200x4-skew): the host launches GPU r's graph r launches after
        // the start events, 10.3 µs + 1.29 µs per captured call each
        assertThat(fitted.sim().graphLaunchUs()).isEqualTo(10.3);
        assertThat(fitted.sim().graphCallLaunchUs()).isEqualTo(1.29);
        // so a 4-rank call of 50 captured calls carries 3 × (1.29 + 10.3 / 50) µs, a 2-rank one a third of that
        assertThat(fitted.sim().graphTimingSkewUs(4, 50)).isCloseTo(3 * (1.29 + 10.3 / 50), org.assertj.core.api.Assertions.within(1e-9));
    }

    @Test
    void fittedProfileKeepsTheForwardingUnitFloor() {
        // every protocol runs on the thread-block stream model
        assertThat(fitted.sim().cta().keySet()).containsExactlyInAnyOrder(Protocol.values());
        for (SimCosts.Family f : SimCosts.Family.values()) {
            for (Protocol p : Protocol.values()) {
                assertThat(fitted.sim().get(f, p).pipelineBytes()).isGreaterThanOrEqualTo((long) FitBlocks.KERNEL_MIN_PIPELINE_BYTES);
            }
        }
    }
}
