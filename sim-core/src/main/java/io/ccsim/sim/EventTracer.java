package io.ccsim.sim;

/**
 * Observer of every event dispatched by a {@link Simulator}, for traces and determinism checks.
 */
@FunctionalInterface
public interface EventTracer {
    /**
     * Called just before an event's action runs.
     *
     * @param timePs simulated time of the event, picoseconds
     * @param seq    insertion sequence number of the event (unique per simulator, increasing in
     *               scheduling order)
     */
    void onDispatch(long timePs, long seq);
}
