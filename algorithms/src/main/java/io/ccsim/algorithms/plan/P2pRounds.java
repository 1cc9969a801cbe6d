package io.ccsim.algorithms.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Where and in what order NCCL runs the grouped point-to-point operations of one communicator: the peer of each
 * round, the channels of each round's operation, and how a channel's operations are batched.
 *
 * <p><b>Rounds</b> (NVIDIA/nccl 2.28.9 src/init.cc {@code ncclP2pSchedule}). The ranks of each node form groups of
 * {@code G} consecutive local ranks: on several nodes G = NCCL_P2P_SCHEDULE_GROUP_SIZE (8), on one node every rank;
 * G becomes gcd(G, local ranks) for any node whose local ranks are fewer than G or not a multiple of it. Groups are
 * numbered node by node. Round {@code i·G + d} is group delta {@code δ_i} and local delta {@code d}: rank r (group g,
 * index l in it) sends to index (l + d) mod G of group (g + δ_i) mod nGroups and receives from index (l − d) mod G of
 * group (g − δ_i) mod nGroups. The group deltas are the quadratic formula {@code (k² + k)/2 mod pow2Up(nGroups)},
 * k = 0, 1, …, those ≥ nGroups skipped; on one node there is one group and the rounds are the deltas 0, 1, …, n − 1.
 * Round 0 is the rank itself. Rank r's send in round i and its peer's receive in round i are one operation.
 *
 * <p><b>Channels</b> (src/include/channel.h {@code ncclP2pChannelBaseForRound}, device.h
 * {@code ncclP2pChannelForPart}). Round i's operation is split into parts; part p runs on channel
 * {@code (base(i) + p) mod P} of the P p2p channels (a power of two), base(i) the low log2(P) bits of
 * {@code b(i)} in reverse order, with b(i) = i on one node, else {@code ⌊i/G⌋·⌈G/8⌉ + ⌊(i mod G)/8⌋}: the rounds of one
 * group delta share their channels.
 *
 * <p><b>Batches</b> (src/enqueue.cc {@code addWorkBatchToPlan}). A channel's thread block runs its operations in
 * batches, one after the other, those of a batch at once (each on its share of the warps, src/device/sendrecv.h). An
 * operation joins the channel's last batch unless that batch holds NCCL_MAX_DEV_WORK_P2P_PER_BATCH = 8 operations or
 * one of another round epoch ({@code ⌊i/8⌋}). Every rank has the same rounds on the same channels, so the batches are
 * the communicator's, not a rank's.
 */
final class P2pRounds {
    /** NCCL_MAX_DEV_WORK_P2P_PER_BATCH (src/include/device.h). */
    static final int MAX_WORKS_PER_BATCH = 8;
    /** NCCL_P2P_SCHEDULE_GROUP_SIZE's default (src/init.cc). */
    static final int DEFAULT_GROUP_SIZE = MAX_WORKS_PER_BATCH;

    private final int n;
    private final int groupSize;
    private final int nGroups;
    private final int channels;
    private final boolean oneNode;
    /** Group delta of each group round, in order. */
    private final int[] groupDeltas;
    private final int[] groupOfRank;
    private final int[] indexInGroup;
    private final int[] groupNode;
    private final int[] groupFirstLocal;
    private final int[][] nodeRanks;
    /** Channel base of each round. */
    private final int[] bases;

    /**
     * @param layout   the communicator's ranks and hosts
     * @param channels the p2p channels P, a power of two ≥ 1
     */
    P2pRounds(CommLayout layout, int channels) {
        if (channels < 1 || Integer.bitCount(channels) != 1) {
            throw new IllegalArgumentException("p2p channels must be a power of two >= 1, got " + channels);
        }
        this.n = layout.nRanks();
        this.channels = channels;
        this.nodeRanks = layout.ranksByHost();
        this.oneNode = nodeRanks.length == 1;
        int g = oneNode ? nodeRanks[0].length : DEFAULT_GROUP_SIZE;
        for (int[] node : nodeRanks) {
            if (node.length % g != 0 || node.length < g) g = gcd(g, node.length);
        }
        this.groupSize = g;
        this.nGroups = n / g;
        groupNode = new int[nGroups];
        groupFirstLocal = new int[nGroups];
        groupOfRank = new int[n];
        indexInGroup = new int[n];
        int group = 0;
        for (int h = 0; h < nodeRanks.length; h++) {
            for (int local = 0; local < nodeRanks[h].length; local++) {
                int r = nodeRanks[h][local];
                groupOfRank[r] = group + local / g;
                indexInGroup[r] = local % g;
                if (local % g == 0) {
                    groupNode[group + local / g] = h;
                    groupFirstLocal[group + local / g] = local;
                }
            }
            group += nodeRanks[h].length / g;
        }
        groupDeltas = quadraticDeltas(nGroups);
        bases = new int[n];
        for (int round = 0; round < n; round++) bases[round] = computeBase(round);
    }

    /**
     * The quadratic formula's deltas {@code (k² + k)/2 mod pow2Up(n)}, k = 0, 1, …, those ≥ n skipped (src/init.cc; for
     * 16: 0, 1, 3, 6, 10, 15, 5, 12, 4, 13, 7, 2, 14, 11, 9, 8): every delta 0..n − 1 once, 0 first.
     */
    static int[] quadraticDeltas(int n) {
        int pow2 = Integer.highestOneBit(n) == n ? n : Integer.highestOneBit(n) << 1;
        int[] order = new int[n];
        int filled = 0;
        int delta = 0;
        int k = 0;
        do {
            if (delta < n) order[filled++] = delta;
            k++;
            delta = (delta + k) & (pow2 - 1);
        } while (k != pow2);
        if (filled != n) throw new AssertionError("quadratic delta enumeration missed deltas for n=" + n);
        return order;
    }

    /** Rounds: one per rank. */
    int rounds() { return n; }

    /** Ranks per schedule group, G. */
    int groupSize() { return groupSize; }

    /** The rank {@code rank} sends to in {@code round}. */
    int sendPeer(int rank, int round) {
        int sg = Math.floorMod(groupOfRank[rank] + groupDeltas[round / groupSize], nGroups);
        int local = groupFirstLocal[sg] + (indexInGroup[rank] + round % groupSize) % groupSize;
        return nodeRanks[groupNode[sg]][local];
    }

    /** The rank {@code rank} receives from in {@code round}. */
    int recvPeer(int rank, int round) {
        int rg = Math.floorMod(groupOfRank[rank] - groupDeltas[round / groupSize], nGroups);
        int local = groupFirstLocal[rg] + Math.floorMod(indexInGroup[rank] - round % groupSize, groupSize);
        return nodeRanks[groupNode[rg]][local];
    }

    /** The channel of part {@code part} of round {@code round}'s operation. */
    int channel(int round, int part) {
        return (base(round) + part) & (channels - 1);
    }

    /** The part of round {@code round}'s operation that channel {@code channel} carries (if the operation has as many). */
    int partOn(int round, int channel) {
        return (channel - base(round)) & (channels - 1);
    }

    private int base(int round) {
        return bases[round];
    }

    private int computeBase(int round) {
        int b = oneNode ? round
                : round / groupSize * ((groupSize + MAX_WORKS_PER_BATCH - 1) / MAX_WORKS_PER_BATCH)
                        + round % groupSize / MAX_WORKS_PER_BATCH;
        int bits = Integer.numberOfTrailingZeros(channels);
        return bits == 0 ? 0 : Integer.reverse(b) >>> (32 - bits);
    }

    /**
     * The batches of every channel when each round's operation has {@code parts} parts: {@code result[c][b]} lists the
     * rounds of channel c's batch b, in the order they joined it.
     */
    int[][][] batches(int parts) {
        if (parts < 1 || parts > channels) throw new IllegalArgumentException("parts must be in 1.." + channels + ", got " + parts);
        int[][] open = new int[channels][];
        int[] openSize = new int[channels];
        List<List<int[]>> out = new ArrayList<>();
        for (int c = 0; c < channels; c++) out.add(new ArrayList<>());
        for (int round = 0; round < n; round++) {
            for (int p = 0; p < parts; p++) {
                int c = channel(round, p);
                int[] b = open[c];
                if (b == null || openSize[c] == MAX_WORKS_PER_BATCH
                        || b[0] / MAX_WORKS_PER_BATCH != round / MAX_WORKS_PER_BATCH) {
                    if (b != null) out.get(c).add(Arrays.copyOf(b, openSize[c]));
                    b = open[c] = new int[MAX_WORKS_PER_BATCH];
                    openSize[c] = 0;
                }
                b[openSize[c]++] = round;
            }
        }
        int[][][] result = new int[channels][][];
        for (int c = 0; c < channels; c++) {
            if (open[c] != null) out.get(c).add(Arrays.copyOf(open[c], openSize[c]));
            result[c] = out.get(c).toArray(new int[0][]);
        }
        return result;
    }

    /**
     * Whether every node is one group: then whether a round's operations cross the network is the same for every rank
     * ({@link #crossesNodes}).
     */
    boolean groupsAreNodes() { return nGroups == nodeRanks.length; }

    /** With {@link #groupsAreNodes()}: whether round {@code round}'s operations cross the network (group delta ≠ 0). */
    boolean crossesNodes(int round) { return groupDeltas[round / groupSize] != 0; }

    /** Whether rank {@code rank}'s send of {@code round} crosses the network (its peer on another host). */
    boolean sendAcrossNodes(int rank, int round) {
        int g = groupOfRank[rank];
        int sg = g + groupDeltas[round / groupSize];
        if (sg >= nGroups) sg -= nGroups;
        return groupNode[sg] != groupNode[g];
    }

    /** Whether rank {@code rank}'s receive of {@code round} crosses the network. */
    boolean recvAcrossNodes(int rank, int round) {
        int g = groupOfRank[rank];
        int rg = g - groupDeltas[round / groupSize];
        if (rg < 0) rg += nGroups;
        return groupNode[rg] != groupNode[g];
    }

    /** Whether {@code a} and {@code b} live on different hosts (their connection crosses the network). */
    boolean acrossNodes(int a, int b) {
        return groupNode[groupOfRank[a]] != groupNode[groupOfRank[b]];
    }

    long footprintBytes() {
        return 64 + 4L * (groupDeltas.length + 3L * n + 2L * nGroups) + 4L * n + 16L * nodeRanks.length;
    }

    private static int gcd(int a, int b) {
        while (b != 0) {
            int t = a % b;
            a = b;
            b = t;
        }
        return a;
    }
}
