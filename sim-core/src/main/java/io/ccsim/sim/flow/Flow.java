package io.ccsim.sim.flow;

/**
 * A transfer of {@link #bytes()} bytes over a route of a {@link FlowNetwork}: a latency phase
 * (no bandwidth used), then a bandwidth phase at the max-min fair rate, then done. Created by
 * {@link FlowNetwork#start}. Identity-based; belongs to one network.
 *
 * <p>A flow is its own event in the simulator's queue ({@link #run()}): the end of its latency phase, then its
 * completion (only its completion when it enters its bandwidth phase without an event).
 */
public final class Flow extends FlowCore implements Runnable {
    static final int LATENCY = 0;
    static final int BANDWIDTH = 1;
    static final int DONE = 2;
    static final int CANCELLED = 3;
    /**
     * Entered without an event (EventFreeEntry): latency phase until
     * {@link #lastUpdate} (its t1, when it starts to deliver), then bandwidth phase at {@link #rate}, its only event its
     * completion at {@link #completionTime}.
     */
    static final int FAST = 4;

    private long id;
    int[] route;
    /** bytes/s; +Inf when none */
    double rateCap;
    /** the flow's own rate bound in its bandwidth phase: its cap and its non-shared constraints' capacities */
    double bound;
    /** {@link #bound} as counted in shared constraints' {@link Constraint#boundSum}: whole bytes/s, rounded up; -1 unbounded */
    long boundUnits;
    private long startTime;

    /** distinct constraints of the route (their multiplicity: {@link #weights}) */
    Constraint[] cons;
    /** identical flows this one stands for (FlowNetwork.start with a multiplicity) */
    int multiplicity = 1;
    /** its position in each of {@link #cons} while it is a member (sized when it first joins them; kept on reuse) */
    int[] posInCons;

    /** bytes/s */
    double rate;
    long lastUpdate;
    long completionTime = Long.MAX_VALUE;
    int heapPos = -1;

    // solver scratch
    int epoch;
    boolean frozen;
    double newRate;
    /**
     * As of the last solve that gave this flow its rate: the shared constraint it froze at (its bottleneck), or null
     * if it froze at its own bound; meaningful only while {@link #solved}. Set through {@link #bottleneckAt}; null
     * while the flow is a member of no constraint.
     */
    Constraint bottleneck;
    /** whether the flow's rate comes from a solve (or its own bound) since it last joined its constraints */
    boolean solved;
    /** RegionSolver's stamp of the piece it was filled in */
    int piece;

    Flow(FlowLifecycle net, long id, int[] route, long bytes, double rateCap, FlowListener listener,
         long startTime, Constraint[] cons, int[] weights) {
        super(net);
        reuse(id, route, bytes, rateCap, listener, startTime, cons, weights);
    }

    /**
     * Sets the flow up for a start: from the constructor, and again when a finished pooled flow is reused (its
     * position array is kept, and resized only if it joins constraints: the start reads nothing of the flow, so that
     * reusing a flow last touched long ago costs no miss beyond its own lines).
     */
    void reuse(long id, int[] route, long bytes, double rateCap, FlowListener listener, long startTime,
               Constraint[] cons, int[] weights) {
        this.id = id;
        this.route = route;
        this.bytes = bytes;
        this.rateCap = rateCap;
        this.listener = listener;
        this.startTime = startTime;
        this.cons = cons;
        this.weights = weights;
        registered = false;
        this.lastUpdate = startTime;
        bound = 0;
        boundUnits = 0;
        multiplicity = 1;
        phase = LATENCY;
        rate = 0;
        done = 0;
        endTime = -1;
        eventHandle = -1;
        completionTime = Long.MAX_VALUE;
        heapPos = -1;
        epoch = 0;
        frozen = false;
        newRate = 0;
        bottleneck = null;
        solved = false;
        piece = 0;
        tag = null;
        key = 0;
    }

    /**
     * Sets {@link #bottleneck} (null: none), keeping {@link Constraint#bottlenecked} of the old and the new one. Called
     * while the flow is a member of its constraints (its bandwidth phase), and with null as it leaves them.
     */
    void bottleneckAt(Constraint c) {
        Constraint old = bottleneck;
        if (old != c) {
            if (old != null) old.bottlenecked--;
            if (c != null) c.bottlenecked++;
            bottleneck = c;
        }
    }

    /** @return how many identical flows this flow stands for (1 unless started with a multiplicity) */
    public int multiplicity() {
        return multiplicity;
    }

    /** @return id, unique within its network, in start order from 0 */
    public long id() {
        return id;
    }

    /** @return total size, bytes */
    public long bytes() {
        return bytes;
    }

    /**
     * @return current rate in bytes/s: 0 in the latency phase, when stalled, done or cancelled;
     * +Infinity for an uncapped flow with an empty route
     */
    public double rate() {
        net.flush();
        return phase == BANDWIDTH || (phase == FAST && net.now() >= lastUpdate) ? rate : 0.0;
    }

    /** @return bytes delivered as of the simulator's current time, in [0, bytes] */
    public double bytesDone() {
        if (phase == DONE) {
            return bytes;
        }
        if (phase == FAST) {
            long dt = net.now() - lastUpdate;
            return dt <= 0 || rate == 0.0 ? 0.0 : Double.isInfinite(rate) ? bytes : Math.min(bytes, rate * dt / 1e12);
        }
        if (phase != BANDWIDTH) {
            return done;
        }
        long dt = net.now() - lastUpdate;
        if (dt == 0 || rate == 0.0 || Double.isInfinite(rate)) {
            return done;
        }
        return Math.min(bytes, done + rate * dt / 1e12);
    }

    /** @return simulated time start() was called, ps */
    public long startTime() {
        return startTime;
    }

    /** @return simulated completion time in ps, or -1 until done */
    public long endTime() {
        return endTime;
    }

    /** @return true once all bytes are delivered (and the listener called) */
    public boolean isDone() {
        return phase == DONE;
    }

    /** @return true if the flow was cancelled before completing */
    public boolean isCancelled() {
        return phase == CANCELLED;
    }

    /** @return the route, as hops {@link FlowNetwork#hop(int, boolean)} (a copy) */
    public int[] route() {
        return route.clone();
    }

    /** @return the int the flow was started with by {@code startRecycled(..., key)} (0 otherwise) */
    public int key() {
        return key;
    }

    void setKey(int k) {
        this.key = k;
    }

    /**
     * The flow's event, run by the simulator when it is due (the end of the latency phase, or the completion);
     * only the simulator may run it.
     *
     * @throws IllegalStateException if the flow has no event due now (called from elsewhere)
     */
    @Override
    public void run() {
        if (eventHandle < 0 || net.eventPending(eventHandle)) {
            throw new IllegalStateException("Flow.run() is the flow's simulator event; " + this + " has none due now");
        }
        net.onFlowEvent(this);
    }

    /** @return the caller's attachment, may be null */
    public Object tag() {
        return tag;
    }

    /** Attaches caller context (may be null). */
    public void setTag(Object t) {
        this.tag = t;
    }

    @Override
    public String toString() {
        return "Flow#" + id + "[" + bytes + " B, phase=" + phase + ", rate=" + rate + " B/s]";
    }
}
