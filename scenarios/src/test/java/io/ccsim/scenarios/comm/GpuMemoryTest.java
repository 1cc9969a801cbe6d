package io.ccsim.scenarios.comm;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.scenarios.format.Units;
import org.junit.jupiter.api.Test;

/** GPU memory as PyTorch's caching allocator and NCCL's cudaMalloc see it. */
class GpuMemoryTest {

    @Test
    void ncclCannotUseMemoryCachedByPyTorch() {
        GpuMemory m = new GpuMemory(140 * Units.GIB);
        assertThat(m.allocTorch(128 * Units.GIB, 11 * Units.GIB)).isTrue();
        assertThat(m.freeForCudaMalloc()).isEqualTo(Units.GIB);
        long buffers = Communicator.bufferBytes(16);
        // 16 channels x 2 peers x (512 KiB LL + 4 915 200 B LL128 + 4 MiB Simple)
        assertThat(buffers).isEqualTo(16L * 2 * (524_288 + 4_915_200 + 4_194_304));
        assertThat(m.cudaMallocNccl(buffers)).isTrue();
        assertThat(m.cudaMallocNccl(Units.GIB)).as("the cache is not NCCL's").isFalse();
        // PyTorch itself can still allocate from its cache
        assertThat(m.allocTorch(10 * Units.GIB, 0)).isTrue();
        assertThat(m.cached()).isEqualTo(Units.GIB);
        assertThat(m.allocTorch(2 * Units.GIB, 0)).as("out of memory after emptying the cache").isFalse();
    }

    @Test
    void symmetricAllocationsTakeMemoryNobodyHoldsAndCountAsHeld() {
        GpuMemory m = new GpuMemory(10 * Units.GIB);
        assertThat(m.allocTorch(6 * Units.GIB, 2 * Units.GIB)).isTrue();
        assertThat(m.allocSymmetric(3 * Units.GIB)).as("only 2 GiB are not held").isFalse();
        assertThat(m.allocSymmetric(2 * Units.GIB)).isTrue();
        assertThat(m.symmetric()).isEqualTo(2 * Units.GIB);
        assertThat(m.held()).isEqualTo(m.capacity());
        assertThat(m.cudaMallocNccl(1)).isFalse();
        assertThat(m.allocTorch(2 * Units.GIB, 0)).as("the cache is reused").isTrue();
        assertThat(m.allocTorch(1, 0)).as("symmetric memory is not the allocator's to free").isFalse();
    }
}
