package io.ccsim.sim.flow;

import io.ccsim.sim.Simulator;
import java.util.Arrays;

/**
 * Event-free bandwidth entry: a flow whose rate is known at its start needs only its completion event, not also the
 * end of its latency phase. Keeps the registration table that tells when that holds, the flows entered that way, and
 * hands them back to the solver when it stops holding.
 *
 * <p>Contract: while {@link #registering()}, every started flow with bytes &gt; 0 goes through {@link #tryEnter},
 * and every registered flow through {@link #unregister} when it completes or is cancelled. A flow entered without an
 * event has phase {@link Flow#FAST}: latency phase until its {@link Flow#lastUpdate} (t1), then its most rate
 * {@link Flow#rate} until {@link Flow#completionTime} = t1 + {@code FlowNetwork.completionDelayPs(bytes, most)}
 * (ps); its event is its completion.
 * Completions come at the same times as with the solver alone; within one instant their order may differ, since an
 * event-free flow's completion is queued at its start. Rates are in bytes/s, times in ps.
 */
final class EventFreeEntry {
    /*
     * Max-min fairness gives a flow the most it could get alone, most = min(bound, capacity / weight) over its
     * constraints, whenever every constraint holds all the flows in their bandwidth phase at their most: then nobody
     * limits anybody. So every flow, once started, is registered on its shared constraints with its most usage
     * (weight x most), from its start until it leaves, its latency phase included; the sums live in one dense table by
     * constraint id, in whole REG_UNITs (1/16 B/s) rounded up, so that sums over millions of flows are exact integers.
     * Each registration also has a window (UsageWindows): the interval in which the flow can use the constraint,
     * [t1, end) with t1 the end of its latency phase and end its completion if it runs event-free, open (no end)
     * if the solver times it (its rate, hence its end, may change).
     *
     * A recycled flow f is entered without an event if every shared constraint c of its path fits at every instant of
     * f's window: the registered usage plus f's own, or else the most of the windows that overlap at one instant of
     * f's window plus f's own, is within the least capacity c can have (a FULL_DUPLEX direction's C x e; within a
     * relative 1e-9 for the rounding of sums of C / w); and, for a duplex-limited direction, its opposite fits too in
     * f's window (its capacity drops while f's direction is busy). Then no constraint binds f while it runs, whatever
     * the opposite direction does, and its rate is its most: it runs at it from the end of its latency phase, and its
     * completion is its only event. It never joins the solver's constraints. The windows matter where flows have long
     * latency phases (a ring's sender waiting for its data, then paying its step's overhead, with PXN's extra NVLink
     * hop): the sums alone count beside f the flows that are gone before f delivers a byte and those that start after
     * f is done.
     *
     * The invariant: at every instant of an event-free flow's window, each of its constraints (and the duplex opposite
     * of each) holds the windows that contain the instant within its limit. A flow timed by the solver adds its open
     * window from its t1: where its constraint no longer fits at some instant from then, every event-free flow on it
     * (and on its duplex opposite) is handed to the solver; one still in its latency phase gets its latency event
     * back, one running joins its constraints as if it had entered at its t1 (its completion event kept if the solver
     * leaves its rate as it was). A flow handed over may now run past its window's end, so its windows are opened and
     * each of its constraints is checked from that end in turn, until no constraint an event-free flow relies on is
     * overfull. Handing over is always exact (the solver alone times the flow from then, and until then the
     * invariant held); the test only decides how much is handed over. Sums count a flow at its most whichever way it
     * is timed, so a hand-over changes no sum.
     *
     * Giving up. A capacity changing while flows are active hands every event-free flow over and turns the mechanism
     * off for the rest of the run (the sums assumed the old capacities). Where few flows fit (fewer than 1/16 of the
     * starts of a check interval: a tree's or an all-to-all's flows, whose constraints are tight), registering is only
     * a cost and the mechanism gives up for the run; so it does before a registered sum could leave the exact range.
     * An interval lasts at least 16 starts per flow active at its end: when a collective starts, every channel of
     * every rank starts together and their flows do contend, until the pipelines fall out of step; on the ring of
     * 1,024 GPUs (8,192 flows active) only 768 of the first 65,536 starts fit, 38,784 of the next 65,536 and all of
     * the following, and a run that judged the first 65,536 alone gave up for good.
     * Networks that track completions or link traffic keep every flow with the solver, which those observers read.
     */

    /** The table's unit of usage, bytes/s. */
    static final double REG_UNIT = 1.0 / 16;
    /** Relative tolerance of the fit test: rates of C / w each, summed, may exceed C by rounding. */
    private static final double FIT_TOLERANCE = 1e-9;
    /** Largest registered sum kept (beyond it the mechanism gives up rather than risk an overflow). */
    private static final long REG_MAX = 1L << 62;
    /**
     * The registration table: per shared constraint (by {@link Constraint#id}), REG_STRIDE longs: the registered
     * flows' most usage in REG_UNITs, the limit it must stay within (the least capacity the constraint can have, in
     * REG_UNITs, rounded down after the tolerance), the id of the opposite direction whose capacity the constraint's
     * use lowers (-1: none), and how many registered flows run without an event. Dense and small (32 B per
     * constraint), so a flow's start and end touch a few cache-resident lines, not its constraints' objects.
     */
    private long[] reg = new long[32 * 4];
    private static final int REG_STRIDE = 4, REG_UNITS = 0, REG_LIMIT = 1, REG_OPPOSITE = 2, REG_FAST = 3;

    /** when each registered flow uses each shared constraint */
    private final UsageWindows windows = new UsageWindows();
    /** constraints (ids) whose event-free flows, and their opposite's, are to be handed to the solver */
    private int[] pending = new int[16];
    private int nPending;

    private final FlowLifecycle flows;
    private final Simulator sim;
    private final LinkTable links;
    /** whether the network allows it at all ({@link FlowNetwork.Options}) */
    private final boolean enabled;
    /** {@link FlowNetwork.Options#entryCheckInterval} */
    private final int checkInterval;
    /** counts capacity changes: a path's cached numbers are current when they carry this stamp */
    private int capStamp;
    /** set for good once the mechanism gives up: every later flow is timed by the solver */
    private boolean entryOff;
    /** every path that has had a flow entered without an event (for handing them all over) */
    private FlowNetwork.Path[] fastPaths = new FlowNetwork.Path[8];
    private int nFastPaths;
    /** flows entered without an event, and those of them handed to the solver later */
    private long entries;
    /** those of them whose constraints fitted by their windows only, not by their sums */
    private long windowEntries;
    private long handedOver;
    /** registered starts left until the next check (0 before the first: the first start sets it) */
    private int startsUntilCheck;
    private long entriesAtCheck;
    /** registered starts of the current check interval before its current segment, and that segment's length */
    private long intervalStarts;
    private int segment;
    /** A check interval lasts at least this many registered starts per flow active at its end. */
    private static final int STARTS_PER_ACTIVE_FLOW = 16;

    /**
     * @param flows         the lifecycle of the flows ({@link FlowLifecycle#join} takes handed-over flows)
     * @param enabled       whether flows may enter without an event at all
     * @param checkInterval {@code >= 1}: registered starts between two checks of how many entered without an event
     *                      (or 16 per flow active at the check, if more)
     */
    EventFreeEntry(FlowLifecycle flows, Simulator sim, LinkTable links, boolean enabled, int checkInterval) {
        this.flows = flows;
        this.sim = sim;
        this.links = links;
        this.enabled = enabled;
        this.checkInterval = checkInterval;
    }

    /** @return flows entered without an event so far */
    long entries() {
        return entries;
    }

    /** @return flows entered without an event because their windows fitted where the sums did not */
    long windowEntries() {
        return windowEntries;
    }

    /** @return flows entered without an event and handed to the solver later */
    long handedOver() {
        return handedOver;
    }

    /** @return the registered usage of the constraint with this id, in {@link #REG_UNIT}s */
    long registeredUnits(int id) {
        return reg[id * REG_STRIDE + REG_UNITS];
    }

    /** @return the limit of the constraint with this id, in {@link #REG_UNIT}s */
    long limitUnits(int id) {
        return reg[id * REG_STRIDE + REG_LIMIT];
    }

    /** @return whether new flows register (and may enter without an event) */
    boolean registering() {
        return enabled && !entryOff;
    }

    /**
     * Updates the limits of the link's constraints (after the link was added or its capacity or duplex efficiency
     * changed) and whether a direction's use lowers the opposite's capacity.
     */
    void refreshLimits(int link) {
        if (reg.length < (2 * link + 2) * REG_STRIDE) {
            reg = Arrays.copyOf(reg, Math.max(reg.length * 2, (2 * link + 2) * REG_STRIDE));
        }
        windows.ensure(2 * link + 2);
        Constraint f = links.forward(link);
        Constraint r = links.reverse(link);
        boolean duplex = links.hasDuplexLimit(f);
        double least = links.leastCapacity(link);
        long limit = (long) Math.floor(least * (1 + FIT_TOLERANCE) / REG_UNIT);
        reg[f.id * REG_STRIDE + REG_LIMIT] = limit;
        reg[f.id * REG_STRIDE + REG_OPPOSITE] = duplex ? r.id : -1;
        if (r != f) {
            reg[r.id * REG_STRIDE + REG_LIMIT] = limit;
            reg[r.id * REG_STRIDE + REG_OPPOSITE] = duplex ? f.id : -1;
        }
    }

    /** Brings p's per-path numbers up to the current capacities (they change only with a capacity). */
    private void refreshPath(FlowNetwork.Path p) {
        double most = Double.POSITIVE_INFINITY;
        double nonShared = Double.POSITIVE_INFINITY;
        for (int i = 0; i < p.cons.length; i++) {
            Constraint c = p.cons[i];
            if (c.shared) {
                most = Math.min(most, links.capacity(c.link) / p.weights[i]);
            } else {
                nonShared = Math.min(nonShared, c.capacity);
            }
        }
        p.most = most;
        p.nonShared = nonShared;
        p.capStamp = capStamp;
    }

    /** @return weight w times rate r (bytes/s) in {@link #REG_UNIT}s, rounded up (at most {@link #REG_MAX}) */
    static long regUnits(int w, double r) {
        double u = Math.ceil(w * r / REG_UNIT);
        return u < 0x1p62 ? (long) u : REG_MAX;
    }

    /**
     * Registers flow f (bytes &gt; 0, starting now on {@code path} with latency {@code latencyPs}; only while
     * {@link #registering()}) in its shared constraints and, when it can, enters it into its bandwidth phase without
     * an event: it then runs at its most rate from now + latency and its completion is scheduled. Returns whether it
     * did; if not, the caller times f with the solver as usual (f may still be registered).
     */
    boolean tryEnter(Flow f, FlowNetwork.Path path, long latencyPs) {
        // One method with its two loops on purpose: above C2's FreqInlineSize (325 bytes of bytecode) it is compiled
        // on its own, not inlined with its callees into every start path of the executor, whose compilation grew.
        if (--startsUntilCheck <= 0 && !checkpoint()) {
            return false;
        }
        if (path.capStamp != capStamp) {
            refreshPath(path);
        }
        long now = sim.now();
        long t1 = now + latencyPs;
        // f's own bound (computeBound's) and the most rate it could get alone (full capacities)
        double bound = Math.min(f.rateCap, path.nonShared);
        f.bound = bound;
        double most = Math.min(bound, path.most);
        int[] ids = path.regIds;
        int[] ws = path.weights;
        long[] rg = reg;
        f.registered = true;
        f.path = path;
        f.regRate = most;
        boolean fast = f.pooled && most > 0;
        long d = fast ? FlowNetwork.completionDelayPs(f.bytes(), most) : -1;
        fast = d >= 0 && d < Long.MAX_VALUE - t1;
        long end = fast ? t1 + d : Long.MAX_VALUE;
        boolean byWindows = false;
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] < 0) {
                continue;
            }
            int b = ids[i] * REG_STRIDE;
            long u = regUnits(ws[i], most);
            if (rg[b + REG_UNITS] > REG_MAX - u) {
                // a sum would leave the exact range (hundreds of thousands of flows at ~1 TB/s on one constraint):
                // every flow goes to the solver from now on
                f.registered = false;
                giveUp();
                return false;
            }
            if (fast) {
                // every registered flow at its most, f included, fits in the least capacity the constraint can have
                // at every instant of f's bandwidth phase [t1, end) (all registered flows, whenever they run, or those
                // whose windows hold that instant), so that it never binds f, whatever the opposite direction does
                // (f's most is then its rate either way); and where f's use lowers the opposite direction's capacity,
                // what is registered there fits in what it keeps
                int o = (int) rg[b + REG_OPPOSITE];
                boolean own = rg[b + REG_UNITS] + u <= rg[b + REG_LIMIT];
                boolean opposite = o < 0 || rg[o * REG_STRIDE + REG_UNITS] <= rg[o * REG_STRIDE + REG_LIMIT];
                if (!(own && opposite)) {
                    byWindows = true;
                    fast = (own || windows.fits(ids[i], t1, end, rg[b + REG_LIMIT] - u))
                            && (opposite || windows.fits(o, t1, end, rg[o * REG_STRIDE + REG_LIMIT]));
                }
            }
        }
        int[] slots = slots(f, ids.length);
        long windowEnd = fast ? end : Long.MAX_VALUE; // a flow timed by the solver may run longer than at its most
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] >= 0) {
                int b = ids[i] * REG_STRIDE;
                long u = regUnits(ws[i], most);
                rg[b + REG_UNITS] += u;
                slots[i] = windows.add(ids[i], t1, windowEnd, u);
                if (fast) {
                    rg[b + REG_FAST]++;
                }
            }
        }
        if (fast) {
            if (byWindows) {
                windowEntries++;
            }
            enter(f, path, most, t1, d, latencyPs);
            return true;
        }
        // f's use from t1 on may break what flows entered without an event rely on: those are handed to the solver
        handOverRelying(ids, t1);
        return false;
    }

    /** @return f's window slots, at least n (kept from its last start when long enough) */
    private static int[] slots(Flow f, int n) {
        int[] slots = f.regSlots;
        if (slots == null || slots.length < n) {
            slots = new int[n];
            f.regSlots = slots;
        }
        return slots;
    }

    /** Constraints {@code ids} (-1: none) hold more from {@code from} (ps) on: hands over who relied on them. */
    private void handOverRelying(int[] ids, long from) {
        for (int id : ids) {
            if (id >= 0) {
                checkLoad(id, from);
            }
        }
        handOverPending();
    }

    /**
     * The end of a check interval of registered starts (checkInterval of them, or 16 per flow then active if more):
     * where fewer than a sixteenth of them entered without an event (a tree's, an all-to-all's: tight constraints
     * everywhere) registering is only a cost, and the mechanism gives up. Returns whether it goes on.
     */
    private boolean checkpoint() {
        if (startsUntilCheck == 0) {
            intervalStarts += segment;
            long needed = Math.max(checkInterval, STARTS_PER_ACTIVE_FLOW * (long) flows.activeFlows);
            if (intervalStarts < needed) {
                // not yet as many starts as the flows active now have had: the interval goes on
                segment = (int) Math.min(needed - intervalStarts, Integer.MAX_VALUE);
                startsUntilCheck = segment;
                return true;
            }
            if (entries - entriesAtCheck < intervalStarts / 16) {
                giveUp();
                return false;
            }
        }
        segment = checkInterval;
        startsUntilCheck = checkInterval;
        intervalStarts = 0;
        entriesAtCheck = entries;
        return true;
    }

    /** Enters f into its bandwidth phase without an event: at {@code most} from t1, completing d ps later. */
    private void enter(Flow f, FlowNetwork.Path path, double most, long t1, long d, long latencyPs) {
        if (!path.listed) {
            path.listed = true;
            for (Constraint c : path.cons) {
                if (c.shared) {
                    c.addPath(path);
                }
            }
            if (nFastPaths == fastPaths.length) {
                fastPaths = Arrays.copyOf(fastPaths, 2 * nFastPaths);
            }
            fastPaths[nFastPaths++] = path;
        }
        f.fastPrev = null;
        f.fastNext = path.fastHead;
        if (path.fastHead != null) {
            path.fastHead.fastPrev = f;
        }
        path.fastHead = f;
        entries++;
        f.phase = Flow.FAST;
        f.rate = most;
        f.lastUpdate = t1;
        f.completionTime = t1 + d;
        f.eventHandle = sim.schedule(latencyPs + d, f);
    }

    /**
     * The usage of constraint {@code id} grew from {@code from} (ps) on: if flows entered without an event rely on it
     * (its own, and its duplex opposite's) and it no longer fits its limit at some instant from then, they are to be
     * handed over ({@link #handOverPending}).
     */
    private void checkLoad(int id, long from) {
        long[] rg = reg;
        int b = id * REG_STRIDE;
        if (rg[b + REG_UNITS] <= rg[b + REG_LIMIT]) {
            return;
        }
        int o = (int) rg[b + REG_OPPOSITE];
        if (rg[b + REG_FAST] == 0 && (o < 0 || rg[o * REG_STRIDE + REG_FAST] == 0)) {
            return;
        }
        if (windows.fits(id, from, Long.MAX_VALUE, rg[b + REG_LIMIT])) {
            return;
        }
        if (nPending == pending.length) {
            pending = Arrays.copyOf(pending, 2 * nPending);
        }
        pending[nPending++] = id;
    }

    /**
     * Hands the event-free flows on each pending constraint and on its duplex opposite over; a flow handed over may
     * run longer than its window said, which may make more constraints pending, until none is.
     */
    private void handOverPending() {
        while (nPending > 0) {
            int id = pending[--nPending];
            handOver(links.direction(id));
            int o = (int) reg[id * REG_STRIDE + REG_OPPOSITE];
            if (o >= 0) {
                handOver(links.direction(o));
            }
        }
    }

    /** Hands every flow that crosses c and runs without an event to the solver. */
    private void handOver(Constraint c) {
        for (int k = 0; k < c.nPaths && reg[c.id * REG_STRIDE + REG_FAST] > 0; k++) {
            FlowNetwork.Path p = c.paths[k];
            while (p.fastHead != null) {
                toSolver(p.fastHead);
            }
        }
    }

    /** Unlinks fast flow f from its path's list. */
    private static void unlinkFast(Flow f) {
        if (f.fastPrev != null) {
            f.fastPrev.fastNext = f.fastNext;
        } else {
            f.path.fastHead = f.fastNext;
        }
        if (f.fastNext != null) {
            f.fastNext.fastPrev = f.fastPrev;
        }
        f.fastNext = null;
        f.fastPrev = null;
    }

    /**
     * Flow f, entered without an event, is timed by the solver from now on: still in its latency phase it gets its
     * latency event back; already running (at its most rate, which every registration so far left it) it joins its
     * constraints as if it had entered at its t1. Its registered use stays (it never depended on how f is timed).
     */
    private void toSolver(Flow f) {
        handedOver++;
        long now = sim.now();
        unlinkFast(f);
        // timed by the solver it may run past the end of its window: its windows stay open, and where that breaks
        // what other event-free flows rely on, they are handed over in turn
        long oldEnd = f.completionTime;
        int[] ids = f.path.regIds;
        int[] slots = f.regSlots;
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] >= 0) {
                reg[ids[i] * REG_STRIDE + REG_FAST]--;
                windows.setEnd(ids[i], slots[i], Long.MAX_VALUE);
                if (!entryOff) {
                    checkLoad(ids[i], oldEnd);
                }
            }
        }
        long t1 = f.lastUpdate; // an event-free flow's lastUpdate is its t1
        if (now < t1) {
            sim.cancel(f.eventHandle);
            f.phase = Flow.LATENCY;
            f.rate = 0;
            f.lastUpdate = now;
            f.completionTime = Long.MAX_VALUE;
            f.eventHandle = sim.schedule(t1 - now, f);
        } else {
            // running since t1 at f.rate: its completion event stays unless the solver changes the rate
            f.phase = Flow.BANDWIDTH;
            f.done = 0;
            flows.join(f);
        }
    }

    /** Removes f's registered use, if it has one (it completed or was cancelled). */
    void unregister(Flow f) {
        if (!f.registered) {
            return;
        }
        f.registered = false;
        boolean fast = f.phase == Flow.FAST;
        if (fast) {
            unlinkFast(f);
        }
        int[] ids = f.path.regIds;
        int[] ws = f.weights;
        int[] slots = f.regSlots;
        long[] rg = reg;
        double r = f.regRate;
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] >= 0) {
                int b = ids[i] * REG_STRIDE;
                rg[b + REG_UNITS] -= regUnits(ws[i], r);
                windows.remove(ids[i], slots[i]);
                if (fast) {
                    rg[b + REG_FAST]--;
                }
            }
        }
    }

    /**
     * A capacity is about to change (call before it does): the registrations assumed the old ones. With flows
     * active ({@code activeFlows > 0}), every flow entered without an event is handed to the solver and later flows
     * are timed by it (a fault mid-run); before any flow, nothing is at stake.
     */
    void capacitiesChanging(int activeFlows) {
        capStamp++;
        if (activeFlows > 0) {
            giveUp();
        }
    }

    /** Hands every flow entered without an event to the solver and times every later flow with it. */
    void giveUp() {
        if (entryOff) {
            return;
        }
        entryOff = true;
        for (int k = 0; k < nFastPaths; k++) {
            FlowNetwork.Path p = fastPaths[k];
            while (p.fastHead != null) {
                toSolver(p.fastHead);
            }
        }
    }
}
