package io.ccsim.topology.smi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ccsim.topology.smi.Connection.Level;
import org.junit.jupiter.api.Test;

class ConnectionTest {

    static Connection parse(String cell) {
        return Connection.parse(cell, IllegalArgumentException::new);
    }

    @Test
    void readsEveryLevelOfTheLegend() {
        assertThat(parse("X")).isEqualTo(new Connection(Level.X, 0));
        assertThat(parse("NV18")).isEqualTo(new Connection(Level.NV, 18));
        assertThat(parse("PIX").level()).isEqualTo(Level.PIX);
        assertThat(parse("PXB").level()).isEqualTo(Level.PXB);
        assertThat(parse("PHB").level()).isEqualTo(Level.PHB);
        assertThat(parse("NODE").level()).isEqualTo(Level.NODE);
        assertThat(parse("SYS").level()).isEqualTo(Level.SYS);
        // older drivers print SOC for SYS
        assertThat(parse("SOC")).isEqualTo(parse("SYS"));
    }

    @Test
    void belowSysMeansOneNumaNode() {
        assertThat(parse("NODE").belowSys()).isTrue();
        assertThat(parse("NV2").belowSys()).isTrue();
        assertThat(parse("SYS").belowSys()).isFalse();
    }

    @Test
    void labelIsWhatNvidiaSmiPrints() {
        assertThat(parse("NV12").label()).isEqualTo("NV12");
        assertThat(parse("SOC").label()).isEqualTo("SYS");
    }

    @Test
    void invalidCellsListWhatIsValid() {
        assertThatThrownBy(() -> parse("NV0")).hasMessage("'NV0': a bonded set has at least one NVLink; valid: NV1 to NV18");
        assertThatThrownBy(() -> parse("NV19")).hasMessage("'NV19': a GPU has at most 18 NVLinks; valid: NV1 to NV18");
        assertThat(parse("NV18").nvlinks()).isEqualTo(18);
        assertThatThrownBy(() -> parse("NVX")).hasMessage("unknown connection 'NVX'; valid: " + Connection.VALID);
    }
}
