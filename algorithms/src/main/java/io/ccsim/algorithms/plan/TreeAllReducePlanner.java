package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;

import java.util.Arrays;

/**
 * NCCL's double binary tree all-reduce.
 *
 * <p>Structure (src/graph/trees.cc ncclGetBtree / ncclGetDtree, src/graph/connect.cc
 * ncclTopoPreset and connectTrees): the trees are built over hosts. Tree 0 is the btree over host
 * indices (root 0; a host's parent flips its lowest set bit up, its children sit half that bit
 * below/above). Tree 1 is tree 0 mirrored (host h ↦ nNodes−1−h) when the host count is even, or
 * shifted by one (h ↦ h+1 mod nNodes) when it is odd. Inside a host the ranks form a chain in
 * ascending rank order: chain[i] has parent chain[i−1] and child chain[i+1]. The chain head
 * (chain[0]) is the host's endpoint in the inter-host tree (NCCL_TOPO_PATTERN_TREE: treeToParent =
 * treeToChild0 = treeToChild1 = intra[0]); its children are chain[1] then the heads of its child
 * hosts (setTreeDown appends), so fan-in and fan-out are at most 3, and at most 2 at the root.
 *
 * <p>Channels: channel c carries tree 0 if c &lt; ⌈nChannels/2⌉, else tree 1 (NCCL duplicates the
 * tree channels and gives the copy at c + nChannels the second tree).
 *
 * <p>Steps (src/device/all_reduce.h runTreeSplit), per chunk of the channel's part (chunkSteps =
 * sliceSteps = 1: one slot per step): lane 0 reduces up — a leaf sends, an inner rank
 * recvReduceSends from its children to its parent; the root recvReduceCopySends from its children
 * back to them (reduction complete, post-operator applied, output written, broadcast begun);
 * lane 1 broadcasts down — an inner rank recvCopySends from its parent to its children, a leaf
 * recvs; the root's lane 1 is empty.
 */
public final class TreeAllReducePlanner extends AbstractPlanner {
    public TreeAllReducePlanner() { super("tree-all_reduce", CollectiveOp.ALL_REDUCE, Algorithm.TREE); }

    /**
     * NCCL's ncclGetBtree: parent and children of {@code rank} in a btree over {@code nranks}.
     * Returns {up, down0, down1}, −1 for none.
     */
    static int[] btree(int nranks, int rank) {
        int bit;
        for (bit = 1; bit < nranks; bit <<= 1) {
            if ((bit & rank) != 0) break;
        }
        if (rank == 0) return new int[] {-1, -1, nranks > 1 ? bit >> 1 : -1};
        int up = (rank ^ bit) | (bit << 1);
        if (up >= nranks) up = rank ^ bit;
        int lowbit = bit >> 1;
        int down0 = lowbit == 0 ? -1 : rank - lowbit;
        int down1 = lowbit == 0 ? -1 : rank + lowbit;
        while (down1 >= nranks) {
            down1 = lowbit == 0 ? -1 : rank + lowbit;
            lowbit >>= 1;
        }
        return new int[] {up, down0, down1};
    }

    /** NCCL's ncclGetDtree second tree: {up, down0, down1} of {@code rank} in tree {@code t} (0 or 1). */
    static int[] dtree(int nranks, int rank, int t) {
        if (t == 0) return btree(nranks, rank);
        int[] r;
        if (nranks % 2 == 1) {
            int shift = (rank - 1 + nranks) % nranks;
            int[] b = btree(nranks, shift);
            r = new int[3];
            for (int i = 0; i < 3; i++) r[i] = b[i] == -1 ? -1 : (b[i] + 1) % nranks;
        } else {
            int[] b = btree(nranks, nranks - 1 - rank);
            r = new int[3];
            for (int i = 0; i < 3; i++) r[i] = b[i] == -1 ? -1 : nranks - 1 - b[i];
        }
        return r;
    }

    /** Tree index of channel c of nChannels. */
    static int treeOfChannel(int c, int nChannels) {
        return c < (nChannels + 1) / 2 ? 0 : 1;
    }

    @Override
    Schedule build(CollectiveCall call, PlanOptions o, ProtocolGeometry g, ChannelParts parts) {
        return new TreeSchedule(call, o, g, parts);
    }

    static final class TreeSchedule implements Schedule {
        private final int n;
        private final int nChannels;
        private final ChannelParts parts;
        private final int slots;
        /** [tree][rank] → parent or −1. */
        private final int[][] up;
        /** [tree][rank*3 + i] → child i or −1. */
        private final int[][] down;
        private final int[][] nDown;

        TreeSchedule(CollectiveCall call, PlanOptions o, ProtocolGeometry g, ChannelParts parts) {
            this.n = call.nRanks();
            this.nChannels = o.nChannels();
            this.parts = parts;
            this.slots = g.sliceSteps();
            int[][] byHost = call.layout().ranksByHost();
            int nNodes = byHost.length;
            up = new int[2][n];
            down = new int[2][3 * n];
            nDown = new int[2][n];
            for (int t = 0; t < 2; t++) {
                Arrays.fill(down[t], -1);
                for (int h = 0; h < nNodes; h++) {
                    int[] chain = byHost[h];
                    for (int i = 0; i < chain.length; i++) {
                        int r = chain[i];
                        up[t][r] = i == 0 ? -1 : chain[i - 1];
                        if (i + 1 < chain.length) addDown(t, r, chain[i + 1]);
                    }
                    int head = chain[0];
                    int[] d = dtree(nNodes, h, t);
                    if (d[0] != -1) up[t][head] = byHost[d[0]][0];
                    if (d[1] != -1) addDown(t, head, byHost[d[1]][0]);
                    if (d[2] != -1) addDown(t, head, byHost[d[2]][0]);
                }
            }
        }

        private void addDown(int t, int r, int child) {
            down[t][3 * r + nDown[t][r]++] = child;
        }

        /** Parent of rank in tree t, or −1 at the root. */
        int parent(int t, int rank) { return up[t][rank]; }

        @Override public int nLanes() { return 2; }

        @Override
        public int stepCount(int rank, int ch, int lane) {
            int t = treeOfChannel(ch, nChannels);
            if (lane == 1 && up[t][rank] == -1) return 0;
            return parts.chunks(ch);
        }

        @Override
        public void step(int rank, int ch, int lane, int i, StepCursor c) {
            int t = treeOfChannel(ch, nChannels);
            long off = parts.chunkStart(ch, i);
            int cnt = (int) parts.chunkCount(ch, off);
            int parent = up[t][rank];
            int nd = nDown[t][rank];
            Primitive p;
            if (parent == -1) {
                p = Primitive.RECV_REDUCE_COPY_SEND;
            } else if (lane == 0) {
                p = nd == 0 ? Primitive.SEND : Primitive.RECV_REDUCE_SEND;
            } else {
                p = nd == 0 ? Primitive.RECV : Primitive.RECV_COPY_SEND;
            }
            c.set(p, off, off, cnt, slots);
            if (lane == 0) {
                for (int k = 0; k < nd; k++) c.addRecv(down[t][3 * rank + k]);
                if (parent == -1) {
                    for (int k = 0; k < nd; k++) c.addSend(down[t][3 * rank + k]);
                } else {
                    c.addSend(parent);
                }
            } else {
                c.addRecv(parent);
                for (int k = 0; k < nd; k++) c.addSend(down[t][3 * rank + k]);
            }
        }

        @Override
        public void connections(ConnectionSink sink) {
            for (int ch = 0; ch < nChannels; ch++) {
                if (parts.count[ch] == 0) continue;
                int t = treeOfChannel(ch, nChannels);
                for (int r = 0; r < n; r++) {
                    if (up[t][r] != -1) {
                        sink.accept(ch, r, up[t][r]);
                        sink.accept(ch, up[t][r], r);
                    }
                }
            }
        }

        @Override
        public long footprintBytes() {
            return 64 + 2L * (16 + 4L * n) * 3 + 2L * (16 + 12L * n) + parts.footprintBytes();
        }
    }
}
