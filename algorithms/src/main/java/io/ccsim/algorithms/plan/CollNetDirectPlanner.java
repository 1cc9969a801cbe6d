package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;

/**
 * CollNet Direct all-reduce over a SHARP network ({@link CollNetDirectSchedule}). Refuses what NCCL would not build
 * ({@link CollNetSupport#checkPlan}); whether the fabric has SHARP is the executor's and the tuner's question.
 */
final class CollNetDirectPlanner extends AbstractPlanner {
    CollNetDirectPlanner() {
        super("collnet-direct-all_reduce", CollectiveOp.ALL_REDUCE, Algorithm.COLLNET_DIRECT);
    }

    @Override
    Schedule build(CollectiveCall call, PlanOptions o, ProtocolGeometry g, ChannelParts parts) {
        CollNetSupport.checkPlan(algorithm(), call, o);
        return new CollNetDirectSchedule(call, o, parts);
    }
}
