package io.ccsim.scenarios.incident;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.ccsim.scenarios.diagnosis.Category;
import io.ccsim.scenarios.diagnosis.Diagnosis;
import io.ccsim.scenarios.diagnosis.RankPhase;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The real incidents of experiments/incidents-h100x2 (README.md there: what happened in each) get their true culprit. */
class IncidentDiagnosisTest {

    /** What 2 H100 reach on all-reduce at these sizes with NVLink: 312 GB/s busbw at 1 GiB (all_reduce_g2.txt). */
    private static final IncidentTrace.Expectation NVLINK = row -> Optional.of(new IncidentTrace.Expected(
            row.bytes() / 312e9 * row.op().busBwFactor(row.n()) * 1e6, "2 x H100 NVLink"));

    private static IncidentReport report(String folder) throws Exception {
        return Real.report(folder, NVLINK);
    }

    @Test
    void healthyIsClean() throws Exception {
        IncidentReport r = report("healthy");
        assertThat(r.diagnosis()).isEmpty();
        assertThat(r.mapped().trace().finalStates().values()).allMatch(s -> s.phase() == RankPhase.DONE);
    }

    @Test
    void skipNamesRank1ForTheSkippedCollective8() throws Exception {
        List<Diagnosis> d = report("skip").diagnosis();
        assertThat(d).extracting(Diagnosis::category).containsExactly(Category.MISSING_RANK, Category.TIMEOUT);
        assertThat(d.get(0).ranks()).containsExactly(1);
        // rank 0's #8 is the conditional all-reduce; rank 1's #8 is the all-gather rank 0 calls as #9
        assertThat(d.get(0).summary()).contains("did not join collective #8 (ALLREDUCE").contains("skipped a collective");
        assertThat(d.get(1).ranks()).containsExactly(0);
        assertThat(d.get(1).summary()).contains("SeqNum=11");
    }

    @Test
    void mismatchNamesRank1AndItsSize() throws Exception {
        IncidentReport r = report("mismatch");
        assertThat(r.diagnosis()).singleElement().satisfies(x -> {
            assertThat(x.category()).isEqualTo(Category.COLLECTIVE_MISMATCH);
            assertThat(x.ranks()).containsExactly(1);
            assertThat(x.summary()).contains("#8").contains("NumelIn=1048000").contains("silently wrong");
        });
        assertThat(r.evidence().get(0)).extracting(Evidence::where)
                .anySatisfy(w -> assertThat(w).endsWith("fr_end_rank1.pkl entries[7] (record 7, #8 nccl:all_reduce)"));
    }

    @Test
    void sleepNamesRank1OutsideNcclAndItsLateEntry() throws Exception {
        IncidentReport r = report("sleep");
        Diagnosis first = r.diagnosis().get(0);
        assertThat(first.category()).isEqualTo(Category.MISSING_RANK);
        assertThat(first.ranks()).containsExactly(1);
        assertThat(first.summary()).contains("did not join collective #8").contains("outside NCCL");
        assertThat(r.mapped().trace().finalStates().get(1).phase()).isEqualTo(RankPhase.RUNNING);
        // the end-of-job dump shows it entered #8 40 s after rank 0 (it slept 40 s); ncclras shows it behind
        assertThat(r.evidence().get(0)).extracting(Evidence::text)
                .anySatisfy(t -> assertThat(t).matches("rank 1 entered #8 40\\.0\\d\\d s after rank 0 did.*"))
                .anySatisfy(t -> assertThat(t).startsWith("ncclras: rank 1 launched AllGather 2 of 4"));
        assertThat(r.diagnosis().get(1).category()).isEqualTo(Category.TIMEOUT);
        assertThat(r.diagnosis().get(1).ranks()).containsExactly(0);
    }

    @Test
    void ifnameNamesRank1AndItsMissingInterface() throws Exception {
        List<Diagnosis> d = report("ifname").diagnosis();
        assertThat(d.get(0).category()).isEqualTo(Category.BOOTSTRAP_STALL);
        assertThat(d.get(0).ranks()).containsExactly(1);
        assertThat(d.get(0).summary()).contains("ncclInvalidUsage").contains("no socket interface found");
        // rank 0 waits in the bootstrap for it: a consequence, after it
        assertThat(d.subList(1, d.size())).isNotEmpty().allSatisfy(x -> assertThat(x.ranks()).containsExactly(0));
    }

    @Test
    void theStarvedNcclTestsRunIsTheOnlySlowOne() throws Exception {
        IncidentReport r = report("nccl-tests");
        assertThat(r.diagnosis()).singleElement().satisfies(x -> {
            assertThat(x.category()).isEqualTo(Category.SLOW_LINK);
            assertThat(x.links()).singleElement().satisfies(l -> assertThat(l).isEqualTo("GPU-to-GPU data path (all_reduce_g2_starved.txt)"));
        });
        // 2.76 GB/s measured at 1 GiB against 312: 0.9 %
        assertThat(r.mapped().starved()).singleElement().satisfies(s -> assertThat(s.fraction()).isBetween(0.0085, 0.0092));
        assertThat(r.evidence().get(0)).extracting(Evidence::text).anySatisfy(t -> assertThat(t).startsWith("likely cause:")
                .contains("NCCL_P2P_DISABLE=1 and NCCL_SHM_DISABLE=1"));
        assertThat(Real.report("nccl-tests", IncidentTrace.Expectation.NONE).diagnosis()).isEmpty();
    }

    @Test
    void theJsonDiagnosisHasTheSchemaOfScenarioRun() throws Exception {
        JsonObject o = JsonParser.parseString(report("skip").toJson()).getAsJsonObject();
        JsonObject d = o.getAsJsonArray("diagnosis").get(0).getAsJsonObject();
        assertThat(d.keySet()).containsExactly("category", "ranks", "links", "summary");
        assertThat(d.get("category").getAsString()).isEqualTo("MISSING_RANK");
        assertThat(d.getAsJsonArray("ranks").get(0).getAsInt()).isEqualTo(1);
        assertThat(o.getAsJsonArray("evidence").size()).isEqualTo(o.getAsJsonArray("diagnosis").size());
    }
}
