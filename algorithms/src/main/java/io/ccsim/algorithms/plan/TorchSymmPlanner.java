package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;

/**
 * One of PyTorch's symmetric-memory all-reduces as a plan ({@link TorchSymmSchedule}). Refuses what PyTorch would
 * not run, with PyTorch's reason ({@link TorchSymmMem}): a type or reduction it does not dispatch, a size not
 * aligned to 4 B (or the element), a communicator over several hosts; the plan runs the Simple protocol only
 * (plain loads and stores, costed as the ring family's Simple steps).
 */
final class TorchSymmPlanner extends AbstractPlanner {
    TorchSymmPlanner(Algorithm algorithm) {
        super(algorithm.ncclName(), CollectiveOp.ALL_REDUCE, algorithm);
    }

    @Override
    Schedule build(CollectiveCall call, PlanOptions o, ProtocolGeometry g, ChannelParts parts) {
        Algorithm a = algorithm();
        if (o.protocol() != Protocol.SIMPLE) {
            throw new UnsupportedAlgorithmException(a.ncclName() + " runs the Simple protocol only (plain loads and stores), not "
                    + o.protocol().ncclName());
        }
        TorchSymmMem.refusal(a, call.op(), call.dtype(), call.redop()).ifPresent(r -> {
            throw new UnsupportedAlgorithmException(r);
        });
        TorchSymmMem.alignmentRefusal(a, call.count(), call.dtype()).ifPresent(r -> {
            throw new UnsupportedAlgorithmException(r);
        });
        TorchSymmMem.hostRefusal(call.layout().nHosts()).ifPresent(r -> {
            throw new UnsupportedAlgorithmException(r);
        });
        if (a == Algorithm.TORCH_ONE_SHOT) return new TorchSymmSchedule(call, o, parts, 0);
        long slice = TorchSymmMem.sliceElems(call.count(), call.dtype(), call.nRanks());
        CollectiveCall sliceCall = new CollectiveCall(call.op(), slice, call.dtype(), call.redop(), 0, call.layout());
        return new TorchSymmSchedule(call, o, new ChannelParts(sliceCall, g, a, o.nChannels(), call.dtype().bytes()), slice);
    }
}
