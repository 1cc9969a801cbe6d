package io.ccsim.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BuildOptionsTest {

    @Test
    void defaultsAreOneNonBlockingBoard() {
        assertThat(BuildOptions.DEFAULT).isEqualTo(new BuildOptions(0, 1, 1.0, 0));
        assertThat(BuildOptions.of(4, 2)).isEqualTo(new BuildOptions(4, 2, 1.0, 0));
        assertThat(BuildOptions.of(4, 2).nicsPerNode()).isZero();
        assertThat(BuildOptions.of(4, 2).withNicsPerNode(2)).isEqualTo(new BuildOptions(4, 2, 1.0, 0, 2));
    }

    @Test
    void outOfRangeValuesAreRejectedWithWhatIsValid() {
        assertThatThrownBy(() -> new BuildOptions(-1, 1, 1, 0)).hasMessage("gpus must be >= 0 (0 = the board's"
                + " default), got -1");
        assertThatThrownBy(() -> new BuildOptions(0, 0, 1, 0)).hasMessage("nodes must be >= 1, got 0");
        assertThatThrownBy(() -> new BuildOptions(0, 1, 0.5, 0)).hasMessageContaining("oversubscription must be a"
                + " finite number >= 1");
        assertThatThrownBy(() -> new BuildOptions(0, 1, Double.POSITIVE_INFINITY, 0))
                .hasMessageContaining("oversubscription");
        assertThatThrownBy(() -> new BuildOptions(0, 1, Double.NaN, 0)).hasMessageContaining("oversubscription");
        assertThatThrownBy(() -> new BuildOptions(0, 1, 1, 0, -1)).hasMessage("nicsPerNode must be >= 0 (0 = the"
                + " board's default), got -1");
    }
}
