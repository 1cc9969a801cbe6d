package io.ccsim.algorithms.perf;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.TopologyCatalog;
import org.junit.jupiter.api.Test;

/**
 * nccl-tests' element counts (src/*.cu getCollByteCount at NVIDIA/nccl-tests v2.19.6): all-reduce, broadcast, reduce
 * and send/recv take size / eltSize elements; all-gather, reduce-scatter and all-to-all give each rank
 * (size / eltSize / nranks) rounded down to a multiple of 16 / eltSize, and print size = count × nranks × eltSize.
 */
class PerfRunnerCountTest {
    private static PerfRunner runner(int gpus) {
        return new PerfRunner(TopologyCatalog.build("hgx-h200", BuildOptions.of(gpus, 1)), gpus, CalibrationProfile.builtin("h200"),
                NcclEnv.empty(), 0);
    }

    @Test
    void perRankSharesAreWhole16ByteBlocks() {
        PerfRunner r3 = runner(3);
        // 1 KiB of floats on 3 ranks: 256 / 3 = 85 elements, 84 in whole 16-byte blocks of 4 floats
        assertThat(r3.countFor(CollectiveOp.ALL_GATHER, 1024, DataType.FLOAT32)).isEqualTo(84);
        assertThat(r3.sizeFor(CollectiveOp.ALL_GATHER, 84, DataType.FLOAT32)).isEqualTo(84 * 3 * 4);
        // doubles: blocks of 2; bytes: blocks of 16; halves: blocks of 8
        assertThat(r3.countFor(CollectiveOp.REDUCE_SCATTER, 1000, DataType.FLOAT64)).isEqualTo((125 / 3) & ~1L);
        assertThat(r3.countFor(CollectiveOp.ALL_TO_ALL, 1000, DataType.INT8)).isEqualTo((1000 / 3) & ~15L);
        assertThat(r3.countFor(CollectiveOp.ALL_GATHER, 1000, DataType.FLOAT16)).isEqualTo((500 / 3) & ~7L);
        // whole-buffer ops are not rounded
        assertThat(r3.countFor(CollectiveOp.ALL_REDUCE, 1026, DataType.FLOAT16)).isEqualTo(513);
        assertThat(r3.countFor(CollectiveOp.BROADCAST, 12, DataType.FLOAT32)).isEqualTo(3);
    }

    @Test
    void belowSixteenBytesARankTheCountIsZero() {
        PerfRunner r8 = runner(8);
        // 64 B of floats on 8 ranks: 2 floats a rank, less than one 16-byte block (nccl-tests prints a size-0 row)
        assertThat(r8.countFor(CollectiveOp.ALL_GATHER, 64, DataType.FLOAT32)).isZero();
        assertThat(r8.countFor(CollectiveOp.ALL_GATHER, 128, DataType.FLOAT32)).isEqualTo(4);
        // a size nccl-tests prints reads back to its own count
        for (long count : new long[] {4, 8, 4096}) {
            long size = r8.sizeFor(CollectiveOp.ALL_TO_ALL, count, DataType.FLOAT32);
            assertThat(r8.countFor(CollectiveOp.ALL_TO_ALL, size, DataType.FLOAT32)).isEqualTo(count);
        }
    }

    @Test
    void aMeasuredSizeIsDividedExactly() {
        PerfRunner r2 = runner(2);
        // a harness that ran one float per rank prints 8 B for a 2-rank all-gather: countOf reads it back, countFor
        // (nccl-tests' sweep) would not run it
        assertThat(r2.countOf(CollectiveOp.ALL_GATHER, 8, DataType.FLOAT32)).isEqualTo(1);
        assertThat(r2.countFor(CollectiveOp.ALL_GATHER, 8, DataType.FLOAT32)).isZero();
        assertThat(r2.countOf(CollectiveOp.ALL_REDUCE, 8, DataType.FLOAT32)).isEqualTo(2);
    }
}
