package io.ccsim.algorithms.fit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** KernelFit's command-line options: {@code --sparse}'s sizes and {@code --blocks}' check. */
class KernelFitOptionsTest {

    static FixtureRow row(long bytes) {
        return new FixtureRow("t.json", CollectiveOp.ALL_REDUCE, 2, Optional.of(Algorithm.RING), Optional.of(Protocol.SIMPLE), bytes, 10.0,
                Optional.empty(), Optional.empty(), OptionalInt.empty(), OptionalInt.of(16));
    }

    @Test
    void sparseKeepsEveryOtherSizeOfTheSweep() {
        // the fidelity sweep: 4 KiB .. 512 MiB by 2x; --sparse searches 4 KiB x 4^k
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
    void blocksThatMatchNothingAreAnError() {
        assertThat(ProfileFitter.kernelBlockNames()).contains("launch", "cta Simple", "p2p Simple", "links");
        assertThatThrownBy(() -> KernelFit.main(new String[] {"--base", "x.json", "--out", "y.json", "--date", "2026-11-22",
                "--blocks", "nope", "t.json"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--blocks nope matches no block")
                .hasMessageContaining("p2p Simple");
        assertThatThrownBy(() -> KernelFit.main(new String[] {"--bogus"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--sparse").hasMessageContaining("--blocks");
    }
}
