package io.ccsim.algorithms.plan;

/**
 * A communicator's point-to-point settings, as NCCL fixes them at init: how many of its p2p channels one operation
 * may stripe over, and the Simple protocol's chunk (NVIDIA/nccl 2.28.9 src/graph/paths.cc
 * {@code ncclTopoComputeP2pChannels}: {@code p2pnChannelsPerPeer}; src/init.cc: {@code p2pChunkSize}, from
 * NCCL_P2P_NET_CHUNKSIZE (128 KiB) on several nodes, NCCL_P2P_NVL_CHUNKSIZE (512 KiB) where every GPU pair is
 * NVLink, else NCCL_P2P_PCI_CHUNKSIZE (128 KiB)).
 *
 * @param channelsPerPeer the most channels one send or receive is split over ({@code p2pnChannelsPerPeer}): a power of
 *                        two, 1..64
 * @param chunkBytes      the Simple protocol's step of a p2p connection, bytes: a positive multiple of 512 (the Simple
 *                        grain); a plan caps it at its Simple slot ({@link PlanOptions#bufferBytes()} / 8), as NCCL
 *                        caps {@code p2pChunkSize} at NCCL_BUFFSIZE / NCCL_STEPS
 */
public record P2pSettings(int channelsPerPeer, int chunkBytes) {
    public P2pSettings {
        if (channelsPerPeer < 1 || channelsPerPeer > PlanOptions.MAX_CHANNELS || Integer.bitCount(channelsPerPeer) != 1) {
            throw new IllegalArgumentException("P2pSettings.channelsPerPeer must be a power of two in 1.."
                    + PlanOptions.MAX_CHANNELS + ", got " + channelsPerPeer);
        }
        if (chunkBytes < 512 || chunkBytes % 512 != 0) {
            throw new IllegalArgumentException("P2pSettings.chunkBytes must be a positive multiple of 512 bytes, got "
                    + chunkBytes);
        }
    }
}
