package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;

/**
 * One of NCCL's symmetric-memory kernels as a plan: the LL kernels as {@link SymmetricLlSchedule}, the load and store
 * kernels as {@link SymmetricSchedule}; the multimem all-reduce reuses {@link NvlsSchedule} with the ranks' scatter
 * and gather as one-sided memory steps and every rank an owner, as do AllGather_STMC and ReduceScatter_LDMC with the
 * NVLS all-gather and reduce-scatter. Every kernel plans any rank count: NCCL 2.28.9 puts no limit on the ranks of
 * a symmetric kernel (sym_kernels.cc ncclSymkMask asks only for nvlsSupport for the multimem ones; NVLS's
 * NCCL_MAX_NVLS_ARITY = 32 limits the NVLS algorithm's all-gather and reduce-scatter, enqueue.cc
 * updateCollCostTable, and the multimem kernels use one multicast object over all ranks instead, dev_runtime.cc
 * symTeamObtain). Refuses what NCCL would not run, with NCCL's reason ({@link SymmetricSupport}): another protocol
 * than the kernel's, a type or reduction no kernel implements, a multimem load-reduce of a type the switch cannot
 * reduce, a communicator over several hosts.
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
        SymmetricSupport.multimemRefusal(k, call.dtype(), call.redop()).ifPresent(r -> {
            throw new UnsupportedAlgorithmException(r);
        });
        if (SymmetricSupport.ll(k)) return new SymmetricLlSchedule(call, o, parts);
        if (!SymmetricSupport.multimem(k)) return new SymmetricSchedule(call, o, parts);
        return new NvlsSchedule(call, o, parts, true);
    }
}
