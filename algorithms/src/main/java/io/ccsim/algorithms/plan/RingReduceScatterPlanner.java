package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;

/**
 * Ring reduce-scatter, NCCL's runRing in src/device/reduce_scatter.h: per chunk, send(block of
 * ringRanks[n−1]), recvReduceSend(block of ringRanks[n−j]) for j = 2..n−1, recvReduceCopy(own block
 * → output[off]) — n calls, n − 1 transfers. Block b of the input is input[b·count ..].
 */
final class RingReduceScatterPlanner extends AbstractPlanner {
    RingReduceScatterPlanner() { super("ring-reduce_scatter", CollectiveOp.REDUCE_SCATTER, Algorithm.RING); }

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
                    long off = dataOffset + ringRank(ch, rank, n - 1) * count;
                    ringCall(c, Primitive.SEND, rank, ch, off, off, nelem);
                } else if (k < n - 1) {
                    long off = dataOffset + ringRank(ch, rank, n - (k + 1)) * count;
                    ringCall(c, Primitive.RECV_REDUCE_SEND, rank, ch, off, off, nelem);
                } else {
                    ringCall(c, Primitive.RECV_REDUCE_COPY, rank, ch, dataOffset + rank * count, dataOffset, nelem);
                }
            }
        };
    }
}
