package io.ccsim.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CatalogTest {

    static long count(Topology t, NodeKind k) {
        return t.nodes().stream().filter(n -> n.kind() == k).count();
    }

    static long count(Topology t, LinkKind k) {
        return t.links().stream().filter(n -> n.kind() == k).count();
    }

    @Test
    void hgxH200Board() {
        Topology t = TopologyCatalog.build("hgx-h200");
        assertThat(t.gpus()).hasSize(8);
        assertThat(count(t, NodeKind.NVSWITCH)).isEqualTo(4);
        assertThat(count(t, NodeKind.NIC)).isEqualTo(8);
        assertThat(count(t, NodeKind.CPU)).isEqualTo(2);
        assertThat(count(t, LinkKind.NVLINK)).isEqualTo(8 * 4);
        assertThat(count(t, LinkKind.SMP)).isEqualTo(1);
        assertThat(t.gpus().get(0).attr("model")).isEqualTo("H200");
        assertThat(t.gpus().get(0).attr("memory_bytes")).isEqualTo(Long.toString(143771L * 1024 * 1024));
        int lanes = t.neighbours("n0.gpu0").stream().filter(l -> l.kind() == LinkKind.NVLINK)
                .mapToInt(Link::lanes).sum();
        assertThat(lanes).isEqualTo(18);
        LinkGroup g0 = t.groupOf("n0.gpu0~n0.nvs0");
        assertThat(g0.striped()).isTrue();
        assertThat(g0.members()).hasSize(4);
        assertThat(g0.capacityBytesPerSec()).isCloseTo(18 * 26.562e9, within(1.0));
        assertThat(TopologyCatalog.build("hgx-h100").gpus().get(0).attr("model")).isEqualTo("H100");
    }

    @Test
    void hgxB200BoardHasTwoNvlink5SwitchesWithMulticast() {
        Topology t = TopologyCatalog.build("hgx-b200");
        assertThat(t.gpus()).hasSize(8);
        assertThat(t.gpus().get(0).attr("model")).isEqualTo("B200");
        assertThat(count(t, NodeKind.NVSWITCH)).isEqualTo(2);
        assertThat(count(t, NodeKind.NIC)).isEqualTo(8);
        for (Node n : t.nodes()) {
            if (n.kind() == NodeKind.NVSWITCH) {
                assertThat(n.attr("multicast")).isEqualTo("true");
                assertThat(n.attr("generation")).isEqualTo("4");
            }
        }
        // 18 NVLink5 links of 50 GB/s per direction, 9 on each switch, one striped group
        assertThat(t.group("n0.gpu3.nvl").capacityBytesPerSec()).isEqualTo(18 * 50e9);
        assertThat(t.group("n0.gpu3.nvl").members()).hasSize(2);
    }

    @Test
    void gpuToGpuRouteIsTheTwoStripedGroups() {
        Topology t = TopologyCatalog.build("hgx-h200");
        Route r = t.route("n0.gpu0", "n0.gpu5", 7);
        int g0 = t.group("n0.gpu0.nvl").index();
        int g5 = t.group("n0.gpu5.nvl").index();
        assertThat(r.hops()).containsExactly(Route.hop(g0, false), Route.hop(g5, true));
        assertThat(r.latencyPs()).isEqualTo(2 * Hardware.NVLINK_LATENCY_PS);
        assertThat(r.reverseAt(1)).isTrue();
        assertThat(t.route("n0.gpu3", "n0.gpu3", 0)).isEqualTo(Route.local());
        assertThat(t.route("n0.gpu0", "n0.gpu5", 7)).isSameAs(r);
    }

    @Test
    void gpuToNicGoesThroughTheSharedPcieSwitch() {
        Topology t = TopologyCatalog.build("hgx-h200");
        Route r = t.route("n0.gpu1", "n0.nic1", 0);
        assertThat(r.linkIds()).containsExactly("n0.gpu1~n0.pcie0", "n0.nic1~n0.pcie0");
        assertThat(r.latencyPs()).isEqualTo(2 * Hardware.PCIE_LATENCY_PS);
        assertThat(r.reverseAt(0)).isFalse();
        assertThat(r.reverseAt(1)).isTrue();
    }

    @Test
    void subsetKeepsSwitches() {
        Topology t = TopologyCatalog.build("hgx-h200", BuildOptions.of(4, 1));
        assertThat(t.gpus()).extracting(Node::id).containsExactly("n0.gpu0", "n0.gpu1", "n0.gpu2", "n0.gpu3");
        assertThat(count(t, NodeKind.NVSWITCH)).isEqualTo(4);
        assertThat(count(t, NodeKind.NIC)).isEqualTo(4);
        assertThatThrownBy(() -> TopologyCatalog.build("hgx-h200", BuildOptions.of(9, 1)))
                .hasMessageContaining("gpus must be 1..8");
    }

    @Test
    void unknownNameListsValidOnes() {
        assertThatThrownBy(() -> TopologyCatalog.build("dgx-z9"))
                .hasMessageContaining("unknown topology 'dgx-z9'").hasMessageContaining("hgx-h200")
                .hasMessageContaining("gb200-nvl72");
    }

    @Test
    void pcieBoxCrossSocketRouteUsesSmp() {
        Topology t = TopologyCatalog.build("pcie-8gpu");
        assertThat(count(t, LinkKind.NVLINK)).isZero();
        Route r = t.route("n0.gpu0", "n0.gpu7", 0);
        // gpu0 -> pcie0 -> cpu0 -> cpu1 -> pcie3 -> gpu7
        assertThat(r.linkIds()).containsExactly("n0.gpu0~n0.pcie0", "n0.pcie0~n0.cpu0", "n0.cpu0~n0.cpu1",
                "n0.pcie3~n0.cpu1", "n0.gpu7~n0.pcie3");
        assertThat(r.latencyPs()).isEqualTo(4 * Hardware.PCIE_LATENCY_PS + Hardware.SMP_LATENCY_PS);
        assertThat(t.link("n0.gpu0~n0.pcie0").bandwidthBytesPerSecPerDirection())
                .isCloseTo(16e9 * 16 * 128 / 130 / 8 * 0.85, within(1.0));
    }

    @Test
    void nvl72() {
        Topology t = TopologyCatalog.build("gb200-nvl72");
        assertThat(t.gpus()).hasSize(72);
        assertThat(count(t, NodeKind.NVSWITCH)).isEqualTo(18);
        assertThat(count(t, NodeKind.CPU)).isEqualTo(36);
        assertThat(count(t, LinkKind.C2C)).isEqualTo(72);
        assertThat(t.group("n0.gpu0.nvl").capacityBytesPerSec()).isCloseTo(18 * 50e9, within(1.0));
        Route r = t.route("n0.gpu0", "n0.gpu71", 3);
        assertThat(r.length()).isEqualTo(2);
    }

    @Test
    void multiNodeFatTree() {
        // 40 hosts: 32 per leaf at 1:1 -> 2 leaves per rail, 32 spines
        // ECMP routing (the RoCE hash; the InfiniBand catalog fabric routes by destination unless told)
        Topology t = TopologyCatalog.build("hgx-h200", new BuildOptions(0, 40, 1.0, 11)).withRouting(Routing.ECMP);
        assertThat(t.hosts()).isEqualTo(40);
        assertThat(t.gpus()).hasSize(320);
        assertThat(t.hasNode("leaf.r7.1")).isTrue();
        assertThat(t.hasNode("spine.31")).isTrue();
        assertThat(t.hasNode("spine.32")).isFalse();
        assertThat(t.link("n31.nic1~leaf.r1.0")).isNotNull();
        assertThat(t.link("n32.nic1~leaf.r1.1")).isNotNull();
        // same leaf: nic -> leaf -> nic, no spine
        Route same = t.route("n0.gpu2", "n5.gpu2", 0);
        // NICs 2 and 3 share GPU 2's PCIe switch: both rails are equal-cost, ECMP picks one
        assertThat(same.length()).isEqualTo(6);
        assertThat(same.linkIds().get(0)).isEqualTo("n0.gpu2~n0.pcie1");
        assertThat(same.linkIds().get(2)).matches("n0\\.nic([23])~leaf\\.r\\1\\.0");
        assertThat(same.linkIds().get(5)).isEqualTo("n5.gpu2~n5.pcie1");
        // different leaves of one rail: through one of the 32 spines, chosen by ECMP
        Set<String> spines = new HashSet<>();
        for (long flow = 0; flow < 64; flow++) {
            Route r = t.route("n0.gpu2", "n39.gpu2", flow);
            assertThat(r.length()).isEqualTo(8);
            String up = r.linkIds().get(3);
            assertThat(up).matches("leaf\\.r[23]\\.0~spine\\.\\d+");
            // down from the same spine to a rail-2 or rail-3 leaf of the second leaf group (spines are shared)
            assertThat(r.linkIds().get(4)).matches("leaf\\.r[23]\\.1~" + up.substring(up.indexOf('~') + 1)
                    .replace(".", "\\."));
            spines.add(up);
            assertThat(t.route("n0.gpu2", "n39.gpu2", flow)).isEqualTo(r);
        }
        assertThat(spines.size()).isGreaterThan(16);
        // determinism across instances with the same seed; a different seed changes some choices
        Topology again = TopologyCatalog.build("hgx-h200", new BuildOptions(0, 40, 1.0, 11)).withRouting(Routing.ECMP);
        Topology other = TopologyCatalog.build("hgx-h200", new BuildOptions(0, 40, 1.0, 12)).withRouting(Routing.ECMP);
        int differ = 0;
        for (long flow = 0; flow < 32; flow++) {
            Route r = t.route("n1.gpu0", "n38.gpu0", flow);
            assertThat(again.route("n1.gpu0", "n38.gpu0", flow)).isEqualTo(r);
            if (!other.route("n1.gpu0", "n38.gpu0", flow).equals(r)) {
                differ++;
            }
        }
        assertThat(differ).isPositive();
    }

    @Test
    void oversubscriptionHalvesUplinks() {
        Topology t = TopologyCatalog.build("hgx-h100", new BuildOptions(0, 64, 2.0, 0));
        // down = floor(64*2/3) = 42, up = ceil(42/2) = 21, leaves per rail = ceil(64/42) = 2
        assertThat(t.hasNode("spine.20")).isTrue();
        assertThat(t.hasNode("spine.21")).isFalse();
        assertThat(t.neighbours("leaf.r0.0").stream().filter(l -> l.id().contains("spine")).count()).isEqualTo(21);
        assertThat(t.neighbours("leaf.r0.0").stream().filter(l -> l.id().contains("nic")).count()).isEqualTo(42);
    }

    @Test
    void withLinkHealthSharesStructureAndChangesCapacity() {
        Topology t = TopologyCatalog.build("hgx-h200");
        Topology d = t.withLinkHealth("n0.gpu0~n0.nvs0", LinkHealth.linkDown());
        assertThat(d.group("n0.gpu0.nvl").capacityBytesPerSec()).isCloseTo(13 * 26.562e9, within(1.0));
        assertThat(t.group("n0.gpu0.nvl").capacityBytesPerSec()).isCloseTo(18 * 26.562e9, within(1.0));
        assertThat(d.route("n0.gpu0", "n0.gpu1", 0)).isEqualTo(t.route("n0.gpu0", "n0.gpu1", 0));
        assertThat(d).isNotEqualTo(t);
    }

    @Test
    void builds128NodesFast() {
        long t0 = System.nanoTime();
        Topology t = TopologyCatalog.build("hgx-h200", BuildOptions.of(0, 128));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(t.gpus()).hasSize(1024);
        assertThat(ms).isLessThan(3000);
        List<Node> g = t.gpus();
        for (int i = 0; i < g.size(); i++) {
            int j = (i + 8) % g.size();
            int expected = g.get(i).host() / 32 == g.get(j).host() / 32 ? 6 : 8; // same leaf: no spine
            assertThat(t.route(g.get(i).id(), g.get(j).id(), i).length()).isEqualTo(expected);
        }
    }

    @Test
    void pcieClusterCablesRunAtTheNicRate() {
        Topology t = TopologyCatalog.build("pcie-8gpu", BuildOptions.of(0, 2));
        assertThat(t.link("n1.nic3~leaf.r3.0").bandwidthBytesPerSecPerDirection()).isEqualTo(200e9 / 8);
        assertThatThrownBy(() -> TopologyCatalog.build("pcie-8gpu-nonic", BuildOptions.of(0, 2)))
                .hasMessageContaining("has no NICs");
    }

    @Test
    void sameInputsGiveIdenticalOutput() {
        BuildOptions o = new BuildOptions(0, 6, 1.0, 3);
        assertThat(io.ccsim.topology.json.TopologyJson.write(TopologyCatalog.build("hgx-h200", o)))
                .isEqualTo(io.ccsim.topology.json.TopologyJson.write(TopologyCatalog.build("hgx-h200", o)));
    }

    @Test
    void builds100kGpus() {
        long t0 = System.nanoTime();
        Topology t = TopologyCatalog.build("hgx-h200", BuildOptions.of(0, 12_500));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(t.gpus()).hasSize(100_000);
        // leaves per rail = ceil(12500 / 32) = 391, 32 spines, each leaf 32 uplinks
        assertThat(t.hasNode("leaf.r7.390")).isTrue();
        assertThat(t.links()).hasSize(12_500 * (1 + 4 + 8 * (1 + 4 + 1 + 1)) + 8 * 391 * 32);
        assertThat(t.route("n0.gpu0", "n12499.gpu7", 1).length()).isEqualTo(8);
        assertThat(ms).as("build time on a loaded 2-core machine").isLessThan(30_000);
    }

    @Test
    void hgxWithFourNicsSharesEachNicBetweenTwoGpusOnTheirSwitch() {
        Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 2).withNicsPerNode(4));
        assertThat(t.name()).isEqualTo("hgx-h100-4nic-2n");
        assertThat(count(t, NodeKind.NIC)).isEqualTo(2 * 4);
        for (int k = 0; k < 4; k++) {
            // NIC k hangs off PCIe switch k, the switch of GPUs 2k and 2k+1
            assertThat(t.link("n0.nic" + k + "~n0.pcie" + k)).isNotNull();
            assertThat(t.link("n0.gpu" + (2 * k + 1) + "~n0.pcie" + k)).isNotNull();
            assertThat(t.node("n1.nic" + k).attr("device")).isEqualTo("mlx5_" + k);
        }
        // one leaf per rail, 4 rails
        assertThat(t.hasNode("leaf.r3.0")).isTrue();
        assertThat(t.hasNode("leaf.r4.0")).isFalse();
    }

    @Test
    void nicCountsABoardCannotHaveAreRefusedWithTheValidOnes() {
        assertThatThrownBy(() -> TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 2).withNicsPerNode(3)))
                .hasMessage("nicsPerNode must divide the 8 GPUs per board (one NIC per group of GPUs), got 3;"
                        + " valid: [1, 2, 4, 8]");
        assertThatThrownBy(() -> TopologyCatalog.build("pcie-8gpu", BuildOptions.of(0, 2).withNicsPerNode(8)))
                .hasMessageContaining("fixed NIC count of 4");
        assertThat(TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 1).withNicsPerNode(8)).name()).isEqualTo("hgx-h100");
    }
}
