package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;

/**
 * CollNet Chain all-reduce over a SHARP network ({@link CollNetChainSchedule}). Refuses what NCCL would not build
 * ({@link CollNetSupport#checkPlan}); whether the fabric has SHARP is the executor's and the tuner's question.
 */
final class CollNetChainPlanner extends AbstractPlanner {
    CollNetChainPlanner() {
        super("collnet-chain-all_reduce", CollectiveOp.ALL_REDUCE, Algorithm.COLLNET_CHAIN);
    }

    @Override
    Schedule build(CollectiveCall call, PlanOptions o, ProtocolGeometry g, ChannelParts parts) {
        CollNetSupport.checkPlan(algorithm(), call, o);
        return new CollNetChainSchedule(call, o, parts);
    }
}
