package io.ccsim.scenarios.format;

import java.util.List;

/**
 * Where a symmetric-memory tensor comes from and how its peers' buffers are found. The first three are
 * PyTorch's backends of {@code torch.distributed._symmetric_memory} (TORCH_SYMMMEM, {@code set_backend});
 * {@link #NATIVE} is nvFuser's own path (cuMem VMM allocation, IPC handles through its store), which a
 * job built on nvFuser takes when it selects no PyTorch backend.
 */
public enum SymmBackend {
    /** PyTorch's default: cuMem allocation, IPC file descriptors exchanged through the group's store. */
    CUDA("CUDA"),
    /** nvshmem_malloc from NVSHMEM's symmetric heap; peers' buffers by nvshmem_ptr. */
    NVSHMEM("NVSHMEM"),
    /** ncclMemAlloc; rendezvous resolves the process group by name and registers an NCCL window. */
    NCCL("NCCL"),
    /** nvFuser's native path: cuMem VMM and IPC handles through nvFuser's store; no PyTorch symm_mem op. */
    NATIVE("Native");

    /** The names PyTorch accepts (TORCH_SYMMMEM, set_backend). */
    public static final List<String> TORCH_NAMES = List.of("CUDA", "NVSHMEM", "NCCL");

    private final String label;

    SymmBackend(String label) { this.label = label; }

    /** The name as PyTorch (or nvFuser, for the native path) prints it. */
    public String label() { return label; }

    /**
     * One of PyTorch's backend names, case-sensitive as {@code set_backend} takes them.
     *
     * @throws IllegalArgumentException naming the valid names
     */
    public static SymmBackend parseTorch(String s) {
        for (SymmBackend b : values()) {
            if (b != NATIVE && b.label.equals(s)) return b;
        }
        throw new IllegalArgumentException("unknown symmetric-memory backend '" + s + "'; valid: " + TORCH_NAMES);
    }
}
