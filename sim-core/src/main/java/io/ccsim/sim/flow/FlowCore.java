package io.ccsim.sim.flow;

/**
 * The fields of a {@link Flow} that its completion reads and writes when it entered without an event (see
 * {@link FlowNetwork}), kept in a superclass because HotSpot lays a superclass's fields out first: together they span
 * about 90 bytes, where spread over the whole 190-byte flow among the solver's fields they cost the completion event
 * of every flow of a 1,024-GPU ring three or four cache misses instead of one or two. Only {@link Flow} extends it.
 */
abstract class FlowCore {
    final FlowNetwork net;
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
    Flow fastNext;
    Flow fastPrev;
    Object tag;

    FlowCore(FlowNetwork net) {
        this.net = net;
    }
}
