package io.ccsim.algorithms.ddp;

import java.util.List;

/**
 * One simulated FSDP (ZeRO-3) training step; times in picoseconds.
 *
 * @param iterationPs   forward + backward with every gather and reduce-scatter, to the last stream's end
 * @param computeOnlyPs the same step with communication that takes no time: forward + backward + FSDP's copies
 * @param forwardEndPs  when the last unit's forward ended
 * @param units         every unit, in registration (forward) order
 */
public record FsdpResult(long iterationPs, long computeOnlyPs, long forwardEndPs, List<Unit> units) {
    /**
     * One FSDP unit (a module's parameters, sharded as one flat parameter).
     *
     * @param module        the module's name
     * @param tensors       its parameters
     * @param bytes         its unsharded size, padded to a multiple of the rank count's elements
     * @param forwardGather the all-gather before its forward
     * @param backwardGather the all-gather before its backward (parameters are resharded after forward)
     * @param reduceScatter the reduce-scatter of its gradients
     */
    public record Unit(String module, int tensors, long bytes, CallTiming forwardGather, CallTiming backwardGather,
                       CallTiming reduceScatter) { }

    public FsdpResult {
        units = List.copyOf(units);
    }

    /** The communication on the critical path: the iteration minus the step with free communication, ps. */
    public long exposedCommPs() {
        return iterationPs - computeOnlyPs;
    }

    /** The collectives' own times together, ps. */
    public long commPs() {
        long s = 0;
        for (Unit u : units) s += u.forwardGather().cost().timePs() + u.backwardGather().cost().timePs() + u.reduceScatter().cost().timePs();
        return s;
    }
}
