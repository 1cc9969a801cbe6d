package io.ccsim.scenarios;

/**
 * One GPU's memory as two allocators see it: PyTorch's caching allocator (tensors in use plus a
 * reserved cache it can give back to itself) and raw {@code cudaMalloc} calls such as NCCL's
 * buffer allocations, which can use only what no one holds: {@code capacity - used - cached - other}.
 * All sizes in bytes.
 */
final class GpuMemory {
    private final long capacity;
    private long used;
    private long cached;
    private long nccl;
    private long other;

    GpuMemory(long capacityBytes) {
        if (capacityBytes <= 0) throw new IllegalArgumentException("GPU memory capacity must be > 0 bytes");
        this.capacity = capacityBytes;
    }

    long capacity() { return capacity; }

    long used() { return used; }

    long cached() { return cached; }

    long nccl() { return nccl; }

    /** Bytes a raw cudaMalloc can get now. */
    long freeForCudaMalloc() { return capacity - used - cached - nccl - other; }

    /** Total held by anyone, bytes. */
    long held() { return used + cached + nccl + other; }

    /**
     * A PyTorch allocation of {@code bytes} of tensors; the caching allocator first reuses its cache,
     * then takes fresh memory, and afterwards keeps {@code cacheBytes} more reserved (segments it
     * rounded up, split or keeps for later: what nvidia-smi shows above memory_allocated), capped
     * by what is free.
     * @return false on CUDA out of memory (the tensors do not fit even after emptying the cache)
     */
    boolean allocTorch(long bytes, long cacheBytes) {
        long reuse = Math.min(cached, bytes);
        long fresh = bytes - reuse;
        if (fresh > capacity - held()) {
            // the allocator frees its cached blocks and retries before raising OutOfMemoryError
            if (used + bytes > capacity - nccl - other) return false;
            cached = 0;
            used += bytes;
            return true;
        }
        cached -= reuse;
        used += bytes;
        long free = capacity - held();
        cached += Math.max(0, Math.min(cacheBytes, free));
        return true;
    }

    /** Tensors freed: their bytes go back to the cache. */
    void freeTorch(long bytes) {
        long b = Math.min(bytes, used);
        used -= b;
        cached += b;
    }

    /** A cudaMalloc by NCCL: succeeds only from memory nobody holds. */
    boolean cudaMallocNccl(long bytes) {
        if (bytes > freeForCudaMalloc()) return false;
        nccl += bytes;
        return true;
    }

    void freeNccl(long bytes) { nccl -= Math.min(bytes, nccl); }

    /** Memory taken by something outside the job (a memory-pressure fault); the cache shrinks first. */
    void takeOther(long bytes) {
        other += bytes;
        long over = held() - capacity;
        if (over > 0) cached -= Math.min(cached, over);
    }
}
