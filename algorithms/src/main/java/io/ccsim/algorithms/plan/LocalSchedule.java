package io.ccsim.algorithms.plan;

/**
 * One rank: every collective is a local copy (LOCAL_REDUCE for reducing collectives, which applies
 * the reduction's pre- and post-operators as NCCL's one-rank reduce does), chunk by chunk per
 * channel. No connections.
 */
final class LocalSchedule implements Schedule {
    private final ChannelParts parts;
    private final Primitive prim;

    LocalSchedule(CollectiveCall call, ChannelParts parts) {
        this.parts = parts;
        this.prim = call.isReduction() ? Primitive.LOCAL_REDUCE : Primitive.LOCAL_COPY;
    }

    @Override public int nLanes() { return 1; }

    @Override public int stepCount(int rank, int ch, int lane) { return parts.chunks(ch); }

    @Override
    public void step(int rank, int ch, int lane, int i, StepCursor c) {
        long off = parts.chunkStart(ch, i);
        long cnt = parts.chunkCount(ch, off);
        c.set(prim, off, off, (int) cnt, 0);
    }

    @Override public void connections(ConnectionSink sink) { }

    @Override public long footprintBytes() { return 32 + parts.footprintBytes(); }
}
