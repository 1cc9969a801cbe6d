package io.ccsim.scenarios.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.scenarios.Outcome;
import io.ccsim.scenarios.ScenarioResult;
import io.ccsim.scenarios.ScenarioRunner;
import io.ccsim.scenarios.diagnosis.Category;
import io.ccsim.scenarios.diagnosis.Diagnosis;
import io.ccsim.scenarios.diagnosis.FrEntry;
import io.ccsim.scenarios.format.ScenarioParser;
import io.ccsim.scenarios.format.Units;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Symmetric memory in a job: backend choice, group registration and resolution, rendezvous, the
 * all-reduces; and the regression tests of the incidents of NVIDIA/Fuser PR #6023 (the catalog's 11, 12 and 13).
 */
class SymmMemTest {
    private static final String TEAM8 = "nccl0,1,2,3,4,5,6,7";

    private static ScenarioResult run(String env, String program) {
        String json = "{\"name\": \"s\", \"topology\": {\"name\": \"hgx-h100\"}, \"settings\": {\"store_timeout\": \"30s\"},"
                + " \"job\": {\"world_size\": 8, \"eager_init\": true, \"env\": {" + env + "}, \"program\": " + program + "}}";
        return ScenarioRunner.run(ScenarioParser.parse(json, "symm"), 2);
    }

    private static Diagnosis only(ScenarioResult r, Category c) {
        List<Diagnosis> ds = r.diagnosis(c);
        assertThat(ds).as(r.toText()).hasSize(1);
        return ds.get(0);
    }

    private static long allReducesOn(ScenarioResult r, int rank, String group) {
        return r.flightRecords().get(rank).stream().filter(e -> e.group().equals(group) && e.op().equals("ALLREDUCE")).count();
    }

    @Test
    void nonMemberTeamWrapperCrashesTheNcclRendezvousAndTheDiagnosisNamesIt() {
        ScenarioResult r = ScenarioRunner.runCatalog("11-symm-non-member-team", 1);
        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        Diagnosis d = only(r, Category.INVALID_PROCESS_GROUP);
        assertThat(d.ranks()).containsExactly(4, 5, 6, 7);
        assertThat(d.summary()).contains("not in team 'tp' (ranks 0-3)", "under 'nccl0,1,2,3'", "with rank 4 (== the team size 4",
                "out of range [0, 3]", "a null NCCL backend", "segmentation fault", "Fix: guard team membership");
        assertThat(r.diagnosis().get(0).category()).as("the cause comes before the crashes it causes").isEqualTo(Category.INVALID_PROCESS_GROUP);
        assertThat(r.ranks().subList(4, 8)).allSatisfy(x -> assertThat(x.detail()).contains("SIGSEGV"));
    }

    @Test
    void guardedRegistrationLetsNonMembersSkipTheTeam() {
        ScenarioResult r = ScenarioRunner.runCatalog("11-symm-non-member-team-fixed", 1);
        assertThat(r.outcome()).as(r.toText()).isEqualTo(Outcome.COMPLETED);
        assertThat(r.diagnosis()).isEmpty();
        assertThat(r.ranks().subList(0, 4)).allSatisfy(x -> assertThat(x.collectives()).isEqualTo(100));
        assertThat(r.ranks().subList(4, 8)).allSatisfy(x -> assertThat(x.collectives()).isZero());
        assertThat(r.events()).noneMatch(e -> e.kind().equals("REGISTER_PG") && e.rank() >= 4);
    }

    @Test
    void nonMemberWrapperWithTheCudaBackendHangsAfterTheHandleExchange() {
        ScenarioResult r = run("\"TORCH_SYMMMEM\": \"CUDA\"", "[{\"new_group\": {\"name\": \"tp\", \"ranks\": [0, 1, 2, 3], \"register\": false}},"
                + " {\"register_process_group\": {\"group\": \"tp\"}}, {\"symm_mem_alloc\": {\"tensor\": \"x\", \"bytes\": \"1MiB\"}},"
                + " {\"symm_mem_rendezvous\": {\"tensor\": \"x\", \"group\": \"tp\"}}]");
        assertThat(r.outcome()).as(r.toText()).isEqualTo(Outcome.HANG);
        Diagnosis d = only(r, Category.INVALID_PROCESS_GROUP);
        assertThat(d.ranks()).containsExactly(4, 5, 6, 7);
        assertThat(d.summary()).contains("CUDA backend", "hang in the IPC descriptor exchange");
        assertThat(r.ranks().subList(0, 4)).allSatisfy(x -> assertThat(x.state().name()).isEqualTo("DONE"));
    }

    @Test
    void prefixedRegistrationIsNotFoundUnderTheBareKeyAndTheDiagnosisShowsBoth() {
        ScenarioResult r = ScenarioRunner.runCatalog("12-symm-unregistered-group", 1);
        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        Diagnosis d = only(r, Category.UNRESOLVED_PROCESS_GROUP);
        assertThat(d.ranks()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
        assertThat(d.summary()).contains("looked up process group '" + TEAM8 + "'", "'world', 'symm_mem_" + TEAM8 + "'",
                "lacks the 'symm_mem_' prefix", "register and resolve under one key");
        ScenarioResult fixed = ScenarioRunner.runCatalog("12-symm-unregistered-group-fixed", 1);
        assertThat(fixed.outcome()).as(fixed.toText()).isEqualTo(Outcome.COMPLETED);
        assertThat(fixed.ranks()).allSatisfy(x -> assertThat(x.collectives()).isEqualTo(10));
    }

    @Test
    void aTeamNeverRegisteredIsNamedWithTheRegistrationItNeeds() {
        ScenarioResult r = run("\"TORCH_SYMMMEM\": \"NCCL\"", "[{\"new_group\": {\"name\": \"team\", \"ranks\": [0, 1, 2, 3, 4, 5, 6, 7],"
                + " \"register\": false}}, {\"symm_mem_alloc\": {\"tensor\": \"x\", \"bytes\": \"1MiB\"}},"
                + " {\"symm_mem_rendezvous\": {\"tensor\": \"x\", \"group\": \"team\"}}]");
        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        Diagnosis d = only(r, Category.UNRESOLVED_PROCESS_GROUP);
        assertThat(d.summary()).contains("registered on rank 0: 'world'", "nothing registers group team",
                "register_process_group('team', pg)");
        // torch.distributed's own new_group registers itself: the same program then runs
        ScenarioResult ok = run("\"TORCH_SYMMMEM\": \"NCCL\"", "[{\"new_group\": {\"name\": \"team\", \"ranks\": [0, 1, 2, 3, 4, 5, 6, 7]}},"
                + " {\"symm_mem_alloc\": {\"tensor\": \"x\", \"bytes\": \"1MiB\"}},"
                + " {\"symm_mem_rendezvous\": {\"tensor\": \"x\", \"group\": \"team\"}},"
                + " {\"symm_mem_all_reduce\": {\"tensor\": \"x\", \"group\": \"team\", \"algo\": \"one_shot\"}}]");
        assertThat(ok.outcome()).as(ok.toText()).isEqualTo(Outcome.COMPLETED);
    }

    @Test
    void unknownBackendArgumentRunsTheNativePathAndTheDiagnosisNamesTheOption() {
        ScenarioResult r = ScenarioRunner.runCatalog("13-symm-unknown-backend", 1);
        ScenarioResult fixed = ScenarioRunner.runCatalog("13-symm-unknown-backend-fixed", 1);
        assertThat(r.outcome()).isEqualTo(Outcome.DEGRADED);
        Diagnosis d = only(r, Category.BACKEND_FALLBACK);
        assertThat(d.ranks()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
        assertThat(d.summary()).contains("NVFUSER_ENABLE=symmetric_memory_backend(pytorch_invalid)", "'pytorch_invalid'",
                "valid: pytorch_nccl, pytorch_nvshmem, pytorch_cuda", "returned Native", "50 symm_mem two_shot all-reduces",
                "ProcessGroupNCCL");
        // the fallback ran every all-reduce through ProcessGroupNCCL (flight-recorded); the fixed job ran none there
        assertThat(allReducesOn(r, 0, "team")).isEqualTo(50);
        assertThat(allReducesOn(fixed, 0, "team")).isZero();
        assertThat(fixed.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(fixed.diagnosis()).isEmpty();
        assertThat(fixed.events()).anyMatch(e -> e.kind().equals("SYMM_ALLOC") && e.text().contains("by the NCCL backend"));
        assertThat(r.events()).anyMatch(e -> e.kind().equals("SYMM_ALLOC") && e.text().contains("by the Native backend"));
        assertThat(fixed.simTimePs()).as("the symmetric kernel beats the fallback's NCCL all-reduce at 1 MiB").isLessThan(r.simTimePs());
    }

    @Test
    void theBackendCannotChangeAfterTheFirstAllocation() {
        ScenarioResult before = run("", "[{\"symm_mem_set_backend\": \"NVSHMEM\"}, {\"symm_mem_alloc\": {\"tensor\": \"x\", \"bytes\": 4096}}]");
        assertThat(before.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(before.events()).anyMatch(e -> e.kind().equals("SYMM_ALLOC") && e.text().contains("NVSHMEM"));
        ScenarioResult after = run("", "[{\"symm_mem_alloc\": {\"tensor\": \"x\", \"bytes\": 4096}}, {\"symm_mem_set_backend\": \"NCCL\"}]");
        assertThat(after.outcome()).isEqualTo(Outcome.ERROR);
        Diagnosis d = only(after, Category.SYMM_MEM_ERROR);
        assertThat(d.ranks()).hasSize(8);
        assertThat(d.summary()).contains("Backend can not be changed after use", "which used CUDA");
    }

    @Test
    void rendezvousChecksThatEveryRankAllocatedTheSameSize() {
        ScenarioResult r = run("", "[{\"symm_mem_alloc\": {\"tensor\": \"x\", \"bytes\": \"1MiB\"}},"
                + " {\"symm_mem_alloc\": {\"tensor\": \"x\", \"bytes\": \"2MiB\"}, \"ranks\": [5]},"
                + " {\"symm_mem_rendezvous\": {\"tensor\": \"x\"}}]");
        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.diagnosis(Category.SYMM_MEM_ERROR)).anySatisfy(d -> assertThat(d.summary()).contains("differ in size", "rank 5 has 2.0 MiB"));
    }

    @Test
    void allocationsChargeGranularBlocksOutsideTheCachingAllocator() {
        // CUDA: roundup(roundup(S, 16) + 9216 B signal pad, 2 MiB): 2 MiB of payload takes 4 MiB
        assertThat(SymmMemory.charge(io.ccsim.scenarios.format.SymmBackend.CUDA, 2L << 20)).isEqualTo(4L << 20);
        assertThat(SymmMemory.charge(io.ccsim.scenarios.format.SymmBackend.NCCL, 2L << 20)).isEqualTo(2L << 20);
        ScenarioResult r = run("", "[{\"alloc\": {\"bytes\": \"78GiB\"}}, {\"symm_mem_alloc\": {\"tensor\": \"x\", \"bytes\": \"2GiB\"}}]");
        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.diagnosis(Category.OUT_OF_MEMORY)).isNotEmpty();
        assertThat(r.ranks().get(0).detail()).contains("of symmetric memory (CUDA)");
    }

    @Test
    void symmetricAllReducesAreMatchedAcrossRanksAndTimedOnTheFabric() {
        ScenarioResult r = run("\"TORCH_SYMMMEM\": \"CUDA\"", "[{\"symm_mem_alloc\": {\"tensor\": \"x\", \"bytes\": \"64MiB\"}},"
                + " {\"symm_mem_rendezvous\": {\"tensor\": \"x\"}}, {\"compute\": \"1ms\", \"ranks\": [3]},"
                + " {\"symm_mem_all_reduce\": {\"tensor\": \"x\", \"algo\": \"one_shot\"}},"
                + " {\"symm_mem_all_reduce\": {\"tensor\": \"x\", \"algo\": \"two_shot\", \"dtype\": \"float32\"}}]");
        assertThat(r.outcome()).as(r.toText()).isEqualTo(Outcome.COMPLETED);
        assertThat(r.ranks()).allSatisfy(x -> assertThat(x.collectives()).isEqualTo(2));
        // nobody finishes before rank 3 arrives at 1 ms; one-shot moves 7 x 64 MiB into each GPU (> 0.9 ms at < 478 GB/s)
        assertThat(r.simTimePs()).isGreaterThan(Units.ms(1) + 900 * Units.PS_PER_US);
        List<FrEntry> fr = r.flightRecords().get(0);
        assertThat(fr).as("symm_mem ops are not ProcessGroupNCCL work").isEmpty();
    }
}
