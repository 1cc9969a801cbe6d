package io.ccsim.algorithms.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.sim.Simulator;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.NodeKind;
import io.ccsim.topology.Routing;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The routes a cache hands out are the ones NCCL's paths give for that very channel, under either routing. */
class RouteCacheTest {

    private static final CalibrationProfile H100 = CalibrationProfile.builtin("h100");

    @Test
    void everyChannelGetsItsOwnRouteAndDestinationRoutingSharesOnePerPair() {
        int differingUnderEcmp = 0;
        for (Routing routing : Routing.values()) {
            Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 64)).withRouting(routing);
            Fabric fabric = new Fabric(new Simulator(0), t, H100, false);
            RouteCache cache = new RouteCache(fabric, false);
            NcclPaths fresh = new NcclPaths(t, fabric.p2pDisabled(), fabric.netPolicy());
            List<Integer> gpus = new ArrayList<>();
            for (int i = 0; i < t.nodes().size(); i++) {
                if (t.nodes().get(i).kind() == NodeKind.GPU) gpus.add(i);
            }
            // every GPU of host 0 to every GPU of the cluster, on 16 channels: inside the host, across a leaf, across
            // the spines
            for (int a = 0; a < 8; a++) {
                for (int b : gpus) {
                    int src = gpus.get(a);
                    int[] first = null;
                    boolean differs = false;
                    for (int c = 0; c < 16; c++) {
                        int[] want = fresh.route(src, b, c, false).hops();
                        assertThat(cache.route(src, b, c).hops()).as("%s %d -> %d channel %d", routing, src, b, c)
                                .containsExactly(want);
                        if (first == null) first = want;
                        else differs |= !Arrays.equals(first, want);
                    }
                    if (differs) {
                        assertThat(routing).as("by destination a pair has one route").isEqualTo(Routing.ECMP);
                        differingUnderEcmp++;
                    }
                }
            }
        }
        // the check has teeth: under ECMP some pairs do take other paths on other channels
        assertThat(differingUnderEcmp).isPositive();
    }
}
