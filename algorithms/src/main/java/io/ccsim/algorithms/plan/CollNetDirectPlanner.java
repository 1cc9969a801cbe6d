package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;

/**
 * CollNet Direct over a SHARP network: all-reduce ({@link CollNetDirectSchedule}), all-gather and reduce-scatter
 * ({@link CollNetDirectRailSchedule}). Refuses what NCCL would not build ({@link CollNetSupport#checkPlan}); whether
 * the fabric has SHARP is the executor's and the tuner's question.
 */
final class CollNetDirectPlanner extends AbstractPlanner {
    CollNetDirectPlanner(CollectiveOp op) {
        super("collnet-direct-" + op.cliName(), op, Algorithm.COLLNET_DIRECT);
        if (op != CollectiveOp.ALL_REDUCE && op != CollectiveOp.ALL_GATHER && op != CollectiveOp.REDUCE_SCATTER) {
            throw new IllegalArgumentException("CollNet Direct runs all_reduce, all_gather and reduce_scatter, not " + op.cliName());
        }
    }

    @Override
    Schedule build(CollectiveCall call, PlanOptions o, ProtocolGeometry g, ChannelParts parts) {
        CollNetSupport.checkPlan(algorithm(), call, o);
        if (call.op() == CollectiveOp.ALL_REDUCE) return new CollNetDirectSchedule(call, o, parts);
        return new CollNetDirectRailSchedule(call, o, parts);
    }
}
