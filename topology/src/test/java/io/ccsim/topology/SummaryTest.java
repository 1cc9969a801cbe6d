package io.ccsim.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class SummaryTest {

    @Test
    void hgxBoard() {
        TopologySummary s = TopologySummary.of(TopologyCatalog.build("hgx-h200"));
        double nvl = 18 * 26.562e9;
        assertThat(s.nodeCounts().get(NodeKind.GPU)).isEqualTo(8);
        assertThat(s.linkCounts().get(LinkKind.NVLINK)).isEqualTo(32);
        assertThat(s.nvlinkPerGpu()).isCloseTo(nvl, within(1.0));
        assertThat(s.pciePerGpu()).isCloseTo(32e9 * 16 * 128 / 130 / 8 * 0.85, within(1.0));
        assertThat(s.networkPerGpu()).isCloseTo(400e9 / 8, within(1.0));
        assertThat(s.bisection()).isCloseTo(8 / 2 * nvl, within(1.0));
        assertThat(s.toText()).contains("per-GPU NVLink:").contains("478.116").contains("gpu=8");
    }

    @Test
    void pcieBoxBisectionIsTheSmpLinkPlusNothingElse() {
        TopologySummary s = TopologySummary.of(TopologyCatalog.build("pcie-8gpu"));
        // halves = GPUs 0-3 (socket 0) and 4-7 (socket 1): the only path between sockets is the UPI link
        assertThat(s.bisection()).isCloseTo(22e9, within(1.0));
        assertThat(s.nvlinkPerGpu()).isZero();
    }

    @Test
    void fatTreeBisection() {
        double nic = 400e9 / 8;
        // 16 hosts fit one leaf per rail: (16/2) x 8 NICs x 50 GB/s
        assertThat(TopologySummary.of(TopologyCatalog.build("hgx-h200", BuildOptions.of(0, 16))).bisection())
                .isCloseTo(16 / 2 * 8 * nic, within(1.0));
        // 64 hosts at 2:1: down 42, up 21 -> factor 21/42
        assertThat(TopologySummary.of(TopologyCatalog.build("hgx-h200", new BuildOptions(0, 64, 2.0, 0)))
                .bisection()).isCloseTo(64 / 2 * 8 * nic * 21 / 42, within(1.0));
    }

    @Test
    void theSummaryNamesTheRoutingOfANetworkOnly() {
        Topology ib = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 40));
        assertThat(TopologySummary.of(ib).toText()).contains("routing:         dmodk (by destination");
        assertThat(TopologySummary.of(ib.withRouting(Routing.ECMP)).toText()).contains("routing:         ecmp (a hash");
        assertThat(TopologySummary.of(TopologyCatalog.build("hgx-h100")).toText()).doesNotContain("routing:");
    }
}
