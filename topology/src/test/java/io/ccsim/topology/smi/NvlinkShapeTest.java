package io.ccsim.topology.smi;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.topology.Hardware;
import java.util.List;
import org.junit.jupiter.api.Test;

class NvlinkShapeTest {

    /** A matrix of {@code n} GPUs with {@code cell} between every pair. */
    static SmiMatrix gpus(int n, String cell) {
        StringBuilder sb = new StringBuilder();
        for (int c = 0; c < n; c++) {
            sb.append("\tGPU").append(c);
        }
        sb.append('\n');
        for (int r = 0; r < n; r++) {
            sb.append("GPU").append(r);
            for (int c = 0; c < n; c++) {
                sb.append('\t').append(r == c ? "X" : cell);
            }
            sb.append('\n');
        }
        return SmiMatrixParser.parse(new SmiText(sb.toString(), "m"));
    }

    static NvlinkShape shape(SmiMatrix m) {
        List<Integer> all = java.util.stream.IntStream.range(0, m.size()).boxed().toList();
        return NvlinkShape.of(m, all);
    }

    @Test
    void nv18IsAnHgxBoardOnFourSwitchesSplit5445() {
        NvlinkShape s = shape(gpus(8, "NV18"));
        assertThat(s.nvswitch()).isTrue();
        assertThat(s.lanesPerSwitch()).containsExactly(5, 4, 4, 5);
        assertThat(s.laneBandwidth()).isEqualTo(Hardware.NVLINK4_LINK_BW);
        assertThat(s.pcieGen()).isEqualTo(5);
        assertThat(s.nicBandwidth()).isEqualTo(Hardware.NDR_BW);
    }

    @Test
    void nv12IsSixSwitchesOfTwoLinks() {
        NvlinkShape s = shape(gpus(8, "NV12"));
        assertThat(s.nvswitch()).isTrue();
        assertThat(s.lanesPerSwitch()).containsExactly(2, 2, 2, 2, 2, 2);
        assertThat(s.laneBandwidth()).isEqualTo(Hardware.NVLINK3_LINK_BW);
        assertThat(s.pcieGen()).isEqualTo(4);
        assertThat(s.nicBandwidth()).isEqualTo(Hardware.HDR_BW);
    }

    @Test
    void oddCountIsOneLinkPerSwitch() {
        assertThat(shape(gpus(4, "NV3")).lanesPerSwitch()).containsExactly(1, 1, 1);
    }

    @Test
    void twoGpusOrMixedCountsArePointToPoint() {
        // two GPUs with NV18 may be a direct bridge: not enough to infer switches, but still NVLink4
        NvlinkShape two = shape(gpus(2, "NV18"));
        assertThat(two.nvswitch()).isFalse();
        assertThat(two.nvlink4()).isTrue();
        assertThat(shape(gpus(4, "SYS")).nvswitch()).isFalse();
        assertThat(shape(NvidiaSmiTopoTest.smiMatrix(NvidiaSmiTopoTest.DGX1)).nvswitch()).isFalse();
    }
}
