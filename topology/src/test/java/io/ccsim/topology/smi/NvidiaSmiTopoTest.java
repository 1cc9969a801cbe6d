package io.ccsim.topology.smi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.ccsim.topology.LinkKind;
import io.ccsim.topology.NodeKind;
import io.ccsim.topology.Route;
import io.ccsim.topology.Topology;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class NvidiaSmiTopoTest {

    static String fixture(String name) throws IOException {
        try (InputStream in = NvidiaSmiTopoTest.class.getResourceAsStream("/smi/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static SmiMatrix smiMatrix(String text) {
        return SmiMatrixParser.parse(new SmiText(text, "m"));
    }

    static long nodes(Topology t, NodeKind k) {
        return t.nodes().stream().filter(n -> n.kind() == k).count();
    }

    static long links(Topology t, LinkKind k) {
        return t.links().stream().filter(n -> n.kind() == k).count();
    }

    @Test
    void aGivenGpuModelCarriesItsNameAndMemory() throws IOException {
        Topology t = NvidiaSmiTopo.parse(fixture("h200-4gpu-nv18.txt"), "h200", "h200");
        // the model a built-in profile is named by, and Hardware's H200 141GB memory: 143771 MiB
        assertThat(t.gpus()).allSatisfy(g -> {
            assertThat(g.attr("model")).isEqualTo("H200");
            assertThat(g.attr("memory_bytes")).isEqualTo(Long.toString(143771L << 20));
        });
        assertThat(NvidiaSmiTopo.parse(fixture("h200-4gpu-nv18.txt"), "h200").gpus().get(0).attr("model")).isNull();
        assertThatThrownBy(() -> NvidiaSmiTopo.parse(fixture("h200-4gpu-nv18.txt"), "h200", "A100"))
                .hasMessage("unknown GPU model 'A100'; valid: H100, H200, B200, L40S");
    }

    @Test
    void dgxH100Nv18WithNineNics() throws IOException {
        Topology t = NvidiaSmiTopo.parse(fixture("dgx-h100-nv18-9nic.txt"), "dgx-h100");
        assertThat(t.gpus()).hasSize(8);
        assertThat(nodes(t, NodeKind.NIC)).isEqualTo(9);
        assertThat(nodes(t, NodeKind.CPU)).isEqualTo(2);
        assertThat(nodes(t, NodeKind.NVSWITCH)).isEqualTo(4);
        assertThat(links(t, LinkKind.NVLINK)).isEqualTo(8 * 4);
        assertThat(links(t, LinkKind.SMP)).isEqualTo(1);
        assertThat(t.group("n0.gpu0.nvl").capacityBytesPerSec()).isCloseTo(18 * 26.562e9, within(1.0));
        // 8 PIX pairs -> 8 PCIe switches (GPU + its NIC); NIC3 (NODE only) hangs off CPU 0 directly
        assertThat(nodes(t, NodeKind.PCIE_SWITCH)).isEqualTo(8);
        assertThat(t.node("n0.nic0").attr("device")).isEqualTo("mlx5_0");
        assertThat(t.node("n0.nic3").attr("numa")).isEqualTo("0");
        assertThat(t.link("n0.nic3~n0.cpu0").kind()).isEqualTo(LinkKind.PCIE);
        Route r = t.route("n0.gpu3", "n0.nic4", 0);
        assertThat(r.length()).isEqualTo(2);
        assertThat(t.route("n0.gpu0", "n0.gpu7", 0).length()).isEqualTo(2);
    }

    @Test
    void fourGpuNv18SliceIsStillAnNvSwitchBoard() throws IOException {
        Topology t = NvidiaSmiTopo.parse(fixture("h200-4gpu-nv18.txt"), "h200x4");
        assertThat(t.gpus()).hasSize(4);
        assertThat(nodes(t, NodeKind.NVSWITCH)).isEqualTo(4);
        assertThat(nodes(t, NodeKind.NIC)).isEqualTo(5);
        assertThat(nodes(t, NodeKind.CPU)).isEqualTo(1);
        assertThat(links(t, LinkKind.SMP)).isZero();
        assertThat(t.fabric().stream().filter(g -> g.striped()).count()).isEqualTo(4);
    }

    @Test
    void realCaptureFromTheH200MachineWithAnsiUnderline() throws IOException {
        // verbatim output of `nvidia-smi topo -m` on the 4 x H200 machine of experiments/nccl-h200 (driver
        // 580.159.04): the header row is underlined with ESC[4m ... ESC[0m, there are no NICs, and the
        // "GPU NUMA ID" column is N/A
        String text = fixture("h200-4gpu-real.txt");
        assertThat(text).contains("\u001B[4m");
        Topology t = NvidiaSmiTopo.parse(text, "h200-real");
        assertThat(t.gpus()).hasSize(4);
        assertThat(nodes(t, NodeKind.NVSWITCH)).isEqualTo(4);
        assertThat(nodes(t, NodeKind.NIC)).isZero();
        // NV18 everywhere: each GPU's 18 NVLinks form one striped group over the 4 switch chips
        assertThat(t.fabric().stream().filter(g -> g.striped()).count()).isEqualTo(4);
        assertThat(t.group("n0.gpu0.nvl").liveLanes()).isEqualTo(18);
        assertThat(t.route("n0.gpu0", "n0.gpu3", 0).length()).isEqualTo(2);
    }

    @Test
    void a100Nv12WithPxbAndPix() throws IOException {
        Topology t = NvidiaSmiTopo.parse(fixture("a100-nv12-4nic-pxb.txt"), "a100");
        // NV12 between every pair of 8 GPUs: A100 SXM on 6 NVSwitch chips, 2 NVLink3 links to each
        assertThat(nodes(t, NodeKind.NVSWITCH)).isEqualTo(12 / 2);
        assertThat(links(t, LinkKind.NVLINK)).isEqualTo(8 * 6);
        assertThat(t.group("n0.gpu0.nvl").capacityBytesPerSec()).isCloseTo(12 * 25e9, within(1.0));
        assertThat(nodes(t, NodeKind.CPU)).isEqualTo(2);
        assertThat(links(t, LinkKind.SMP)).isEqualTo(1);
        // PIX: NIC2+NIC3 share a switch; PXB: {GPU0, GPU1, NIC0, NIC1} and {GPU2, GPU3, (NIC2+NIC3)} each under
        // an upper switch; GPUs 4-7 relate to nothing below SYS and hang off CPU 1 directly
        assertThat(nodes(t, NodeKind.PCIE_SWITCH)).isEqualTo(1 + 2);
        assertThat(links(t, LinkKind.PCIE)).isEqualTo(2 + (4 + 1) + (3 + 1) + 4);
        assertThat(t.link("n0.gpu5~n0.cpu1").kind()).isEqualTo(LinkKind.PCIE);
        assertThat(t.route("n0.gpu2", "n0.nic3", 0).length()).isEqualTo(3);
        assertThat(t.node("n0.nic2").attr("device")).isEqualTo("mlx5_2");
    }

    @Test
    void pcieBoxWithPixPhbSysAndOldNicColumn() throws IOException {
        Topology t = NvidiaSmiTopo.parse(fixture("pcie-8gpu-mlx4-phb.txt"), "k8s");
        assertThat(t.gpus()).hasSize(8);
        assertThat(links(t, LinkKind.NVLINK)).isZero();
        assertThat(nodes(t, NodeKind.CPU)).isEqualTo(2); // two distinct CPU affinities
        assertThat(nodes(t, NodeKind.PCIE_SWITCH)).isEqualTo(4); // PIX pairs (0,1) (2,3) (4,5) (6,7)
        assertThat(t.node("n0.nic0").attr("device")).isEqualTo("mlx4_0");
        assertThat(links(t, LinkKind.SMP)).isEqualTo(1);
        // GPU0 -> GPU7: gpu-switch-cpu-cpu-switch-gpu
        assertThat(t.route("n0.gpu0", "n0.gpu7", 0).length()).isEqualTo(5);
    }

    @Test
    void rtx4090BoxAllSys() throws IOException {
        Topology t = NvidiaSmiTopo.parse(fixture("rtx4090-8gpu-sys.txt"), "4090");
        assertThat(links(t, LinkKind.NVLINK)).isZero();
        assertThat(nodes(t, NodeKind.CPU)).isEqualTo(2);
        // the two NICs are PIX with each other -> one switch; all GPUs hang directly off their CPU
        assertThat(nodes(t, NodeKind.PCIE_SWITCH)).isEqualTo(1);
        assertThat(t.node("n0.nic1").attr("numa")).isEqualTo("1");
        assertThat(links(t, LinkKind.PCIE)).isEqualTo(8 + 2 + 1);
    }

    static final String DGX1 = """
            \tGPU0\tGPU1\tGPU2\tGPU3\tGPU4\tGPU5\tGPU6\tGPU7\tCPU Affinity
            GPU0\t X \tNV1\tNV1\tNV2\tNV2\tSYS\tSYS\tSYS\t0-19
            GPU1\tNV1\t X \tNV2\tNV1\tSYS\tNV2\tSYS\tSYS\t0-19
            GPU2\tNV1\tNV2\t X \tNV2\tSYS\tSYS\tNV1\tSYS\t0-19
            GPU3\tNV2\tNV1\tNV2\t X \tSYS\tSYS\tSYS\tNV1\t0-19
            GPU4\tNV2\tSYS\tSYS\tSYS\t X \tNV1\tNV1\tNV2\t20-39
            GPU5\tSYS\tNV2\tSYS\tSYS\tNV1\t X \tNV2\tNV1\t20-39
            GPU6\tSYS\tSYS\tNV1\tSYS\tNV1\tNV2\t X \tNV2\t20-39
            GPU7\tSYS\tSYS\tSYS\tNV1\tNV2\tNV1\tNV2\t X \t20-39
            """;

    @Test
    void hybridCubeMeshIsPointToPoint() {
        // DGX-1V style hybrid cube-mesh: 6 NVLinks per GPU spread as NV1/NV2 over 4 peers
        Topology t = NvidiaSmiTopo.parse(DGX1, "dgx1");
        assertThat(nodes(t, NodeKind.NVSWITCH)).isZero();
        assertThat(links(t, LinkKind.NVLINK)).isEqualTo(8 * 4 / 2);
        int lanes = t.neighbours("n0.gpu0").stream().filter(l -> l.kind() == LinkKind.NVLINK)
                .mapToInt(l -> l.lanes()).sum();
        assertThat(lanes).isEqualTo(6);
        assertThat(t.link("n0.gpu0~n0.gpu3").bandwidthBytesPerSecPerDirection()).isCloseTo(2 * 25e9, within(1.0));
        assertThat(t.route("n0.gpu0", "n0.gpu3", 0).length()).isEqualTo(1);
    }

    @Test
    void pxbBuildsAnUpperSwitch() {
        String m = """
                \tGPU0\tGPU1\tNIC0\tNIC1\tCPU Affinity\tNUMA Affinity
                GPU0\t X \tPXB\tPIX\tPXB\t0-7\t0
                GPU1\tPXB\t X \tPXB\tPIX\t0-7\t0
                NIC0\tPIX\tPXB\t X \tPXB
                NIC1\tPXB\tPIX\tPXB\t X
                """;
        Topology t = NvidiaSmiTopo.parse(m, "pxb");
        assertThat(nodes(t, NodeKind.PCIE_SWITCH)).isEqualTo(3);
        // gpu0 -> pix switch -> pxb switch -> pix switch -> gpu1, not through the CPU
        assertThat(t.route("n0.gpu0", "n0.gpu1", 0).length()).isEqualTo(4);
        assertThat(t.route("n0.gpu0", "n0.gpu1", 0).linkIds()).noneMatch(id -> id.contains("cpu"));
    }

    @Test
    void errorsGiveLineColumnAndValidValues() {
        assertThatThrownBy(() -> NvidiaSmiTopo.parse(DGX1.replace("GPU2\tNV1\tNV2\t X \tNV2", "GPU2\tNV1\tNV2\t X \tNVX"),
                "f.txt")).hasMessageStartingWith("f.txt:4:").hasMessageContaining("unknown connection 'NVX'")
                .hasMessageContaining("PIX, PXB, PHB, NODE, SYS");
        assertThatThrownBy(() -> NvidiaSmiTopo.parse(DGX1.replace("GPU7\tSYS", "GPU9\tSYS"), "f.txt"))
                .hasMessageStartingWith("f.txt:9:1:").hasMessageContaining("'GPU9' is not a column");
        assertThatThrownBy(() -> NvidiaSmiTopo.parse(DGX1.replace("GPU0\t X \tNV1", "GPU0\t X \tNV2"), "f.txt"))
                .hasMessageContaining("not symmetric");
        assertThatThrownBy(() -> NvidiaSmiTopo.parse("hello\n", "f.txt")).hasMessageStartingWith("f.txt:1:1:")
                .hasMessageContaining("GPU0");
        assertThatThrownBy(() -> NvidiaSmiTopo.parse(DGX1.replace("GPU3\tNV2\tNV1\tNV2\t X \tSYS\tSYS\tSYS\tNV1\t0-19",
                "GPU3\tNV2\tNV1"), "f.txt")).hasMessageStartingWith("f.txt:5:").hasMessageContaining("expected 8");
    }
}
