package io.ccsim.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class HardwareTest {

    @Test
    void pcieBandwidthIsRateTimesWidthTimesEncodingTimesEfficiency() {
        assertThat(Hardware.pcieBandwidth(1, 1)).isCloseTo(2.5e9 * 8 / 10 / 8 * 0.85, within(1e-3));
        assertThat(Hardware.pcieBandwidth(3, 8)).isCloseTo(8e9 * 8 * 128 / 130 / 8 * 0.85, within(1e-3));
        // Gen5 x16: 63.0 GB/s after encoding, 53.6 GB/s usable
        assertThat(Hardware.pcieBandwidth(5, 16)).isCloseTo(32e9 * 16 * 128 / 130 / 8 * 0.85, within(1e-3));
        assertThat(Hardware.pcieBandwidth(6, 16)).isCloseTo(64e9 * 16 * 242 / 256 / 8 * 0.85, within(1e-3));
        assertThatThrownBy(() -> Hardware.pcieBandwidth(7, 16)).hasMessage("PCIe generation must be 1..6, got 7");
    }

    @Test
    void networkRatesAreLineRatesInBytes() {
        assertThat(Hardware.NDR_BW).isEqualTo(50e9);
        assertThat(Hardware.HDR_BW).isEqualTo(25e9);
    }
}
