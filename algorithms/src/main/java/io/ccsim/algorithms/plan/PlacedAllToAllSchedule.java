package io.ccsim.algorithms.plan;

/**
 * The steps of an all-to-all placed as NCCL places it ({@link AllToAllPlanner}): lane j &lt; W of channel c sends (or,
 * in round 0, copies the own block) the j-th operation of each of c's batches, lane W + j receives it, one step per
 * chunk of the operation's part on c. Every rank has the same rounds on the same lanes and the same parts; only its
 * peers, and whether they are across the network (the chunk), are its own.
 */
final class PlacedAllToAllSchedule implements Schedule {
    private final int n;
    private final long count;
    private final P2pRounds rounds;
    private final int works;
    /** laneRounds[c][j]: the rounds of lane slot j on channel c, in batch order; lo/hi: their parts, elements. */
    private final int[][][] laneRounds;
    private final long[][][] lo;
    private final long[][][] hi;
    /** Chunk elements of the own block's copy, of a peer within the node, of a peer across the network. */
    private final long localChunk;
    private final long peerChunk;
    private final long netChunk;
    private final int slots;
    /** Whether a peer writes into the receiver's registered buffer: the receive is a one-sided step. */
    private final boolean registered;
    /**
     * Where every node is one schedule group, the steps are the same for every rank: sendStart[c][j][i] is the first
     * step of the i-th round of slot j's send lane (i = length: the lane's steps), recvStart its receive lane's; null
     * otherwise (each rank's steps are counted from its peers).
     */
    private final int[][][] sendStart;
    private final int[][][] recvStart;

    PlacedAllToAllSchedule(CollectiveCall call, P2pRounds rounds, int works, int[][][] laneRounds, long[][][] lo,
                           long[][][] hi, long localChunk, long peerChunk, long netChunk, int slots, boolean registered) {
        this.n = call.nRanks();
        this.count = call.count();
        this.rounds = rounds;
        this.works = works;
        this.laneRounds = laneRounds;
        this.lo = lo;
        this.hi = hi;
        this.localChunk = localChunk;
        this.peerChunk = peerChunk;
        this.netChunk = netChunk;
        this.slots = slots;
        this.registered = registered;
        if (rounds.groupsAreNodes()) {
            sendStart = new int[laneRounds.length][works][];
            recvStart = new int[laneRounds.length][works][];
            for (int c = 0; c < laneRounds.length; c++) {
                for (int j = 0; j < works; j++) {
                    int len = laneRounds[c][j].length;
                    sendStart[c][j] = new int[len + 1];
                    recvStart[c][j] = new int[len + 1];
                    for (int i = 0; i < len; i++) {
                        int round = laneRounds[c][j][i];
                        int k = Math.toIntExact(Chunking.divUp(hi[c][j][i] - lo[c][j][i], chunkOf(round, rounds.crossesNodes(round))));
                        sendStart[c][j][i + 1] = Math.addExact(sendStart[c][j][i], k);
                        recvStart[c][j][i + 1] = Math.addExact(recvStart[c][j][i], round == 0 ? 0 : k);
                    }
                }
            }
        } else {
            sendStart = null;
            recvStart = null;
        }
    }

    @Override public int nLanes() { return 2 * works; }

    /** Steps of the rank's lane for the i-th round of its slot: none for the receive of the own block (round 0). */
    private int steps(int rank, int ch, int lane, int i) {
        int j = lane % works;
        int round = laneRounds[ch][j][i];
        boolean send = lane < works;
        if (!send && round == 0) return 0;
        boolean net = send ? rounds.sendAcrossNodes(rank, round) : rounds.recvAcrossNodes(rank, round);
        return Math.toIntExact(Chunking.divUp(hi[ch][j][i] - lo[ch][j][i], chunkOf(round, net)));
    }

    /** Chunk elements of round {@code round}'s operation: the own block's, across the network, or to a node peer. */
    private long chunkOf(int round, boolean net) {
        return round == 0 ? localChunk : net ? netChunk : peerChunk;
    }

    @Override
    public int stepCount(int rank, int ch, int lane) {
        if (sendStart != null) {
            int[] start = (lane < works ? sendStart : recvStart)[ch][lane % works];
            return start[start.length - 1];
        }
        int total = 0;
        for (int i = 0; i < laneRounds[ch][lane % works].length; i++) total = Math.addExact(total, steps(rank, ch, lane, i));
        return total;
    }

    @Override
    public void step(int rank, int ch, int lane, int index, StepCursor c) {
        int j = lane % works;
        int left = index;
        int from = 0;
        if (sendStart != null) { // the round holding step index: the last start at or before it
            int[] start = (lane < works ? sendStart : recvStart)[ch][j];
            int at = java.util.Arrays.binarySearch(start, 0, start.length - 1, index);
            if (at < 0) at = -at - 2;
            while (at + 1 < start.length - 1 && start[at + 1] == index) at++; // skip rounds without steps
            if (at >= 0) {
                from = at;
                left = index - start[at];
            }
        }
        for (int i = from; i < laneRounds[ch][j].length; i++) {
            int k = steps(rank, ch, lane, i);
            if (left >= k) {
                left -= k;
                continue;
            }
            int round = laneRounds[ch][j][i];
            boolean send = lane < works;
            int peer = send ? rounds.sendPeer(rank, round) : rounds.recvPeer(rank, round);
            long chunk = chunkOf(round, rounds.acrossNodes(rank, peer));
            long start = lo[ch][j][i] + left * chunk;
            int cnt = (int) Math.min(chunk, hi[ch][j][i] - start);
            long off = (long) peer * count + start;
            if (round == 0) {
                c.set(Primitive.LOCAL_COPY, off, off, cnt, 0);
            } else if (send) {
                c.set(Primitive.SEND, off, off, cnt, slots);
                c.addSend(peer);
                if (registered) c.markDirect();
            } else {
                c.set(Primitive.RECV, off, off, cnt, slots);
                c.addRecv(peer);
                if (registered) c.markDirect();
            }
            return;
        }
        throw new IndexOutOfBoundsException("step " + index + " of rank " + rank + ", channel " + ch + ", lane " + lane);
    }

    @Override
    public void connections(ConnectionSink sink) {
        for (int ch = 0; ch < laneRounds.length; ch++) {
            for (int j = 0; j < works; j++) {
                for (int i = 0; i < laneRounds[ch][j].length; i++) {
                    int round = laneRounds[ch][j][i];
                    if (round == 0 || hi[ch][j][i] == lo[ch][j][i]) continue;
                    for (int r = 0; r < n; r++) sink.accept(ch, r, rounds.sendPeer(r, round));
                }
            }
        }
    }

    @Override
    public long footprintBytes() {
        long lanes = 64;
        for (int[][] ch : laneRounds) for (int[] l : ch) lanes += 48 + 20L * l.length;
        return 96 + rounds.footprintBytes() + lanes;
    }
}
