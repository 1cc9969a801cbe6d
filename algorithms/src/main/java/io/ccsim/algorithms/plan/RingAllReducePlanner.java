package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;

/**
 * Ring all-reduce, NCCL's runRing in src/device/all_reduce.h. Per loop of n chunks (loopCount =
 * n × chunkCount elements; the last loop shrinks chunkCount to alignUp(divUp(rem, n), 16 B / elt)),
 * a rank at ring position ix makes 2n − 1 calls, 2(n − 1) of which send:
 * send(chunk ix−1), recvReduceSend(chunk ix−j) for j = 2..n−1, recvReduceCopySend(chunk ix),
 * recvCopySend(chunk ix−j) for j = 1..n−2, recv(chunk ix+1) — chunk indices mod n. Each call is
 * split into slicesPerChunk slices (Simple 4/2 → 2 slices of 2 slots).
 */
final class RingAllReducePlanner extends AbstractPlanner {
    RingAllReducePlanner() { super("ring-all_reduce", CollectiveOp.ALL_REDUCE, Algorithm.RING); }

    @Override
    Schedule build(CollectiveCall call, PlanOptions o, ProtocolGeometry g, ChannelParts parts) {
        return new RingSchedule(call, o, g, parts) {
            @Override boolean positionFree() { return true; }

            @Override int callsPerLoop() { return 2 * n - 1; }

            @Override
            int loops(int ch) {
                return Math.toIntExact(Chunking.divUp(parts.count[ch], n * parts.chunkElems[ch]));
            }

            @Override
            void call(int rank, int ch, int loop, int k, StepCursor c) {
                long chunkCount = parts.chunkElems[ch];
                long loopCount = n * chunkCount;
                long elemOffset = loop * loopCount;
                long rem = parts.count[ch] - elemOffset;
                if (rem < loopCount) chunkCount = Chunking.alignUp(Chunking.divUp(rem, n), eltAlign);
                int ix = index[ch][rank];
                int chunk;
                Primitive p;
                if (k == 0) {
                    chunk = (ix + n - 1) % n;
                    p = Primitive.SEND;
                } else if (k < n - 1) {
                    chunk = (ix + n - (k + 1)) % n;
                    p = Primitive.RECV_REDUCE_SEND;
                } else if (k == n - 1) {
                    chunk = ix;
                    p = Primitive.RECV_REDUCE_COPY_SEND;
                } else if (k < 2 * n - 2) {
                    chunk = (ix + n - (k - n + 1)) % n;
                    p = Primitive.RECV_COPY_SEND;
                } else {
                    chunk = (ix + 1) % n;
                    p = Primitive.RECV;
                }
                long off = parts.offset[ch] + elemOffset + chunk * chunkCount;
                long nelem = Math.min(chunkCount, rem - chunk * chunkCount);
                ringCall(c, p, rank, ch, off, off, nelem);
            }
        };
    }
}
