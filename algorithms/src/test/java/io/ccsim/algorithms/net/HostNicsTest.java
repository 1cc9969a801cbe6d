package io.ccsim.algorithms.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import org.junit.jupiter.api.Test;

/** Local NICs, path types and GPU Direct RDMA legs ({@link HostNics}). */
class HostNicsTest {
    private final Topology hgx = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 2));

    private int n(Topology t, String id) { return t.nodeIndex(id); }

    @Test
    void eachHgxGpuHasItsRailNicAndTheNicItsGpu() {
        HostNics nics = new HostNics(hgx, NetPolicy.DEFAULT);
        for (int g = 0; g < 8; g++) {
            assertThat(nics.localNic(n(hgx, "n1.gpu" + g))).isEqualTo(n(hgx, "n1.nic" + g));
            assertThat(nics.localGpu(n(hgx, "n1.nic" + g))).isEqualTo(n(hgx, "n1.gpu" + g));
            assertThat(nics.rail(n(hgx, "n1.nic" + g))).isEqualTo(g);
        }
        assertThat(nics.pathType(n(hgx, "n0.gpu0"), n(hgx, "n0.nic1"))).isEqualTo(PathType.PIX);
        assertThat(nics.pathType(n(hgx, "n0.gpu0"), n(hgx, "n0.nic2"))).isEqualTo(PathType.PHB);
        assertThat(nics.pathType(n(hgx, "n0.gpu0"), n(hgx, "n0.nic7"))).isEqualTo(PathType.SYS);
    }

    @Test
    void fourNicsServeTwoGpusEach() {
        Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 2).withNicsPerNode(4));
        HostNics nics = new HostNics(t, NetPolicy.DEFAULT);
        for (int g = 0; g < 8; g++) assertThat(nics.localNic(n(t, "n0.gpu" + g))).isEqualTo(n(t, "n0.nic" + g / 2));
        assertThat(nics.localGpu(n(t, "n0.nic3"))).isEqualTo(n(t, "n0.gpu6"));
    }

    @Test
    void gdrOffStagesTheLegThroughTheCpu() {
        HostNics gdr = new HostNics(hgx, NetPolicy.DEFAULT);
        HostNics off = new HostNics(hgx, new NetPolicy(true, 2, HcaSelector.ALL, PathType.LOC));
        int gpu = n(hgx, "n0.gpu0");
        int nic = n(hgx, "n0.nic0");
        assertThat(gdr.sendLeg(gpu, nic).linkIds()).containsExactly("n0.gpu0~n0.pcie0", "n0.nic0~n0.pcie0");
        assertThat(off.sendLeg(gpu, nic).linkIds()).containsExactly("n0.gpu0~n0.pcie0", "n0.pcie0~n0.cpu0",
                "n0.pcie0~n0.cpu0", "n0.nic0~n0.pcie0");
        assertThat(off.recvLeg(nic, gpu).reverseAt(0)).isFalse();
        assertThat(off.recvLeg(nic, gpu).linkIds()).containsExactly("n0.nic0~n0.pcie0", "n0.pcie0~n0.cpu0",
                "n0.pcie0~n0.cpu0", "n0.gpu0~n0.pcie0");
    }

    @Test
    void levelsParseAsNcclsNamesAndOldIntegers() {
        assertThat(PathType.parseLevel("PHB")).isEqualTo(PathType.PHB);
        assertThat(PathType.parseLevel("0")).isEqualTo(PathType.LOC);
        assertThat(PathType.parseLevel("2")).isEqualTo(PathType.PXB);
        assertThat(PathType.parseLevel("9")).isEqualTo(PathType.SYS);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> PathType.parseLevel("phb")).hasMessage("not a path level: \"phb\"");
    }
}
