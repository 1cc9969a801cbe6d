package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;

/**
 * All-to-all as grouped send/recv, scheduled as NCCL schedules it (nccl-tests alltoall: ncclGroupStart, one ncclSend
 * and ncclRecv per peer, ncclGroupEnd). Rank r's block for peer p is input[p·count ..], and the block from peer p lands
 * in output[p·count ..].
 *
 * <p>NCCL gives each peer's operation its own channels: round i's operation (the peer of {@link P2pRounds}) is split
 * into {@link P2pOperation#channels} parts, part p on channel {@code (base(i) + p) mod P}, and a channel runs its
 * operations in batches of up to eight ({@link P2pRounds#batches}). The plan spans the P p2p channels (the largest
 * power of two ≤ {@link PlanOptions#nChannels()}; NCCL's {@code p2pnChannels}), with per-operation channels from
 * {@link PlanOptions#p2p()} ({@code p2pnChannelsPerPeer}) and the Simple step from its chunk. Round 0 is the rank's
 * own block, a local copy (NCCL runs it as a work of its own, Simple, beside the peer transfers). The steps are
 * {@link PlacedAllToAllSchedule}'s.
 *
 * <p>Deviations: a lane starts its next batch's operation when its own is done, not when the whole batch is (NCCL
 * synchronises the block between batches; a batch's operations are equal in size and go to peers of one group, so they
 * end together unless the network treats them unequally); and each lane runs at the channel's rate where NCCL splits
 * the block's warps among a batch's operations (src/device/sendrecv.h; a split by warps was measured to move the
 * 4 × H200 rows the wrong way, docs/performance.md "All-to-all at scale").
 *
 * <p>With registered buffers ({@link P2pSettings#registered()}) a peer's part on a channel is one step written into the
 * receiver's buffer, as in {@link SendRecvPlanner}.
 *
 * <p>Without {@link PlanOptions#p2p()} the plan stripes every peer's block over every channel
 * ({@link StripedAllToAllSchedule}): what the kernels' fidelity sweep ran and measured (gpu-backend runs either).
 */
final class AllToAllPlanner extends AbstractPlanner {
    AllToAllPlanner() { super("p2p-all_to_all", CollectiveOp.ALL_TO_ALL, Algorithm.P2P); }

    @Override
    Schedule build(CollectiveCall call, PlanOptions o, ProtocolGeometry g, ChannelParts parts) {
        return o.p2p() == null ? new StripedAllToAllSchedule(call, o, g, parts) : placed(call, o, g);
    }

    /** The placed schedule's tables: each lane slot's rounds and their parts (elements) on every channel. */
    private static Schedule placed(CollectiveCall call, PlanOptions o, ProtocolGeometry g) {
        int elt = call.dtype().bytes();
        int nChannels = o.nChannels();
        int p2pChannels = Integer.highestOneBit(nChannels);
        boolean ll = g.protocol() == Protocol.LL;
        int perPeer = Math.min(o.p2p().channelsPerPeer(), p2pChannels);
        long step = ll ? g.slotWireBytes() : Math.min(o.p2p().chunkBytes(), g.slotWireBytes());
        long bytes = call.count() * elt;
        P2pRounds rounds = new P2pRounds(call.layout(), p2pChannels);
        int parts = P2pOperation.channels(bytes, P2pOperation.minChannels(perPeer, call.nRanks(), p2pChannels), perPeer,
                step, call.layout().nHosts() > 1);
        int[][][] batches = rounds.batches(parts);
        int works = 1;
        for (int[][] ch : batches) for (int[] b : ch) works = Math.max(works, b.length);
        // laneRounds[c][j]: the rounds whose operation is the j-th of a batch of channel c, in batch order
        int[][][] laneRounds = new int[nChannels][works][];
        for (int c = 0; c < nChannels; c++) {
            int[][] chBatches = c < p2pChannels ? batches[c] : new int[0][];
            for (int j = 0; j < works; j++) {
                int k = 0;
                for (int[] b : chBatches) if (b.length > j) k++;
                laneRounds[c][j] = new int[k];
                k = 0;
                for (int[] b : chBatches) if (b.length > j) laneRounds[c][j][k++] = b[j];
            }
        }
        // chunk elements of an operation within a node and across nodes (the own block's copy: within)
        // (LL128, which NCCL's p2p path never runs, takes the slot's payload)
        long localChunk = Math.max(1, Math.min(g.slotDataBytes(), P2pOperation.chunkDataBytes(bytes, step, false, ll)) / elt);
        long netChunk = Math.max(1, Math.min(g.slotDataBytes(), P2pOperation.chunkDataBytes(bytes, step, true, ll)) / elt);
        long[][][] lo = new long[nChannels][works][];
        long[][][] hi = new long[nChannels][works][];
        for (int c = 0; c < nChannels; c++) {
            for (int j = 0; j < works; j++) {
                int[] rs = laneRounds[c][j];
                lo[c][j] = new long[rs.length];
                hi[c][j] = new long[rs.length];
                for (int i = 0; i < rs.length; i++) {
                    int part = rounds.partOn(rs[i], c);
                    lo[c][j][i] = P2pOperation.partBegin(bytes, parts, part) / elt;
                    hi[c][j][i] = P2pOperation.partBegin(bytes, parts, part + 1) / elt;
                }
            }
        }
        // registered buffers: a peer's part on a channel is one step into the receiver's buffer (SendRecvPlanner); the
        // own block's copy is not registered (addP2pToPlan skips a self-send)
        boolean registered = o.registeredP2p(call.layout().nHosts(), call.nRanks());
        long peerChunk = registered ? Math.max(1, P2pSettings.REGISTERED_STEP_BYTES / elt) : localChunk;
        return new PlacedAllToAllSchedule(call, rounds, works, laneRounds, lo, hi, localChunk, peerChunk, netChunk,
                g.sliceSteps(), registered);
    }
}
