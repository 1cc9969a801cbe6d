package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;

/**
 * NCCL's double binary tree all-reduce.
 *
 * <p>Structure (src/graph/trees.cc ncclGetBtree / ncclGetDtree, src/graph/connect.cc
 * ncclTopoPreset and connectTrees): the trees are built over hosts. Tree 0 is the btree over host
 * indices (root 0; a host's parent flips its lowest set bit up, its children sit half that bit
 * below/above). Tree 1 is tree 0 mirrored (host h ↦ nNodes−1−h) when the host count is even, or
 * shifted by one (h ↦ h+1 mod nNodes) when it is odd. Inside a host the ranks form a chain: chain[i] has
 * parent chain[i−1] and child chain[i+1]. The chain head (chain[0]) is the host's endpoint in the
 * inter-host tree (NCCL_TOPO_PATTERN_TREE: treeToParent = treeToChild0 = treeToChild1 = intra[0]); its
 * children are chain[1] then the heads of its child hosts (setTreeDown appends), so fan-in and fan-out
 * are at most 3, and at most 2 at the root.
 *
 * <p>The chain follows the channel's intra-host order of NCCL's tree graph (connect.cc ncclTopoPreset:
 * treeIntra = graphs[NCCL_ALGO_TREE]->intra + c·localRanks), which is the same on every host and, on a
 * rail-optimized host with a NIC per GPU, starts at a different GPU per channel so that the channels'
 * inter-host edges spread over the NICs (the tree graph search picks a NIC per channel and starts the
 * chain at its GPU): on several hosts channel c's chain starts at local rank (c mod ⌈nChannels/2⌉) mod
 * ranksPerHost and ascends cyclically; tree-1 channel c + ⌈nChannels/2⌉ has the chain of channel c.
 * Inter-host edges join the chain heads, so they stay on one rail. On one host the chain is in
 * ascending rank order for every channel (no NIC to spread, and what the single-host fixtures were
 * fitted with).
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
final class TreeAllReducePlanner extends AbstractPlanner {
    TreeAllReducePlanner() { super("tree-all_reduce", CollectiveOp.ALL_REDUCE, Algorithm.TREE); }

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
        /** chain rotations (1 on one host): channel structure s = rotation * 2 + tree */
        private final int nRot;
        private final int[][] byHost;
        private final int[] hostOf;
        private final int[] localOf;
        /** [tree][host*3 + k]: the host-level dtree, {parent, child0, child1}, −1 for none */
        private final int[][] hostTree;

        TreeSchedule(CollectiveCall call, PlanOptions o, ProtocolGeometry g, ChannelParts parts) {
            this.n = call.nRanks();
            this.nChannels = o.nChannels();
            this.parts = parts;
            this.slots = g.sliceSteps();
            this.byHost = call.layout().ranksByHost();
            int nNodes = byHost.length;
            hostOf = new int[n];
            localOf = new int[n];
            int maxPerHost = 1;
            for (int h = 0; h < nNodes; h++) {
                maxPerHost = Math.max(maxPerHost, byHost[h].length);
                for (int i = 0; i < byHost[h].length; i++) {
                    hostOf[byHost[h][i]] = h;
                    localOf[byHost[h][i]] = i;
                }
            }
            this.nRot = nNodes == 1 ? 1 : Math.min(maxPerHost, (nChannels + 1) / 2);
            hostTree = new int[2][3 * nNodes];
            for (int t = 0; t < 2; t++) {
                for (int h = 0; h < nNodes; h++) System.arraycopy(dtree(nNodes, h, t), 0, hostTree[t], 3 * h, 3);
            }
        }

        /** The structure (chain rotation and tree) of channel ch. */
        private int structure(int ch) {
            int half = (nChannels + 1) / 2;
            int t = treeOfChannel(ch, nChannels);
            int base = t == 0 ? ch : ch - half;
            return (base % nRot) * 2 + t;
        }

        /** Rank at position i of host h's chain with rotation rot. */
        private int chainAt(int h, int rot, int i) {
            int[] host = byHost[h];
            return host[(rot + i) % host.length];
        }

        /** Position of rank r in its host's chain with rotation rot. */
        private int posOf(int r, int rot) {
            int len = byHost[hostOf[r]].length;
            return Math.floorMod(localOf[r] - rot, len);
        }

        /** Parent of rank r in structure st, or −1 at the root. */
        int up(int st, int r) {
            int rot = st >> 1, t = st & 1, h = hostOf[r];
            int i = posOf(r, rot);
            if (i > 0) return chainAt(h, rot, i - 1);
            int ph = hostTree[t][3 * h];
            return ph == -1 ? -1 : chainAt(ph, rot, 0);
        }

        /** Child j (0, 1, 2) of rank r in structure st, or −1: the chain child first, then the child hosts' heads. */
        int child(int st, int r, int j) {
            int rot = st >> 1, t = st & 1, h = hostOf[r];
            int i = posOf(r, rot);
            if (i + 1 < byHost[h].length) {
                if (j == 0) return chainAt(h, rot, i + 1);
                j--;
            }
            if (i != 0) return -1;
            // the head: its child hosts' heads, in dtree order, skipping absent ones
            for (int k = 1; k <= 2; k++) {
                int ch = hostTree[t][3 * h + k];
                if (ch == -1) continue;
                if (j == 0) return chainAt(ch, rot, 0);
                j--;
            }
            return -1;
        }

        /** Number of children of rank r in structure st (those child(st, r, j) gives for j below it). */
        private int childCount(int st, int r) {
            int rot = st >> 1, t = st & 1, h = hostOf[r];
            int i = posOf(r, rot);
            int k = i + 1 < byHost[h].length ? 1 : 0;
            if (i == 0) {
                if (hostTree[t][3 * h + 1] != -1) k++;
                if (hostTree[t][3 * h + 2] != -1) k++;
            }
            return k;
        }

        @Override public int nLanes() { return 2; }

        /*
         * A rank's steps in a channel depend on the channel (chunk offsets and counts, slots) and on two facts of its
         * place in that channel's tree: whether it is the root (one lane, RECV_REDUCE_COPY_SEND) and how many children
         * it has (which primitives, how many receive and send peers). Its peers are met in one order for every shape:
         * lane 0 receives from its children in child order, then sends to its parent (the root: to its children);
         * lane 1 receives from its parent, then sends to its children. So (root, children) is the key of both lanes.
         */
        @Override
        public long sequenceKey(int rank, int ch, int lane) {
            int st = structure(ch);
            return (up(st, rank) == -1 ? 4 : 0) | childCount(st, rank);
        }

        @Override
        public int stepCount(int rank, int ch, int lane) {
            if (lane == 1 && up(structure(ch), rank) == -1) return 0;
            return parts.chunks(ch);
        }

        @Override
        public void step(int rank, int ch, int lane, int i, StepCursor c) {
            int st = structure(ch);
            long off = parts.chunkStart(ch, i);
            int cnt = (int) parts.chunkCount(ch, off);
            int parent = up(st, rank);
            int nd = childCount(st, rank);
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
                for (int k = 0; k < nd; k++) c.addRecv(child(st, rank, k));
                if (parent == -1) {
                    for (int k = 0; k < nd; k++) c.addSend(child(st, rank, k));
                } else {
                    c.addSend(parent);
                }
            } else {
                c.addRecv(parent);
                for (int k = 0; k < nd; k++) c.addSend(child(st, rank, k));
            }
        }

        @Override
        public void connections(ConnectionSink sink) {
            for (int ch = 0; ch < nChannels; ch++) {
                if (parts.count[ch] == 0) continue;
                int st = structure(ch);
                for (int r = 0; r < n; r++) {
                    int u = up(st, r);
                    if (u != -1) {
                        sink.accept(ch, r, u);
                        sink.accept(ch, u, r);
                    }
                }
            }
        }

        @Override
        public long footprintBytes() {
            return 64 + 3 * (16 + 4L * n) + 2 * (16 + 12L * byHost.length) + (16 + 8L * byHost.length) + parts.footprintBytes();
        }
    }
}
