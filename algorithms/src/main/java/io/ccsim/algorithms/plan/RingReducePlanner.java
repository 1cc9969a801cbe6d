package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;

/**
 * Ring reduce, NCCL's runRing in src/device/reduce.h: a pipelined chain to the root along the ring.
 * Per chunk: the root's successor sends, the root recvReduceCopies (with the post-operator), every
 * other rank recvReduceSends. The edge out of the root carries nothing; only the root's output is
 * written.
 */
final class RingReducePlanner extends AbstractPlanner {
    RingReducePlanner() { super("ring-reduce", CollectiveOp.REDUCE, Algorithm.RING); }

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
                Primitive p = rank == root ? Primitive.RECV_REDUCE_COPY
                        : prev(ch, rank) == root ? Primitive.SEND : Primitive.RECV_REDUCE_SEND;
                ringCall(c, p, rank, ch, off, off, nelem);
            }

            @Override boolean usesEdge(int from, int to) { return from != root; }
        };
    }
}
