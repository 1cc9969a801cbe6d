package io.ccsim.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Destination routing (d-mod-k) on the rail-optimized fat-tree: every flow to a host crosses the spine at that host's
 * position in its leaf, from every source, on every rail, for every flow key; ECMP spreads one pair's flow keys.
 */
class DestinationRoutingTest {
    /** 40 hosts of 2 GPUs: hosts 32..39 sit on the second leaf of each rail (32 hosts per leaf). */
    private static final Topology ECMP = TopologyCatalog.build("hgx-h100", BuildOptions.of(2, 40)).withRouting(Routing.ECMP);
    private static final Topology DMODK = ECMP.withRouting(Routing.DESTINATION);

    private static String spine(Route r) {
        List<String> spines = r.linkIds().stream().filter(id -> id.contains("spine.")).toList();
        assertThat(spines).as("a route between leaves crosses one spine, up and down: %s", r.linkIds()).hasSize(2);
        return spines.get(0).substring(spines.get(0).indexOf("spine."));
    }

    @Test
    void everyFlowToAHostCrossesTheSpineAtItsPositionInTheLeaf() {
        for (int src : new int[] {0, 5, 31}) {
            for (int dst = 32; dst < 40; dst++) {
                for (int rail = 0; rail < 2; rail++) {
                    for (long key = 0; key < 4; key++) {
                        Route r = DMODK.route("n" + src + ".nic" + rail, "n" + dst + ".nic" + rail, key);
                        assertThat(spine(r)).as("n%d -> n%d rail %d key %d", src, dst, rail, key)
                                .isEqualTo("spine." + (dst % 32));
                        // the way back enters the source's leaf from the spine of the source's position
                        Route back = DMODK.route("n" + dst + ".nic" + rail, "n" + src + ".nic" + rail, key);
                        assertThat(spine(back)).isEqualTo("spine." + src);
                    }
                }
            }
        }
    }

    @Test
    void aRouteDoesNotDependOnTheFlowKeyAndIsCachedOncePerPair() {
        Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(2, 40)).withRouting(Routing.DESTINATION);
        Route first = t.route("n3.gpu1", "n37.gpu1", 0); // equal paths through either NIC of the host
        for (long key = 1; key < 16; key++) assertThat(t.route("n3.gpu1", "n37.gpu1", key)).isEqualTo(first);
        assertThat(t.structure().router(Routing.DESTINATION).cachedRoutes()).isEqualTo(1);
    }

    @Test
    void ecmpSpreadsTheFlowKeysOfOnePairOverSpines() {
        Set<String> spines = new HashSet<>();
        for (long key = 0; key < 32; key++) spines.add(spine(ECMP.route("n3.nic0", "n37.nic0", key)));
        assertThat(spines.size()).isGreaterThan(8);
    }

    @Test
    void routingIsACopyOfTheSameGraphWithItsOwnRoutes() {
        assertThat(ECMP.routing()).isEqualTo(Routing.ECMP);
        assertThat(DMODK.routing()).isEqualTo(Routing.DESTINATION);
        assertThat(DMODK.links()).isEqualTo(ECMP.links());
        assertThat(DMODK).isNotEqualTo(ECMP);
        assertThat(DMODK.withRouting(Routing.DESTINATION)).isSameAs(DMODK);
        Topology degraded = DMODK.withLinkHealth("n0.nic0~leaf.r0.0", LinkHealth.degraded(0.5));
        assertThat(degraded.routing()).isEqualTo(Routing.DESTINATION);
        // inside a leaf there is one shortest path either way
        assertThat(DMODK.route("n0.nic0", "n7.nic0", 0)).isEqualTo(ECMP.route("n0.nic0", "n7.nic0", 0));
    }

    @Test
    void anInfinibandFabricRoutesByDestinationARoceFabricByHashAndAHostAlone() {
        assertThat(TopologyCatalog.build("hgx-h100", BuildOptions.of(2, 40)).routing()).isEqualTo(Routing.DESTINATION);
        assertThat(TopologyCatalog.build("hgx-h100", BuildOptions.of(8, 1)).routing())
                .as("one host: no network, nothing to choose").isEqualTo(Routing.ECMP);
        List<Link> mixed = new java.util.ArrayList<>(ECMP.links());
        Link ib = mixed.stream().filter(l -> l.kind() == LinkKind.INFINIBAND).findFirst().orElseThrow();
        mixed.add(new Link(ib.id() + ".roce", ib.a(), ib.b(), LinkKind.ROCE, ib.bandwidthBytesPerSecPerDirection(),
                ib.latencyPs(), ib.sharing(), ib.lanes(), ib.pcieGen(), ib.health()));
        assertThat(Routing.ofFabric(mixed)).as("any RoCE link: the Ethernet hash").isEqualTo(Routing.ECMP);
    }
}
