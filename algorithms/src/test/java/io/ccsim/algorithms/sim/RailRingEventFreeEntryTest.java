package io.ccsim.algorithms.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.TopologyCatalog;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Rail-aligned ring all-reduces across HGX H100 hosts take the same time, to the picosecond, when flows may enter
 * their bandwidth phase without an event (link traffic untracked, as perf runs) as when the solver times every flow
 * (tracked); with PXN, whose network flows also cross the proxy GPU's NVLink, as without it. At 1 MiB per rank and
 * step (as 64 hosts at 512 MiB) most flows enter event-free: their completion is their only event.
 */
class RailRingEventFreeEntryTest {
    private static final long MIB = 1L << 20;

    /** Compares both ways on 2 hosts at 16 MiB and on 4 hosts at 32 MiB under {@code vars}. */
    private static void sameTimeFewerEvents(Map<String, String> vars) {
        for (int nodes : new int[] {2, 4}) {
            long bytes = nodes * 8 * MIB;
            var topo = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, nodes));
            RailRun eventFree = RailRun.allReduce(topo, vars, bytes, Algorithm.RING, false);
            RailRun solver = RailRun.allReduce(topo, vars, bytes, Algorithm.RING, true);
            assertThat(eventFree.timePs).as("%d hosts %s", nodes, vars).isEqualTo(solver.timePs);
            assertThat(eventFree.flows).isEqualTo(solver.flows);
            // timed by the solver, a flow with bytes has a latency event and a completion; entered event-free, only
            // the completion
            assertThat(eventFree.events).as("%d hosts %s", nodes, vars).isLessThan(solver.events * 7 / 10);
        }
    }

    @Test
    void withPxnTheSameTimeWithFewerEvents() {
        sameTimeFewerEvents(Map.of());
    }

    @Test
    void withoutPxnTheSameTimeWithFewerEvents() {
        sameTimeFewerEvents(Map.of("NCCL_PXN_DISABLE", "1"));
    }
}
