package io.ccsim.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What-ifs change rates and health as their contract says, leave the graph alone, and refuse what does not apply. */
class WhatIfTest {
    private static final Topology TWO = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 2));

    private static WhatIf degrade(String... texts) {
        List<WhatIf.Degrade> ds = java.util.Arrays.stream(texts).map(t -> WhatIf.parseDegrade(t, "--degrade " + t)).toList();
        return new WhatIf(null, null, ds, List.of());
    }

    @Test
    void aDegradedCableRunsAtItsFactorAndNothingElseChanges() {
        WhatIf.Result r = degrade("n1.nic3~leaf.r3.0=0.1").apply(TWO);
        Topology t = r.topology();
        Link cable = t.link("n1.nic3~leaf.r3.0");
        assertThat(cable.health().degradeFactor()).isEqualTo(0.1);
        assertThat(t.groupOf(cable.id()).capacityBytesPerSec()).isEqualTo(0.1 * Hardware.NDR_BW);
        for (int i = 0; i < t.links().size(); i++) {
            if (!t.links().get(i).id().equals(cable.id())) assertThat(t.links().get(i)).isEqualTo(TWO.links().get(i));
        }
        assertThat(t.route("n0.gpu3", "n1.gpu3", 0)).isEqualTo(TWO.route("n0.gpu3", "n1.gpu3", 0));
        assertThat(r.changes()).containsExactly("--degrade n1.nic3~leaf.r3.0=0.1: n1.nic3~leaf.r3.0 at 0.1 of the nominal"
                + " rate (5 GB/s of 50 GB/s per direction)");
    }

    @Test
    void anIdWithItsEndpointsSwappedNamesTheSameCable() {
        Topology t = degrade("leaf.r3.0~n1.nic3=0.5").apply(TWO).topology();
        assertThat(t.link("n1.nic3~leaf.r3.0").health().degradeFactor()).isEqualTo(0.5);
    }

    @Test
    void aGlobDegradesEveryLinkItMatches() {
        Topology t = degrade("n1.nic*~leaf.*=0.25").apply(TWO).topology();
        long slow = t.links().stream().filter(l -> l.health().degradeFactor() == 0.25).count();
        assertThat(slow).isEqualTo(8);
        assertThat(t.links().stream().filter(l -> l.health().degradeFactor() == 0.25)
                .allMatch(l -> l.a().startsWith("n1.nic") && l.b().startsWith("leaf."))).isTrue();
    }

    @Test
    void anUnknownLinkIsRefusedWithTheNodesLinksAsSuggestions() {
        assertThatThrownBy(() -> degrade("n1.nic3=0.1").apply(TWO))
                .hasMessageStartingWith("--degrade n1.nic3=0.1: no link 'n1.nic3' in topology hgx-h100-2n")
                .hasMessageEndingWith("nearest: n1.nic3~n1.pcie1, n1.nic3~leaf.r3.0");
        assertThatThrownBy(() -> degrade("n1.nic3~leaf.r3.1=0.1").apply(TWO)).hasMessageContaining("n1.nic3~leaf.r3.0");
        assertThatThrownBy(() -> degrade("n7.*=0.1").apply(TWO)).hasMessageContaining("the glob 'n7.*' matches no link");
    }

    @Test
    void malformedDegradesNameTheirOrigin() {
        assertThatThrownBy(() -> WhatIf.parseDegrade("n1.nic3~leaf.r3.0", "--degrade x"))
                .hasMessageStartingWith("--degrade x: expected LINK=FACTOR");
        assertThatThrownBy(() -> WhatIf.parseDegrade("n1.nic3~leaf.r3.0=fast", "--degrade x"))
                .hasMessageStartingWith("--degrade x: factor 'fast' is not a number");
        for (String bad : new String[] {"0", "1.5", "-0.1", "NaN"}) {
            assertThatThrownBy(() -> WhatIf.parseDegrade("a~b=" + bad, "--degrade x")).as(bad)
                    .hasMessageContaining("valid: (0, 1]");
        }
    }

    @Test
    void aLinkNamedTwiceIsRefused() {
        WhatIf w = new WhatIf(null, null, List.of(WhatIf.parseDegrade("n1.*=0.5", "--degrade n1.*=0.5")),
                List.of(new WhatIf.Down(new LinkPattern("n1.nic0~leaf.r0.0"), "--down n1.nic0~leaf.r0.0")));
        assertThatThrownBy(() -> w.apply(TWO)).hasMessage("--down n1.nic0~leaf.r0.0: link n1.nic0~leaf.r0.0 is also named by"
                + " --degrade n1.*=0.5; name each link in one --degrade or --down");
    }

    @Test
    void theNicRateSetsEveryNetworkCableAndTheNicsRecordedRate() {
        WhatIf w = new WhatIf(new WhatIf.NicRate(200, "--nic-gbps 200"), null, List.of(), List.of());
        Topology t = w.apply(TWO).topology();
        for (Link l : t.links()) {
            Link before = TWO.link(l.id());
            double expected = l.kind() == LinkKind.INFINIBAND ? 200e9 / 8 : before.bandwidthBytesPerSecPerDirection();
            assertThat(l.bandwidthBytesPerSecPerDirection()).as(l.id()).isEqualTo(expected);
        }
        assertThat(t.node("n1.nic5").attr("rate_gbps")).isEqualTo("200");
        Topology one = TopologyCatalog.build("hgx-h100");
        assertThatThrownBy(() -> w.apply(one)).hasMessageStartingWith("--nic-gbps 200: topology hgx-h100 has no network cable");
    }

    @Test
    void theNvlinkRateIsPerLinkSoAPortOf18GetsEighteenTimesIt() {
        WhatIf w = new WhatIf(null, new WhatIf.NvlinkRate(50, "--nvlink-gbps 50"), List.of(), List.of());
        Topology one = TopologyCatalog.build("hgx-h100");
        WhatIf.Result r = w.apply(one);
        for (Link l : r.topology().links()) {
            if (l.kind() == LinkKind.NVLINK) assertThat(l.bandwidthBytesPerSecPerDirection()).isEqualTo(50e9 * l.lanes());
        }
        assertThat(r.topology().groupOf("n0.gpu0~n0.nvs0").capacityBytesPerSec()).isEqualTo(18 * 50e9);
        assertThat(r.changes().get(0)).contains("GPU 0: 18 NVLinks, 900 GB/s per direction");
        Topology pcie = TopologyCatalog.build("pcie-8gpu");
        assertThatThrownBy(() -> w.apply(pcie)).hasMessageStartingWith("--nvlink-gbps 50: topology pcie-8gpu has no NVLink");
        assertThatThrownBy(() -> new WhatIf.NvlinkRate(0, "--nvlink-gbps 0")).hasMessageStartingWith("--nvlink-gbps 0: invalid");
    }

    @Test
    void aDownNvlinkTakesItsLanesOutOfThePortAndADownCableCarriesNothing() {
        Topology one = TopologyCatalog.build("hgx-h100");
        WhatIf w = new WhatIf(null, null, List.of(), List.of(new WhatIf.Down(new LinkPattern("n0.gpu2~n0.nvs0"), "--down x")));
        WhatIf.Result r = w.apply(one);
        LinkGroup port = r.topology().groupOf("n0.gpu2~n0.nvs0");
        assertThat(port.liveLanes()).isEqualTo(13);
        assertThat(port.capacityBytesPerSec()).isEqualTo(13 * Hardware.NVLINK4_LINK_BW, org.assertj.core.data.Offset.offset(1.0));
        assertThat(r.changes().get(0)).contains("keeps 13 of 18 lanes");
        WhatIf cable = new WhatIf(null, null, List.of(), List.of(new WhatIf.Down(new LinkPattern("n0.nic1~leaf.r1.0"), "--down y")));
        Topology t = cable.apply(TWO).topology();
        assertThat(t.groupOf("n0.nic1~leaf.r1.0").capacityBytesPerSec()).isZero();
    }

    @Test
    void noWhatIfGivesTheSameTopology() {
        assertThat(WhatIf.NONE.isNone()).isTrue();
        assertThat(WhatIf.NONE.apply(TWO).topology()).isSameAs(TWO);
        assertThat(WhatIf.NONE.apply(TWO).changes()).isEmpty();
    }
}
