package io.ccsim.gpu.exec;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.plan.CollectiveCall;
import io.ccsim.algorithms.plan.CommLayout;
import io.ccsim.algorithms.plan.P2pSettings;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.PlanOptions;
import io.ccsim.algorithms.plan.Planners;

/**
 * The plans the device runs time and check: single-host collectives planned by {@link Planners#standard()}
 * with a forced algorithm, protocol and channel count, given by nccl-tests size ({@link #forSize}) or by element
 * count ({@link #forCount}, optionally with {@link #smallBuffer small buffers}). An all-to-all is striped over every
 * channel unless point-to-point settings are given: then each peer's operation gets its own channels, as NCCL places
 * it ({@link io.ccsim.algorithms.plan.PlanOptions#p2p}).
 */
public final class DevicePlans {
    private DevicePlans() { }

    /**
     * Element count per rank for an nccl-tests size: {@code bytes / dtype.bytes()}, divided by the ranks for
     * all-gather, reduce-scatter and all-to-all (whose nccl-tests size is the gathered / scattered / total buffer),
     * as {@link CollectiveCall} counts.
     */
    static long countFor(CollectiveOp op, long bytes, DataType dtype, int nRanks) {
        long elems = bytes / dtype.bytes();
        switch (op) {
            case ALL_GATHER: case REDUCE_SCATTER: case ALL_TO_ALL: return elems / nRanks;
            default: return elems;
        }
    }

    /** The plan ccsim runs for this configuration at nccl-tests size {@code bytes} on {@code nRanks} GPUs of one host. */
    public static Plan forSize(CollectiveOp op, long bytes, DataType dtype, ReduceOp redop, int root, Algorithm algo,
                               Protocol proto, int channels, int nRanks) {
        return forSize(op, bytes, dtype, redop, root, algo, proto, channels, nRanks, null);
    }

    /**
     * As {@link #forSize(CollectiveOp, long, DataType, ReduceOp, int, Algorithm, Protocol, int, int)}, an all-to-all
     * placed with the communicator's point-to-point settings {@code p2p} (null: striped over every channel; other
     * operations ignore it).
     */
    public static Plan forSize(CollectiveOp op, long bytes, DataType dtype, ReduceOp redop, int root, Algorithm algo,
                               Protocol proto, int channels, int nRanks, P2pSettings p2p) {
        long count = countFor(op, bytes, dtype, nRanks);
        CollectiveCall call = new CollectiveCall(op, count, dtype, redop, root, CommLayout.singleHost(nRanks));
        PlanOptions o = PlanOptions.of(algo, proto, channels);
        if (p2p != null && op == CollectiveOp.ALL_TO_ALL) o = o.withP2p(p2p);
        return Planners.standard().plan(call, o);
    }

    /**
     * The plan for {@code count} elements per rank on {@code n} GPUs of one host; {@code smallBuffers} sets the
     * connection buffers to {@link #smallBuffer(Protocol)}.
     */
    public static Plan forCount(CollectiveOp op, long count, DataType dtype, ReduceOp redop, int root, Algorithm algo,
                                Protocol proto, int channels, int n, boolean smallBuffers) {
        CollectiveCall call = new CollectiveCall(op, count, dtype, redop, root, CommLayout.singleHost(n));
        PlanOptions o = PlanOptions.of(algo, proto, channels);
        if (smallBuffers) o = o.withBufferBytes(smallBuffer(proto));
        return Planners.standard().plan(call, o);
    }

    /**
     * Connection buffer bytes, per protocol, small enough that a modest count wraps every connection's
     * {@link Protocol#NCCL_STEPS} slots many times: LL 16 KiB, LL128 30 KiB, Simple 32 KiB.
     */
    public static long smallBuffer(Protocol p) {
        switch (p) {
            case LL: return 16 * 1024;
            case LL128: return 30720;
            default: return 32 * 1024;
        }
    }
}
