package io.ccsim.algorithms.ddp;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/** Small profiles and fixed collective times whose steps can be worked out by hand. */
final class Fixtures {
    static final long MS = 1_000_000_000L;
    static final long MIB = 1L << 20;

    private Fixtures() {}

    static StepProfile profile(long forwardPs, long backwardPs, Gradient... grads) {
        return new StepProfile(List.of(grads), forwardPs, backwardPs, DataType.FLOAT32, OptionalInt.empty(), List.of());
    }

    /** Collective times by (op, bytes); any other call fails the test. */
    static CollectiveCosts costs(Map<CollectiveOp, Map<Long, Long>> timesPs) {
        return (op, bytes, dtype) -> {
            Long t = timesPs.getOrDefault(op, Map.of()).get(bytes);
            if (t == null) throw new AssertionError("unexpected " + op + " of " + bytes + " B");
            return new CollectiveCost(t, Algorithm.RING, Protocol.SIMPLE, 1);
        };
    }

    /** Options with free copies and no host cost: only the streams and the overlap shape the step. */
    static StepOptions plain(double overlap) {
        return new StepOptions(overlap, 0, Double.POSITIVE_INFINITY, false);
    }
}
