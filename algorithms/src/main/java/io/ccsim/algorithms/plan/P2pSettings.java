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
 * @param registered      whether NCCL registered the call's user buffers with the peers (both registered with
 *                        {@code ncclCommRegister}, nccl-tests {@code -R 1}, or the call captured in a CUDA graph under
 *                        NCCL_GRAPH_REGISTER=1) on a communicator whose GPU pairs are all NVLink: a Simple operation's
 *                        sender then writes its whole part into the receiver's buffer, no FIFO between them
 *                        ({@link #REGISTERED_STEP_BYTES})
 */
public record P2pSettings(int channelsPerPeer, int chunkBytes, boolean registered) {
    /*
     * Registered buffers (NVIDIA/nccl 2.28.9 src/enqueue.cc addP2pToPlan: a Simple send or receive whose buffers the
     * user registered, or whose call is captured (allowUB), over a P2P connection that writes or reads its peer's
     * memory, is IPC-registered (ncclRegisterP2pIpcBuffer) and the connection's address becomes the peer's user
     * buffer; src/device/sendrecv.h runSend/runRecv: with sendIpcReg/recvIpcReg on an all-NVLink communicator the
     * chunk and step are NCCL_MAX_NET_SIZE, so a channel's part moves as one directSend into the receiver's buffer,
     * and the receiver only waits for it). Measured: experiments/nccl-tests-h200x4 (registered and unregistered runs of
     * one build).
     */

    /** NCCL_MAX_NET_SIZE (src/include/collectives.h): a registered operation's step on an all-NVLink communicator, bytes. */
    public static final long REGISTERED_STEP_BYTES = 1L << 30;

    /** Settings of buffers NCCL did not register. */
    public P2pSettings(int channelsPerPeer, int chunkBytes) {
        this(channelsPerPeer, chunkBytes, false);
    }

    /** A copy with the call's buffers registered or not. */
    public P2pSettings withRegistered(boolean r) {
        return new P2pSettings(channelsPerPeer, chunkBytes, r);
    }

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
