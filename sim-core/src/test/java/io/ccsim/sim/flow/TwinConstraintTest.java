package io.ccsim.sim.flow;

import io.ccsim.sim.RandomStream;
import io.ccsim.sim.Sharing;
import io.ccsim.sim.Simulator;
import java.util.List;
import org.junit.jupiter.api.Test;

import static io.ccsim.sim.flow.FlowNetwork.hop;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Constraints crossed by exactly the same paths with the same weights (twins) always have the same members; the
 * filling leaves all but the least capacity one of a group out. The groups must follow the paths, and the rates must
 * be those of the filling with every constraint.
 */
class TwinConstraintTest {

    @Test
    void groupsFollowThePathsAndSplitWhenAPathCrossesOnlySomeOfThem() {
        FlowNetwork net = new FlowNetwork(new Simulator(1));
        int a = net.addLink("a", 1e9, Sharing.FULL_DUPLEX);
        int b = net.addLink("b", 2e9, Sharing.FULL_DUPLEX);
        int c = net.addLink("c", 3e9, Sharing.SHARED);
        int d = net.addLink("d", 4e9, Sharing.FAT_PIPE);
        FlowNetwork.Path abc = net.path(new int[] {hop(a, false), hop(b, false), hop(c, false), hop(d, false)}, 1);
        Constraint ca = abc.cons[0];
        Constraint cb = abc.cons[1];
        Constraint cc = abc.cons[2];
        assertThat(ca.twins).isSameAs(cb.twins).isSameAs(cc.twins);
        assertThat(ca.twins.n).isEqualTo(3); // the FAT_PIPE bound is no shared constraint
        assertThat(abc.cons[3].twins).isNull();
        // crossing c twice (both directions of a SHARED link: weight 2) and a once: a and c part, b alone too
        FlowNetwork.Path ac = net.path(new int[] {hop(a, false), hop(c, false), hop(c, true)}, 1);
        assertThat(ac.cons).hasSize(2);
        assertThat(ca.twins).isNotSameAs(cb.twins).isNotSameAs(cc.twins);
        assertThat(cb.twins).isNotSameAs(cc.twins);
        assertThat(ca.twins.n).isEqualTo(1);
        // the reverse direction of a, first crossed here with b's reverse: twins of each other only
        FlowNetwork.Path rev = net.path(new int[] {hop(a, true), hop(b, true)}, 2);
        assertThat(rev.cons[0].twins).isSameAs(rev.cons[1].twins).isNotSameAs(ca.twins);
        assertThat(rev.cons[0].twins.n).isEqualTo(2);
    }

    /** Chains of flows on random networks whose routes run through series links (many twins); "time:chain" lines. */
    private static List<String> run(long seed, boolean twinFilling, long[] solves) {
        Simulator sim = new Simulator(seed);
        RandomStream r = sim.random("net");
        FlowNetwork net = new FlowNetwork(sim, FlowNetwork.Options.DEFAULT.withTrackNextCompletion(seed % 2 == 0)
                .withTrackLinkTraffic(false).withTwinFilling(twinFilling));
        int links = 2 + r.nextInt(6);
        for (int i = 0; i < links; i++) {
            Sharing sharing = r.nextInt(4) == 0 ? Sharing.SHARED : Sharing.FULL_DUPLEX;
            net.addLink("l" + i, 1e9 * (1 + r.nextInt(6)), sharing);
            if (sharing == Sharing.FULL_DUPLEX && r.nextBoolean()) net.setDuplexEfficiency(i, 0.5 + 0.1 * r.nextInt(5));
        }
        // routes of consecutive links (a chain of hops in series), some crossing a shorter stretch of the same chain
        FlowNetwork.Path[] paths = new FlowNetwork.Path[2 + r.nextInt(6)];
        for (int p = 0; p < paths.length; p++) {
            int from = r.nextInt(links);
            int len = 1 + r.nextInt(Math.min(4, links - from));
            boolean reverse = r.nextInt(3) == 0;
            int[] route = new int[len];
            for (int h = 0; h < len; h++) route[h] = hop(from + h, reverse);
            paths[p] = net.path(route, 1 + r.nextInt(2));
        }
        List<String> out = FlowChains.start(sim, r, 2 + r.nextInt(12), 25, (cr, next) -> startOne(net, paths, cr, next));
        if (seed % 3 == 0) sim.schedule(4_000_000, () -> net.setCapacity(0, net.capacity(0) / 2));
        sim.run();
        solves[0] += net.solveCount();
        return out;
    }

    private static void startOne(FlowNetwork net, FlowNetwork.Path[] paths, RandomStream r, FlowListener l) {
        FlowNetwork.Path p = paths[r.nextInt(paths.length)];
        long bytes = 1 + r.nextInt(40_000);
        long latency = r.nextInt(3) == 0 ? 0 : r.nextInt(4_000_000);
        double cap = r.nextInt(3) == 0 ? 0 : 1e8 * (1 + r.nextInt(40));
        net.start(p, bytes, latency, cap, l);
    }

    /**
     * What RegionSolver relies on to walk one constraint of a twin group per piece: at every completion, the members of
     * twins are the same flows in the same order with the same weights (holes may sit elsewhere).
     */
    @Test
    void twinsHoldTheSameMembersInTheSameOrder() {
        int compared = 0;
        for (long seed = 0; seed < 200; seed++) {
            Simulator sim = new Simulator(seed);
            RandomStream r = sim.random("net");
            FlowNetwork net = new FlowNetwork(sim);
            int links = 2 + r.nextInt(6);
            for (int i = 0; i < links; i++) {
                net.addLink("l" + i, 1e9 * (1 + r.nextInt(6)), r.nextInt(4) == 0 ? Sharing.SHARED : Sharing.FULL_DUPLEX);
            }
            FlowNetwork.Path[] paths = new FlowNetwork.Path[2 + r.nextInt(6)];
            for (int p = 0; p < paths.length; p++) {
                int from = r.nextInt(links);
                int[] route = new int[1 + r.nextInt(Math.min(4, links - from))];
                for (int h = 0; h < route.length; h++) route[h] = hop(from + h, r.nextInt(3) == 0);
                paths[p] = net.path(route, 1 + r.nextInt(2));
            }
            int[] count = {0};
            long s = seed;
            FlowChains.start(sim, r, 2 + r.nextInt(12), 25, (cr, next) -> startOne(net, paths, cr, f -> {
                count[0] += assertTwinsAgree(paths, s);
                next.onComplete(f);
            }));
            sim.run();
            compared += count[0];
        }
        assertThat(compared).as("twin pairs compared while they had members").isGreaterThan(1000);
    }

    /** @return how many twin pairs with members it compared */
    private static int assertTwinsAgree(FlowNetwork.Path[] paths, long seed) {
        int compared = 0;
        for (FlowNetwork.Path p : paths) {
            for (Constraint c : p.cons) {
                Constraint.TwinGroup g = c.twins;
                if (g == null || g.members[0] == c) continue;
                Constraint first = g.members[0];
                assertThat(live(c, true)).as("seed %d: members of twins", seed).isEqualTo(live(first, true));
                assertThat(live(c, false)).as("seed %d: weights of twins", seed).isEqualTo(live(first, false));
                if (c.size > 0) compared++;
            }
        }
        return compared;
    }

    /** The live members' ids (or weights) of c, in member order. */
    private static List<Long> live(Constraint c, boolean ids) {
        List<Long> out = new java.util.ArrayList<>();
        for (int k = c.head; k < c.end; k++) {
            if (c.member(k) != null) out.add(ids ? c.member(k).id() : c.weights[k & c.mask]);
        }
        return out;
    }

    @Test
    void fillingWithoutTwinsGivesTheSameCompletions() {
        long[] solves = {0};
        for (long seed = 0; seed < 300; seed++) {
            assertThat(run(seed, true, solves)).as("seed %d", seed).isEqualTo(run(seed, false, new long[1])).isNotEmpty();
        }
        assertThat(solves[0]).isGreaterThan(1000); // the components were solved, twins and all
    }
}
