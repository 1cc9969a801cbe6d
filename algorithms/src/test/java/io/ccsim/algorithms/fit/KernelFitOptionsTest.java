package io.ccsim.algorithms.fit;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.measurements.MeasuredRow;
import org.junit.jupiter.api.Test;

/** KernelFit's options: the sparse search's sizes and the blocks a block pattern chooses from. */
class KernelFitOptionsTest {

    static MeasuredRow row(long bytes) {
        return MeasuredRow.fixedPlan("t.json", CollectiveOp.ALL_REDUCE, 2, Algorithm.RING, Protocol.SIMPLE, 16, bytes, 10.0);
    }

    @Test
    void sparseKeepsEveryOtherSizeOfTheSweep() {
        // the fidelity sweep: 4 KiB .. 512 MiB by 2x; a sparse search simulates 4 KiB x 4^k
        int kept = 0;
        for (int i = 0; i < 18; i++) {
            boolean k = KernelFit.sparseSize(row(4096L << i));
            assertThat(k).as("4 KiB << %d", i).isEqualTo(i % 2 == 0);
            if (k) kept++;
        }
        assertThat(kept).isEqualTo(9);
        assertThat(KernelFit.sparseSize(row(3 * 4096))).isFalse();
    }

    @Test
    void kernelBlocksAreNamed() {
        assertThat(KernelFit.blockNames()).contains("launch", "cta Simple", "p2p Simple", "links");
        assertThat(KernelFit.blockNames().get(0)).isEqualTo("launch");
        assertThat(KernelFit.blockNames().get(KernelFit.blockNames().size() - 1)).isEqualTo("links");
    }
}
