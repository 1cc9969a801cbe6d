package io.ccsim.algorithms.ddp;

import java.util.List;

/**
 * One simulated DDP training step; times in picoseconds.
 *
 * @param iterationPs   forward + backward + the communication left when backward ends, to the last stream's end
 * @param computeOnlyPs the same step with communication that takes no time: forward + backward + DDP's copies
 * @param forwardPs     the forward pass (the backward pass starts when it ends)
 * @param copyPs        DDP's copies into and out of the buckets, together
 * @param buckets       every bucket's all-reduce, in launch order
 */
public record DdpResult(long iterationPs, long computeOnlyPs, long forwardPs, long copyPs, List<BucketTiming> buckets) {
    public DdpResult {
        buckets = List.copyOf(buckets);
    }

    /** The communication on the critical path: the iteration minus the step with free communication, ps. */
    public long exposedCommPs() {
        return iterationPs - computeOnlyPs;
    }

    /** The all-reduces' own times together, ps. */
    public long commPs() {
        long s = 0;
        for (BucketTiming b : buckets) s += b.cost().timePs();
        return s;
    }
}
