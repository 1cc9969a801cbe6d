package io.ccsim.sim.flow;

import io.ccsim.sim.RandomStream;
import io.ccsim.sim.Sharing;
import io.ccsim.sim.Simulator;
import java.util.List;
import org.junit.jupiter.api.Test;

import static io.ccsim.sim.flow.FlowNetwork.hop;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A change re-solves the flows it reaches through their bottlenecks (RegionSolver); the rates are those of solving the
 * whole component, so the completions are too.
 */
class RegionSolverTest {
    private static final double C = 1e10;

    /** Chains of flows on random networks with random routes; "time:chain" per completion. */
    private static List<String> run(long seed, boolean regions, long[] work) {
        Simulator sim = new Simulator(seed);
        RandomStream r = sim.random("net");
        FlowNetwork net = new FlowNetwork(sim, FlowNetwork.Options.DEFAULT.withTrackNextCompletion(seed % 2 == 0)
                .withTrackLinkTraffic(seed % 3 == 1).withRegionSolve(regions));
        int links = 2 + r.nextInt(8);
        for (int i = 0; i < links; i++) {
            Sharing sharing = r.nextInt(5) == 0 ? Sharing.SHARED : r.nextInt(6) == 0 ? Sharing.FAT_PIPE : Sharing.FULL_DUPLEX;
            net.addLink("l" + i, C * (1 + r.nextInt(6)), sharing);
            if (sharing == Sharing.FULL_DUPLEX && r.nextInt(3) == 0) net.setDuplexEfficiency(i, 0.5 + 0.1 * r.nextInt(5));
        }
        FlowNetwork.Path[] paths = new FlowNetwork.Path[2 + r.nextInt(8)];
        for (int p = 0; p < paths.length; p++) {
            int[] route = new int[1 + r.nextInt(Math.min(4, links))];
            for (int h = 0; h < route.length; h++) route[h] = hop(r.nextInt(links), r.nextInt(3) == 0);
            paths[p] = net.path(route, 1 + r.nextInt(3));
        }
        List<String> out = FlowChains.start(sim, r, 2 + r.nextInt(14), 30, (cr, next) -> {
            FlowNetwork.Path p = paths[cr.nextInt(paths.length)];
            long latency = cr.nextInt(3) == 0 ? 0 : cr.nextInt(2_000_000);
            double cap = cr.nextInt(3) == 0 ? 0 : C / 8 * (1 + cr.nextInt(24));
            net.start(p, 1 + cr.nextInt(60_000), latency, cap, next);
        });
        if (seed % 4 == 0) sim.schedule(3_000_000, () -> net.setCapacity(0, net.capacity(0) / 3));
        if (seed % 4 == 1) sim.schedule(5_000_000, () -> net.setCapacity(links - 1, net.capacity(links - 1) * 2));
        sim.run();
        work[0] += net.solverWork();
        return out;
    }

    @Test
    void regionsGiveTheCompletionsOfWholeComponents() {
        long[] regionWork = {0};
        long[] componentWork = {0};
        for (long seed = 0; seed < 400; seed++) {
            assertThat(run(seed, true, regionWork)).as("seed %d", seed).isEqualTo(run(seed, false, componentWork))
                    .isNotEmpty();
        }
        assertThat(regionWork[0]).as("flows and constraints solved").isLessThan(componentWork[0]);
    }

    /**
     * The closure skips constraints at which no member is bottlenecked ({@link Constraint#bottlenecked}): at every
     * completion of random chained flows (some cancelled, capacities changing), each count is the number of live
     * members whose bottleneck the constraint is.
     */
    @Test
    void bottleneckCountsAreTheMembersBottleneckedThere() {
        long bottlenecked = 0;
        for (long seed = 0; seed < 200; seed++) {
            Simulator sim = new Simulator(seed);
            RandomStream r = sim.random("net");
            FlowNetwork net = new FlowNetwork(sim, FlowNetwork.Options.DEFAULT.withTrackLinkTraffic(false));
            int links = 2 + r.nextInt(8);
            for (int i = 0; i < links; i++) {
                net.addLink("l" + i, C * (1 + r.nextInt(6)), r.nextInt(5) == 0 ? Sharing.SHARED : Sharing.FULL_DUPLEX);
            }
            FlowNetwork.Path[] paths = new FlowNetwork.Path[2 + r.nextInt(8)];
            for (int p = 0; p < paths.length; p++) {
                int[] route = new int[1 + r.nextInt(Math.min(4, links))];
                for (int h = 0; h < route.length; h++) route[h] = hop(r.nextInt(links), r.nextInt(3) == 0);
                paths[p] = net.path(route, 1 + r.nextInt(3));
            }
            long[] seen = {0};
            long s = seed;
            FlowChains.start(sim, r, 2 + r.nextInt(14), 30, (cr, next) -> {
                FlowNetwork.Path p = paths[cr.nextInt(paths.length)];
                double cap = cr.nextInt(3) == 0 ? 0 : C / 8 * (1 + cr.nextInt(24));
                Flow f = net.start(p, 1 + cr.nextInt(60_000), cr.nextInt(2_000_000), cap, done -> {
                    seen[0] += assertCounts(paths, s);
                    next.onComplete(done);
                });
                if (cr.nextInt(10) == 0) sim.schedule(cr.nextInt(1_000_000), () -> {
                    if (f.endTime() < 0) {
                        net.cancel(f);
                        next.onComplete(f);
                    }
                });
            });
            if (seed % 2 == 0) sim.schedule(3_000_000, () -> net.setCapacity(0, net.capacity(0) / 3));
            sim.run();
            bottlenecked += seen[0];
        }
        assertThat(bottlenecked).as("members found bottlenecked at a constraint").isGreaterThan(1000);
    }

    /** @return the members bottlenecked at the constraints of paths, counted once per completion */
    private static long assertCounts(FlowNetwork.Path[] paths, long seed) {
        long found = 0;
        java.util.Set<Constraint> seen = new java.util.HashSet<>();
        for (FlowNetwork.Path p : paths) {
            for (Constraint c : p.cons) {
                if (!seen.add(c)) continue;
                int n = 0;
                for (int k = c.head; k < c.end; k++) {
                    if (c.member(k) != null && c.member(k).bottleneck == c) n++;
                }
                assertThat(c.bottlenecked).as("seed %d: members bottlenecked at a constraint", seed).isEqualTo(n);
                found += n;
            }
        }
        return found;
    }

    /**
     * Flows x1, x2 share X (capacity C: C/2 each); x1 also crosses Y (capacity 3C) with y1 and y2, bottlenecked there
     * at (3C - C/2) / 2. When y2 ends, only Y's flows are re-solved: x1 froze at X, below Y's level.
     */
    @Test
    void aChangeReSolvesOnlyTheFlowsItsConstraintBottlenecks() {
        Simulator sim = new Simulator(1);
        FlowNetwork net = new FlowNetwork(sim, FlowNetwork.Options.DEFAULT.withTrackLinkTraffic(false));
        int x = net.addLink("x", C, Sharing.FULL_DUPLEX);
        int y = net.addLink("y", 3 * C, Sharing.FULL_DUPLEX);
        Flow x1 = net.start(new int[] {hop(x, false), hop(y, false)}, 1L << 40, 0, 0, null);
        Flow x2 = net.start(new int[] {hop(x, false)}, 1L << 40, 0, 0, null);
        Flow y1 = net.start(new int[] {hop(y, false)}, 1L << 40, 0, 0, null);
        Flow y2 = net.start(new int[] {hop(y, false)}, 1L << 40, 0, 0, null);
        assertThat(y1.rate()).isEqualTo((3 * C - C / 2) / 2);
        long work = net.solverWork();
        net.cancel(y2);
        assertThat(y1.rate()).isEqualTo(3 * C - C / 2);
        assertThat(net.solverWork() - work).as("y1 and Y").isEqualTo(1 + 1);
        assertThat(x1.rate()).isEqualTo(C / 2);
        assertThat(x2.rate()).isEqualTo(C / 2);
    }

    /**
     * A finite change can make a constraint bind a flow that froze elsewhere: Y shrinks below x1's share of X, so x1
     * (outside the region of Y) must join it; the check after the filling brings it in.
     */
    @Test
    void aFlowThatANewlyTightConstraintBindsJoinsTheRegion() {
        Simulator sim = new Simulator(1);
        FlowNetwork net = new FlowNetwork(sim, FlowNetwork.Options.DEFAULT.withTrackLinkTraffic(false));
        int x = net.addLink("x", C, Sharing.FULL_DUPLEX);
        int y = net.addLink("y", 3 * C, Sharing.FULL_DUPLEX);
        Flow x1 = net.start(new int[] {hop(x, false), hop(y, false)}, 1L << 40, 0, 0, null);
        Flow x2 = net.start(new int[] {hop(x, false)}, 1L << 40, 0, 0, null);
        Flow y1 = net.start(new int[] {hop(y, false)}, 1L << 40, 0, 0, null);
        assertThat(x1.rate()).isEqualTo(C / 2);
        net.setCapacity(y, C / 2); // Y's fair share C / 4 is below x1's C / 2
        assertThat(x1.rate()).isCloseTo(C / 4, within(1.0));
        assertThat(y1.rate()).isCloseTo(C / 4, within(1.0));
        assertThat(x2.rate()).isCloseTo(C - C / 4, within(1.0)); // x2 takes what x1 leaves on X
    }
}
