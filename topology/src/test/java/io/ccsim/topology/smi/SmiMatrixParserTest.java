package io.ccsim.topology.smi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ccsim.topology.smi.Connection.Level;
import org.junit.jupiter.api.Test;

class SmiMatrixParserTest {

    static final String TWO_GPUS_ONE_NIC = """
            $ nvidia-smi topo -m
            \tGPU0\tGPU1\tNIC0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID
            GPU0\t X \tNV4\tPIX\t0-7\t0\t\tN/A
            GPU1\tNV4\t X \tSYS\t8-15\t1\t\tN/A
            NIC0\tPIX\tSYS\t X

            Legend:

              X    = Self

            NIC Legend:

              NIC0: mlx5_2
            """;

    static SmiMatrix parse(String text) {
        return SmiMatrixParser.parse(new SmiText(text, "f.txt"));
    }

    @Test
    void readsColumnsCellsAffinitiesAndNicLegend() {
        SmiMatrix m = parse(TWO_GPUS_ONE_NIC);
        assertThat(m.size()).isEqualTo(3);
        assertThat(m.device(2)).isEqualTo("NIC0");
        assertThat(m.at(0, 1)).isEqualTo(new Connection(Level.NV, 4));
        assertThat(m.at(2, 0).level()).isEqualTo(Level.PIX);
        assertThat(m.at(1, 1).level()).isEqualTo(Level.X);
        assertThat(m.cpuAffinity(1)).isEqualTo("8-15");
        assertThat(m.numaAffinity(1)).isEqualTo("1");
        assertThat(m.cpuAffinity(2)).isNull();
        assertThat(m.rowLine(0)).isEqualTo(2);
        assertThat(m.nicName("NIC0")).isEqualTo("mlx5_2");
        assertThat(m.nicName("mlx5_0")).isEqualTo("mlx5_0");
    }

    @Test
    void gpuLabelsAreGpuFollowedByANumber() {
        assertThat(SmiMatrix.isGpuLabel("GPU12")).isTrue();
        assertThat(SmiMatrix.isGpuLabel("NIC0")).isFalse();
        assertThat(SmiMatrix.isGpuLabel("GPU")).isFalse();
    }

    @Test
    void errorsPointAtLineAndColumn() {
        assertThatThrownBy(() -> parse("hello\n")).hasMessage("f.txt:1:1: expected the header row of 'nvidia-smi"
                + " topo -m' starting with GPU0, got 'hello'");
        assertThatThrownBy(() -> parse("\n$ x\n")).hasMessageStartingWith("f.txt:1:1: no header row found");
        assertThatThrownBy(() -> parse("\tGPU0\tGPU0\nGPU0\t X \t X\n")).hasMessage("f.txt:1:7: duplicate column"
                + " 'GPU0'");
        assertThatThrownBy(() -> parse(TWO_GPUS_ONE_NIC.replace("GPU1\tNV4\t X ", "GPU0\tNV4\t X ")))
                .hasMessage("f.txt:4:1: second row for 'GPU0'");
        assertThatThrownBy(() -> parse(TWO_GPUS_ONE_NIC.replace("NIC0\tPIX\tSYS\t X", "NIC0\tPIX\tSYS")))
                .hasMessageStartingWith("f.txt:5:13: row 'NIC0' has 2 cells, expected 3");
        assertThatThrownBy(() -> parse(TWO_GPUS_ONE_NIC.replace("NIC0\tPIX\tSYS\t X", "NIC0\tPIX\tSYS\t X\t1\t2\t3\t4")))
                .hasMessageStartingWith("f.txt:5:")
                .hasMessageContaining("unexpected extra value '4' after the 3 cells and the affinity columns");
        assertThatThrownBy(() -> parse(TWO_GPUS_ONE_NIC.replace("NIC0\tPIX\tSYS\t X", "NIC0\tPIX\tSYS\tPIX")))
                .hasMessage("f.txt:5:14: the diagonal cell of 'NIC0' must be X, got 'PIX'");
        assertThatThrownBy(() -> parse(TWO_GPUS_ONE_NIC.replace("NIC0\tPIX\tSYS", "NIC0\tX\tSYS")))
                .hasMessage("f.txt:5:6: X is only valid on the diagonal (a device with itself)");
        assertThatThrownBy(() -> parse(TWO_GPUS_ONE_NIC.replace("NIC0\tPIX\tSYS\t X\n", "")))
                .hasMessage("f.txt:5:1: missing row for 'NIC0'; every column needs a row");
        assertThatThrownBy(() -> parse(TWO_GPUS_ONE_NIC.replace("NIC0\tPIX", "NIC0\tPXB")))
                .hasMessage("f.txt:5:6: matrix is not symmetric: NIC0/GPU0 is PXB but GPU0/NIC0 is PIX");
        assertThatThrownBy(() -> parse(TWO_GPUS_ONE_NIC.replace("NIC0\tPIX", "NIC0\tNV0")))
                .hasMessage("f.txt:5:6: 'NV0': a bonded set has at least one NVLink; valid: NV1 to NV18");
        // 1,000 links would be 25 TB/s per GPU; a count past an int is no number error either
        for (String nv : new String[] {"NV19", "NV1000", "NV99999999999"}) {
            assertThatThrownBy(() -> parse(TWO_GPUS_ONE_NIC.replace("NV4", nv)))
                    .hasMessage("f.txt:3:10: '" + nv + "': a GPU has at most 18 NVLinks; valid: NV1 to NV18");
        }
    }

    @Test
    void aByteOrderMarkIsNoToken() {
        assertThat(parse("\uFEFF" + TWO_GPUS_ONE_NIC).size()).isEqualTo(parse(TWO_GPUS_ONE_NIC).size());
    }
}
