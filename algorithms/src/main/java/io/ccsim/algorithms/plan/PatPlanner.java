package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;

/**
 * PAT all-gather or reduce-scatter ({@link PatSchedule}). Refuses what NCCL would not build, with NCCL's reason
 * (NVIDIA/nccl v2.28.9): another protocol than Simple (tuning.cc gives PAT a Simple entry only; generate.py builds
 * no other kernel), more than one rank on a host (init.cc connects PAT only when maxLocalRanks == 1; tuning.cc
 * ncclPatEnable needs nNodes == nRanks), and a reduce-scatter with avg (enqueue.cc updateCollCostTable skips PAT for
 * PreMulSum and SumPostDiv, the two forms of avg).
 */
final class PatPlanner extends AbstractPlanner {
    PatPlanner(CollectiveOp op) { super("pat-" + op.cliName(), op, Algorithm.PAT); }

    @Override
    Schedule build(CollectiveCall call, PlanOptions o, ProtocolGeometry g, ChannelParts parts) {
        if (o.protocol() != Protocol.SIMPLE) {
            throw new UnsupportedAlgorithmException("PAT runs the Simple protocol only, not " + o.protocol().ncclName()
                    + " (NCCL builds PAT kernels for Simple alone)");
        }
        int[][] byHost = call.layout().ranksByHost();
        for (int h = 0; h < byHost.length; h++) {
            if (byHost[h].length > 1) {
                throw new UnsupportedAlgorithmException("PAT needs one rank per node, but host " + h + " has "
                        + byHost[h].length + " ranks (NCCL connects PAT only when maxLocalRanks == 1)");
            }
        }
        if (call.op() == CollectiveOp.REDUCE_SCATTER && call.redop() == ReduceOp.AVG) {
            throw new UnsupportedAlgorithmException("PAT reduce_scatter cannot reduce avg (NCCL skips PAT for"
                    + " PreMulSum and SumPostDiv); sum, prod, max and min are valid");
        }
        return new PatSchedule(call, o, parts);
    }
}
