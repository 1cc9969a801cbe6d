package io.ccsim.algorithms.plan;

/**
 * ccsim's own kernels' all-to-all (the plan gpu-backend's CudaExecutor runs, measured in experiments/h200x4-fidelity):
 * every channel carries its part of every peer's block. In the round with delta d a rank sends to (r + d) mod n and
 * receives from (r − d) mod n, the deltas in NCCL's quadratic order over ranks ({@link P2pRounds#quadraticDeltas});
 * lane 0 sends (one SEND per chunk of each round d ≥ 1), lane 1 receives, and lane 2 copies the own block
 * (LOCAL_COPY), so that the copy does not delay the first send (with it at the head of the send lane, all-to-all on
 * 2 × H200 came out 13.5 % slower than NCCL 2.28.9). n (n − 1) connections per channel. NCCL's own placement (each
 * peer's operation on its own channels, {@link AllToAllPlanner}) is what a plan with {@link PlanOptions#p2p()} gets.
 */
final class StripedAllToAllSchedule implements Schedule {
    private final int n;
    private final long count;
    private final int nChannels;
    private final int slots;
    private final int[] deltas;
    private final ChannelParts parts;

    StripedAllToAllSchedule(CollectiveCall call, PlanOptions o, ProtocolGeometry g, ChannelParts parts) {
        this.n = call.nRanks();
        this.count = call.count();
        this.nChannels = o.nChannels();
        this.slots = g.sliceSteps();
        this.deltas = P2pRounds.quadraticDeltas(n);
        this.parts = parts;
    }

    @Override public int nLanes() { return 3; }

    @Override
    public int stepCount(int rank, int ch, int lane) {
        return Math.multiplyExact(lane == 2 ? 1 : n - 1, parts.chunks(ch));
    }

    @Override
    public void step(int rank, int ch, int lane, int i, StepCursor c) {
        int k = parts.chunks(ch);
        int j = i % k;
        long inPart = parts.chunkStart(ch, j);
        int cnt = (int) parts.chunkCount(ch, inPart);
        if (lane == 2) {
            long off = rank * count + inPart;
            c.set(Primitive.LOCAL_COPY, off, off, cnt, 0);
            return;
        }
        int d = deltas[i / k + 1];
        if (lane == 0) {
            int peer = (rank + d) % n;
            long off = peer * count + inPart;
            c.set(Primitive.SEND, off, off, cnt, slots);
            c.addSend(peer);
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

    @Override public long footprintBytes() { return 64 + 16 + 4L * n + parts.footprintBytes(); }
}
