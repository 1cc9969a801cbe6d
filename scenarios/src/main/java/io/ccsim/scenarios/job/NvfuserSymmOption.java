package io.ccsim.scenarios.job;

import io.ccsim.scenarios.format.SymmBackend;
import java.util.List;

/**
 * nvFuser's choice of symmetric-memory backend from {@code NVFUSER_ENABLE=symmetric_memory_backend(ARG)},
 * as the reviewed change has it: an argument it does not recognize selects the native path without a
 * word. Modelled because that silence is an incident; ccsim's own files refuse unknown values.
 */
final class NvfuserSymmOption {
    /*
     * nvFuser PR #6023 (reviewed), csrc/multidevice/ipc_utils.cpp getSymmetricMemoryBackend():
     * if isOptionEnabled(SymmetricMemoryBackend): hasEnableOptionArgument(..., "pytorch_nccl") ->
     * PyTorchNccl; "pytorch_nvshmem" -> PyTorchNvshmem; "pytorch_cuda" -> PyTorchCuda; then, for any
     * other argument (or none), return SymmetricMemoryBackend::Native. The review's first finding:
     * "Silent fallback to Native backend" for e.g. "pytorch_invalid".
     */
    /** The arguments the parser recognizes, in its order. */
    static final List<String> VALID = List.of("pytorch_nccl", "pytorch_nvshmem", "pytorch_cuda");

    private NvfuserSymmOption() {}

    /** The backend nvFuser uses for {@code arg}: the matching PyTorch backend, else the native path. */
    static SymmBackend choose(String arg) {
        switch (arg) {
            case "pytorch_nccl": return SymmBackend.NCCL;
            case "pytorch_nvshmem": return SymmBackend.NVSHMEM;
            case "pytorch_cuda": return SymmBackend.CUDA;
            default: return SymmBackend.NATIVE;
        }
    }
}
