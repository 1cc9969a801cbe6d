package io.ccsim.sim.flow;

import io.ccsim.sim.Simulator;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The solver's slack tracking on its own: a shared constraint is slack while sum(weight x bound) over its members fits
 * in its capacity (in whole {@link Constraint#BOUND_UNIT}s, rounded up), and a change of that state seeds a solve.
 */
class MaxMinSolverTest {
    private static final double U = Constraint.BOUND_UNIT;
    private final Simulator sim = new Simulator(1);
    private final FlowNetwork owner = new FlowNetwork(sim); // the flows' network: not used by the solver itself
    private final MaxMinSolver solver = new MaxMinSolver(owner, sim, new ProgressiveFilling(true, true), true);
    private long nextId;

    /** A flow in its bandwidth phase over {@code cs} (weight 1 each), capped at {@code cap}, joined to them. */
    private Flow member(double cap, Constraint... cs) {
        int[] ws = new int[cs.length];
        java.util.Arrays.fill(ws, 1);
        Flow f = new Flow(owner, nextId++, new int[0], 1, cap, null, 0, cs, ws);
        f.phase = Flow.BANDWIDTH;
        f.posInCons = new int[cs.length];
        for (int i = 0; i < cs.length; i++) f.posInCons[i] = cs[i].add(f, i);
        MaxMinSolver.computeBound(f);
        solver.countBounds(f, +1);
        return f;
    }

    @Test
    void aBoundIsTheCapOrTheLeastPerFlowCapacity() {
        Constraint fatPipe = new Constraint(0, false, 3e9, -1);
        Constraint shared = new Constraint(1, true, 1e9, 2);
        Flow f = member(5e9, fatPipe, shared);
        assertThat(f.bound).isEqualTo(3e9);
        assertThat(f.boundUnits).isEqualTo((long) Math.ceil(3e9 / U));
        Flow g = member(Double.POSITIVE_INFINITY, shared);
        assertThat(g.bound).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(g.boundUnits).as("unbounded: counted apart").isEqualTo(-1);
    }

    @Test
    void aConstraintIsSlackWhileItsMembersFitAtTheirBounds() {
        Constraint c = new Constraint(0, true, 4 * U, 0); // 4 units
        assertThat(c.slack).isTrue();
        Flow a = member(U, c);
        Flow b = member(U, c);
        assertThat(c.boundSum).isEqualTo(2);
        assertThat(c.slack).as("1 + 1 <= 4").isTrue();
        assertThat(solver.hasSeeds()).isFalse();
        Flow big = member(3 * U, c);
        assertThat(c.boundSum).isEqualTo(5);
        assertThat(c.slack).as("1 + 1 + 3 > 4").isFalse();
        assertThat(solver.hasSeeds()).as("turning tight seeds the constraint").isTrue();
        // the big one leaves: slack again, which frees (seeds) the members
        c.remove(big.posInCons[0]);
        solver.memberLeft(c, big, 1);
        assertThat(c.boundSum).isEqualTo(2);
        assertThat(c.slack).isTrue();
        // a capacity below the sum turns it tight; an unbounded member keeps it tight whatever the capacity
        c.capacity = U;
        solver.capacityChanged(c);
        assertThat(c.slack).isFalse();
        Flow free = member(Double.POSITIVE_INFINITY, c);
        c.capacity = 1e18;
        solver.capacityChanged(c);
        assertThat(c.unbounded).isEqualTo(1);
        assertThat(c.slack).isFalse();
        c.remove(free.posInCons[0]);
        solver.memberLeft(c, free, 1);
        assertThat(c.slack).isTrue();
        assertThat(a.bound + b.bound).isEqualTo(2 * U);
    }

    @Test
    void aPerFlowCapacityChangeRecountsItsMembersBounds() {
        Constraint fatPipe = new Constraint(0, false, 4 * U, -1);
        Constraint shared = new Constraint(1, true, 6 * U, 2);
        Flow a = member(Double.POSITIVE_INFINITY, fatPipe, shared);
        Flow b = member(Double.POSITIVE_INFINITY, fatPipe, shared);
        assertThat(shared.boundSum).isEqualTo(8);
        assertThat(shared.slack).as("4 + 4 > 6").isFalse();
        fatPipe.capacity = 2 * U;
        solver.boundChanged(fatPipe);
        assertThat(a.bound).isEqualTo(2 * U);
        assertThat(b.bound).isEqualTo(2 * U);
        assertThat(shared.boundSum).isEqualTo(4);
        assertThat(shared.slack).as("2 + 2 <= 6").isTrue();
    }
}
