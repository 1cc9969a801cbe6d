package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;

/**
 * All-to-all as grouped send/recv (nccl-tests alltoall: ncclGroupStart, one ncclSend and ncclRecv
 * per peer, ncclGroupEnd). Rank r's block for peer p is input[p·count ..], and the block from
 * peer p lands in output[p·count ..]. NCCL schedules the grouped p2p operations in rounds by
 * rank distance (src/init.cc computes comm->p2pSchedule: in round d a rank sends to (r + d) and
 * receives from (r − d), mod n; NCCL additionally orders the deltas by node for multi-node
 * communicators — ccsim uses the plain distance order). The own block is a local copy
 * (round 0). Lane 0 sends (LOCAL_COPY for d = 0, then SEND to (r+d) for d = 1..n−1), lane 1
 * receives (RECV from (r−d) for d = 1..n−1); each block is cut into the channel's part and
 * slot-sized chunks as in {@link SendRecvPlanner}.
 */
public final class AllToAllPlanner extends AbstractPlanner {
    public AllToAllPlanner() { super("p2p-all_to_all", CollectiveOp.ALL_TO_ALL, Algorithm.P2P); }

    @Override
    Schedule build(CollectiveCall call, PlanOptions o, ProtocolGeometry g, ChannelParts parts) {
        final int n = call.nRanks();
        final long count = call.count();
        final int nChannels = o.nChannels();
        final int slots = g.sliceSteps();
        return new Schedule() {
            @Override public int nLanes() { return 2; }

            @Override
            public int stepCount(int rank, int ch, int lane) {
                return Math.multiplyExact(lane == 0 ? n : n - 1, parts.chunks(ch));
            }

            @Override
            public void step(int rank, int ch, int lane, int i, StepCursor c) {
                int k = parts.chunks(ch);
                int d = i / k + (lane == 0 ? 0 : 1);
                int j = i % k;
                long inPart = parts.offset[ch] + j * parts.chunkElems[ch];
                int cnt = (int) Math.min(parts.chunkElems[ch], parts.offset[ch] + parts.count[ch] - inPart);
                if (lane == 0) {
                    int peer = (rank + d) % n;
                    long off = peer * count + inPart;
                    if (d == 0) {
                        c.set(Primitive.LOCAL_COPY, off, off, cnt, 0);
                    } else {
                        c.set(Primitive.SEND, off, off, cnt, slots);
                        c.addSend(peer);
                    }
                } else {
                    int from = (rank - d + n) % n;
                    long off = from * count + inPart;
                    c.set(Primitive.RECV, off, off, cnt, slots);
                    c.addRecv(from);
                }
            }

            @Override
            public void connections(ConnectionSink sink) {
                for (int ch = 0; ch < nChannels; ch++) {
                    if (parts.count[ch] == 0) continue;
                    for (int r = 0; r < n; r++)
                        for (int d = 1; d < n; d++) sink.accept(ch, r, (r + d) % n);
                }
            }

            @Override public long footprintBytes() { return 64 + parts.footprintBytes(); }
        };
    }
}
