package io.ccsim.scenarios.format;

import java.util.List;

/**
 * The environment variables of the job that ccsim models ({@code job.env}). The file reader checks
 * their grammar; what the job's code does with their values is the job layer's model (an nvFuser
 * option argument it does not know is data of the incident, not an error of the file).
 *
 * @param torchSymmMem     TORCH_SYMMMEM: PyTorch's symmetric-memory backend (CUDA when unset)
 * @param nvfuserSymmArg   the argument of NVFUSER_ENABLE=symmetric_memory_backend(ARG), or null when the
 *                         job does not set it (then the job uses PyTorch's symmetric memory directly)
 */
public record JobEnv(SymmBackend torchSymmMem, String nvfuserSymmArg) {
    /** The variables ccsim models. */
    public static final List<String> VARIABLES = List.of("TORCH_SYMMMEM", "NVFUSER_ENABLE");

    /** The NVFUSER_ENABLE option ccsim models. */
    public static final String NVFUSER_SYMM_OPTION = "symmetric_memory_backend";

    public JobEnv {
        if (torchSymmMem == null || torchSymmMem == SymmBackend.NATIVE) {
            throw new IllegalArgumentException("TORCH_SYMMMEM must be one of " + SymmBackend.TORCH_NAMES);
        }
    }

    /** No variable set: PyTorch's defaults. */
    public static JobEnv defaults() { return new JobEnv(SymmBackend.CUDA, null); }

    /** NVFUSER_ENABLE as the job sets it, or null. */
    public String nvfuserEnable() { return nvfuserSymmArg == null ? null : NVFUSER_SYMM_OPTION + "(" + nvfuserSymmArg + ")"; }
}
