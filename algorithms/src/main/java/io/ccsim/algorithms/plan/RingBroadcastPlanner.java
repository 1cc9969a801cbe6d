package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;

/**
 * Ring broadcast, NCCL's runRing in src/device/broadcast.h: a pipelined chain from the root along
 * the ring. Per chunk: the root copySends (input → output and on), the rank whose successor is the
 * root recvs, every other rank recvCopySends. The edge into the root carries nothing.
 */
final class RingBroadcastPlanner extends AbstractPlanner {
    RingBroadcastPlanner() { super("ring-broadcast", CollectiveOp.BROADCAST, Algorithm.RING); }

    @Override
    Schedule build(CollectiveCall call, PlanOptions o, ProtocolGeometry g, ChannelParts parts) {
        final int root = call.root();
        return new RingSchedule(call, o, g, parts) {
            @Override int callsPerLoop() { return 1; }

            @Override int loops(int ch) { return parts.chunks(ch); }

            @Override
            void call(int rank, int ch, int loop, int k, StepCursor c) {
                long off = parts.chunkStart(ch, loop);
                long nelem = parts.chunkCount(ch, off);
                Primitive p = rank == root ? Primitive.COPY_SEND
                        : next(ch, rank) == root ? Primitive.RECV : Primitive.RECV_COPY_SEND;
                ringCall(c, p, rank, ch, off, off, nelem);
            }

            @Override boolean usesEdge(int from, int to) { return to != root; }
        };
    }
}
