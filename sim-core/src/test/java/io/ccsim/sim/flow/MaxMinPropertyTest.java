package io.ccsim.sim.flow;

import io.ccsim.sim.RandomStream;
import io.ccsim.sim.Sharing;
import io.ccsim.sim.Simulator;
import org.junit.jupiter.api.Test;

import static io.ccsim.sim.flow.FlowNetwork.hop;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checks the defining properties of a max-min fair allocation on random networks, independent
 * of how the solver computes it: (1) feasibility: no shared constraint carries more than its
 * capacity and no flow exceeds its own bounds; (2) every flow is either at its own bound or has
 * a bottleneck: a saturated shared constraint on its route on which no flow has a higher rate
 * (Bertsekas &amp; Gallager, "Data Networks", Prop. 6.5.2).
 */
class MaxMinPropertyTest {
    private static final double EPS = 1e-9;

    @Test
    void randomNetworksAreMaxMinFair() {
        trials(false);
    }

    @Test
    void randomNetworksWithDuplexLimitsAreMaxMinFair() {
        // half of the full-duplex links get a duplex efficiency e in [0.3, 1): a direction's capacity is C e
        // while the opposite direction carries a flow
        trials(true);
    }

    @Test
    void randomNetworksOfCappedFlowsStayMaxMinFairThroughChanges() {
        // every flow capped: many constraints are slack (all members at their caps fit), which the solver leaves
        // out; starts, cancels and capacity changes (FAT_PIPE ones too) turn constraints slack and tight again
        trials(true, true);
    }

    private static void trials(boolean duplex) {
        trials(duplex, false);
    }

    private static void trials(boolean duplex, boolean allCapped) {
        for (int trial = 0; trial < 200; trial++) {
            Simulator sim = new Simulator(trial);
            RandomStream r = sim.random("net");
            FlowNetwork net = new FlowNetwork(sim);
            int links = 1 + r.nextInt(8);
            for (int i = 0; i < links; i++) {
                int l = net.addLink("l" + i, 1e9 * (1 + r.nextInt(10)), Sharing.values()[r.nextInt(3)]);
                if (duplex && net.sharing(l) == Sharing.FULL_DUPLEX && r.nextBoolean()) {
                    net.setDuplexEfficiency(l, 0.3 + 0.7 * r.nextDouble() * 0.999);
                }
            }
            int nf = 1 + r.nextInt(25);
            java.util.List<Flow> flows = new java.util.ArrayList<>();
            for (int i = 0; i < nf; i++) {
                flows.add(randomFlow(net, r, links, allCapped));
            }
            check(net, flows.toArray(new Flow[0]), "trial " + trial);
            int rounds = allCapped ? 12 : 1;
            for (int round = 0; round < rounds; round++) {
                // change a capacity, cancel a flow (and, with caps everywhere, start one), and check again
                int action = allCapped ? r.nextInt(3) : -1;
                if (action < 0 || action == 0) {
                    net.setCapacity(r.nextInt(links), 1e9 * r.nextInt(5));
                }
                if (action < 0 || action == 1) {
                    net.cancel(flows.get(r.nextInt(flows.size())));
                }
                if (action == 2) {
                    flows.add(randomFlow(net, r, links, true));
                }
                check(net, flows.toArray(new Flow[0]), "trial " + trial + " after " + (round + 1) + " change(s)");
            }
        }
    }

    private static Flow randomFlow(FlowNetwork net, RandomStream r, int links, boolean capped) {
        int len = r.nextInt(4);
        int[] route = new int[len];
        for (int k = 0; k < len; k++) {
            route[k] = hop(r.nextInt(links), r.nextBoolean());
        }
        double cap = capped || r.nextInt(3) == 0 ? 1e8 * (1 + r.nextInt(50)) : 0;
        return net.start(route, 1L << 50, 0, cap, null);
    }

    private static void check(FlowNetwork net, Flow[] flows, String where) {
        for (Flow f : flows) {
            f.rate(); // solve
        }
        // each FULL_DUPLEX direction's capacity, derived here from the live flows' routes
        java.util.Set<Integer> busy = new java.util.HashSet<>();
        for (Flow f : flows) {
            if (!f.isCancelled()) {
                for (int h : f.route) busy.add(h);
            }
        }
        for (Flow f : flows) {
            if (f.isCancelled()) {
                continue;
            }
            for (int h : f.route) {
                int link = h >>> 1;
                if (net.sharing(link) != Sharing.FULL_DUPLEX) {
                    continue;
                }
                double expected = net.capacity(link) * (busy.contains(h ^ 1) ? net.duplexEfficiency(link) : 1.0);
                boolean found = false;
                for (Constraint c : f.cons) {
                    if (c.link == link && Math.abs(c.capacity - expected) <= 1e-9 * expected) {
                        found = true;
                    }
                }
                assertThat(found).as(where + ": direction " + h + " of link " + link + " has capacity " + expected).isTrue();
            }
        }
        // usage per shared constraint
        java.util.Map<Constraint, Double> usage = new java.util.IdentityHashMap<>();
        for (Flow f : flows) {
            if (f.isCancelled()) {
                continue;
            }
            for (int k = 0; k < f.cons.length; k++) {
                if (f.cons[k].shared) {
                    usage.merge(f.cons[k], f.weights[k] * f.rate(), Double::sum);
                }
            }
        }
        for (var e : usage.entrySet()) {
            assertThat(e.getValue()).as(where + ": usage of link " + e.getKey().link)
                    .isLessThanOrEqualTo(e.getKey().capacity * (1 + EPS) + EPS);
        }
        for (Flow f : flows) {
            if (f.isCancelled()) {
                continue;
            }
            double rate = f.rate();
            double bound = f.rateCap;
            for (Constraint c : f.cons) {
                if (!c.shared) {
                    bound = Math.min(bound, c.capacity);
                }
            }
            assertThat(rate).as(where + ": " + f + " within its bound").isLessThanOrEqualTo(bound * (1 + EPS));
            if (Double.isInfinite(rate) || rate >= bound * (1 - EPS)) {
                continue; // at its own bound
            }
            boolean bottleneck = false;
            for (Constraint c : f.cons) {
                if (!c.shared) {
                    continue;
                }
                boolean saturated = usage.get(c) >= c.capacity * (1 - EPS) - EPS;
                boolean maximal = true;
                for (int m = c.head; m < c.end; m++) {
                    if (c.member(m) != null && c.member(m).rate() > rate * (1 + EPS) + EPS) {
                        maximal = false;
                    }
                }
                if (saturated && maximal) {
                    bottleneck = true;
                }
            }
            assertThat(bottleneck).as(where + ": " + f + " has a bottleneck link").isTrue();
        }
    }
}
