package io.ccsim.sim.flow;

/**
 * The max-min fair rates of one connected component: progressive filling with an indexed heap of constraint levels
 * and a heap of flow bounds, and a water-filling fast path for uniform components.
 *
 * <p>Contract ({@link #fill}): every flow gets the rate (bytes/s, per replica) of the max-min fair allocation under
 * the component's tight shared constraints (each flow using {@code weight x rate} of a constraint's capacity) and
 * its own bound {@link Flow#bound}; a flow with neither gets +Infinity. The result is deterministic: the same
 * component, given in the same order, gets the same rates bit for bit.
 */
final class ProgressiveFilling {
    /*
     * Progressive filling (Bertsekas & Gallager, "Data Networks", 2nd ed., 6.5.2; the "bottleneck" scheme of SimGrid's
     * lmm solver): raise all unfrozen flows' rates together; when a constraint saturates, freeze its flows at the
     * current level; when a flow reaches its own bound, freeze it there. A constraint's saturation level is
     * (capacity - frozen usage) / (weight of unfrozen members); each sits in an indexed min-heap (one entry per
     * constraint), the flows' bounds in a second heap, and the lower top freezes next. Cost: O(flows x hops x
     * log constraints + flows x log flows) per component.
     *
     * A level only rises as members freeze (a member frozen at the water level r <= its level L leaves the others
     * more: (wsum L - w r) / (wsum - w) >= L), so freeze() leaves the heap alone and a key is refreshed when it comes
     * to the top: a stale key is below the true level, never above, so the true minimum is never passed over.
     *
     * Twin constraints (PathResolver: the same member paths with the same weights) have, at every step, levels in
     * the order of their capacities, so of each group only the least capacity member can saturate first; the others
     * are left out of the heap (marked saturated, which freeze() skips).
     *
     * Regions (RegionSolver): a constraint's capacity may be less a fixed part, taken by members outside the flows
     * filled, which are frozen already and so never touched; each flow records the constraint it froze at (its
     * bottleneck, null at its own bound) and each constraint the level at which it froze its members, which is what
     * the region's closure and its check read.
     *
     * Uniform fast path: when every flow crosses the same constraints with weights proportional to its multiplicity
     * (all channels of a ring hop between two GPUs), every tight constraint carries crossings x sum(multiplicity x
     * rate), so the tightest, capacity / crossings per replica, bounds them all, and max-min is water-filling on it:
     * flows whose own bound is below the level keep it, the others share the rest equally per replica.
     */

    /** {@link FlowNetwork.Options#twinFilling} */
    private final boolean twinFilling;
    /** {@link FlowNetwork.Options#uniformFastPath} */
    private final boolean uniformFastPath;

    // the component being filled
    private Flow[] compFlows;
    private int nCompFlows;
    private Constraint[] compCons;
    private int nCompCons;
    // per component constraint (by compIdx): capacity not yet given to frozen flows, weight of the unfrozen members,
    // saturated. Kept here, not in the Constraint objects, so that the objects hold only what every flow start and end
    // touches (their size is what a large run's cache holds)
    private double[] cRem = new double[16];
    private double[] cWsum = new double[16];
    private boolean[] cSat = new boolean[16];
    /** per component constraint: the level at which it saturated (froze its members), NaN if it did not */
    private double[] cLevel = new double[16];
    /** per component constraint: capacity taken by flows outside the component (RegionSolver), or null for none */
    private double[] fixed;
    /** the component's flows with a finite bound (by index), by bound */
    private final BoundHeap bounds = new BoundHeap();
    /** the component's unsaturated constraints (by compIdx), by level */
    private final IndexedMinHeap levels = new IndexedMinHeap();
    /** counts fillings (long: never wraps within a run): a twin group's fillMark says it was seen by this one */
    private long fillStamp;
    /** flows of the component not frozen yet */
    private int unfrozen;

    /**
     * @param twinFilling     whether to leave all but the least capacity member of a twin group out of the heap
     * @param uniformFastPath whether to water-fill uniform components
     */
    ProgressiveFilling(boolean twinFilling, boolean uniformFastPath) {
        this.twinFilling = twinFilling;
        this.uniformFastPath = uniformFastPath;
    }

    /**
     * Solves one component: gives every flow of {@code flows[0, nFlows)} its max-min rate in {@link Flow#newRate}.
     *
     * @param flows the component's flows, in their bandwidth phase; each tight shared constraint they cross must be in
     *              {@code cons}
     * @param cons  the component's tight shared constraints, each with {@link Constraint#compIdx} its index here and
     *              its members compacted (no holes)
     */
    void fill(Flow[] flows, int nFlows, Constraint[] cons, int nCons) {
        fill(flows, nFlows, cons, nCons, null);
    }

    /**
     * As {@link #fill(Flow[], int, Constraint[], int)} with {@code fixed[i]} (bytes/s, by component index) of
     * constraint i's capacity taken by flows that keep their rates (members of it outside {@code flows}); null for
     * none. Every flow also gets its {@link Flow#bottleneck} (null at its own bound), and
     * {@link #saturationLevel} tells at which level each constraint froze its members.
     */
    void fill(Flow[] flows, int nFlows, Constraint[] cons, int nCons, double[] fixed) {
        this.compFlows = flows;
        this.nCompFlows = nFlows;
        this.compCons = cons;
        this.nCompCons = nCons;
        this.fixed = fixed;
        if (uniformFastPath && fillUniform()) {
            return;
        }
        // One method with its freezing loop on purpose: above C2's FreqInlineSize (325 bytes of bytecode) it is
        // compiled on its own, not inlined into the solver's component loop, whose compilation would grow for no gain.
        start();
        levels.reset(nCompCons);
        leaveTwinsOut();
        for (int i = 0; i < nCompCons; i++) {
            if (cWsum[i] > 0 && !cSat[i]) {
                levels.append(i, cRem[i] / cWsum[i]);
            } else {
                levels.markAbsent(i);
            }
        }
        levels.heapify();
        // each flow freezes at the lower of the next constraint level and the next flow bound; freeze() leaves the
        // heap alone: a stale key is below the true level (see the class comment), so it is refreshed at the top
        unfrozen = nCompFlows;
        // once every flow is frozen the constraints left in the heap can saturate nothing: stop
        while (unfrozen > 0 && (levels.size() > 0 || bounds.size() > 0)) {
            if (levels.size() > 0) {
                int top = levels.top();
                if (!(cWsum[top] > 0)) {
                    levels.removeAt(0); // no unfrozen member left: it can no longer saturate
                    continue;
                }
                double lvl = (cRem[top] > 0 ? cRem[top] : 0.0) / cWsum[top];
                if (lvl > levels.topKey()) {
                    levels.raiseTopKey(lvl);
                    continue;
                }
                levels.lowerTopKey(lvl);
            }
            double level = levels.size() > 0 ? levels.topKey() : Double.POSITIVE_INFINITY;
            if (levels.size() > 0 && (bounds.size() == 0 || level <= bounds.topKey())) {
                int top = levels.top();
                Constraint c = compCons[top];
                cSat[top] = true;
                cLevel[top] = level;
                levels.removeAt(0);
                Flow[] ms = c.members;
                for (int at = c.head, n = c.end, mask = c.mask; at < n; at++) {
                    int k = at & mask;
                    Flow f = ms[k];
                    if (f != null && !f.frozen) { // a member outside the component is frozen already
                        f.bottleneckAt(c);
                        freeze(f, level);
                    }
                }
            } else {
                double key = bounds.topKey();
                Flow f = compFlows[bounds.topValue()];
                bounds.pop();
                if (!f.frozen) {
                    f.bottleneckAt(null);
                    freeze(f, key);
                }
            }
        }
        for (int i = 0; i < nCompFlows; i++) {
            Flow f = compFlows[i];
            if (!f.frozen) { // no shared constraint and no bound: an uncapped local copy
                f.newRate = Double.POSITIVE_INFINITY;
            }
        }
    }

    private void ensureCapacity() {
        if (cRem.length < nCompCons) {
            int n = Math.max(nCompCons, 2 * cRem.length);
            cRem = new double[n];
            cWsum = new double[n];
            cSat = new boolean[n];
            cLevel = new double[n];
        }
    }

    /**
     * The level (bytes/s per unit of weight) at which component constraint {@code i} of the last {@link #fill}
     * saturated and froze its members, or NaN if it froze none.
     */
    double saturationLevel(int i) {
        return cLevel[i];
    }

    /** Every constraint with its capacity left (less its fixed part), every flow unfrozen, the bounded in the bound heap. */
    private void start() {
        ensureCapacity();
        bounds.clear();
        for (int i = 0; i < nCompCons; i++) {
            cRem[i] = fixed == null ? compCons[i].capacity : compCons[i].capacity - fixed[i];
            cWsum[i] = 0;
            cSat[i] = false;
            cLevel[i] = Double.NaN;
        }
        for (int i = 0; i < nCompFlows; i++) {
            Flow f = compFlows[i];
            f.frozen = false;
            double bound = f.bound;
            Constraint[] cs = f.cons;
            int[] ws = f.weights;
            for (int k = 0; k < cs.length; k++) {
                Constraint c = cs[k];
                if (c.shared && !c.slack) {
                    cWsum[c.compIdx] += ws[k];
                }
            }
            if (bound < Double.POSITIVE_INFINITY) {
                bounds.push(bound, i);
            }
        }
    }

    /** Marks all but the least capacity member of each twin group saturated, so that they stay out of the heap. */
    private void leaveTwinsOut() {
        // of twin constraints (the same members, the same weights) only the least capacity can saturate first: with
        // the same frozen and unfrozen members at every step the others' levels are never below its own, so they are
        // left out of the heap (marked saturated; freeze() then skips them)
        long fm = ++fillStamp;
        for (int i = 0; i < nCompCons && twinFilling; i++) {
            Constraint.TwinGroup g = compCons[i].twins;
            if (g == null || g.n == 1 || !(cWsum[i] > 0)) {
                continue;
            }
            if (g.fillMark != fm) {
                g.fillMark = fm;
                g.best = i;
            } else if (compCons[i].capacity < compCons[g.best].capacity) {
                cSat[g.best] = true;
                g.best = i;
            } else {
                cSat[i] = true;
            }
        }
    }

    /**
     * The common case of a component whose flows all cross the same constraints the same number of
     * times per replica — e.g. all channels of a ring hop between two GPUs, some capped by the
     * reduction throughput and some by the copy throughput. Every shared constraint then carries
     * {@code crossings x sum(multiplicity x rate)}, so the tightest one, capacity / crossings, is the
     * bottleneck of all flows, and max-min is water-filling on it: flows whose own bound (cap, or a
     * non-shared constraint) is below the level keep their bound, the others share the rest equally
     * per replica. No saturation heap is needed. Returns false (and does nothing) otherwise.
     */
    private boolean fillUniform() {
        if (nCompFlows == 0) {
            return false;
        }
        Flow f0 = compFlows[0];
        Constraint[] c0 = f0.cons;
        int[] w0 = f0.weights;
        int m0 = f0.multiplicity;
        for (int i = 1; i < nCompFlows; i++) {
            Flow f = compFlows[i];
            Constraint[] cs = f.cons;
            if (cs.length != c0.length) {
                return false;
            }
            int[] ws = f.weights;
            int m = f.multiplicity;
            for (int k = 0; k < cs.length; k++) {
                if (cs[k] != c0[k] || (long) ws[k] * m0 != (long) w0[k] * m) {
                    return false;
                }
            }
        }
        // the binding shared capacity per unit of sum(multiplicity x rate), and the common non-shared bound
        double capacity = Double.POSITIVE_INFINITY;
        double bound = Double.POSITIVE_INFINITY;
        Constraint tightest = null;
        for (int k = 0; k < c0.length; k++) {
            Constraint c = c0[k];
            if (c.shared) {
                if (!c.slack) {
                    double free = fixed == null ? c.capacity : c.capacity - fixed[c.compIdx];
                    double cap = free * m0 / w0[k];
                    if (tightest == null || cap < capacity) tightest = c;
                    capacity = Math.min(capacity, cap);
                }
            } else {
                bound = Math.min(bound, c.capacity);
            }
        }
        ensureCapacity();
        for (int i = 0; i < nCompCons; i++) cLevel[i] = Double.NaN;
        double remaining = capacity;
        long wsum = 0;
        for (int i = 0; i < nCompFlows; i++) {
            Flow f = compFlows[i];
            f.frozen = false;
            wsum += f.multiplicity;
        }
        // water-filling: freeze the flows bounded below the current level, until none is
        boolean changed = true;
        double level = 0;
        while (changed) {
            changed = false;
            level = wsum > 0 ? Math.max(0.0, remaining) / wsum : Double.POSITIVE_INFINITY;
            for (int i = 0; i < nCompFlows; i++) {
                Flow f = compFlows[i];
                if (f.frozen) {
                    continue;
                }
                double b = Math.min(f.rateCap, bound);
                if (b < level) {
                    f.frozen = true;
                    f.newRate = b;
                    f.bottleneckAt(null);
                    remaining -= b * f.multiplicity;
                    wsum -= f.multiplicity;
                    changed = true;
                }
            }
        }
        boolean any = false;
        for (int i = 0; i < nCompFlows; i++) {
            Flow f = compFlows[i];
            if (!f.frozen) {
                f.frozen = true;
                f.newRate = level;
                f.bottleneckAt(tightest);
                any = true;
            }
        }
        if (any && tightest != null) {
            // the tightest constraint froze them: per unit of weight at level x (its weight per replica / m0)
            cLevel[tightest.compIdx] = level;
        }
        return true;
    }

    private void freeze(Flow f, double r) {
        f.frozen = true;
        unfrozen--;
        f.newRate = r;
        Constraint[] cs = f.cons;
        int[] ws = f.weights;
        for (int k = 0; k < cs.length; k++) {
            Constraint c = cs[k];
            if (!c.shared || c.slack || cSat[c.compIdx]) {
                continue;
            }
            int w = ws[k];
            int ci = c.compIdx; // a tight shared constraint of a component's flow is in the component
            cRem[ci] -= w * r;
            cWsum[ci] -= w; // its level rises; fill() re-keys it when it reaches the top of the heap
        }
    }
}
