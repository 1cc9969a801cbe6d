package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;

/**
 * NVLS all-reduce, all-gather or reduce-scatter inside one NVLink domain ({@link NvlsSchedule}). Refuses what NCCL
 * would not build, with NCCL's reason: another protocol than Simple (NVLS kernels exist for Simple only,
 * src/device/generate.py), a reduction or type the switch cannot reduce ({@link NvlsSupport}), and a communicator
 * over several hosts (NCCL runs NVLS across nodes only with CollNet, IB SHARP, which ccsim implements as the
 * CollNet algorithms but not inside NVLS; the multi-node form without it is NVLSTree).
 */
final class NvlsPlanner extends AbstractPlanner {
    NvlsPlanner(CollectiveOp op) { super("nvls-" + op.cliName(), op, Algorithm.NVLS); }

    @Override
    Schedule build(CollectiveCall call, PlanOptions o, ProtocolGeometry g, ChannelParts parts) {
        if (o.protocol() != Protocol.SIMPLE) {
            throw new UnsupportedAlgorithmException("NVLS runs the Simple protocol only, not " + o.protocol().ncclName()
                    + " (NCCL builds NVLS kernels for Simple alone)");
        }
        NvlsSupport.refusal(call.op(), call.dtype(), call.redop()).ifPresent(r -> {
            throw new UnsupportedAlgorithmException(r);
        });
        if (call.layout().nHosts() > 1) {
            throw new UnsupportedAlgorithmException("NVLS across " + call.layout().nHosts() + " hosts runs with IB SHARP"
                    + " through CollNet, which ccsim does not implement for NVLS; NCCL's multi-node NVLS without it is NVLSTree");
        }
        if (call.op() != CollectiveOp.ALL_REDUCE && call.nRanks() > io.ccsim.algorithms.profile.NcclNvlsConstants.MAX_HEADS) {
            throw new UnsupportedAlgorithmException("NVLS " + call.op().cliName() + " needs at most "
                    + io.ccsim.algorithms.profile.NcclNvlsConstants.MAX_HEADS + " ranks per NVLink domain"
                    + " (NCCL_MAX_NVLS_ARITY), got " + call.nRanks());
        }
        return new NvlsSchedule(call, o, parts);
    }
}
