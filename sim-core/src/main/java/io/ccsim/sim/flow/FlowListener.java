package io.ccsim.sim.flow;

/** Called, through the {@link io.ccsim.sim.Simulator}, at the simulated time a flow completes. */
@FunctionalInterface
public interface FlowListener {
    /** @param flow the flow that has just delivered all its bytes */
    void onComplete(Flow flow);
}
