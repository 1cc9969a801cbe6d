package io.ccsim.algorithms.fit;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.algorithms.profile.CalibrationProfile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 3's "real measurements as fixtures" check: {@code ccsim perf}'s predictions with the built-in
 * H200 profile against NCCL 2.28.9 on 4 × H200 (calibration/nccl-h200, graph replay, n = 2 and 4).
 * For every (op, algorithm/protocol, n) measured, the median relative time error must be at most
 * {@value #LARGE_BOUND} for sizes ≥ 64 KiB and {@value #SMALL_BOUND} below — except the groups listed
 * in {@link #KNOWN}, where the simulator has a structural gap the fit cannot close (see there); those
 * are held to their current error so that they cannot get worse unnoticed.
 */
class NcclFixtureTest {
    static final double LARGE_BOUND = 0.10;
    static final double SMALL_BOUND = 0.25;

    /**
     * Groups over the bound with the built-in profile, with the cap they are held to (the fitted
     * error rounded up, plus one point). None of the 111 groups now; 2 before the multi-peer NVLink efficiency
     * ({@code sim.multi_peer_efficiency}), 4 before all_to_all ran its self copy on a lane of its own, 7 before LL got
     * thread-block stream costs ({@code sim.cta.LL}) and a forwarding unit below 64 KiB (all_gather Ring/LL n = 2
     * 12.0 % -> 5.0 %, broadcast and reduce default:Ring/LL n = 4 12.0 % -> 7.1 % and 17.0 % -> 4.6 %), 10 before the
     * NVLink duplex efficiency ({@code sim.duplex_efficiency}), 20 before ring broadcast/reduce got their own
     * {@code sim.chain} costs, 40 before the profile got its own {@code sim} section and cut-through forwarding.
     * The last two, fixed by the multi-peer efficiency (a GPU that sends to or receives from several peers at once
     * gets a fraction of its NVLink capacity; per protocol, least squares on the bandwidth-bound rows):
     * <ul>
     *   <li>Tree/LL n = 4 ≥ 64 KiB was 13.7 % (rows from 8 MiB 11-18 % fast while n = 2 fit): a middle rank of the
     *   4-rank chain moves 2 × 70.3 GB/s per direction at 1 GiB, 0.93 of what a ring LL rank moves at n = 4: a
     *   per-GPU limit that no per-channel one expresses (NCCL's 70/30 runTreeSplit as lane shares, tried in session
     *   4, fit worse). With LL's multi-peer efficiency 0.78: 3.1 % (Tree/LL128 n = 4 9.0 -> 7.5 % with 0.81).</li>
     *   <li>all_to_all n = 4 ≥ 64 KiB was 16.2 %: with NCCL's p2p channel counts (Tuner.p2pOpChannels: 8 channels per
     *   4-rank operation up to 128 MiB, 16 at 256 MiB) and send/recv's per-channel limit (20.3 GB/s) its 24 channels
     *   got the whole NVLink rate, but NCCL moves 313-325 GB/s per GPU there against send/recv's 360 at 32 channels.
     *   With Simple's 0.86: 9.3 %; send/recv (one peer each way) is untouched (5.3 %). Simple's value is a
     *   compromise: alone, the all-to-all rows (three peers) fit best at 0.81 (6.1 %), the Tree/Simple n = 4 rows
     *   (two peers, 336 GB/s per middle rank) at 0.9 or more (1.0 % without the limit, 4.4 % with 0.86). The
     *   all-to-all rows from 2 to 16 MiB stay 14-32 % fast (one on 24 channels starts ~4 µs later than one on 12,
     *   a latency the model lacks).</li>
     *   <li>(Fixed before) all_to_all ≥ 64 KiB was 13.5 % (n = 2) and 10.7 % (n = 4) while the plan ran the self
     *   copy at the head of the send lane; NCCL runs it as its own p2p operation, overlapped with the peer transfers,
     *   and so does AllToAllPlanner's third lane now.</li>
     * </ul>
     */
    static final Map<String, Double> KNOWN = Map.of();

    static List<FixtureRow> rows;
    static List<Prediction> preds;
    static ErrorTable table;

    @BeforeAll
    static void predict() throws IOException {
        Path dir = Path.of("..", "calibration", "nccl-h200");
        rows = NcclFixtures.loadAll(List.of(dir.resolve("nccl-2.28.9-h200-n4.json"), dir.resolve("nccl-2.28.9-h200-n2.json")));
        preds = new FixturePredictor().predictAll(CalibrationProfile.builtin("h200"), rows);
        table = ErrorTable.of(preds);
        System.out.print(table.format());
    }

    @Test
    void fixturesCoverEveryMeasuredMode() {
        // 7 ops × n ∈ {2, 4} default, Ring × 3 protocols for 5 ops, Tree × 3 for all-reduce, graph rows only
        assertThat(rows).hasSizeGreaterThan(1300);
        assertThat(rows).allMatch(r -> r.nRanks() == 2 || r.nRanks() == 4);
        assertThat(table.groups().stream().map(ErrorTable.Group::mode).distinct())
                .contains("Ring/LL", "Ring/LL128", "Ring/Simple", "Tree/LL", "Tree/LL128", "Tree/Simple", "default:P2P");
    }

    @Test
    void medianErrorPerOpAlgorithmProtocolWithinBounds() {
        List<String> failures = new ArrayList<>();
        for (ErrorTable.Group g : table.groups()) {
            double bound = g.large() ? LARGE_BOUND : SMALL_BOUND;
            Double known = KNOWN.get(g.key());
            double cap = known != null ? Math.max(known, bound) : bound;
            if (g.medianError() > cap) {
                failures.add(String.format(Locale.ROOT, "%s: median error %.1f %% > %.1f %%", g.key(), 100 * g.medianError(), 100 * cap));
            }
        }
        assertThat(failures).as("groups over their bound").isEmpty();
    }

    @Test
    void knownExceedancesAreStillNeeded() {
        // a KNOWN entry whose group now meets the bound must be removed (the bound applies again)
        for (ErrorTable.Group g : table.groups()) {
            if (KNOWN.containsKey(g.key())) {
                assertThat(g.medianError()).as(g.key() + " meets the issue's bound now: drop it from KNOWN")
                        .isGreaterThan(g.large() ? LARGE_BOUND : SMALL_BOUND);
            }
        }
        assertThat(table.groups().stream().map(ErrorTable.Group::key)).containsAll(KNOWN.keySet());
    }

    @Test
    void defaultChoicesAgreeWithNccl() {
        List<Prediction> withLog = preds.stream().filter(p -> !p.row().forced() && p.row().ncclAlgo().isPresent()).toList();
        long agree = withLog.stream().filter(Prediction::choiceAgrees).count();
        double rate = (double) agree / withLog.size();
        System.out.printf(Locale.ROOT, "default-mode (algo, proto) agreement with NCCL: %d / %d = %.1f %%%n", agree, withLog.size(), 100 * rate);
        for (Prediction p : withLog) {
            if (!p.choiceAgrees()) {
                System.out.printf(Locale.ROOT, "  differs: n=%d %s %d B: NCCL %s, ccsim %s/%s%n", p.row().nRanks(), p.row().op(), p.row().bytes(),
                        p.row().algoProto(), p.algo().ncclName(), p.proto().ncclName());
            }
        }
        assertThat(withLog).hasSizeGreaterThan(200);
        assertThat(rate).isGreaterThanOrEqualTo(AGREEMENT_FLOOR);
    }

    /**
     * The agreement floor: 272 / 278 = 97.8 % with NCCL's constants in the Tuner's sections (the simulator's
     * fitted numbers live in {@code sim}, which the Tuner never reads); NCCL's own log is the reference.
     */
    static final double AGREEMENT_FLOOR = 0.97;
}
