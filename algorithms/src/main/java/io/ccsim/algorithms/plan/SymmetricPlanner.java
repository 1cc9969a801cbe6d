package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;

/**
 * One of NCCL's symmetric-memory kernels as a plan ({@link SymmetricSchedule}; the multimem all-reduce reuses
 * {@link NvlsSchedule} with the ranks' scatter and gather as one-sided memory steps). Refuses what NCCL would not
 * run, with NCCL's reason ({@link SymmetricSupport}): another protocol than the kernel's, a type or reduction no
 * kernel implements, a communicator over several hosts.
 */
final class SymmetricPlanner extends AbstractPlanner {
    SymmetricPlanner(Algorithm kernel) {
        super("sym-" + kernel.ncclName(), SymmetricSupport.opOf(kernel), kernel);
    }

    @Override
    Schedule build(CollectiveCall call, PlanOptions o, ProtocolGeometry g, ChannelParts parts) {
        Algorithm k = algorithm();
        if (o.protocol() != SymmetricSupport.protocolOf(k)) {
            throw new UnsupportedAlgorithmException(k.ncclName() + " runs the " + SymmetricSupport.protocolOf(k).ncclName()
                    + " protocol only, not " + o.protocol().ncclName());
        }
        SymmetricSupport.refusal(call.op(), call.dtype(), call.redop()).ifPresent(r -> {
            throw new UnsupportedAlgorithmException(r);
        });
        SymmetricSupport.hostRefusal(call.layout().nHosts()).ifPresent(r -> {
            throw new UnsupportedAlgorithmException(r);
        });
        if (SymmetricSupport.multimem(k)) return new NvlsSchedule(call, o, parts, true);
        return new SymmetricSchedule(call, o, parts);
    }
}
