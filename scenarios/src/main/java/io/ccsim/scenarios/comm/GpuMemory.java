package io.ccsim.scenarios.comm;

/**
 * One GPU's memory as two allocators see it: PyTorch's caching allocator (tensors in use plus a
 * reserved cache it can give back to itself) and raw {@code cudaMalloc} calls such as NCCL's
 * buffer allocations and symmetric-memory allocations (cuMem, ncclMemAlloc, nvshmem_malloc), which can
 * use only what no one holds: {@code capacity - used - cached - nccl - symmetric - other}.
 * All sizes in bytes.
 */
public final class GpuMemory {
    private final long capacity;
    private long used;
    private long cached;
    private long nccl;
    private long symmetric;
    private long other;

    public GpuMemory(long capacityBytes) {
        if (capacityBytes <= 0) throw new IllegalArgumentException("GPU memory capacity must be > 0 bytes");
        this.capacity = capacityBytes;
    }

    public long capacity() { return capacity; }

    public long used() { return used; }

    public long cached() { return cached; }

    public long nccl() { return nccl; }

    /** Bytes a raw cudaMalloc can get now. */
    public long freeForCudaMalloc() { return Math.max(0, capacity - used - cached - nccl - symmetric - other); }

    /** Total held by anyone, bytes. */
    public long held() { return used + cached + nccl + symmetric + other; }

    /** Bytes of symmetric-memory allocations. */
    public long symmetric() { return symmetric; }

    /** A symmetric-memory allocation (outside PyTorch's caching allocator): succeeds only from memory nobody holds. */
    public boolean allocSymmetric(long bytes) {
        if (bytes > freeForCudaMalloc()) return false;
        symmetric += bytes;
        return true;
    }

    /**
     * A PyTorch allocation of {@code bytes} of tensors; the caching allocator first reuses its cache,
     * then takes fresh memory, and afterwards keeps {@code cacheBytes} more reserved (segments it
     * rounded up, split or keeps for later: what nvidia-smi shows above memory_allocated), capped
     * by what is free.
     * @return false on CUDA out of memory (the tensors do not fit even after emptying the cache)
     */
    public boolean allocTorch(long bytes, long cacheBytes) {
        long reuse = Math.min(cached, bytes);
        long fresh = bytes - reuse;
        if (fresh > capacity - held()) {
            // the allocator frees its cached blocks and retries before raising OutOfMemoryError
            if (used + bytes > capacity - nccl - symmetric - other) return false;
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
    public void freeTorch(long bytes) {
        long b = Math.min(bytes, used);
        used -= b;
        cached += b;
    }

    /** A cudaMalloc by NCCL: succeeds only from memory nobody holds. */
    public boolean cudaMallocNccl(long bytes) {
        if (bytes > freeForCudaMalloc()) return false;
        nccl += bytes;
        return true;
    }

    public void freeNccl(long bytes) { nccl -= Math.min(bytes, nccl); }

    /** Memory taken by something outside the job (a memory-pressure fault); the cache shrinks first. */
    public void takeOther(long bytes) {
        other += bytes;
        long over = held() - capacity;
        if (over > 0) cached -= Math.min(cached, over);
    }
}
