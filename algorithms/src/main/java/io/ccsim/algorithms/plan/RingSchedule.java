package io.ccsim.algorithms.plan;

/**
 * Base of the ring algorithms: one ring per channel, each rank receives from its predecessor and
 * sends to its successor. A rank's step list is a sequence of loops; each loop is a fixed number of
 * primitive calls (NCCL's runRing in src/device/*.h), and each call is exactly
 * {@code slicesPerChunk} slices (prims_simple.h posts every slice of a chunk, empty ones included,
 * so that both ends of a connection count the same steps). Steps are generated on demand from
 * (loop, call, slice) = divmod(step index).
 */
abstract class RingSchedule implements Schedule {
    final CollectiveCall call;
    final ProtocolGeometry geo;
    final ChannelParts parts;
    final int n;
    final int nChannels;
    final int[][] order;  // per channel (shared array when default)
    final int[][] index;  // per channel: position of each rank in the ring
    final int slices;
    final long sliceMaxElems;
    final int eltAlign;

    RingSchedule(CollectiveCall call, PlanOptions o, ProtocolGeometry geo, ChannelParts parts) {
        this.call = call;
        this.geo = geo;
        this.parts = parts;
        this.n = call.nRanks();
        this.nChannels = o.nChannels();
        this.order = new int[nChannels][];
        this.index = new int[nChannels][];
        int[] def = null;
        int[] defIdx = null;
        for (int c = 0; c < nChannels; c++) {
            int[] ord = o.ringOrder(c);
            if (ord == null) {
                if (def == null) {
                    def = call.layout().defaultRingOrder();
                    defIdx = inverse(def, -1);
                }
                order[c] = def;
                index[c] = defIdx;
            } else {
                order[c] = ord;
                index[c] = inverse(ord, c);
            }
        }
        this.slices = geo.slicesPerChunk();
        int elt = call.dtype().bytes();
        this.sliceMaxElems = Math.max(1, geo.sliceCapacityBytes() / elt);
        this.eltAlign = Math.max(1, 16 / elt);
    }

    private int[] inverse(int[] ord, int channel) {
        if (ord.length != n) {
            throw new IllegalArgumentException("ring order of channel " + channel + " has " + ord.length
                    + " ranks; it must be a permutation of 0.." + (n - 1));
        }
        int[] inv = new int[n];
        java.util.Arrays.fill(inv, -1);
        for (int i = 0; i < n; i++) {
            int r = ord[i];
            if (r < 0 || r >= n || inv[r] != -1) {
                throw new IllegalArgumentException("ring order of channel " + channel + " is not a permutation of 0.."
                        + (n - 1) + ": rank " + r + " at position " + i + (r >= 0 && r < n ? " repeats" : " out of range"));
            }
            inv[r] = i;
        }
        return inv;
    }

    int prev(int ch, int rank) { return order[ch][(index[ch][rank] + n - 1) % n]; }

    int next(int ch, int rank) { return order[ch][(index[ch][rank] + 1) % n]; }

    /** The rank i positions after {@code rank} on channel ch's ring (NCCL's ring->userRanks[i]). */
    int ringRank(int ch, int rank, int i) { return order[ch][(index[ch][rank] + i) % n]; }

    @Override public int nLanes() { return 1; }

    /** Loops on channel ch. */
    abstract int loops(int ch);

    /** Primitive calls per loop. */
    abstract int callsPerLoop();

    /**
     * Fills {@code c} for call {@code k} of loop {@code loop} of {@code rank} on {@code ch}: primitive,
     * whole-call offsets and element count (≤ 0 means an empty call), slots = sliceSteps, and peers.
     */
    abstract void call(int rank, int ch, int loop, int k, StepCursor c);

    /**
     * Whether a rank's primitive at each call, and which of its two peers it meets first, do not depend on its ring
     * position (all-reduce, all-gather, reduce-scatter: yes; broadcast and reduce depend on the root's position).
     */
    boolean positionFree() { return false; }

    /** per channel: 1 if every call of a loop has the same count, 0 if not, −1 not yet known (benign race: idempotent) */
    private byte[] uniform;

    /*
     * Equal keys need equal sequences. In a position-free ring schedule a rank's call k of loop l has the primitive of k
     * and the count of the chunk it handles; when every call of every loop has one count (checked on one rank, whose
     * calls visit every chunk of the loop), every rank's sequence is the same.
     */
    @Override
    public long sequenceKey(int rank, int ch, int lane) {
        if (lane != 0 || !positionFree()) return Plan.NO_KEY;
        byte[] u = uniform;
        if (u == null) {
            u = new byte[nChannels];
            java.util.Arrays.fill(u, (byte) -1);
            uniform = u;
        }
        if (u[ch] < 0) u[ch] = (byte) (uniformCounts(ch) ? 1 : 0);
        return u[ch] == 1 ? ch : Plan.NO_KEY;
    }

    private boolean uniformCounts(int ch) {
        StepCursor c = new StepCursor();
        int rank = order[ch][0];
        for (int loop = 0; loop < loops(ch); loop++) {
            long first = 0;
            for (int k = 0; k < callsPerLoop(); k++) {
                call(rank, ch, loop, k, c);
                long nelem = Math.max(0, c.count);
                if (k == 0) first = nelem;
                else if (nelem != first) return false;
            }
        }
        return true;
    }

    @Override
    public int stepCount(int rank, int ch, int lane) {
        return lane == 0 ? loops(ch) * callsPerLoop() * slices : 0;
    }

    @Override
    public void step(int rank, int ch, int lane, int i, StepCursor c) {
        int perLoop = callsPerLoop() * slices;
        int loop = i / perLoop;
        int rem = i - loop * perLoop;
        int k = rem / slices;
        int s = rem - k * slices;
        call(rank, ch, loop, k, c);
        long nelem = Math.max(0, c.count);
        if (slices > 1) {
            // prims_simple.h: sliceSize = max(divUp(nelem, 16*SlicePerChunk)*16, stepSize*StepPerSlice/32),
            // capped at the slice capacity (only matters for test-sized buffers).
            long sliceSize = Math.max(Chunking.divUp(nelem, 16L * slices) * 16, sliceMaxElems / 32);
            sliceSize = Math.min(sliceSize, sliceMaxElems);
            long off = s * sliceSize;
            long cnt = Math.max(0, Math.min(sliceSize, nelem - off));
            c.srcOffset += Math.min(off, nelem);
            c.dstOffset += Math.min(off, nelem);
            c.count = (int) cnt;
        } else {
            c.count = (int) nelem;
        }
    }

    /** Helper: set a call with the ring's single recv/send peers. */
    void ringCall(StepCursor c, Primitive p, int rank, int ch, long src, long dst, long nelem) {
        c.set(p, src, dst, (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, nelem)), geo.sliceSteps());
        if (p.receives()) c.addRecv(prev(ch, rank));
        if (p.sends()) c.addSend(next(ch, rank));
    }

    @Override
    public void connections(ConnectionSink sink) {
        for (int ch = 0; ch < nChannels; ch++) {
            if (parts.count[ch] == 0) continue;
            for (int i = 0; i < n; i++) {
                int from = order[ch][i];
                int to = order[ch][(i + 1) % n];
                if (usesEdge(from, to)) sink.accept(ch, from, to);
            }
        }
    }

    /** Whether the ring edge from → to carries data (broadcast/reduce leave one edge idle). */
    boolean usesEdge(int from, int to) { return true; }

    @Override
    public long footprintBytes() {
        long rings = 0;
        java.util.IdentityHashMap<int[], Boolean> seen = new java.util.IdentityHashMap<>();
        for (int c = 0; c < nChannels; c++) {
            if (seen.put(order[c], Boolean.TRUE) == null) rings += 2L * (16 + 4L * n);
        }
        return 64 + rings + 2L * (16 + 8L * nChannels) + parts.footprintBytes();
    }
}
