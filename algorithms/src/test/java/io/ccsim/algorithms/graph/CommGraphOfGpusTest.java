package io.ccsim.algorithms.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import org.junit.jupiter.api.Test;

/** {@link CommGraph#of(Topology, int[])}: communicators over an explicit list of GPUs. */
class CommGraphOfGpusTest {
    private final Topology topo = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 4));

    private int gpu(int host, int local) { return topo.nodeIndex("n" + host + ".gpu" + local); }

    @Test
    void theFirstGpusGiveTheSameGraphAsTheRankCount() {
        int[] first = new int[16];
        for (int r = 0; r < 16; r++) first[r] = topo.nodeIndex(topo.gpus().get(r).id());
        CommGraph a = CommGraph.of(topo, 16), b = CommGraph.of(topo, first);
        assertThat(b.nNodes()).isEqualTo(a.nNodes()).isEqualTo(2);
        assertThat(b.gpusPerNode()).isEqualTo(a.gpusPerNode()).isEqualTo(8);
        assertThat(b.nChannels()).isEqualTo(a.nChannels());
        assertThat(b.gpuOfRank()).containsExactly(a.gpuOfRank());
        assertThat(b.ringOrders(4)).isDeepEqualTo(a.ringOrders(4));
    }

    @Test
    void oneGpuPerHostIsAMultiNodeCommunicatorWithOneRankPerNode() {
        int[] gpus = {gpu(0, 3), gpu(1, 3), gpu(2, 3), gpu(3, 3)};
        CommGraph g = CommGraph.of(topo, gpus);
        assertThat(g.nRanks()).isEqualTo(4);
        assertThat(g.nNodes()).isEqualTo(4);
        assertThat(g.gpusPerNode()).isEqualTo(1);
        assertThat(g.gpuOfRank()).containsExactly(gpus);
        // ppn = 1: every ring visits the hosts in order
        for (int[] ring : g.ringOrders(g.nChannels())) assertThat(ring).containsExactly(0, 1, 2, 3);
        assertThat(g.interBwGBs()).isPositive();
    }

    @Test
    void badListsAreRejectedWithTheReason() {
        assertThatThrownBy(() -> CommGraph.of(topo, new int[0])).hasMessageContaining("at least one GPU");
        int nic = topo.nodeIndex("n0.nic0");
        assertThatThrownBy(() -> CommGraph.of(topo, new int[] {gpu(0, 0), nic})).hasMessageContaining("rank 1")
                .hasMessageContaining("is not a GPU");
        assertThatThrownBy(() -> CommGraph.of(topo, new int[] {gpu(0, 0), gpu(0, 0)})).hasMessageContaining("already used");
        assertThatThrownBy(() -> CommGraph.of(topo, new int[] {gpu(0, 0), gpu(1, 0), gpu(0, 1), gpu(1, 1)}))
                .hasMessageContaining("consecutive");
        assertThatThrownBy(() -> CommGraph.of(topo, new int[] {gpu(0, 0), gpu(0, 1), gpu(1, 0), gpu(2, 0)}))
                .hasMessageContaining("same number of ranks");
    }
}
