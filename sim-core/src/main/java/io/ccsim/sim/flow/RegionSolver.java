package io.ccsim.sim.flow;

import java.util.Arrays;

/**
 * Re-solves the part of the max-min system that a change can reach: the flows bottlenecked at a changed constraint,
 * the constraints they cross, the flows bottlenecked there, and so on; every other flow keeps its rate and its use of
 * the constraints is taken off their capacity.
 *
 * <p>Contract ({@link #solve}): given the flows and tight shared constraints that changed since the last solve, and the
 * rates, {@link Flow#bottleneck}s and {@link Flow#solved} marks of the last one, it leaves in {@link #flows} the flows
 * whose rates must be set ({@link Flow#newRate}), each with its new bottleneck; the rates of all flows together are
 * then the max-min fair allocation of the current network (the unique one; in floating point, the same as solving
 * whole components up to the rounding of a few operations). Flows in [0, {@link #count}) are every flow that is not
 * provably unaffected.
 */
final class RegionSolver {
    /*
     * Why it is exact. Let the old rates be the max-min fair allocation of the old network: every flow is at its own
     * bound or has a bottleneck, a saturated constraint on which no member has a higher rate (Bertsekas & Gallager,
     * "Data Networks", 2nd ed., prop. 6.5.2; the filling records the constraint each flow froze at). After a change
     * (a flow joins or leaves, a capacity moves, a constraint turns slack or tight) the region R is the closure of the
     * changed flows and constraints under: a constraint in R brings in the flows bottlenecked at it (and flows never
     * solved); a flow in R brings in every tight constraint it crosses. This is the downstream part of the bottleneck
     * structure (Ros-Giralt, Bohara, Yellamraju, Harper, Lethin, Wu, "On the Bottleneck Structure of
     * Congestion-Controlled Networks", SIGMETRICS 2020): a change at a constraint moves only the flows it
     * bottlenecks, and they move only what they cross.
     *
     * R is solved by progressive filling with each of its constraints' capacity less what its outside members use
     * (fixed). Then every flow of the combined allocation has a bottleneck, so it is the max-min fair one:
     *   - an outside flow's bottleneck b is outside R (else the flow would be in R), so no flow of R crosses b (else b
     *     would be in R): b has the same members, rates and capacity as before, still saturated, the flow still
     *     highest on it; an outside flow at its bound stays there;
     *   - a flow of R frozen at its bound is at its bound; one frozen at constraint c at level L has c saturated, every
     *     member of R on c at most L (levels only rise during the filling); the outside members of c at most L is
     *     what the check after the filling verifies;
     *   - constraints outside R keep their members and rates, so they stay feasible; those in R are feasible by the
     *     filling (a constraint in R that no flow of R crosses: its fixed use at most its capacity, checked).
     * Where the check fails (a finite change can make a constraint bind a flow that it did not), the outside members
     * that break it join R and R is solved again; after a few rounds the closure takes every member of R's
     * constraints, which is the connected component and needs no check.
     *
     * Floating point: the region's levels subtract the outside members' use in one sum, where the whole component's
     * filling subtracts each member as it freezes, so a rate may differ in its last bits from what solving the whole
     * component gives, as the whole component's result already depends on the order its search met its flows. A flow
     * on a constraint whose level equals its rate in exact arithmetic may then exceed the level by a rounding error:
     * the check allows CHECK_TOLERANCE relative. Not bit-exact on purpose: matching the whole fill's bits would mean
     * subtracting every outside member in the whole fill's freeze order (its levels, its heap's ties), that is,
     * computing the whole fill. What the last bits reach: event-free entry's fit test (weight x rate rounded up to whole
     * units), so a flow may be timed by the solver in one run and enter without an event in the other (event counts
     * differ, its rate does not); and a completion's integer picosecond (FlowNetwork.completionDelayPs), only where the
     * exact delay lies within a few 1e-16 of its size from a rounding edge, by 1 ps.
     *
     * The region may join pieces that share no constraint of R (the changes of one instant touch many); each piece is
     * filled on its own, so that the uniform fast path still sees a ring's channels alone.
     *
     * Gathering a piece walks each of its constraints' members once: the region's join the piece, the others' weight x
     * rate is summed, in member order, into the constraint's fixed use. A twin of a constraint walked already (a GPU's
     * PCIe link, its NIC's PCIe link and the NIC's cable) is not walked again: twins are grouped only when first
     * crossed, by the same path (PathResolver), so every flow has joined and left them together and their live
     * members are the same flows in the same order with the same weights; compaction keeps that order. Its fixed use
     * is then the same sum of the same terms in the same order, the same double.
     *
     * The closure walks a constraint's members to take in those bottlenecked at it; one at which no member is
     * (Constraint.bottlenecked, counted as the filling sets bottlenecks and as flows leave) is not walked: the only
     * other members a walk takes in are unsolved ones, which joined since the last solve and so are seeds, in the
     * region from the start. On the 1,024-GPU tree (docs/performance.md) two thirds of the constraints are skipped.
     *
     * The check walks a constraint's members only where one outside member is above the level: gathering the piece
     * notes the highest rate among them, and the filling leaves their rates alone. On the 1,024-GPU tree the check
     * visits 62 k members instead of 1.30 M (the closure 12.4 M, gathering 13.2 M).
     */

    /** Relative excess of an outside member's rate over a level that the check takes for rounding. */
    static final double CHECK_TOLERANCE = 1e-12;
    /** Rounds of the check before the closure takes every member of the region's constraints. */
    private static final int CHECK_ROUNDS = 3;

    private final ProgressiveFilling filling;

    private int epoch;
    /** the region: flows [0, nFlows), constraints [0, nCons); a member of it has epoch == this.epoch */
    private Flow[] flows = new Flow[16];
    private int nFlows;
    private Constraint[] cons = new Constraint[16];
    private int nCons;
    /** whether the closure takes every member of a constraint (the connected component) */
    private boolean whole;

    // one piece at a time: its flows, its constraints (compIdx = index here) and their fixed use
    private int pieceStamp;
    private Flow[] pFlows = new Flow[16];
    private int npFlows;
    private Constraint[] pCons = new Constraint[16];
    private int npCons;
    private double[] fixed = new double[16];
    /** per constraint of the piece: the highest rate among its outside members (0 if none) */
    private double[] topOutside = new double[16];
    /** the most flows of one piece in the last solve */
    private int largestPiece;

    /** @param filling the filling of one piece */
    RegionSolver(ProgressiveFilling filling) {
        this.filling = filling;
    }

    /** The flows whose new rates {@link #solve} left in {@link Flow#newRate}: [0, {@link #count}). */
    Flow[] flows() {
        return flows;
    }

    /** @return how many of {@link #flows} hold a new rate */
    int count() {
        return nFlows;
    }

    /** @return the most flows filled together (one piece) in the last solve */
    int largestPiece() {
        return largestPiece;
    }

    /** @return the tight constraints of the last region */
    int constraintCount() {
        return nCons;
    }

    /**
     * Solves the region of the changes: the seed flows (in their bandwidth phase) and seed constraints (a slack one
     * stands for its members).
     */
    void solve(Flow[] seedFlows, int nSeedFlows, Constraint[] seedCons, int nSeedCons) {
        epoch++;
        nFlows = 0;
        nCons = 0;
        whole = false;
        largestPiece = 0;
        for (int i = 0; i < nSeedFlows; i++) {
            if (seedFlows[i].phase == Flow.BANDWIDTH) addFlow(seedFlows[i]);
        }
        for (int i = 0; i < nSeedCons; i++) {
            Constraint c = seedCons[i];
            if (c.slack) {
                for (int at = c.head, n = c.end, mask = c.mask; at < n; at++) {
                    int k = at & mask;
                    if (c.members[k] != null) addFlow(c.members[k]);
                }
            } else {
                addCons(c);
            }
        }
        close(0, 0);
        for (int round = 0; ; round++) {
            int before = nFlows;
            fillPieces();
            if (nFlows == before) break;
            if (round + 1 == CHECK_ROUNDS) whole = true;
            close(before, 0);
        }
    }

    private void addFlow(Flow f) {
        if (f.epoch == epoch) return;
        f.epoch = epoch;
        if (nFlows == flows.length) flows = Arrays.copyOf(flows, 2 * nFlows);
        flows[nFlows++] = f;
    }

    private void addCons(Constraint c) {
        if (!c.shared || c.slack || c.epoch == epoch) return;
        c.epoch = epoch;
        c.compactIfSparse(); // its members are about to be walked
        if (nCons == cons.length) cons = Arrays.copyOf(cons, 2 * nCons);
        cons[nCons++] = c;
    }

    /** Closes the region from flows [fi, nFlows) and constraints [ci, nCons) on (see the class comment). */
    private void close(int fi, int ci) {
        // constraints already in the region are walked again when the closure turns whole
        if (whole) ci = 0;
        while (fi < nFlows || ci < nCons) {
            while (fi < nFlows) {
                for (Constraint c : flows[fi++].cons) addCons(c);
            }
            while (ci < nCons) {
                Constraint c = cons[ci++];
                // a walk takes in members bottlenecked at c and unsolved ones, which are seeds (joined since the last
                // solve), in the region already: with none bottlenecked at c it takes in nobody
                if (!whole && c.bottlenecked == 0) continue;
                Flow[] ms = c.members;
                for (int at = c.head, n = c.end, mask = c.mask; at < n; at++) {
                    int k = at & mask;
                    Flow m = ms[k];
                    if (m != null && m.epoch != epoch && (whole || !m.solved || m.bottleneck == c)) addFlow(m);
                }
            }
        }
    }

    /**
     * Fills each piece of the region (flows joined by the region's constraints) with the outside members' use fixed,
     * and checks it; outside members that break the check join the region's flows (so a caller sees nFlows grow).
     */
    private void fillPieces() {
        int regionSize = nFlows;
        int firstStamp = pieceStamp + 1; // stamps only grow: a flow not stamped since is in no piece of this round
        for (int i = 0; i < regionSize; i++) {
            Flow f = flows[i];
            if (f.piece >= firstStamp) continue;
            gatherPiece(f);
            largestPiece = Math.max(largestPiece, npFlows);
            filling.fill(pFlows, npFlows, pCons, npCons, fixed);
            check();
            if (nFlows > regionSize) return; // the region grows: close it, then fill every piece again
        }
        checkMemberless(firstStamp);
    }

    /**
     * Collects the piece of region flow f: pFlows, pCons with compIdx set, and each constraint's fixed use (its outside
     * members' weight x rate, summed in member order), the outside members marked frozen.
     */
    private void gatherPiece(Flow f0) {
        int stamp = ++pieceStamp;
        npFlows = 0;
        npCons = 0;
        f0.piece = stamp;
        pushPiece(f0);
        int fi = 0;
        int ci = 0;
        while (fi < npFlows || ci < npCons) {
            while (fi < npFlows) {
                for (Constraint c : pFlows[fi++].cons) {
                    if (c.shared && !c.slack && c.epoch == epoch && c.piece != stamp) {
                        c.piece = stamp;
                        pushPiece(c);
                    }
                }
            }
            while (ci < npCons) {
                Constraint c = pCons[ci];
                Constraint.TwinGroup g = c.twins;
                if (g != null && g.n > 1) {
                    if (g.pieceMark == stamp) {
                        // a twin of one walked already: the same members in the same order with the same weights
                        // (see the class comment), so no other flow, and bit for bit the same fixed use
                        fixed[ci] = fixed[g.pieceIdx];
                        topOutside[ci] = topOutside[g.pieceIdx];
                        ci++;
                        continue;
                    }
                    g.pieceMark = stamp;
                    g.pieceIdx = ci;
                }
                // one walk of the members: the region's join the piece, the others' use is fixed
                Flow[] ms = c.members;
                int[] ws = c.weights;
                double use = 0;
                double top = 0;
                for (int at = c.head, n = c.end, mask = c.mask; at < n; at++) {
                    int k = at & mask;
                    Flow m = ms[k];
                    if (m == null) continue;
                    if (m.epoch == epoch) {
                        if (m.piece != stamp) {
                            m.piece = stamp;
                            pushPiece(m);
                        }
                    } else {
                        m.frozen = true; // the filling leaves it alone
                        use += ws[k] * m.rate;
                        if (m.rate > top) top = m.rate;
                    }
                }
                topOutside[ci] = top;
                fixed[ci++] = use;
            }
        }
    }

    private void pushPiece(Flow f) {
        if (npFlows == pFlows.length) pFlows = Arrays.copyOf(pFlows, 2 * npFlows);
        pFlows[npFlows++] = f;
    }

    private void pushPiece(Constraint c) {
        if (npCons == pCons.length) pCons = Arrays.copyOf(pCons, 2 * npCons);
        if (npCons == fixed.length) {
            fixed = Arrays.copyOf(fixed, 2 * npCons);
            topOutside = Arrays.copyOf(topOutside, 2 * npCons);
        }
        c.compIdx = npCons;
        pCons[npCons++] = c;
    }

    /** Adds to the region every outside member above the level at which a constraint of the piece saturated. */
    private void check() {
        for (int i = 0; i < npCons; i++) {
            double level = filling.saturationLevel(i);
            if (Double.isNaN(level) || fixed[i] == 0) continue;
            double limit = level * (1 + CHECK_TOLERANCE);
            if (topOutside[i] <= limit) continue; // no outside member above the level: nothing to walk for
            Flow[] ms = pCons[i].members;
            for (int at = pCons[i].head, n = pCons[i].end, mask = pCons[i].mask; at < n; at++) {
                int k = at & mask;
                Flow m = ms[k];
                if (m != null && m.epoch != epoch && m.rate > limit) addFlow(m);
            }
        }
    }

    /**
     * A region constraint no region flow crosses carries only outside members: they must fit, else they join. The
     * crossed ones are those a piece of this round took in (stamp at least {@code firstStamp}): every region flow is in
     * a piece, and a piece takes in every region constraint its flows cross.
     */
    private void checkMemberless(int firstStamp) {
        for (int i = 0; i < nCons; i++) {
            Constraint c = cons[i];
            if (c.piece >= firstStamp) continue;
            double use = 0;
            Flow[] ms = c.members;
            for (int at = c.head, n = c.end, mask = c.mask; at < n; at++) {
                int k = at & mask;
                if (ms[k] != null) use += c.weights[k] * ms[k].rate;
            }
            if (use <= c.capacity * (1 + CHECK_TOLERANCE)) continue;
            for (int at = c.head, n = c.end, mask = c.mask; at < n; at++) {
                int k = at & mask;
                if (ms[k] != null) addFlow(ms[k]);
            }
        }
    }
}
