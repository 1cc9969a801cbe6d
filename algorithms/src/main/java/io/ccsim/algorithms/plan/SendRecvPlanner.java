package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;

/**
 * Point-to-point send/recv in nccl-tests' sendrecv pattern: rank r sends its count elements to
 * (r+1) mod n and receives as many from (r−1) mod n. As in NCCL's p2p kernel (src/device/sendrecv.h),
 * sending and receiving run side by side: lane 0 sends, lane 1 receives, chunk by chunk, one slot
 * per chunk (chunkSteps = sliceSteps = 1; chunk = one slot's payload, src/enqueue.cc addP2pToPlan
 * uses stepSize = buffSize / NCCL_STEPS). Each channel carries its part of the count.
 *
 * <p>With registered buffers ({@link P2pSettings#registered()}, Simple, one node) a channel's part is one step of at
 * most {@link P2pSettings#REGISTERED_STEP_BYTES}, written by the sender into the receiver's buffer ({@link StepCursor#direct()}):
 * the receive is a one-sided step ({@link StepCursor#memory()}) that costs the receiver's SMs nothing.
 */
final class SendRecvPlanner extends AbstractPlanner {
    SendRecvPlanner() { super("p2p-sendrecv", CollectiveOp.SEND_RECV, Algorithm.P2P); }

    @Override
    Schedule build(CollectiveCall call, PlanOptions o, ProtocolGeometry g, ChannelParts parts) {
        final int n = call.nRanks();
        final int nChannels = o.nChannels();
        final int slots = g.sliceSteps();
        final boolean registered = o.registeredP2p(call.layout().nHosts(), n);
        final long regChunk = Math.max(1, P2pSettings.REGISTERED_STEP_BYTES / call.dtype().bytes());
        return new Schedule() {
            @Override public int nLanes() { return 2; }

            @Override
            public int stepCount(int rank, int ch, int lane) {
                return registered ? Math.toIntExact(Chunking.divUp(parts.count[ch], regChunk)) : parts.chunks(ch);
            }

            @Override
            public void step(int rank, int ch, int lane, int i, StepCursor c) {
                long off = registered ? parts.offset[ch] + i * regChunk : parts.chunkStart(ch, i);
                int cnt = (int) (registered ? Math.min(regChunk, parts.offset[ch] + parts.count[ch] - off) : parts.chunkCount(ch, off));
                if (lane == 0) {
                    c.set(Primitive.SEND, off, off, cnt, slots);
                    c.addSend((rank + 1) % n);
                    if (registered) c.markDirect();
                } else {
                    c.set(Primitive.RECV, off, off, cnt, slots);
                    c.addRecv((rank + n - 1) % n);
                    if (registered) c.markDirect();
                }
            }

            @Override
            public void connections(ConnectionSink sink) {
                for (int ch = 0; ch < nChannels; ch++) {
                    if (parts.count[ch] == 0) continue;
                    for (int r = 0; r < n; r++) sink.accept(ch, r, (r + 1) % n);
                }
            }

            @Override public long footprintBytes() { return 64 + parts.footprintBytes(); }
        };
    }
}
