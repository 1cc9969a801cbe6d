package io.ccsim.sim.flow;

import io.ccsim.sim.Simulator;
import java.util.Arrays;
import java.util.Objects;

/**
 * The life of a network's flows: start (fresh or from the pool of finished flows), latency phase, bandwidth phase as
 * a member of its constraints at the rate the solver gives it, completion or cancellation; and the accounting that
 * follows each rate change (the flow's bytes, its links' traffic, its completion event).
 *
 * <p>Contract: a flow with bytes = 0 completes right after its latency; one with bytes &gt; 0 enters its bandwidth
 * phase after its latency (at once with latency 0, or without an event, see {@link EventFreeEntry}) and completes at
 * {@code t + FlowNetwork.completionDelayPs(remaining, rate)} after its last rate change at t (ps). Its listener runs
 * through the simulator at that time; a recycled flow goes back to the pool once its listener has returned. The
 * arguments are validated by {@link FlowNetwork}, its only subclass.
 */
abstract class FlowLifecycle {
    /*
     * A flow is its own simulator event (Flow.run): the end of its latency phase, then its completion. Progress is
     * accounted lazily: a flow's bytes (and, when link traffic is tracked, its links') are settled only when its rate
     * changes, as bytes += rate x dt / 1e12, and its completion event is then rescheduled. Joining a constraint may
     * change the capacity of the opposite direction of a duplex-limited link (the first flow one way), as leaving it
     * may (the last one); a flow whose shared constraints all stay slack runs at its own bound without a solve.
     * The pool is LIFO: the most recently finished flow is the likeliest to be cached.
     *
     * Why a superclass of FlowNetwork, not a part it holds, and why it holds the other parts (links, traffic,
     * completions, solver, event-free entry): a flow's start and its event then reach this state, and the network's,
     * without one more dependent load each (Flow.net is the network and the lifecycle at once).
     */
    private static final double PS_PER_S = 1e12;

    final Simulator sim;
    final LinkTable links = new LinkTable();
    /** null when not tracked */
    final LinkTraffic traffic;
    /** null when not tracked */
    final CompletionQueue completions;
    final MaxMinSolver solver;
    final EventFreeEntry entry;

    private long nextFlowId;
    /** finished recycled flows, for reuse */
    private Flow[] pool = new Flow[16];
    private int poolSize;
    /** flows started and neither done nor cancelled */
    int activeFlows;
    /** flows started so far */
    long flowsStarted;

    /**
     * @param sim     the simulator whose clock and event queue the flows use
     * @param options what to track and which optimisations to use
     */
    FlowLifecycle(Simulator sim, FlowNetwork.Options options) {
        this.sim = Objects.requireNonNull(sim, "simulator must not be null");
        Objects.requireNonNull(options, "options must not be null");
        this.completions = options.trackNextCompletion() ? new CompletionQueue() : null;
        this.traffic = options.trackLinkTraffic() ? new LinkTraffic() : null;
        this.solver = new MaxMinSolver(this, sim, new ProgressiveFilling(options.twinFilling(),
                options.uniformFastPath()), options.regionSolve());
        this.entry = new EventFreeEntry(this, sim, links, options.eventFreeEntry() && completions == null
                && traffic == null, options.entryCheckInterval());
    }

    /** @return the simulator's time, ps */
    final long now() {
        return sim.now();
    }

    /** Solves now if changes are pending, so that observed rates are current. */
    final void flush() {
        solver.flush();
    }

    /** @return whether the simulator event with this handle is still queued */
    final boolean eventPending(long handle) {
        return sim.isPending(handle);
    }

    /** Starts a flow the caller holds; {@code cap} in bytes/s, +Infinity for none. */
    final Flow startFlow(FlowNetwork.Path path, long bytes, long latencyPs, double cap, FlowListener onComplete) {
        Flow f = new Flow(this, nextFlowId++, path.route, bytes, cap, onComplete, sim.now(), path.cons, path.weights);
        launch(f, path, latencyPs);
        return f;
    }

    /** Starts a flow from the pool (or a new pooled one) that carries {@code key}; as {@link #startFlow} otherwise. */
    final void startRecycledFlow(FlowNetwork.Path path, long bytes, long latencyPs, double cap, FlowListener onComplete,
                                 int key) {
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

    private void launch(Flow f, FlowNetwork.Path path, long latencyPs) {
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

    /** The flow's single event: end of latency phase, or completion. */
    final void onFlowEvent(Flow f) {
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
    final void join(Flow f) {
        Constraint[] cs = f.cons;
        if (f.posInCons == null || f.posInCons.length < cs.length) {
            // sized here, not at every start: a flow that never joins (entered without an event) never reads it
            f.posInCons = new int[cs.length];
        }
        for (int i = 0; i < cs.length; i++) {
            f.posInCons[i] = cs[i].add(f, i);
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
            f.solved = true;
            f.bottleneckAt(null);
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
        f.bottleneckAt(null); // a member of no constraint now
        heapRemove(f);
        entry.unregister(f);
        if (solver.hasSeeds()) {
            solver.requestSolve();
        }
    }

    /** Cancels f (this network's, neither done nor cancelled): no more bandwidth, no listener call. */
    final void cancelFlow(Flow f) {
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
     * Re-derives the capacity of direction (hop) h of a FULL_DUPLEX link and re-solves its flows: after its duplex
     * efficiency changed, or its opposite direction turned busy or idle.
     */
    final void refreshDirection(int h) {
        Constraint c = links.direction(h);
        c.capacity = links.directionCapacity(h);
        solver.capacityChanged(c);
    }

    /** Gives f rate {@code nr} (bytes/s) from now: settles its progress and its links', reschedules its completion. */
    final void setRate(Flow f, double nr, long now) {
        settleFlow(f, now);
        double delta = nr - f.rate;
        if (delta != 0 && traffic != null) {
            traffic.changeRate(f.route, delta, f.multiplicity, now);
        }
        f.rate = nr;
        reschedule(f, now);
    }

    private static void settleFlow(Flow f, long now) {
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
        long delay = FlowNetwork.completionDelayPs(f.bytes() - f.done, f.rate);
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
