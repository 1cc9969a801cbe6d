package io.ccsim.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The link listing selects by kind and by node or host, and its ids are the ones a what-if takes. */
class LinkListingTest {
    private static final Topology TWO = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 2));

    @Test
    void aHostsNetworkCablesAreItsNicsOnePerRail() {
        LinkListing l = LinkListing.select(TWO, EnumSet.of(LinkListing.kind("ib")), "n1");
        assertThat(l.links()).hasSize(8);
        for (int r = 0; r < 8; r++) assertThat(l.links().get(r).id()).isEqualTo("n1.nic" + r + "~leaf.r" + r + ".0");
        for (Link link : l.links()) assertThat(new LinkPattern(link.id()).match(TWO)).containsExactly(TWO.linkIndex(link.id()));
    }

    @Test
    void aNodeSelectsItsOwnLinksAndAPrefixTheNodesUnderIt() {
        LinkListing gpu = LinkListing.select(TWO, Set.of(), "n0.gpu3");
        assertThat(gpu.links()).allMatch(l -> l.a().equals("n0.gpu3") || l.b().equals("n0.gpu3"));
        assertThat(gpu.links()).hasSize(TWO.neighbours("n0.gpu3").size());
        LinkListing leaves = LinkListing.select(TWO, Set.of(LinkKind.INFINIBAND), "leaf.r3");
        assertThat(leaves.links()).extracting(Link::id).contains("n0.nic3~leaf.r3.0", "n1.nic3~leaf.r3.0", "leaf.r3.0~spine.0");
        assertThat(leaves.links()).allMatch(x -> x.a().equals("leaf.r3.0") || x.b().equals("leaf.r3.0"));
        assertThat(LinkListing.select(TWO, Set.of(), null).links()).hasSize(TWO.links().size());
        // n1 is not a prefix of n10's nodes, only of n1.*
        assertThat(LinkListing.select(TWO, Set.of(), "n1").links()).allMatch(x -> x.a().startsWith("n1.") || x.b().startsWith("n1."));
    }

    @Test
    void unknownNodesAndKindsAreRefusedWithWhatIsValid() {
        assertThatThrownBy(() -> LinkListing.select(TWO, Set.of(), "n7"))
                .hasMessage("no node 'n7' and no node under it in topology hgx-h100-2n; valid: a node id (e.g. n0.gpu0) or a host n0..n1");
        assertThatThrownBy(() -> LinkListing.kind("ethernet")).hasMessageContaining("valid: ib, infiniband, roce, nvlink");
        assertThat(LinkListing.kind("NVLink")).isEqualTo(LinkKind.NVLINK);
    }

    @Test
    void theTableShowsRateLanesGroupAndHealth() {
        Topology t = TWO.withLinkHealth("n1.nic2~leaf.r2.0", LinkHealth.degraded(0.1));
        String text = LinkListing.select(t, Set.of(LinkKind.INFINIBAND), "n1.nic2").toText();
        assertThat(text).startsWith("# 1 of 138 links of hgx-h100-2n;");
        assertThat(text.lines().skip(2).findFirst().orElseThrow().split(" +"))
                .containsExactly("", "n1.nic2~leaf.r2.0", "infiniband", "n1.nic2", "leaf.r2.0", "50", "400", "1", "-", "x0.1");
        String nvl = LinkListing.select(TWO, Set.of(LinkKind.NVLINK), "n0.gpu0").toText();
        assertThat(nvl).contains("n0.gpu0~n0.nvs0").contains("n0.gpu0.nvl");
        assertThat(LinkListing.health(LinkHealth.linkDown())).isEqualTo("down");
        assertThat(LinkListing.health(LinkHealth.HEALTHY)).isEqualTo("ok");
    }
}
