package io.ccsim.algorithms.fit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;
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
 * Issue 4's fidelity check on the CudaExecutor's own timings (gpu-backend/results/h200x4-fidelity/timing.json: 4 × H200,
 * n = 2 and 4, every op × algorithm × protocol at 16 channels, 4 KiB .. 512 MiB, 3 trials merged into their median, and
 * a 4/64-channel all-reduce sweep): the profile fitted to them (h200x4-fidelity/profile-fitted.json, by
 * {@link KernelFit}) predicts every row with the plan that ran, as back-to-back calls like the graph replay that timed
 * it. The fit is in-sample (fitted on the same rows). Each group's median error must stay within what the fit reached
 * (recorded in the profile's {@code fit} section) plus one point, so that a simulator change that makes it worse is
 * caught; and the number of groups within issue 4's bounds must not drop below the 45 of 48 measured. (The older
 * h200x4/ and h200x2/ timings ran all-to-all with its self copy on the send lane, before AllToAllPlanner's third lane.)
 */
class KernelFitTest {
    static final Path DIR = Path.of("..", "gpu-backend", "results", "h200x4-fidelity");
    /**
     * Groups (op, algo, proto, n) within both bounds with profile-fitted.json: all 48 (every group within 15 % below
     * 1 MiB). Session 9 reached 39, session 4 31, session 3 23, the one before
     * 20: the timing's graph launch costs (sim.graph_launch_us) and line-sized LL/LL128 forwarding units made the
     * difference, then (session 5) Simple stream costs without a cache step (35), then (session 9) a thread block's
     * costs rising with the blocks beside it (sim.cta.*.channel_load, 38), and a refit of the tree LL128 and p2p
     * latencies weighing the rows from 1 MiB 5 x (39), then (session 14) the link-side work overlapping the local work in
     * part (sim.cta.*.send_overlap) and a refit with more evaluations per block (44), then (session 19) a send limit the
     * rank's sending thread blocks share (sim.cta.Simple.gpu_send_gbps, 45), then (session 20) Simple's receive-only steps
     * without the sending steps' fence cost (sim.*.Simple.recv_step_overhead_ns) and a refit of the Simple blocks with
     * --criterion 0.9 (46), then (session 21) LL128's send overlap hidden behind the output stores only
     * (sim.cta.LL128.send_overlap_loads = 0) and a refit of the LL128 blocks ending with --criterion 0.9 (48; the closest
     * from 1 MiB: all_to_all P2P/Simple n = 4 at 5.0 %, reduce_scatter Ring/LL128 n = 4 at 4.8 %).
     */
    static final int GROUPS_WITHIN_MEASURED = 48;

    static List<FixtureRow> rows;
    static CalibrationProfile fitted;
    static ErrorTable table;

    @BeforeAll
    static void predict() throws IOException {
        rows = new ArrayList<>(KernelTimings.load(DIR.resolve("timing.json")));
        fitted = CalibrationProfile.load(DIR.resolve("profile-fitted.json"));
        table = ErrorTable.of(new FixturePredictor().predictAll(fitted, rows), ErrorTable.KERNEL_LARGE_BYTES);
        System.out.print(table.format());
    }

    @Test
    void loaderKeepsGraphRowsWithTheirOwnPlan() {
        // 2,784 rows in the file: 2 × 432 points × 3 trials (merged into 864) + 2 × 96 channel-sweep rows
        assertThat(rows).hasSize(864 + 192);
        assertThat(rows).allMatch(r -> r.planChannels().isPresent() && r.forced());
        assertThat(rows.stream().mapToInt(r -> r.planChannels().getAsInt()).distinct().sorted().toArray())
                .containsExactly(4, 16, 64);
        assertThat(rows.stream().map(FixtureRow::mode).distinct())
                .contains("Ring/LL", "Ring/LL128", "Ring/Simple", "Tree/LL", "Tree/LL128", "Tree/Simple", "P2P/LL", "P2P/LL128", "P2P/Simple");
    }

    @Test
    void predictionUsesTheRowsChannelCount() {
        // the channel sweep: same op and size, 4, 16 and 64 channels; the prediction must follow the plan that ran
        List<FixtureRow> sweep = rows.stream().filter(r -> r.bytes() == 512L << 20 && r.nRanks() == 4
                && r.op() == CollectiveOp.ALL_REDUCE && r.forcedAlgo().get() == Algorithm.RING
                && r.forcedProto().get() == Protocol.SIMPLE).toList();
        FixturePredictor p = new FixturePredictor();
        for (FixtureRow r : sweep) assertThat(p.predict(fitted, r).channels()).isEqualTo(r.planChannels().getAsInt());
        FixtureRow c4 = sweep.stream().filter(r -> r.planChannels().getAsInt() == 4).findFirst().orElseThrow();
        FixtureRow c64 = sweep.stream().filter(r -> r.planChannels().getAsInt() == 64).findFirst().orElseThrow();
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
        assertThat(failures).as("groups worse than the fit").isEmpty();
        // 48 (op, algo, proto, n) groups, each with both size classes
        assertThat(table.groups()).hasSize(96);
    }

    @Test
    void groupsWithinIssueBoundsDoNotDrop() {
        Map<String, double[]> byGroup = byGroup(table);
        assertThat(byGroup).hasSize(48);
        assertThat(within(byGroup)).isGreaterThanOrEqualTo(GROUPS_WITHIN_MEASURED);
    }

    /**
     * Out of sample: a fresh n = 2 sweep of the same kernels on another host 14 h later (gpu-backend/results/
     * h200x2-repeat/timing-a.json; it repeats a second run of the same lease within 0.3 % from 1 MiB), which the
     * profile never saw: 23 of its 24 groups within issue 4's bounds (all 24 with session 20's profile, 23 before its
     * receive-only step overhead, 20 before send_overlap; 15 of 24 on the fitted run's own n = 2 rows in session 4).
     * Session 21's LL128 refit loses all_gather Ring/LL128 n = 2 here (4.6 -> 5.6 % from 1 MiB; 4.5 % on the fitted
     * run): its simulated curve steps at the L2 size between 8 and 16 MiB, where neither host's measured one does.
     */
    @Test
    void freshRunOfTheKernelsOnAnotherHostStaysWithinTheBounds() throws IOException {
        List<FixtureRow> fresh = KernelTimings.load(Path.of("..", "gpu-backend", "results", "h200x2-repeat", "timing-a.json"));
        assertThat(fresh).hasSize(432 + 96).allMatch(r -> r.nRanks() == 2);
        ErrorTable t = ErrorTable.of(new FixturePredictor().predictAll(fitted, fresh), ErrorTable.KERNEL_LARGE_BYTES);
        Map<String, double[]> byGroup = byGroup(t);
        assertThat(byGroup).hasSize(24);
        assertThat(within(byGroup)).as(t.format()).isGreaterThanOrEqualTo(23);
    }

    /**
     * What send_overlap is for: a 2-rank Simple broadcast (the root copy-sends: src + dst + send) and reduce (the peer
     * sends: src + send) measure within 3 % of each other at 512 MiB (time ratio 1.028); with the streams simply added
     * (the session-9 profile) the simulated ratio was 1.153, with send_overlap it is 1.071. It must stay within 5 points
     * of the measured one. Since session 20's refit the GPU's shared send limit holds both at 512 MiB (simulated ratio
     * 1.000; the blocks' own rates, overlap 0.19, would give 1.043). With neither the overlap nor the limit, the streams
     * simply added, the ratio must drift off by more than 5 points (1.124): the model needs one of the two to match.
     */
    @Test
    void twoRankBroadcastAndReduceRunAtTheSameRateAsMeasured() {
        FixturePredictor p = new FixturePredictor();
        FixtureRow b = twoRankSimpleAt512MiB(CollectiveOp.BROADCAST);
        FixtureRow r = twoRankSimpleAt512MiB(CollectiveOp.REDUCE);
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

    private static FixtureRow twoRankSimpleAt512MiB(CollectiveOp op) {
        return rows.stream()
                .filter(r -> r.op() == op && r.nRanks() == 2 && r.bytes() == 512L << 20 && r.forcedProto().get() == Protocol.SIMPLE)
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
        // measured, not fitted (gpu-backend/results/h200x4-skew): the host launches GPU r's graph r launches after
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
                assertThat(fitted.sim().get(f, p).pipelineBytes()).isGreaterThanOrEqualTo((long) ProfileFitter.KERNEL_MIN_PIPELINE_BYTES);
            }
        }
    }

    @Test
    void badRowsAreNamed() {
        assertThatThrownBy(() -> KernelTimings.parse("{\"rows\": []}", "t.json")).hasMessageContaining("t.json").hasMessageContaining("JSON array");
        String row = "[{\"op\": \"all_reduce\", \"n\": 4, \"algo\": \"%s\", \"proto\": \"%s\", \"channels\": %d, \"bytes\": 1024,"
                + " \"dtype\": \"%s\", \"redop\": \"sum\", \"root\": 0, \"graph\": true, \"time_us\": 10.0}]";
        assertThatThrownBy(() -> KernelTimings.parse(String.format(row, "NVLS", "Simple", 16, "float"), "t.json"))
                .hasMessageContaining("t.json [0].algo").hasMessageContaining("valid: Ring, Tree, P2P");
        assertThatThrownBy(() -> KernelTimings.parse(String.format(row, "Ring", "LL64", 16, "float"), "t.json"))
                .hasMessageContaining("t.json [0].proto").hasMessageContaining("LL, LL128, Simple");
        assertThatThrownBy(() -> KernelTimings.parse(String.format(row, "Ring", "LL", 0, "float"), "t.json"))
                .hasMessageContaining("t.json [0].channels: must be >= 1");
        assertThatThrownBy(() -> KernelTimings.parse(String.format(row, "Ring", "LL", 16, "half"), "t.json"))
                .hasMessageContaining("t.json [0].dtype").hasMessageContaining("valid: float");
        List<FixtureRow> ok = KernelTimings.parse(String.format(row, "p2p", "ll128", 8, "float"), "t.json");
        assertThat(ok).singleElement().satisfies(r -> {
            assertThat(r.forcedAlgo()).contains(Algorithm.P2P);
            assertThat(r.forcedProto()).contains(Protocol.LL128);
            assertThat(r.planChannels().getAsInt()).isEqualTo(8);
        });
    }
}
