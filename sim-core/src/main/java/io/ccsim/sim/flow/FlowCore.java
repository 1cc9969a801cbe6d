package io.ccsim.sim.flow;

/**
 * The fields of a {@link Flow} that its completion reads and writes when it entered without an event
 * (EventFreeEntry). Only {@link Flow} extends it.
 */
abstract class FlowCore {
    /*
     * Why a superclass: HotSpot lays a superclass's fields out first, so these stay together in one or two cache
     * lines instead of being spread among the solver's fields over the whole flow object.
     */
    /** the network that owns it (its lifecycle: the network's superclass) */
    final FlowLifecycle net;
    long bytes;
    long eventHandle = -1;
    /** the most rate it can get (registered flows), bytes/s: its registered usage on constraint i is {@code weights[i]} times it */
    double regRate;
    /** bytes delivered as of {@link Flow#lastUpdate} */
    double done;
    long endTime = -1;
    /** the caller's int attachment of a recycled start ({@link FlowNetwork#startRecycled(FlowNetwork.Path, long, long, double, FlowListener, int)}) */
    int key;
    int phase;
    /** whether the flow holds registrations in its shared constraints (event-free bandwidth entry on) */
    boolean registered;
    /** started by {@link FlowNetwork#startRecycled}: back to the network's pool once its listener returned */
    boolean pooled;
    FlowListener listener;
    /** multiplicity of each of {@link Flow#cons} on the route */
    int[] weights;
    /** its path while {@link #registered} (a flow entered without an event is listed there: fastNext, fastPrev) */
    FlowNetwork.Path path;
    /** per entry of its path's regIds: its window's slot there ({@link UsageWindows#add}) while {@link #registered} */
    int[] regSlots;
    Flow fastNext;
    Flow fastPrev;
    Object tag;

    FlowCore(FlowLifecycle net) {
        this.net = net;
    }
}
