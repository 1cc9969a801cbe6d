package io.ccsim.scenarios.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ccsim.algorithms.DataType;
import io.ccsim.scenarios.ScenarioFormatException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The symmetric-memory steps and job.env: parsed fully, or refused with the JSON path and what is valid. */
class SymmStepReaderTest {
    private static String scenario(String env, String steps) {
        return "{\"name\": \"x\", \"topology\": {\"name\": \"hgx-h100\"}, \"job\": {\"world_size\": 8" + env
                + ", \"program\": [" + steps + "]}}";
    }

    private static Scenario parse(String env, String steps) { return ScenarioParser.parse(scenario(env, steps), "f.json"); }

    private static void fails(String env, String steps, String path, String... fragments) {
        assertThatThrownBy(() -> parse(env, steps))
                .isInstanceOf(ScenarioFormatException.class)
                .satisfies(e -> assertThat(((ScenarioFormatException) e).path()).isEqualTo(path))
                .hasMessageStartingWith("f.json: " + path + ": ")
                .hasMessageContainingAll(fragments);
    }

    @Test
    void parsesEverySymmetricMemoryStep() {
        Scenario s = parse(", \"env\": {\"TORCH_SYMMMEM\": \"NVSHMEM\", \"NVFUSER_ENABLE\": \"symmetric_memory_backend(pytorch_nccl)\"}",
                "{\"new_group\": {\"name\": \"tp\", \"block\": 4, \"register\": false}},"
                        + "{\"register_process_group\": {\"group\": \"tp\", \"name\": \"nccl0,1,2,3\", \"members_only\": true}},"
                        + "{\"symm_mem_set_backend\": \"NCCL\"},"
                        + "{\"symm_mem_alloc\": {\"tensor\": \"x\", \"bytes\": \"1MiB\"}},"
                        + "{\"symm_mem_rendezvous\": {\"tensor\": \"x\", \"group\": \"tp\", \"group_name\": \"nccl0,1,2,3\"}},"
                        + "{\"symm_mem_all_reduce\": {\"tensor\": \"x\", \"group\": \"tp\", \"algo\": \"two_shot\", \"dtype\": \"float32\"}},"
                        + "{\"symm_mem_all_reduce\": {\"tensor\": \"x\", \"algo\": \"one_shot\"}, \"ranks\": [1]}");
        assertThat(s.job().env()).isEqualTo(new JobEnv(SymmBackend.NVSHMEM, "pytorch_nccl"));
        assertThat(s.job().env().nvfuserEnable()).isEqualTo("symmetric_memory_backend(pytorch_nccl)");
        List<Step> p = s.job().program();
        assertThat(((Step.NewGroup) p.get(0)).register()).isFalse();
        assertThat(p.get(1)).isEqualTo(new Step.RegisterGroup("tp", "nccl0,1,2,3", true, java.util.Set.of()));
        assertThat(p.get(2)).isEqualTo(new Step.SymmSetBackend(SymmBackend.NCCL, java.util.Set.of()));
        assertThat(p.get(3)).isEqualTo(new Step.SymmAlloc("x", 1 << 20, java.util.Set.of()));
        assertThat(p.get(4)).isEqualTo(new Step.SymmRendezvous("x", "tp", "nccl0,1,2,3", java.util.Set.of()));
        assertThat(p.get(5)).isEqualTo(new Step.SymmAllReduce("x", "tp", Step.SymmAlgo.TWO_SHOT, DataType.FLOAT32, java.util.Set.of()));
        assertThat(p.get(6)).isEqualTo(new Step.SymmAllReduce("x", "world", Step.SymmAlgo.ONE_SHOT, DataType.BFLOAT16, java.util.Set.of(1)));
    }

    @Test
    void defaultsAreTorchsAndGroupNamesDefaultToTheGroup() {
        Scenario s = parse("", "{\"register_process_group\": {\"group\": \"world\"}}, {\"symm_mem_rendezvous\": {\"tensor\": \"x\"}}");
        assertThat(s.job().env()).isEqualTo(JobEnv.defaults());
        assertThat(s.job().env().torchSymmMem()).isEqualTo(SymmBackend.CUDA);
        assertThat(s.job().program().get(0)).isEqualTo(new Step.RegisterGroup("world", "world", false, java.util.Set.of()));
        assertThat(((Step.SymmRendezvous) s.job().program().get(1)).groupName()).isEqualTo("world");
        // a new_group registers itself unless told otherwise
        assertThat(((Step.NewGroup) parse("", "{\"new_group\": {\"name\": \"tp\", \"block\": 4}}").job().program().get(0)).register()).isTrue();
    }

    @Test
    void unknownFieldsAndValuesAreRefusedWithTheirPath() {
        fails("", "{\"symm_mem_alloc\": {\"tensor\": \"x\", \"bytes\": 16, \"backend\": \"NCCL\"}}", "$.job.program[0].symm_mem_alloc.backend",
                "unknown field 'backend'", "[tensor, bytes]");
        fails("", "{\"symm_mem_alloc\": {\"tensor\": \"x\", \"bytes\": 0}}", "$.job.program[0].symm_mem_alloc.bytes", "at least 1 byte");
        fails("", "{\"symm_mem_set_backend\": \"pytorch_invalid\"}", "$.job.program[0].symm_mem_set_backend",
                "unknown symmetric-memory backend 'pytorch_invalid'", "[CUDA, NVSHMEM, NCCL]");
        fails("", "{\"symm_mem_all_reduce\": {\"tensor\": \"x\", \"algo\": \"three_shot\"}}", "$.job.program[0].symm_mem_all_reduce.algo",
                "valid: one_shot, two_shot");
        fails("", "{\"symm_mem_all_reduce\": {\"tensor\": \"x\", \"algo\": \"one_shot\", \"dtype\": \"float16\"}}",
                "$.job.program[0].symm_mem_all_reduce.dtype", "valid: float32, bfloat16");
        fails("", "{\"symm_mem_rendezvous\": {\"group\": \"tp\"}}", "$.job.program[0].symm_mem_rendezvous.tensor", "required");
        fails("", "{\"register_process_group\": {\"group\": \"tp\", \"guard\": true}}", "$.job.program[0].register_process_group.guard",
                "[group, name, members_only]");
        fails("", "{\"new_group\": {\"name\": \"tp\", \"block\": 4, \"register\": \"no\"}}", "$.job.program[0].new_group.register",
                "true or false");
    }

    @Test
    void envKnowsOnlyTheModelledVariablesAndGrammar() {
        fails(", \"env\": {\"TORCH_SYMMMEM\": \"nccl\"}", "", "$.job.env.TORCH_SYMMMEM", "valid: [CUDA, NVSHMEM, NCCL]");
        fails(", \"env\": {\"NCCL_ALGO\": \"Ring\"}", "", "$.job.env.NCCL_ALGO", "[TORCH_SYMMMEM, NVFUSER_ENABLE]");
        fails(", \"env\": {\"NVFUSER_ENABLE\": \"host_ir_lowering\"}", "", "$.job.env.NVFUSER_ENABLE",
                "models only the option symmetric_memory_backend(ARG)");
        // the option's argument is the job's data: kept as written, judged by the job's code
        assertThat(parse(", \"env\": {\"NVFUSER_ENABLE\": \"symmetric_memory_backend(pytorch_invalid)\"}", "").job().env()
                .nvfuserSymmArg()).isEqualTo("pytorch_invalid");
        assertThat(parse(", \"env\": {\"NVFUSER_ENABLE\": \"symmetric_memory_backend\"}", "").job().env().nvfuserSymmArg()).isEmpty();
    }
}
