package io.ccsim.gpu.exec;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.gpu.calibrate.Calibrator;
import io.ccsim.gpu.cuda.Cuda;
import io.ccsim.gpu.cuda.CudaUnavailableException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** On a GPU host: the executor matches the CPU reference. Elsewhere: one clear line, never a crash. */
class CudaExecutorTest {

    @Test
    void withoutCudaEveryEntryPointSaysNoCudaDeviceFound() {
        assumeFalse(Cuda.available(), "a CUDA device is present: the no-device path is not testable here");
        assertThat(Cuda.unavailableReason()).startsWith(Cuda.NO_DEVICE);
        assertThat(Cuda.deviceCount()).isZero();
        assertThatThrownBy(() -> CudaExecutor.open(0, 1)).isInstanceOf(CudaUnavailableException.class)
                .hasMessageStartingWith(Cuda.NO_DEVICE);
        assertThatThrownBy(() -> CudaPerf.run(CollectiveOp.ALL_REDUCE, new long[] {1024}, DataType.FLOAT32, ReduceOp.SUM, 0,
                Algorithm.RING, Protocol.SIMPLE, 1, new int[] {0, 1}, null))
                .isInstanceOf(CudaUnavailableException.class).hasMessageStartingWith(Cuda.NO_DEVICE);
        assertThatThrownBy(() -> Calibrator.run(new int[] {0, 1}, java.nio.file.Path.of("unused.json"), null))
                .isInstanceOf(CudaUnavailableException.class).hasMessageStartingWith(Cuda.NO_DEVICE);
    }

    @Test
    void ringAndTreeAllReduceMatchTheCpuOnEveryProtocol() {
        assumeTrue(Cuda.available(), () -> Cuda.unavailableReason());
        int n = Math.min(4, Integer.highestOneBit(Cuda.deviceCount()));
        assumeTrue(n >= 2, "needs 2 GPUs");
        int[] gpus = new int[n];
        for (int i = 0; i < n; i++) gpus[i] = i;
        try (CudaExecutor ex = CudaExecutor.open(gpus, 30_000)) {
            for (Protocol p : Protocol.values()) {
                for (Algorithm a : new Algorithm[] {Algorithm.RING, Algorithm.TREE}) {
                    Plan plan = DevicePlans.forCount(CollectiveOp.ALL_REDUCE, 10_007, DataType.BFLOAT16, ReduceOp.AVG, 0, a, p, 2, n, true);
                    CudaCheck.Result r = CudaCheck.check(ex, plan, 7);
                    assertThat(r.ok()).as(r.plan() + ": " + r.firstMismatch()).isTrue();
                    assertThat(r.elements()).isEqualTo(10_007L * n);
                }
            }
        }
    }

    @Test
    void wrongGpuIndicesAreRejectedWithTheValidRange() {
        assumeTrue(Cuda.available(), () -> Cuda.unavailableReason());
        int count = Cuda.deviceCount();
        assertThatThrownBy(() -> CudaExecutor.open(0, count)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("valid: 0.." + (count - 1));
        assertThatThrownBy(() -> CudaExecutor.open(0, 0)).hasMessageContaining("given twice");
    }

    @Test
    void comparisonNamesRankOffsetAndValues() {
        var a = new io.ccsim.algorithms.data.ElementBuffer(DataType.FLOAT32, 3);
        var b = new io.ccsim.algorithms.data.ElementBuffer(DataType.FLOAT32, 3);
        for (int i = 0; i < 3; i++) {
            a.setDouble(i, i + 1);
            b.setDouble(i, i + 1);
        }
        b.setDouble(2, 7.0);
        CudaCheck.Result r = CudaCheck.compare("x", new io.ccsim.algorithms.data.ElementBuffer[] {a, a},
                new io.ccsim.algorithms.data.ElementBuffer[] {a, b});
        assertThat(r.ok()).isFalse();
        assertThat(r.mismatches()).isEqualTo(1);
        assertThat(r.elements()).isEqualTo(6);
        assertThat(r.firstMismatch()).isEqualTo("rank 1 offset 2: expected 0x40400000 (3.0), got 0x40e00000 (7.0)");
    }
}
