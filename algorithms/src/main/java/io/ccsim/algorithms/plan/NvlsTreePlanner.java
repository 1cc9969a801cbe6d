package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;

/**
 * NVLSTree all-reduce over several nodes of one or more NVLink domains each ({@link NvlsTreeSchedule}). Refuses what
 * NCCL would not build, with NCCL's reason: one node (NCCL turns NVLSTree off there: NVLS is the single-node form),
 * another protocol than Simple, a reduction or type the switch cannot reduce, and hosts of unequal rank counts.
 */
final class NvlsTreePlanner extends AbstractPlanner {
    NvlsTreePlanner() { super("nvlstree-all_reduce", CollectiveOp.ALL_REDUCE, Algorithm.NVLS_TREE); }

    @Override
    Schedule build(CollectiveCall call, PlanOptions o, ProtocolGeometry g, ChannelParts parts) {
        if (o.protocol() != Protocol.SIMPLE) {
            throw new UnsupportedAlgorithmException("NVLSTree runs the Simple protocol only, not " + o.protocol().ncclName()
                    + " (NCCL builds NVLSTree kernels for Simple alone)");
        }
        NvlsSupport.refusal(call.op(), call.dtype(), call.redop()).ifPresent(r -> {
            throw new UnsupportedAlgorithmException(r.replace("NVLS", "NVLSTree"));
        });
        int[][] byHost = call.layout().ranksByHost();
        if (byHost.length < 2) {
            throw new UnsupportedAlgorithmException("NVLSTree needs several nodes (NCCL turns it off on one node; NVLS is the"
                    + " single-node form)");
        }
        for (int[] host : byHost) {
            if (host.length != byHost[0].length || host.length < 2) {
                throw new UnsupportedAlgorithmException("NVLSTree needs the same number (>= 2) of ranks on every node");
            }
        }
        return new NvlsTreeSchedule(call, o, parts);
    }
}
