package io.ccsim.sim.flow;

import io.ccsim.sim.Sharing;
import io.ccsim.sim.Simulator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Links with capacities (bytes/s) and flows over routes of link directions, sharing bandwidth
 * with max-min fairness; completion events live in the {@link Simulator}.
 *
 * <h2>Model</h2>
 * Each link contributes constraints according to its {@link Sharing}: FULL_DUPLEX one per
 * direction, SHARED one for both directions, FAT_PIPE none shared (each flow is individually
 * bounded by the link capacity). A flow's own rate cap is a per-flow bound too. A flow that
 * crosses a shared constraint k times consumes k times its rate there.
 *
 * <p>A FULL_DUPLEX link may also have a <em>duplex efficiency</em> e in (0, 1]
 * ({@link #setDuplexEfficiency}): while the opposite direction carries a flow in its bandwidth phase, a
 * direction's capacity is {@code C x e} instead of C. With traffic one way only a direction gets C; with
 * both directions busy each gets at most {@code C x e}. Measured on NVLink4 (NCCL 2.28.9, 2 x H200, Simple:
 * calibration/nccl-h200) a direction delivers 268 GB/s when both carry a ring, 361 GB/s for a one-way chain.
 * The penalty is a mode of the link (both ways at once or not), not a joint constraint over the two
 * directions' rates: a joint constraint {@code fwd + rev <= 2 C e} agrees with it whenever both directions
 * are saturated or one is idle (all that the measurements tell apart), but it couples every flow through
 * a GPU with every other (a ring's ranks then form one component, solved on every change, and the
 * constraint flips in and out as bursts come and go: half the time of a 512-GPU ring all-reduce). Here a
 * direction's capacity changes only when the opposite direction's bandwidth-phase flow count goes
 * 0 &lt;-&gt; 1, which re-solves that direction's component alone.
 *
 * <h2>Solver: progressive filling, per connected component</h2>
 * The classic max-min algorithm (Bertsekas &amp; Gallager, "Data Networks", 6.5.2; the same
 * "bottleneck" scheme SimGrid's lmm solver uses): raise all unfrozen flows' rates together; when
 * a constraint saturates, freeze its flows at the current level; when a flow reaches its own
 * bound, freeze it there. Here each constraint's saturation level
 * {@code (capacity - frozen usage) / (weight of unfrozen members)} sits in an indexed min-heap (one
 * entry per constraint, moved as its level changes) and the flows' own bounds in a second heap; the
 * lower top freezes next. The cost is O(flows x hops x log constraints + flows x log flows) for the
 * component (a heap of stale constraint entries, one per freeze, made the pops dominate an
 * all-to-all's solves of hundreds of flows).
 *
 * <p><em>Slack constraints</em> take no part: a shared constraint whose members all fit at their own bounds
 * ({@code sum(weight x bound) <= capacity}, kept exactly in whole units per constraint as flows come and go) is
 * implied by the bounds, so the max-min solution is the same without it. The solver neither solves it nor
 * crosses it to find a component, and a flow leaving it, or its capacity changing while it stays slack,
 * re-solves nothing. A constraint turning tight is solved with its members; one turning slack frees its
 * members, each re-solved in what remains of its component.
 *
 * <p><em>Twin constraints</em> take no part either, but one: shared constraints crossed by exactly the same paths with
 * the same weights (a GPU's NVLink direction and its multi-peer constraint; a GPU's PCIe link, its NIC's PCIe link
 * and the NIC's cable) always have the same members, so at every step of the filling the one of least capacity has
 * the lowest level and the others can never saturate first. The groups are kept as paths are resolved (a path that
 * crosses only some of a group, or with other weights, splits it), and the filling leaves all but the least capacity
 * member of each group out of its heap: in a 1,024-GPU tree all-reduce 61 % of a component's constraints are such
 * twins, and the run at 128 MiB takes 36 s instead of 50 s, with the same output.
 *
 * <p>Only the connected component of a change is solved: the flows and shared constraints
 * reachable from the changed flows/constraints through shared constraints (found by BFS with
 * epoch stamps, no clearing). Changes (a flow entering its bandwidth phase, completing, being
 * cancelled, a capacity change) only mark seeds dirty and register one solve at the end of the
 * current instant ({@link Simulator#atEndOfInstant}, no heap event), so many changes at one
 * instant cost one solve. Because no simulated time passes before it, deferring is exact; every
 * observer of rates
 * ({@link Flow#rate()}, {@link #linkRate}, {@link #nextCompletionTime()}) solves first.
 *
 * <h2>Event-free bandwidth entry</h2>
 * A flow costs two events, the end of its latency phase and its completion, unless its rate can be known at its start.
 * Max-min fairness gives a flow the most it could get alone, {@code most = min(bound, capacity / weight)} over its
 * constraints, whenever every constraint holds all its flows at their most: then nobody limits anybody. So every flow,
 * once started, is <em>registered</em> on its shared constraints with its most usage (weight x most), from its start
 * until it leaves, its latency phase included; the sums live in one dense table by constraint id, in whole
 * 1/16 B/s units rounded up (exact integer sums over millions of flows). A flow started with {@link #startRecycled}
 * whose every shared constraint would still fit (its own use included, within a relative 1e-9 for the rounding of
 * sums of C / w) in the least capacity the constraint can have
 * (a FULL_DUPLEX direction's C x e), and for a duplex-limited direction the opposite direction too (its capacity
 * drops while this one is busy), is entered without an event: it runs at its most from the end of its latency
 * phase, and its completion, {@code t1 + ceil(bytes / most)}, is its only event. It never joins the solver's
 * constraints. A later flow that does not fit is timed by the solver as usual and hands every event-free flow on the
 * overfull constraint (and on its duplex opposite) to the solver: one still in its latency phase gets its latency
 * event back, one running joins its constraints as if it had entered at its t1 (its completion event kept if the
 * solver leaves its rate as it was). Registrations count a flow at its most whichever way it is timed, so a flow
 * handed over changes no sum and hands nobody else over. Completions come at the same times as with the solver alone
 * ({@code EventFreeEntryTest}, and the 1,024-GPU ring's simulated time, 15979 us, is unchanged); within one instant
 * their order may differ, since an event-free flow's completion is queued at its start. A capacity changing while
 * flows are active hands every event-free flow over and turns the mechanism off for the rest of the run (the sums
 * assumed the old capacities). Networks that track completions or link traffic keep every flow with the solver, which
 * those observers read. Where few flows fit (fewer than 1/16 of 65,536 starts in a row: a tree's or an
 * all-to-all's flows, whose constraints are tight), registering is only a cost and the mechanism gives up for the
 * run. In a 1,024-GPU ring all-reduce 99.8 % of the flows enter without an event, and the run dispatches 33.6 million
 * events instead of 67.1 million.
 *
 * <h2>Time</h2>
 * Progress is accounted lazily: a flow's (and, when link traffic is tracked, a link direction's) bytes are
 * settled only when its rate changes. A completion is scheduled at {@code now + ceil(remaining * 1e12 / rate)}
 * ps, with values within 1e-12 relative of an integer taken as that integer, so that exact
 * cases stay exact (1e9 B at 1e11 B/s is 10,000,000,000 ps).
 *
 * <p>Not thread-safe; one network per simulator thread.
 */
public final class FlowNetwork {
    private static final double PS_PER_S = 1e12;

    private final Simulator sim;

    private final LinkTable links = new LinkTable();
    private final PathResolver paths = new PathResolver(links);
    private final EventFreeEntry entry;
    private final MaxMinSolver solver;
    /** per link direction: rates and bytes carried; null when not tracked */
    private final LinkTraffic traffic;

    /** flows by completion time; null when not tracked */
    private final CompletionQueue completions;

    private long nextFlowId;
    /** finished flows of {@link #startRecycled}, for reuse (LIFO: the most recently used is the likeliest cached) */
    private Flow[] pool = new Flow[16];
    private int poolSize;
    private int activeFlows;
    private long flowsStarted;

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
     * @param entryCheckInterval  {@code >= 1}: every this many registered starts, if fewer than a sixteenth of them
     *                            entered without an event, event-free entry gives up for the rest of the run
     */
    public record Options(boolean trackNextCompletion, boolean trackLinkTraffic, boolean eventFreeEntry,
                          boolean twinFilling, boolean uniformFastPath, int entryCheckInterval) {
        /** Everything tracked, every optimisation on, a check every 65,536 registered starts. */
        public static final Options DEFAULT = new Options(true, true, true, true, true, 1 << 16);

        /** @throws IllegalArgumentException if {@code entryCheckInterval < 1} */
        public Options {
            if (entryCheckInterval < 1) {
                throw new IllegalArgumentException("FlowNetwork.Options: entryCheckInterval must be >= 1, was "
                        + entryCheckInterval);
            }
        }

        /** @return these options with {@link #trackNextCompletion} set to {@code on} */
        public Options withTrackNextCompletion(boolean on) {
            return new Options(on, trackLinkTraffic, eventFreeEntry, twinFilling, uniformFastPath, entryCheckInterval);
        }

        /** @return these options with {@link #trackLinkTraffic} set to {@code on} */
        public Options withTrackLinkTraffic(boolean on) {
            return new Options(trackNextCompletion, on, eventFreeEntry, twinFilling, uniformFastPath, entryCheckInterval);
        }

        /** @return these options with {@link #eventFreeEntry} set to {@code on} */
        public Options withEventFreeEntry(boolean on) {
            return new Options(trackNextCompletion, trackLinkTraffic, on, twinFilling, uniformFastPath, entryCheckInterval);
        }

        /** @return these options with {@link #twinFilling} set to {@code on} */
        public Options withTwinFilling(boolean on) {
            return new Options(trackNextCompletion, trackLinkTraffic, eventFreeEntry, on, uniformFastPath, entryCheckInterval);
        }

        /** @return these options with {@link #uniformFastPath} set to {@code on} */
        public Options withUniformFastPath(boolean on) {
            return new Options(trackNextCompletion, trackLinkTraffic, eventFreeEntry, twinFilling, on, entryCheckInterval);
        }

        /** @return these options with {@link #entryCheckInterval} set to {@code starts} */
        public Options withEntryCheckInterval(int starts) {
            return new Options(trackNextCompletion, trackLinkTraffic, eventFreeEntry, twinFilling, uniformFastPath, starts);
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
        this.sim = Objects.requireNonNull(sim, "simulator must not be null");
        Objects.requireNonNull(options, "options must not be null");
        this.completions = options.trackNextCompletion() ? new CompletionQueue() : null;
        this.traffic = options.trackLinkTraffic() ? new LinkTraffic() : null;
        this.solver = new MaxMinSolver(this, sim, new ProgressiveFilling(options.twinFilling(), options.uniformFastPath()));
        this.entry = new EventFreeEntry(this, sim, links, options.eventFreeEntry() && completions == null
                && traffic == null, options.entryCheckInterval());
    }

    long now() {
        return sim.now();
    }

    // ------------------------------------------------------------------ links

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
     * while the opposite direction has a flow in its bandwidth phase (see the class comment); it follows later
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

    /**
     * Re-derives the capacity of direction (hop) h of a FULL_DUPLEX link and re-solves its flows: after its duplex
     * efficiency changed, or its opposite direction turned busy or idle.
     */
    private void refreshDirection(int h) {
        Constraint c = links.direction(h);
        c.capacity = links.directionCapacity(h);
        solver.capacityChanged(c);
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

    /**
     * Bytes carried so far by a link in one direction, as of now.
     */
    public double linkBytes(int link, boolean reverse) {
        links.check("linkBytes", link);
        checkTraffic("linkBytes");
        return traffic.bytes((link << 1) | (reverse ? 1 : 0), sim.now());
    }

    /** Current sum of the rates of the flows crossing a link in one direction, bytes/s. */
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

    // ------------------------------------------------------------------ flows

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
        Flow f = new Flow(this, nextFlowId++, path.route, bytes, cap, onComplete, sim.now(), path.cons, path.weights);
        launch(f, path, latencyPs);
        return f;
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
        Flow f;
        if (poolSize > 0) {
            f = pool[--poolSize];
            pool[poolSize] = null;
            f.reuse(nextFlowId++, path.route, bytes, cap, onComplete, sim.now(), path.cons, path.weights);
        } else {
            f = new Flow(this, nextFlowId++, path.route, bytes, cap, onComplete, sim.now(), path.cons, path.weights);
            f.pooled = true;
        }
        f.setKey(key);
        launch(f, path, latencyPs);
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

    private void launch(Flow f, Path path, long latencyPs) {
        f.multiplicity = path.multiplicity;
        flowsStarted++;
        activeFlows++;
        if (f.bytes() == 0) {
            f.completionTime = sim.now() + latencyPs;
            f.eventHandle = sim.schedule(latencyPs, f);
            heapInsert(f);
        } else if (entry.registering() && entry.tryEnter(f, path, latencyPs)) {
            return;
        } else if (latencyPs > 0) {
            f.eventHandle = sim.schedule(latencyPs, f);
        } else {
            enterBandwidth(f);
        }
    }

    /** Whether the simulator event with this handle is still queued (not yet due, or not yet run). */
    boolean eventPending(long handle) {
        return sim.isPending(handle);
    }

    /** The flow's single event: end of latency phase, or completion. */
    void onFlowEvent(Flow f) {
        f.eventHandle = -1;
        if (f.phase == Flow.FAST) {
            entry.unregister(f);
            finish(f);
            return;
        }
        if (f.phase == Flow.LATENCY) {
            if (f.bytes() == 0) {
                heapRemove(f);
                finish(f);
            } else {
                enterBandwidth(f);
            }
        } else if (f.phase == Flow.BANDWIDTH) {
            detach(f, true);
            finish(f);
        }
    }

    private void finish(Flow f) {
        f.phase = Flow.DONE;
        f.done = f.bytes();
        f.endTime = sim.now();
        activeFlows--;
        if (f.listener != null) {
            f.listener.onComplete(f);
        }
        if (f.pooled) {
            f.listener = null;
            f.setTag(null);
            if (poolSize == pool.length) {
                pool = Arrays.copyOf(pool, poolSize * 2);
            }
            pool[poolSize++] = f;
        }
    }

    private void enterBandwidth(Flow f) {
        f.phase = Flow.BANDWIDTH;
        f.lastUpdate = sim.now();
        join(f);
    }

    /**
     * Makes bandwidth-phase flow f a member of its constraints and gives it its rate: its own bound if every shared
     * constraint it crosses stays slack, else the solver's (at the end of the instant). A flow that was running
     * already (a flow entered without an event, handed to the solver) keeps its completion event when its rate
     * does not change.
     */
    void join(Flow f) {
        Constraint[] cs = f.cons;
        if (f.posInCons == null || f.posInCons.length < cs.length) {
            // sized here, not at every start: a flow that never joins (entered without an event) never reads it
            f.posInCons = new int[cs.length];
        }
        for (int i = 0; i < cs.length; i++) {
            f.posInCons[i] = cs[i].add(f);
        }
        MaxMinSolver.computeBound(f);
        solver.countBounds(f, +1);
        if (traffic != null) {
            traffic.join(f.route);
        }
        for (Constraint c : cs) {
            if (c.size == 1 && links.hasDuplexLimit(c)) {
                refreshDirection(c.hop ^ 1); // both ways at once now
            }
        }
        boolean unbound = f.bound < Double.POSITIVE_INFINITY;
        for (int i = 0; i < cs.length && unbound; i++) {
            unbound = !cs[i].shared || cs[i].slack;
        }
        if (unbound) {
            // every shared constraint it crosses is slack: its rate is its own bound, and no other flow's changes
            if (f.rate != f.bound || f.eventHandle < 0) {
                setRate(f, f.bound, sim.now());
            }
        } else {
            solver.addSeed(f);
        }
        if (solver.hasSeeds()) {
            solver.requestSolve();
        }
    }

    /**
     * Removes a bandwidth-phase flow from its constraints and link accounting; marks its shared
     * constraints dirty. If {@code completing}, the flow's bytes are exactly delivered and any
     * overshoot from rounding the completion time up to a picosecond is taken back from links.
     */
    private void detach(Flow f, boolean completing) {
        long now = sim.now();
        double rate = f.rate;
        settleFlow(f, now);
        if (traffic != null) {
            double overshoot = completing && f.done > f.bytes() ? f.done - f.bytes() : 0.0;
            traffic.leave(f.route, rate, f.multiplicity, overshoot, now);
        }
        f.rate = 0.0;
        Constraint[] cs = f.cons;
        int[] ws = f.weights;
        for (int i = 0; i < cs.length; i++) {
            Constraint c = cs[i];
            c.remove(f.posInCons[i]);
            if (c.size == 0 && links.hasDuplexLimit(c)) {
                refreshDirection(c.hop ^ 1); // one way only now
            }
            if (c.shared) {
                solver.memberLeft(c, f, ws[i]);
            }
        }
        heapRemove(f);
        entry.unregister(f);
        if (solver.hasSeeds()) {
            solver.requestSolve();
        }
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
        if (f.eventHandle >= 0) {
            sim.cancel(f.eventHandle);
            f.eventHandle = -1;
        }
        if (f.phase == Flow.BANDWIDTH) {
            detach(f, false);
        } else {
            heapRemove(f);
            entry.unregister(f);
        }
        f.phase = Flow.CANCELLED;
        activeFlows--;
    }

    /**
     * @return the earliest scheduled completion time of any flow, ps, or {@link Long#MAX_VALUE}
     * if none is scheduled (flows in their latency phase with bytes &gt; 0, and stalled flows, have
     * no completion time yet)
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

    /** @return flows entered without an event and handed to the solver later */
    long handedOver() {
        return entry.handedOver();
    }

    /** @return number of flows started so far */
    public long flowsStarted() {
        return flowsStarted;
    }

    /** Solves now if changes are pending, so that observed rates are current. */
    void flush() {
        solver.flush();
    }

    /** Gives f rate {@code nr} from now: settles its progress and its links', and reschedules its completion. */
    void setRate(Flow f, double nr, long now) {
        settleFlow(f, now);
        double delta = nr - f.rate;
        if (delta != 0 && traffic != null) {
            traffic.changeRate(f.route, delta, f.multiplicity, now);
        }
        f.rate = nr;
        reschedule(f, now);
    }

    private void settleFlow(Flow f, long now) {
        long dt = now - f.lastUpdate;
        if (dt > 0 && f.rate > 0 && f.rate < Double.POSITIVE_INFINITY) {
            f.done += f.rate * dt / PS_PER_S;
        }
        f.lastUpdate = now;
    }

    private void reschedule(Flow f, long now) {
        if (f.eventHandle >= 0) {
            sim.cancel(f.eventHandle);
            f.eventHandle = -1;
        }
        long delay = completionDelayPs(f.bytes() - f.done, f.rate);
        if (delay < 0 || delay > Long.MAX_VALUE - now) {
            // stalled (rate 0), or beyond the end of representable time: no event until rates change
            f.completionTime = Long.MAX_VALUE;
            heapRemove(f);
            return;
        }
        f.completionTime = now + delay;
        f.eventHandle = sim.schedule(delay, f);
        if (f.heapPos < 0) {
            heapInsert(f);
        } else {
            heapFix(f);
        }
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

    private void heapInsert(Flow f) {
        if (completions != null) {
            completions.add(f);
        }
    }

    private void heapRemove(Flow f) {
        if (completions != null) {
            completions.remove(f);
        }
    }

    private void heapFix(Flow f) {
        if (completions != null) {
            completions.fix(f);
        }
    }
}
