package io.ccsim.scenarios.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.scenarios.format.Settings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The analyzer on two ranks, where a majority cannot name the culprit (the real incidents of experiments/incidents-h100x2
 * ran on two H100): a skip is told by the shifted sequence, a mismatch by the call the ranks' other calls use, and a
 * communicator init that failed with an NCCL error names its rank.
 */
class TwoRankMatchTest {

    /** {@code "AR:1000"}: an entry per call, completed unless it is at or after {@code pendingFrom}. */
    private static List<FrEntry> calls(long pendingFrom, String... sigs) {
        List<FrEntry> out = new ArrayList<>();
        for (int i = 0; i < sigs.length; i++) {
            String[] p = sigs[i].split(":");
            long n = Long.parseLong(p[1]);
            boolean done = i + 1 < pendingFrom;
            out.add(new FrEntry(i, "world", i + 1, p[0], n, p[0].equals("ALLGATHER") ? 2 * n : n, "float32",
                    done ? "completed" : "scheduled", 1000L * i, -1, done ? 1000L * i + 500 : -1, null));
        }
        return out;
    }

    private static Trace trace(List<FrEntry> r0, List<FrEntry> r1, List<InitRecord> inits) {
        return new Trace(2, List.of(), Map.of(0, r0, 1, r1), inits, List.of(), List.of(), List.of(), List.of(), Map.of(), List.of(),
                List.of(), Map.of("world", List.of(0, 1)), Map.of(), Settings.defaults(), Map.of(), Map.of(), List.of(), 0, false);
    }

    @Test
    void aSkipOnTwoRanksIsToldByTheShiftedSequence() {
        // rank 0: AR AR AG BC AR AG BC (the conditional AR is #2); rank 1 skipped it: AR AG BC AR AG BC
        List<Diagnosis> d = Analyzer.analyze(trace(calls(99, "ALLREDUCE:1000", "ALLREDUCE:1000", "ALLGATHER:1000", "BROADCAST:1000",
                "ALLREDUCE:1000", "ALLGATHER:1000", "BROADCAST:1000"), calls(99, "ALLREDUCE:1000", "ALLGATHER:1000", "BROADCAST:1000",
                "ALLREDUCE:1000", "ALLGATHER:1000", "BROADCAST:1000"), List.of()));
        assertThat(d).first().satisfies(x -> {
            assertThat(x.category()).isEqualTo(Category.MISSING_RANK);
            assertThat(x.ranks()).containsExactly(1);
            assertThat(x.summary()).contains("did not join collective #2").contains("skipped a collective");
        });
    }

    @Test
    void aTiedMismatchBlamesTheUnusualCallWhicheverRankMadeIt() {
        String[] usual = {"ALLREDUCE:1000", "ALLREDUCE:1000", "ALLREDUCE:1000"};
        String[] odd = {"ALLREDUCE:1000", "ALLREDUCE:999", "ALLREDUCE:1000"};
        for (int culprit = 0; culprit < 2; culprit++) {
            List<FrEntry> a = calls(99, usual), b = calls(99, odd);
            List<Diagnosis> d = Analyzer.analyze(culprit == 1 ? trace(a, b, List.of()) : trace(b, a, List.of()));
            int c = culprit;
            assertThat(d).singleElement().satisfies(x -> {
                assertThat(x.category()).isEqualTo(Category.COLLECTIVE_MISMATCH);
                assertThat(x.ranks()).containsExactly(c);
                // every call completed: NCCL does not check sizes, the results are silently wrong
                assertThat(x.summary()).contains("NumelIn=999").contains("silently wrong");
            });
        }
    }

    @Test
    void aPendingMismatchNeverCompletes() {
        List<Diagnosis> d = Analyzer.analyze(trace(calls(2, "ALLREDUCE:1000", "ALLREDUCE:1000"), calls(2, "ALLREDUCE:1000",
                "ALLREDUCE:999"), List.of()));
        assertThat(d).singleElement().satisfies(x -> assertThat(x.summary()).endsWith("so the collective never completes"));
    }

    @Test
    void anInitThatFailedWithAnNcclErrorNamesItsRank() {
        InitRecord failed = new InitRecord(0, 1, "world", "", 0, false, List.of(), List.of(), 0, -1, -1,
                "error: ncclInvalidUsage: invalid usage; last error: Bootstrap : no socket interface found");
        InitRecord split = new InitRecord(0, 0, "world", "", 0, false, List.of(), List.of(), 0, -1, -1,
                "error: ncclCommSplit for group g: rank 0 is not in parent group world");
        List<Diagnosis> d = Analyzer.analyze(trace(List.of(), List.of(), List.of(failed, split)));
        assertThat(d).singleElement().satisfies(x -> {
            assertThat(x.category()).isEqualTo(Category.BOOTSTRAP_STALL);
            assertThat(x.ranks()).containsExactly(1);
            assertThat(x.summary()).contains("failed: ncclInvalidUsage").contains("no socket interface found");
        });
    }
}
