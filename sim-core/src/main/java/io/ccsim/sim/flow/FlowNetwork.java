package io.ccsim.sim.flow;

import io.ccsim.sim.Sharing;
import io.ccsim.sim.Simulator;
import java.util.Objects;

/**
 * Links with capacities (bytes/s) and flows over routes of link directions, sharing bandwidth with max-min
 * fairness; completion events live in the {@link Simulator}.
 *
 * <p>Contract:
 * <ul>
 *   <li>Each link contributes constraints according to its {@link Sharing}: FULL_DUPLEX one per direction, SHARED
 *       one for both directions, FAT_PIPE none shared (each flow is bounded by the link's capacity on its own). A
 *       flow's own rate cap is a per-flow bound too. A flow crossing a shared constraint k times, standing for m
 *       identical flows, uses k x m times its rate there.</li>
 *   <li>A FULL_DUPLEX link may have a duplex efficiency e in (0, 1] ({@link #setDuplexEfficiency}): while the
 *       opposite direction carries a flow in its bandwidth phase, a direction's capacity is C x e instead of C.</li>
 *   <li>A flow has a latency phase (no bandwidth), then a bandwidth phase at its max-min fair rate, then completes:
 *       its listener runs through the simulator at {@code t + ceil(remaining x 1e12 / rate)} ps after its last rate
 *       change at t, a value within 1e-12 relative of an integer taken as that integer, so that exact cases stay
 *       exact (1e9 B at 1e11 B/s is 10,000,000,000 ps).</li>
 *   <li>Rates change when a flow enters its bandwidth phase, completes or is cancelled, or a capacity changes; they
 *       are re-solved once at the end of the instant, and every observer of rates ({@link Flow#rate()},
 *       {@link #linkRate}, {@link #nextCompletionTime()}) sees them solved. No simulated time passes before the
 *       solve, so deferring it is exact.</li>
 *   <li>The same calls with the same {@link Options} give the same completions, at the same times, in the same
 *       order, bit for bit.</li>
 * </ul>
 * Arguments are validated: {@link IllegalArgumentException} names the call, the value and what is valid; asking for
 * what the {@link Options} do not track throws {@link IllegalStateException}. Not thread-safe; one network per
 * simulator thread.
 */
public final class FlowNetwork extends FlowLifecycle {
    /*
     * The parts, all package-private: LinkTable (links, capacities, sharing, duplex efficiency, the constraints),
     * LinkTraffic (per-direction rates and bytes), PathResolver (routes into constraints with weights; twin groups),
     * FlowLifecycle (phases, membership, rate changes, the pool; the superclass, which holds the others: see there),
     * MaxMinSolver (slack tracking, seeds, the components
     * to re-solve) over ProgressiveFilling (the rates of one component), EventFreeEntry (flows whose rate is known at
     * their start), CompletionQueue (nextCompletionTime). Each derivation is in its class; each but FlowLifecycle
     * (tested through this facade) has a test of its own.
     */
    private static final double PS_PER_S = 1e12;

    private final PathResolver paths = new PathResolver(links);

    /**
     * How a network keeps its state. The two tracking options decide what can be observed; the other four turn off
     * optimisations that give the same completion times, for tests that check exactly that.
     *
     * @param trackNextCompletion whether to keep the completion queue that {@link #nextCompletionTime()} reads; an
     *                            executor that never asks saves its upkeep on every rate change (the completions
     *                            themselves are events either way)
     * @param trackLinkTraffic    whether to keep each link direction's rate and bytes carried, which
     *                            {@link #linkRate} and {@link #linkBytes} read; keeping them settles every hop of a flow
     *                            at each of its rate changes, so an executor that never asks leaves them off
     * @param eventFreeEntry      whether a recycled flow whose rate is known at its start enters its bandwidth phase
     *                            without an event (only while neither tracking option is on); completion times are the
     *                            same either way, their order within one instant may differ
     * @param twinFilling         whether the filling leaves all but the least-capacity constraint of each group of
     *                            twin constraints out of its heap; the rates are the same either way
     * @param uniformFastPath     whether a component whose flows all cross the same constraints with proportional
     *                            weights is water-filled on its tightest constraint instead of by the general
     *                            progressive filling; the rates are the same either way
     * @param entryCheckInterval  {@code >= 1}: every this many registered starts (or 16 per flow then active, if
     *                            more), if fewer than a sixteenth of them entered without an event, event-free entry
     *                            gives up for the rest of the run
     * @param regionSolve         whether a change re-solves only the flows it can reach through their bottlenecks
     *                            (RegionSolver) instead of its whole connected component; the rates are the same up
     *                            to rounding (a few units in the last place)
     */
    public record Options(boolean trackNextCompletion, boolean trackLinkTraffic, boolean eventFreeEntry,
                          boolean twinFilling, boolean uniformFastPath, int entryCheckInterval, boolean regionSolve) {
        /** Everything tracked, every optimisation on, a check every 65,536 registered starts. */
        public static final Options DEFAULT = new Options(true, true, true, true, true, 1 << 16, true);

        /** @throws IllegalArgumentException if {@code entryCheckInterval < 1} */
        public Options {
            if (entryCheckInterval < 1) {
                throw new IllegalArgumentException("FlowNetwork.Options: entryCheckInterval must be >= 1, was "
                        + entryCheckInterval);
            }
        }

        /** @return these options with {@link #trackNextCompletion} set to {@code on} */
        public Options withTrackNextCompletion(boolean on) {
            return new Options(on, trackLinkTraffic, eventFreeEntry, twinFilling,
                    uniformFastPath, entryCheckInterval, regionSolve);
        }

        /** @return these options with {@link #trackLinkTraffic} set to {@code on} */
        public Options withTrackLinkTraffic(boolean on) {
            return new Options(trackNextCompletion, on, eventFreeEntry, twinFilling,
                    uniformFastPath, entryCheckInterval, regionSolve);
        }

        /** @return these options with {@link #eventFreeEntry} set to {@code on} */
        public Options withEventFreeEntry(boolean on) {
            return new Options(trackNextCompletion, trackLinkTraffic, on,
                    twinFilling, uniformFastPath, entryCheckInterval, regionSolve);
        }

        /** @return these options with {@link #twinFilling} set to {@code on} */
        public Options withTwinFilling(boolean on) {
            return new Options(trackNextCompletion, trackLinkTraffic, eventFreeEntry,
                    on, uniformFastPath, entryCheckInterval, regionSolve);
        }

        /** @return these options with {@link #uniformFastPath} set to {@code on} */
        public Options withUniformFastPath(boolean on) {
            return new Options(trackNextCompletion, trackLinkTraffic, eventFreeEntry,
                    twinFilling, on, entryCheckInterval, regionSolve);
        }

        /** @return these options with {@link #regionSolve} set to {@code on} */
        public Options withRegionSolve(boolean on) {
            return new Options(trackNextCompletion, trackLinkTraffic, eventFreeEntry, twinFilling, uniformFastPath,
                    entryCheckInterval, on);
        }

        /** @return these options with {@link #entryCheckInterval} set to {@code starts} */
        public Options withEntryCheckInterval(int starts) {
            return new Options(trackNextCompletion, trackLinkTraffic, eventFreeEntry,
                    twinFilling, uniformFastPath, starts, regionSolve);
        }
    }

    /**
     * A network with {@link Options#DEFAULT} options.
     *
     * @param sim the simulator whose clock and event queue this network uses
     */
    public FlowNetwork(Simulator sim) {
        this(sim, Options.DEFAULT);
    }

    /**
     * @param sim     the simulator whose clock and event queue this network uses
     * @param options what to track and which optimisations to use
     */
    public FlowNetwork(Simulator sim, Options options) {
        super(sim, options);
    }

    /**
     * Adds a link.
     *
     * @param name                 for messages, not null
     * @param capacityBytesPerSec  finite, {@code >= 0} (0 = down)
     * @param sharing              how directions and flows share it
     * @return the link index: 0, 1, 2, ... in order of addition
     */
    public int addLink(String name, double capacityBytesPerSec, Sharing sharing) {
        int l = links.add(name, capacityBytesPerSec, sharing);
        entry.refreshLimits(l);
        if (traffic != null) {
            traffic.addLink(l, sim.now());
        }
        return l;
    }

    /**
     * Changes a link's capacity from now on; flows on it are re-solved (at the end of the
     * current instant). 0 means down: its flows stall at rate 0 until it is restored.
     *
     * @param bytesPerSec finite, {@code >= 0}
     */
    public void setCapacity(int link, double bytesPerSec) {
        links.check("setCapacity", link);
        LinkTable.checkCapacity("setCapacity on link " + link + " '" + links.name(link) + "'", bytesPerSec);
        entry.capacitiesChanging(activeFlows);
        links.setCapacity(link, bytesPerSec);
        entry.refreshLimits(link);
        Constraint f = links.forward(link);
        Constraint r = links.reverse(link);
        f.capacity = links.directionCapacity(link << 1);
        r.capacity = links.directionCapacity((link << 1) | 1);
        if (f.shared) {
            solver.capacityChanged(f);
            if (r != f) {
                solver.capacityChanged(r);
            }
        } else {
            solver.boundChanged(f);
        }
        solver.requestSolve();
    }

    /**
     * Sets the duplex efficiency of a FULL_DUPLEX link: the fraction of its capacity C that a direction gets
     * while the opposite direction has a flow in its bandwidth phase; it follows later
     * {@link #setCapacity} changes. 1 (the default) means independent directions. Takes effect now: flows
     * on the link are re-solved at the end of the current instant.
     *
     * @param efficiency in (0, 1]
     * @throws IllegalArgumentException for a link that is not FULL_DUPLEX, or an efficiency outside (0, 1]
     */
    public void setDuplexEfficiency(int link, double efficiency) {
        links.check("setDuplexEfficiency", link);
        links.checkDuplexEfficiency(link, efficiency);
        entry.capacitiesChanging(activeFlows);
        links.setDuplexEfficiency(link, efficiency);
        entry.refreshLimits(link);
        refreshDirection(link << 1);
        refreshDirection((link << 1) | 1);
        solver.requestSolve();
    }

    /** @return the link's duplex efficiency (see {@link #setDuplexEfficiency}); 1 for a link without one */
    public double duplexEfficiency(int link) {
        links.check("duplexEfficiency", link);
        return links.duplexEfficiency(link);
    }

    /** @return the link's capacity, bytes/s */
    public double capacity(int link) {
        links.check("capacity", link);
        return links.capacity(link);
    }

    /** @return the link's name */
    public String linkName(int link) {
        links.check("linkName", link);
        return links.name(link);
    }

    /** @return the link's sharing policy */
    public Sharing sharing(int link) {
        links.check("sharing", link);
        return links.sharing(link);
    }

    /** @return number of links */
    public int linkCount() {
        return links.count();
    }

    /** Route element: {@code link << 1 | (reverse ? 1 : 0)}. */
    public static int hop(int link, boolean reverse) {
        if (link < 0 || link > (Integer.MAX_VALUE >> 1)) {
            throw new IllegalArgumentException("hop: link index must be in 0.." + (Integer.MAX_VALUE >> 1)
                    + ", was " + link);
        }
        return (link << 1) | (reverse ? 1 : 0);
    }

    /** @return bytes carried so far by a link in one direction; needs {@link Options#trackLinkTraffic} */
    public double linkBytes(int link, boolean reverse) {
        links.check("linkBytes", link);
        checkTraffic("linkBytes");
        return traffic.bytes((link << 1) | (reverse ? 1 : 0), sim.now());
    }

    /** @return the rates of the flows over a link in one direction, summed, bytes/s; needs trackLinkTraffic */
    public double linkRate(int link, boolean reverse) {
        links.check("linkRate", link);
        checkTraffic("linkRate");
        flush();
        return traffic.rate((link << 1) | (reverse ? 1 : 0));
    }

    private void checkTraffic(String where) {
        if (traffic == null) {
            throw new IllegalStateException(where + ": this network was created without link traffic tracking"
                    + " (FlowNetwork.Options.trackLinkTraffic keeps it)");
        }
    }

    /**
     * Starts a flow now.
     *
     * @param route               hops ({@link #hop}); may be empty (a local copy bounded only by
     *                            the cap); copied
     * @param bytes               {@code >= 0}; 0 completes right after the latency
     * @param latencyPs           {@code >= 0}: latency phase first, using no bandwidth
     * @param rateCapBytesPerSec  the flow's own bound; {@code <= 0} or +Infinity means none; NaN
     *                            is an error
     * @param onComplete          called at the completion time through the simulator; may be null
     * @return the flow
     */
    public Flow start(int[] route, long bytes, long latencyPs, double rateCapBytesPerSec, FlowListener onComplete) {
        return start(route, bytes, latencyPs, rateCapBytesPerSec, 1, onComplete);
    }

    /**
     * Starts a flow that stands for {@code multiplicity} identical flows (same route, size, latency,
     * cap and start): in the max-min solution each of them gets the rate {@link Flow#rate()} reports, and
     * the shared constraints and link counters carry {@code multiplicity} times that rate. This is exact
     * for replicas (e.g. NCCL channels with identical rings and data sizes), at the cost of one flow.
     *
     * @param multiplicity {@code >= 1}
     */
    public Flow start(int[] route, long bytes, long latencyPs, double rateCapBytesPerSec, int multiplicity,
                      FlowListener onComplete) {
        return start(paths.resolve(route, multiplicity, false), bytes, latencyPs, rateCapBytesPerSec, onComplete);
    }

    /**
     * A route resolved once into this network's constraints, for starting many flows on it without
     * re-validating and re-resolving the route each time (executors keep one per connection).
     */
    public static final class Path {
        final int[] route;
        final Constraint[] cons;
        final int[] weights;
        final int multiplicity;
        /** per entry of cons: the constraint's {@link Constraint#id} if shared, else -1 (the registration table's rows) */
        final int[] regIds;
        // as of capacity stamp capStamp: min over shared constraints of capacity / weight, and the least non-shared
        // capacity (the event-free entry's per-path numbers)
        double most;
        double nonShared;
        int capStamp = -1;
        /** whether the path is listed in its shared constraints' paths (at its first flow entered without an event) */
        boolean listed;
        /** its running flows entered without an event (linked through Flow.fastNext) */
        Flow fastHead;

        Path(int[] route, Constraint[] cons, int[] weights, int multiplicity) {
            this.route = route;
            this.cons = cons;
            this.weights = weights;
            this.multiplicity = multiplicity;
            this.regIds = new int[cons.length];
            for (int i = 0; i < cons.length; i++) {
                regIds[i] = cons[i].shared ? cons[i].id : -1;
            }
        }

        /** The route it was resolved from: its hops ({@link FlowNetwork#hop}), in order; a copy. */
        public int[] route() {
            return route.clone();
        }

        /** @return identical flows each flow on this path stands for */
        public int multiplicity() {
            return multiplicity;
        }
    }

    /**
     * Resolves {@code route} for flows that each stand for {@code multiplicity} identical flows.
     *
     * @throws IllegalArgumentException for a hop naming no link, or a multiplicity below 1
     */
    public Path path(int[] route, int multiplicity) {
        return paths.resolve(route, multiplicity, true);
    }

    /** Starts a flow on a resolved {@link Path}; otherwise as {@link #start(int[], long, long, double, FlowListener)}. */
    public Flow start(Path path, long bytes, long latencyPs, double rateCapBytesPerSec, FlowListener onComplete) {
        double cap = checkStart(path, bytes, latencyPs, rateCapBytesPerSec);
        return startFlow(path, bytes, latencyPs, cap, onComplete);
    }

    /**
     * Starts a flow as {@link #start(Path, long, long, double, FlowListener)} does, but one the caller never holds:
     * once its listener has returned, the network reuses the flow object for a later start. The listener must not
     * keep the {@link Flow} it is given. Executors that start millions of flows and only want their completion use
     * this, so that a long run allocates nothing per flow and its flows stay in a small, cache-resident set.
     */
    public void startRecycled(Path path, long bytes, long latencyPs, double rateCapBytesPerSec, FlowListener onComplete) {
        startRecycled(path, bytes, latencyPs, rateCapBytesPerSec, onComplete, 0);
    }

    /**
     * As {@link #startRecycled(Path, long, long, double, FlowListener)}, the flow carrying {@code key} ({@link Flow#key()})
     * to its listener: one listener can then serve many connections without an object (and a cache miss) per connection.
     */
    public void startRecycled(Path path, long bytes, long latencyPs, double rateCapBytesPerSec, FlowListener onComplete, int key) {
        double cap = checkStart(path, bytes, latencyPs, rateCapBytesPerSec);
        startRecycledFlow(path, bytes, latencyPs, cap, onComplete, key);
    }

    /** Validates a start's arguments; returns the rate cap in bytes/s (+Infinity for none). */
    private double checkStart(Path path, long bytes, long latencyPs, double rateCapBytesPerSec) {
        Objects.requireNonNull(path, "start: path must not be null");
        if (bytes < 0) {
            throw new IllegalArgumentException("start: bytes must be >= 0, was " + bytes);
        }
        if (latencyPs < 0) {
            throw new IllegalArgumentException("start: latency must be >= 0 ps, was " + latencyPs);
        }
        if (Double.isNaN(rateCapBytesPerSec)) {
            throw new IllegalArgumentException("start: rate cap is NaN; valid is a number of bytes/s, "
                    + "or <= 0 / +Infinity for none");
        }
        if (latencyPs > Long.MAX_VALUE - sim.now()) {
            throw new IllegalArgumentException("start: latency " + latencyPs + " ps overflows the clock at now="
                    + sim.now() + " ps");
        }
        return rateCapBytesPerSec > 0 ? rateCapBytesPerSec : Double.POSITIVE_INFINITY;
    }

    /**
     * Cancels a flow: it stops using bandwidth now, rates are re-solved, and its listener is not
     * called. No effect on a flow already done or cancelled.
     *
     * @throws IllegalArgumentException if the flow belongs to another network
     */
    public void cancel(Flow f) {
        Objects.requireNonNull(f, "cancel: flow must not be null");
        if (f.net != this) {
            throw new IllegalArgumentException("cancel: " + f + " belongs to another FlowNetwork");
        }
        if (f.phase == Flow.DONE || f.phase == Flow.CANCELLED) {
            return;
        }
        cancelFlow(f);
    }

    /**
     * @return the earliest scheduled completion time of any flow, ps, or {@link Long#MAX_VALUE}
     * if none is scheduled (flows in their latency phase with bytes &gt; 0, and stalled flows, have
     * no completion time yet)
     * @throws IllegalStateException if completions are not tracked ({@link Options#trackNextCompletion})
     */
    public long nextCompletionTime() {
        if (completions == null) {
            throw new IllegalStateException("nextCompletionTime: this network was created without completion tracking"
                    + " (FlowNetwork.Options.trackNextCompletion keeps it)");
        }
        flush();
        return completions.nextTime();
    }

    /** @return flows started and neither done nor cancelled (latency phase included) */
    public int activeFlowCount() {
        return activeFlows;
    }

    /** @return number of solver passes so far */
    public long solveCount() {
        return solver.solveCount();
    }

    /**
     * @return the most flows the solver ever had to solve together (its largest connected component): what a
     * solve costs grows with it, so a model change that joins components shows here
     */
    public int maxComponentFlows() {
        return solver.maxComponentFlows();
    }

    /** @return flows + constraints the solver has visited so far (for locality tests) */
    long solverWork() {
        return solver.solverWork();
    }

    /** @return flows entered without an event so far */
    long eventFreeEntries() {
        return entry.entries();
    }

    /** @return flows entered without an event because their windows fitted where the registered sums did not */
    long windowEntries() {
        return entry.windowEntries();
    }

    /** @return flows entered without an event and handed to the solver later */
    long handedOver() {
        return entry.handedOver();
    }

    /** @return number of flows started so far */
    public long flowsStarted() {
        return flowsStarted;
    }

    /**
     * Picoseconds to deliver {@code remaining} bytes at {@code rate} bytes/s, rounded up, with a
     * relative tolerance of 1e-12 to absorb floating-point noise; -1 for rate 0, and
     * {@link Long#MAX_VALUE} when beyond the clock's range.
     */
    static long completionDelayPs(double remaining, double rate) {
        if (remaining <= 0 || rate == Double.POSITIVE_INFINITY) {
            return 0;
        }
        if (!(rate > 0)) {
            return -1;
        }
        double t = remaining * PS_PER_S / rate;
        if (!(t < 0x1p62)) {
            return Long.MAX_VALUE;
        }
        double r = Math.rint(t);
        if (Math.abs(t - r) <= t * 1e-12 + 1e-9) {
            return (long) r;
        }
        return (long) Math.ceil(t);
    }
}
