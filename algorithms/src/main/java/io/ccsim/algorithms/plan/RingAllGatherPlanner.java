package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;

/**
 * Ring all-gather, NCCL's runRing in src/device/all_gather.h: per chunk of the rank's count,
 * copySend(own block into output[me·count + off] and on), recvCopySend of the blocks of
 * ringRanks[n−j] for j = 1..n−2, recv of ringRanks[1]'s block — n calls, n − 1 transfers.
 */
final class RingAllGatherPlanner extends AbstractPlanner {
    RingAllGatherPlanner() { super("ring-all_gather", CollectiveOp.ALL_GATHER, Algorithm.RING); }

    @Override
    Schedule build(CollectiveCall call, PlanOptions o, ProtocolGeometry g, ChannelParts parts) {
        final long count = call.count();
        return new RingSchedule(call, o, g, parts) {
            @Override boolean positionFree() { return true; }

            @Override int callsPerLoop() { return n; }

            @Override int loops(int ch) { return parts.chunks(ch); }

            @Override
            void call(int rank, int ch, int loop, int k, StepCursor c) {
                long dataOffset = parts.chunkStart(ch, loop);
                long nelem = parts.chunkCount(ch, dataOffset);
                if (k == 0) {
                    ringCall(c, Primitive.COPY_SEND, rank, ch, dataOffset, dataOffset + rank * count, nelem);
                } else if (k < n - 1) {
                    int dest = ringRank(ch, rank, n - k);
                    long off = dataOffset + dest * count;
                    ringCall(c, Primitive.RECV_COPY_SEND, rank, ch, off, off, nelem);
                } else {
                    int dest = ringRank(ch, rank, 1);
                    long off = dataOffset + dest * count;
                    ringCall(c, Primitive.RECV, rank, ch, off, off, nelem);
                }
            }
        };
    }
}
