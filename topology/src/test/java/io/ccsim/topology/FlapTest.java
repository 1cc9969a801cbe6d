package io.ccsim.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class FlapTest {

    @Test
    void flapSchedule() {
        Flap f = new Flap(1000, 100, 500, 3); // down [1000,1100), [1500,1600), [2000,2100)
        assertThat(f.isDownAt(999)).isFalse();
        assertThat(f.isDownAt(1000)).isTrue();
        assertThat(f.isDownAt(1099)).isTrue();
        assertThat(f.isDownAt(1100)).isFalse();
        assertThat(f.isDownAt(1550)).isTrue();
        assertThat(f.isDownAt(2099)).isTrue();
        assertThat(f.isDownAt(2500)).isFalse();
    }

    @Test
    void periodMustCoverTheOutage() {
        assertThatThrownBy(() -> new Flap(0, 10, 5, 2)).hasMessageContaining("periodPs must be >= durationPs");
    }
}
