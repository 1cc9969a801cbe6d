package io.ccsim.scenarios.format;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Units of scenario files and the IB timings derived from the settings. */
class UnitsAndSettingsTest {

    @Test
    void ibGiveUpTimeFollowsNcclIbTimeoutAndRetryCount() {
        Settings s = Settings.defaults();
        // 4.096 us x 2^20 per try, 1 + 7 tries
        assertThat(s.ibAckTimeoutPs()).isEqualTo(4_096_000L * (1L << 20));
        assertThat(s.ibGiveUpPs()).isEqualTo(8 * 4_096_000L * (1L << 20));
    }

    @Test
    void unitsParseAndRejectWithValidForms() {
        assertThat(Units.parseDuration("2.5us")).isEqualTo(2_500_000L);
        assertThat(Units.parseDuration("10min")).isEqualTo(600 * Units.PS_PER_S);
        assertThat(Units.parseBytes("1GiB")).isEqualTo(1L << 30);
        assertThat(Units.parseBytes("4MB")).isEqualTo(4_000_000L);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Units.parseDuration("3 parsecs"))
                .hasMessageContaining("valid: a number followed by one of ps, ns, us, ms, s, min, h");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Units.parseBytes("1GB!"))
                .hasMessageContaining("KiB, MiB, GiB");
    }
}
