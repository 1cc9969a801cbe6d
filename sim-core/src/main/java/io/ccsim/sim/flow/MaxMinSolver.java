package io.ccsim.sim.flow;

import io.ccsim.sim.Simulator;
import java.util.Arrays;

/**
 * The max-min system with selective update: which constraints bind (slack tracking), what changed since the last
 * solve (seeds), and what to solve again: the region the seeds reach through their bottlenecks ({@link RegionSolver}),
 * or the seeds' connected components, each handed to the {@link ProgressiveFilling}; the rates are applied through
 * {@link FlowLifecycle#setRate}.
 *
 * <p>Contract: every change that may move a rate seeds the flow or constraint it touches and calls
 * {@link #requestSolve}; the solve then runs once at the end of the current instant (or earlier through
 * {@link #flush}, which every observer of rates calls), and re-solves the region (or components) of the seeds. Since no
 * simulated time passes before it, deferring is exact: the rates are those of a solve after every change. A
 * constraint is <em>slack</em> ({@link Constraint#slack}) when its members all fit at their own bounds; a slack
 * constraint is neither solved nor crossed to find a component.
 */
final class MaxMinSolver {
    /*
     * Selective update. Only the connected component of a change is solved: the flows and tight shared constraints
     * reachable from the seeds through tight shared constraints, found by BFS with epoch stamps (no clearing). Each
     * seed's component is solved on its own, so the many unrelated changes of one instant (every rank of a ring
     * finishing a step at once) make many small problems, not one large one. This is the split SimGrid makes
     * between lmm::System (constraints, variables, the modified set) and its solvers. With regions (the default) only
     * the part of the components a change can reach through the flows' bottlenecks is solved, the rest of them fixed
     * (RegionSolver says why that is exact); a tree's hosts, tied into one component by their saturated NICs and
     * PCIe links, then re-solve about a third of it per change.
     *
     * Slack constraints. A shared constraint whose members all fit at their own bounds (sum(weight x bound) <=
     * capacity, kept exactly in whole Constraint.BOUND_UNITs as flows come and go) is implied by the bounds, so the
     * max-min solution is the same without it. A flow leaving it, or its capacity changing while it stays slack,
     * re-solves nothing. A constraint turning tight is seeded with its members; one turning slack frees its members,
     * each re-solved in what remains of its component.
     */

    /** Above this a flow's bound counts as none (keeps {@link Constraint#boundSum} far from overflow). */
    private static final double MAX_COUNTED_BOUND = 0x1p50 * Constraint.BOUND_UNIT;

    private final FlowLifecycle flows;
    private final Simulator sim;
    private final ProgressiveFilling filling;
    /** null: each seed's whole component is solved */
    private final RegionSolver regions;

    // seeds: what changed since the last solve
    private Flow[] seedFlows = new Flow[16];
    private int nSeedFlows;
    private Constraint[] seedCons = new Constraint[16];
    private int nSeedCons;
    private boolean solvePending;
    private final Runnable solveAction = this::solveDeferred;

    // the component being solved
    private int epoch;
    private Flow[] compFlows = new Flow[16];
    private int nCompFlows;
    private Constraint[] compCons = new Constraint[16];
    private int nCompCons;

    private long solveCount;
    /** flows + constraints visited, for locality tests */
    private long solverWork;
    private int maxComponentFlows;

    /**
     * @param flows   the lifecycle of the flows that get the rates ({@link FlowLifecycle#setRate})
     * @param sim     its simulator (the end-of-instant solve)
     * @param filling the solver of one component
     * @param regions whether a change re-solves only what it reaches through bottlenecks ({@link RegionSolver})
     */
    MaxMinSolver(FlowLifecycle flows, Simulator sim, ProgressiveFilling filling, boolean regions) {
        this.flows = flows;
        this.sim = sim;
        this.filling = filling;
        this.regions = regions ? new RegionSolver(filling) : null;
    }

    /** @return solves so far (one per instant with changes, or per observer's flush) */
    long solveCount() {
        return solveCount;
    }

    /** @return flows + constraints of every component (or region) solved so far */
    long solverWork() {
        return solverWork;
    }

    /** @return the most flows of one component solved so far */
    int maxComponentFlows() {
        return maxComponentFlows;
    }

    /** Marks f (in its bandwidth phase) for the next solve: its component is solved. */
    void addSeed(Flow f) {
        if (nSeedFlows == seedFlows.length) {
            seedFlows = Arrays.copyOf(seedFlows, nSeedFlows * 2);
        }
        seedFlows[nSeedFlows++] = f;
    }

    /** Marks tight shared constraint c for the next solve: its component is solved. */
    void addSeed(Constraint c) {
        if (nSeedCons == seedCons.length) {
            seedCons = Arrays.copyOf(seedCons, nSeedCons * 2);
        }
        seedCons[nSeedCons++] = c;
    }

    /** @return whether anything is marked for the next solve */
    boolean hasSeeds() {
        return nSeedFlows > 0 || nSeedCons > 0;
    }

    /** Registers one solve at the end of the current instant, unless one is registered already. */
    void requestSolve() {
        if (!solvePending) {
            solvePending = true;
            sim.atEndOfInstant(solveAction);
        }
    }

    /** Solves now if changes are pending, so that observed rates are current. */
    void flush() {
        if (solvePending) {
            solvePending = false;
            solve();
        }
    }

    private void solveDeferred() {
        if (!solvePending) {
            return; // an observer flushed already
        }
        solvePending = false;
        solve();
    }

    private void solve() {
        if (nSeedFlows == 0 && nSeedCons == 0) {
            return;
        }
        solveCount++;
        if (regions != null) {
            regions.solve(seedFlows, nSeedFlows, seedCons, nSeedCons);
            Arrays.fill(seedFlows, 0, nSeedFlows, null);
            Arrays.fill(seedCons, 0, nSeedCons, null);
            nSeedFlows = 0;
            nSeedCons = 0;
            Flow[] fs = regions.flows();
            int n = regions.count();
            solverWork += n + regions.constraintCount();
            if (regions.largestPiece() > maxComponentFlows) {
                maxComponentFlows = regions.largestPiece();
            }
            apply(fs, n);
            Arrays.fill(fs, 0, n, null);
            return;
        }
        int ep = ++epoch;
        // each seed's connected component is solved on its own: the changes of one instant often touch
        // many unrelated components (every rank of a ring finishing a step at once), and solving them
        // apart keeps each problem small (and usually uniform: ProgressiveFilling's fast path)
        for (int i = 0; i < nSeedFlows; i++) {
            Flow f = seedFlows[i];
            seedFlows[i] = null;
            if (f.phase == Flow.BANDWIDTH && f.epoch != ep) {
                f.epoch = ep;
                pushComp(f);
                solveComponent(ep);
            }
        }
        for (int i = 0; i < nSeedCons; i++) {
            Constraint c = seedCons[i];
            seedCons[i] = null;
            if (c.epoch != ep) {
                c.epoch = ep;
                if (c.slack) {
                    // turned slack since it was seeded: it couples nobody; each member is solved in its own component
                    for (int at = c.head, n = c.end, mask = c.mask; at < n; at++) {
                        int k = at & mask;
                        Flow f = c.members[k];
                        if (f != null && f.epoch != ep) {
                            f.epoch = ep;
                            pushComp(f);
                            solveComponent(ep);
                        }
                    }
                } else {
                    pushComp(c);
                    solveComponent(ep);
                }
            }
        }
        nSeedFlows = 0;
        nSeedCons = 0;
    }

    /** Closes the pushed seed over shared constraints (BFS, epoch {@code ep}), solves it and applies the rates. */
    private void solveComponent(int ep) {
        int fi = 0;
        int ci = 0;
        while (fi < nCompFlows || ci < nCompCons) {
            while (fi < nCompFlows) {
                Constraint[] cs = compFlows[fi++].cons;
                for (Constraint c : cs) {
                    if (c.shared && !c.slack && c.epoch != ep) {
                        c.epoch = ep;
                        pushComp(c);
                    }
                }
            }
            while (ci < nCompCons) {
                Constraint c = compCons[ci++];
                Flow[] ms = c.members;
                for (int at = c.head, n = c.end, mask = c.mask; at < n; at++) {
                    int k = at & mask;
                    Flow f = ms[k];
                    if (f != null && f.epoch != ep) {
                        f.epoch = ep;
                        pushComp(f);
                    }
                }
            }
        }
        solverWork += nCompFlows + nCompCons;
        if (nCompFlows > maxComponentFlows) {
            maxComponentFlows = nCompFlows;
        }
        filling.fill(compFlows, nCompFlows, compCons, nCompCons);
        apply(compFlows, nCompFlows);
        for (int i = 0; i < nCompFlows; i++) {
            compFlows[i] = null;
        }
        for (int i = 0; i < nCompCons; i++) {
            compCons[i] = null;
        }
        nCompFlows = 0;
        nCompCons = 0;
    }

    private void pushComp(Flow f) {
        if (nCompFlows == compFlows.length) {
            compFlows = Arrays.copyOf(compFlows, nCompFlows * 2);
        }
        compFlows[nCompFlows++] = f;
    }

    private void pushComp(Constraint c) {
        c.compactIfSparse(); // its members are about to be walked
        if (nCompCons == compCons.length) {
            compCons = Arrays.copyOf(compCons, nCompCons * 2);
        }
        c.compIdx = nCompCons;
        compCons[nCompCons++] = c;
    }

    /** Gives every flow of {@code fs[0, n)} whose rate changed (or that has no event yet) its new rate. */
    private void apply(Flow[] fs, int n) {
        long now = sim.now();
        for (int i = 0; i < n; i++) {
            Flow f = fs[i];
            f.solved = true;
            double nr = f.newRate;
            double old = f.rate;
            boolean fresh = f.eventHandle < 0 && f.heapPos < 0;
            if (nr == old && !fresh) {
                continue;
            }
            flows.setRate(f, nr, now);
        }
    }

    /**
     * A shared constraint's capacity changed: re-solve what it binds. A constraint that was slack and still is
     * binds nobody before or after (the duplex mode toggling on a lightly used link costs nothing).
     */
    void capacityChanged(Constraint c) {
        boolean fits = c.fits();
        if (c.slack && fits) {
            return;
        }
        updateSlack(c);
        if (!c.slack && c.size > 0) {
            addSeed(c);
        }
    }

    /**
     * Brings {@link Constraint#slack} up to date after its bound sum or capacity changed: a constraint turning
     * tight is seeded (its members now share it); one turning slack frees its members, each re-solved in what
     * remains of its component.
     */
    private void updateSlack(Constraint c) {
        boolean fits = c.fits();
        if (fits == c.slack) {
            return;
        }
        c.slack = fits;
        if (fits) {
            Flow[] ms = c.members;
            for (int at = c.head, n = c.end, mask = c.mask; at < n; at++) {
                int k = at & mask;
                if (ms[k] != null) {
                    addSeed(ms[k]);
                }
            }
        } else if (c.size > 0) {
            addSeed(c);
        }
    }


    /**
     * Sets f's own rate bound (bytes/s): its cap and the capacities of its non-shared constraints, and the bound as
     * counted in shared constraints' sums.
     */
    static void computeBound(Flow f) {
        double b = f.rateCap;
        for (Constraint c : f.cons) {
            if (!c.shared && c.capacity < b) {
                b = c.capacity;
            }
        }
        f.bound = b;
        f.boundUnits = b <= MAX_COUNTED_BOUND ? (long) Math.ceil(b / Constraint.BOUND_UNIT) : -1;
    }

    /** Adds ({@code sign} = 1) or removes (-1) f's bound in the sums of its shared constraints, updating their slack. */
    void countBounds(Flow f, int sign) {
        Constraint[] cs = f.cons;
        int[] ws = f.weights;
        for (int i = 0; i < cs.length; i++) {
            Constraint c = cs[i];
            if (c.shared) {
                c.count(f, ws[i], sign);
                updateSlack(c);
            }
        }
    }

    /**
     * Bandwidth-phase flow f leaves shared constraint c (weight w there; already removed from its members): its bound
     * leaves c's sum, and a tight c that stays tight is seeded. A slack c bound nobody: the others' rates stay.
     */
    void memberLeft(Constraint c, Flow f, int w) {
        c.count(f, w, -1);
        if (!c.slack) {
            updateSlack(c); // turning slack frees the members
            if (!c.slack && c.size > 0) {
                addSeed(c);
            }
        }
    }

    /**
     * The capacity of non-shared constraint c (a per-flow bound) changed: its members' own bounds change, and with them
     * the sums of their shared constraints; each member is seeded.
     */
    void boundChanged(Constraint c) {
        for (int at = c.head, n = c.end, mask = c.mask; at < n; at++) {
            int i = at & mask;
            Flow m = c.members[i];
            if (m == null) {
                continue;
            }
            countBounds(m, -1);
            computeBound(m);
            countBounds(m, +1);
            addSeed(m);
        }
    }
}
