package io.ccsim.sim.flow;

import io.ccsim.sim.Simulator;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The filling of one component on its own: each case writes its constraints (capacity C, members with weights) and
 * the max-min rates that solve it by hand.
 */
class ProgressiveFillingTest {
    private static final double C = 1e11;
    private final FlowNetwork owner = new FlowNetwork(new Simulator(1)); // the flows' network: not used by the filling
    private final List<Flow> flows = new ArrayList<>();
    private final List<Constraint> cons = new ArrayList<>();

    private Constraint constraint(double capacity) {
        Constraint c = new Constraint(cons.size(), true, capacity, 2 * cons.size());
        c.slack = false; // a tight constraint, as the solver hands them over
        c.compIdx = cons.size();
        cons.add(c);
        return c;
    }

    /** A flow standing for {@code multiplicity} replicas, bound (bytes/s, +Infinity: none) per replica. */
    private Flow flow(double bound, int multiplicity, Constraint[] cs, int... crossings) {
        int[] ws = new int[cs.length];
        for (int i = 0; i < cs.length; i++) ws[i] = crossings[i] * multiplicity;
        Flow f = new Flow(owner, flows.size(), new int[0], 1, bound, null, 0, cs, ws);
        f.bound = bound;
        f.multiplicity = multiplicity;
        f.posInCons = new int[cs.length];
        for (int i = 0; i < cs.length; i++) f.posInCons[i] = cs[i].add(f, i);
        flows.add(f);
        return f;
    }

    private Flow flow(Constraint... cs) {
        int[] ones = new int[cs.length];
        java.util.Arrays.fill(ones, 1);
        return flow(Double.POSITIVE_INFINITY, 1, cs, ones);
    }

    private void fill(boolean twinFilling, boolean uniformFastPath) {
        new ProgressiveFilling(twinFilling, uniformFastPath).fill(flows.toArray(new Flow[0]), flows.size(),
                cons.toArray(new Constraint[0]), cons.size());
    }

    @Test
    void aParkingLotGivesEveryFlowHalf() {
        // links l0..l2 of C; the long flow crosses all three, one short flow each: every link is shared by two
        Constraint[] l = {constraint(C), constraint(C), constraint(C)};
        Flow lng = flow(l);
        Flow[] shorts = {flow(l[0]), flow(l[1]), flow(l[2])};
        fill(true, true);
        assertThat(lng.newRate).isEqualTo(C / 2);
        for (Flow s : shorts) assertThat(s.newRate).isEqualTo(C / 2);
    }

    @Test
    void theTightestLinkFreezesItsFlowsFirstAndTheRestGoesToTheOthers() {
        // l1 = C/4 saturates first at (C/4) / 2 for the long flow and s1; s0 then gets what the long flow leaves of l0
        Constraint l0 = constraint(C);
        Constraint l1 = constraint(C / 4);
        Flow lng = flow(l0, l1);
        Flow s0 = flow(l0);
        Flow s1 = flow(l1);
        fill(true, true);
        assertThat(lng.newRate).isEqualTo(C / 4 / 2);
        assertThat(s1.newRate).isEqualTo(C / 4 / 2);
        assertThat(s0.newRate).isEqualTo(C - C / 4 / 2);
    }

    @Test
    void aFlowBoundBelowTheLevelKeepsItsBoundOnBothPaths() {
        for (boolean uniform : new boolean[] {true, false}) {
            flows.clear();
            cons.clear();
            Constraint l = constraint(C);
            Flow capped = flow(C / 10, 1, new Constraint[] {l}, 1);
            Flow free = flow(l);
            Flow local = flow(); // no constraint, no bound: an uncapped local copy
            fill(true, uniform);
            assertThat(capped.newRate).as("uniform %s", uniform).isEqualTo(C / 10);
            assertThat(free.newRate).isEqualTo(C - C / 10);
            assertThat(local.newRate).isEqualTo(Double.POSITIVE_INFINITY);
        }
    }

    @Test
    void weightsCountCrossingsAndReplicas() {
        // a crosses l twice (2 r), b stands for 3 replicas (3 r): 2 r + 3 r = C
        Constraint l = constraint(C);
        Flow a = flow(Double.POSITIVE_INFINITY, 1, new Constraint[] {l}, 2);
        Flow b = flow(Double.POSITIVE_INFINITY, 3, new Constraint[] {l}, 1);
        fill(true, false);
        assertThat(a.newRate).isEqualTo(C / 5);
        assertThat(b.newRate).isEqualTo(C / 5);
    }

    @Test
    void ofTwinConstraintsOnlyTheLeastCapacityBinds() {
        // t0 (2 C) and t1 (C) carry the same two flows with the same weights; u (C) carries one of them and another
        Constraint t0 = constraint(2 * C);
        Constraint t1 = constraint(C);
        Constraint u = constraint(C);
        Constraint.TwinGroup g = new Constraint.TwinGroup();
        g.add(t0);
        g.add(t1);
        Flow a = flow(t0, t1);
        Flow b = flow(t0, t1, u);
        Flow c = flow(u);
        for (boolean twins : new boolean[] {true, false}) {
            fill(twins, true);
            // t1 saturates at C / 2 for a and b; c takes the rest of u
            assertThat(a.newRate).as("twin filling %s", twins).isEqualTo(C / 2);
            assertThat(b.newRate).isEqualTo(C / 2);
            assertThat(c.newRate).isEqualTo(C / 2);
        }
    }

    /** Uniform components (the same constraints, weights proportional to the replicas) by both paths. */
    @Test
    void theUniformFastPathAgreesWithTheGeneralFilling() {
        for (long seed = 0; seed < 300; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            flows.clear();
            cons.clear();
            int nc = 1 + r.nextInt(3);
            Constraint[] cs = new Constraint[nc];
            int[] crossings = new int[nc];
            for (int i = 0; i < nc; i++) {
                cs[i] = constraint(1e9 * (1 + r.nextInt(100)));
                crossings[i] = 1 + r.nextInt(2);
            }
            int nf = 1 + r.nextInt(12);
            for (int i = 0; i < nf; i++) {
                double bound = r.nextBoolean() ? Double.POSITIVE_INFINITY : 1e8 * (1 + r.nextInt(200));
                flow(bound, 1 + r.nextInt(4), cs, crossings);
            }
            fill(true, false);
            double[] general = new double[nf];
            for (int i = 0; i < nf; i++) general[i] = flows.get(i).newRate;
            fill(true, true);
            for (int i = 0; i < nf; i++) {
                assertThat(flows.get(i).newRate).as("seed %d flow %d", seed, i)
                        .isCloseTo(general[i], within(general[i] * 1e-12));
            }
        }
    }
}
