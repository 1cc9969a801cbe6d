package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.Protocol;

import java.util.Arrays;

/**
 * How to compile a call: algorithm, protocol, channel count, per-connection buffer size, and
 * optionally the ring order of each channel.
 *
 * @param algorithm   the algorithm (RING, TREE, or P2P for sendrecv/all_to_all)
 * @param protocol    LL, LL128 or Simple
 * @param nChannels   channels, 1..64 (NCCL's MAXCHANNELS)
 * @param bufferBytes per-connection buffer in wire bytes; NCCL_STEPS = 8 slots of bufferBytes/8.
 *                    Must be a multiple of 128 (Simple: 16-byte aligned slots), 256 (LL: the 16-byte
 *                    aligned half of each slot carries data) or 2048 (LL128: slots of whole
 *                    128-byte lines whose 120-byte payloads sum to a multiple of 16). Default
 *                    {@link Protocol#defaultBufferBytes()} (NCCL_BUFFSIZE applies to Simple).
 * @param ringOrders  null for the default ring (hosts in order, see {@link CommLayout#defaultRingOrder()}),
 *                    or one permutation of 0..n−1 per channel
 * @param netHeads    the heads across the network of CollNet Direct and NVLSTree: the local indices (ascending,
 *                    distinct, ≥ 0) of the GPUs of a host that have a NIC of their own (NCCL's heads are the NICs'
 *                    GPUs), the same on every host; null for every GPU of a host (one NIC per GPU; NVLSTree: the
 *                    first 32). Other algorithms ignore it
 * @param chunkingNodes the node count NCCL's chunk rules for trees read (calcCollChunking's nNodes: Tree LL128's
 *                    shrink by depth, NVLSTree's cap from 4 nodes), ≥ 1; 0 for the communicator's own. A smaller
 *                    communicator that stands for a larger one of the same nodes (an extrapolation's sample) sets
 *                    the larger one's count, so that its chunks are those of the larger one
 * @param workingSetBytes the working set per GPU, bytes, the cost model's cache term reads (CtaCosts: input plus output
 *                    buffer), ≥ 1; 0 for the call's own. A sample that stands for a larger call (an extrapolation's)
 *                    sets the larger one's, so that its bytes cost what the larger call's do
 * @param p2p         all-to-all: the communicator's p2p settings, for NCCL's placement of each peer's operation on
 *                    channels of its own; null for ccsim's own kernels' plan, every peer striped over every channel.
 *                    Other plans ignore it
 */
public record PlanOptions(Algorithm algorithm, Protocol protocol, int nChannels, long bufferBytes, int[][] ringOrders,
                          int[] netHeads, int chunkingNodes, long workingSetBytes, P2pSettings p2p) {

    /** NCCL's MAXCHANNELS (src/include/device.h). */
    public static final int MAX_CHANNELS = 64;

    public PlanOptions {
        if (algorithm == null) throw new IllegalArgumentException("PlanOptions.algorithm must not be null");
        if (protocol == null) throw new IllegalArgumentException("PlanOptions.protocol must not be null");
        if (nChannels < 1 || nChannels > MAX_CHANNELS) {
            throw new IllegalArgumentException("PlanOptions.nChannels must be in 1.." + MAX_CHANNELS + ", got " + nChannels);
        }
        long align = alignmentOf(protocol);
        if (bufferBytes < align || bufferBytes % align != 0) {
            throw new IllegalArgumentException("PlanOptions.bufferBytes for " + protocol + " must be a positive multiple of "
                    + align + " bytes (NCCL_STEPS=8 slots), got " + bufferBytes);
        }
        if (bufferBytes / Protocol.NCCL_STEPS > Integer.MAX_VALUE / 4) {
            throw new IllegalArgumentException("PlanOptions.bufferBytes " + bufferBytes + " too large: a slot must stay below 512 MiB");
        }
        if (ringOrders != null) {
            if (ringOrders.length != nChannels) {
                throw new IllegalArgumentException("PlanOptions.ringOrders must have one order per channel (" + nChannels
                        + "), got " + ringOrders.length);
            }
            int[][] copy = new int[nChannels][];
            for (int c = 0; c < nChannels; c++) {
                if (ringOrders[c] == null) throw new IllegalArgumentException("PlanOptions.ringOrders[" + c + "] is null");
                copy[c] = ringOrders[c].clone();
            }
            ringOrders = copy;
        }
        if (netHeads != null) {
            if (netHeads.length == 0) throw new IllegalArgumentException("PlanOptions.netHeads must not be empty");
            for (int i = 0; i < netHeads.length; i++) {
                if (netHeads[i] < 0 || (i > 0 && netHeads[i] <= netHeads[i - 1])) {
                    throw new IllegalArgumentException("PlanOptions.netHeads must be ascending distinct local indices"
                            + " >= 0, got " + Arrays.toString(netHeads));
                }
            }
            netHeads = netHeads.clone();
        }
        if (chunkingNodes < 0) {
            throw new IllegalArgumentException("PlanOptions.chunkingNodes must be >= 1, or 0 for the communicator's own,"
                    + " got " + chunkingNodes);
        }
        if (workingSetBytes < 0) {
            throw new IllegalArgumentException("PlanOptions.workingSetBytes must be >= 1, or 0 for the call's own, got "
                    + workingSetBytes);
        }
    }

    /** The options as given, without p2p settings. */
    public PlanOptions(Algorithm algorithm, Protocol protocol, int nChannels, long bufferBytes, int[][] ringOrders,
                       int[] netHeads, int chunkingNodes, long workingSetBytes) {
        this(algorithm, protocol, nChannels, bufferBytes, ringOrders, netHeads, chunkingNodes, workingSetBytes, null);
    }

    /** The options as given, with the call's own working set. */
    public PlanOptions(Algorithm algorithm, Protocol protocol, int nChannels, long bufferBytes, int[][] ringOrders,
                       int[] netHeads, int chunkingNodes) {
        this(algorithm, protocol, nChannels, bufferBytes, ringOrders, netHeads, chunkingNodes, 0);
    }

    /** The options as given, with the communicator's own node count for the chunk rules. */
    public PlanOptions(Algorithm algorithm, Protocol protocol, int nChannels, long bufferBytes, int[][] ringOrders,
                       int[] netHeads) {
        this(algorithm, protocol, nChannels, bufferBytes, ringOrders, netHeads, 0);
    }

    /** The options as given, every GPU a CollNet head. */
    public PlanOptions(Algorithm algorithm, Protocol protocol, int nChannels, long bufferBytes, int[][] ringOrders) {
        this(algorithm, protocol, nChannels, bufferBytes, ringOrders, null);
    }

    /** Default buffer for the protocol, default rings. */
    public static PlanOptions of(Algorithm algorithm, Protocol protocol, int nChannels) {
        return new PlanOptions(algorithm, protocol, nChannels, protocol.defaultBufferBytes(), null);
    }

    /** A copy with another buffer size (bytes per connection). */
    public PlanOptions withBufferBytes(long bytes) {
        return new PlanOptions(algorithm, protocol, nChannels, bytes, ringOrders, netHeads, chunkingNodes, workingSetBytes, p2p);
    }

    /** A copy with explicit ring orders, one permutation of the ranks per channel. */
    public PlanOptions withRingOrders(int[][] orders) {
        return new PlanOptions(algorithm, protocol, nChannels, bufferBytes, orders, netHeads, chunkingNodes, workingSetBytes, p2p);
    }

    /** A copy with the heads across the network (CollNet Direct, NVLSTree), the local indices of the GPUs with a NIC of their own (see the record). */
    public PlanOptions withNetHeads(int[] localIndices) {
        return new PlanOptions(algorithm, protocol, nChannels, bufferBytes, ringOrders, localIndices, chunkingNodes,
                workingSetBytes, p2p);
    }

    /** A copy whose tree chunk rules read {@code nodes} nodes (see the record; 0: the communicator's own). */
    public PlanOptions withChunkingNodes(int nodes) {
        return new PlanOptions(algorithm, protocol, nChannels, bufferBytes, ringOrders, netHeads, nodes, workingSetBytes, p2p);
    }

    /** A copy whose cost model reads a working set of {@code bytes} per GPU (see the record; 0: the call's own). */
    public PlanOptions withWorkingSetBytes(long bytes) {
        return new PlanOptions(algorithm, protocol, nChannels, bufferBytes, ringOrders, netHeads, chunkingNodes, bytes, p2p);
    }

    /** A copy with the communicator's point-to-point settings (see the record). */
    public PlanOptions withP2p(P2pSettings settings) {
        return new PlanOptions(algorithm, protocol, nChannels, bufferBytes, ringOrders, netHeads, chunkingNodes,
                workingSetBytes, settings);
    }

    /**
     * Whether a point-to-point plan with these options on {@code ranks} ranks of {@code hosts} hosts sends into
     * registered buffers ({@link P2pSettings#registered()}): Simple, the settings registered, one host of two or more
     * ranks (NCCL's one-step registered path needs every peer on NVLink; whoever sets the settings checks the links).
     */
    public boolean registeredP2p(int hosts, int ranks) {
        return algorithm == Algorithm.P2P && protocol == Protocol.SIMPLE && p2p != null && p2p.registered() && hosts == 1
                && ranks > 1;
    }

    /** The network heads' local indices on hosts of {@code ppn} GPUs: {@link #netHeads} or 0..ppn−1. */
    public int[] netHeadsOf(int ppn) {
        if (netHeads != null) return netHeads.clone();
        int[] all = new int[ppn];
        for (int j = 0; j < ppn; j++) all[j] = j;
        return all;
    }

    /** Required multiple for {@code bufferBytes} (see the record comment). */
    public static long alignmentOf(Protocol p) {
        switch (p) {
            case LL: return 256;
            case LL128: return 2048;
            default: return 128;
        }
    }

    /** Ring order of channel c, or null when the default is used. */
    public int[] ringOrder(int c) { return ringOrders == null ? null : ringOrders[c].clone(); }

    @Override public int[][] ringOrders() {
        if (ringOrders == null) return null;
        int[][] copy = new int[ringOrders.length][];
        for (int i = 0; i < copy.length; i++) copy[i] = ringOrders[i].clone();
        return copy;
    }

    @Override public int[] netHeads() { return netHeads == null ? null : netHeads.clone(); }

    @Override
    public boolean equals(Object o) {
        return o instanceof PlanOptions p && p.algorithm == algorithm && p.protocol == protocol && p.nChannels == nChannels
                && p.bufferBytes == bufferBytes && Arrays.deepEquals(p.ringOrders, ringOrders)
                && Arrays.equals(p.netHeads, netHeads) && p.chunkingNodes == chunkingNodes
                && p.workingSetBytes == workingSetBytes && java.util.Objects.equals(p.p2p, p2p);
    }

    @Override
    public int hashCode() {
        return ((algorithm.hashCode() * 31 + protocol.hashCode()) * 31 + nChannels) * 31 + Long.hashCode(bufferBytes)
                + Arrays.deepHashCode(ringOrders) + 17 * Arrays.hashCode(netHeads) + 31 * chunkingNodes
                + 37 * Long.hashCode(workingSetBytes) + 41 * java.util.Objects.hashCode(p2p);
    }

    @Override
    public String toString() {
        return "PlanOptions[" + algorithm + "/" + protocol + ", " + nChannels + " ch, buffer " + bufferBytes + " B"
                + (ringOrders == null ? "" : ", custom rings")
                + (netHeads == null ? "" : ", CollNet heads " + Arrays.toString(netHeads))
                + (chunkingNodes == 0 ? "" : ", chunks as on " + chunkingNodes + " nodes")
                + (workingSetBytes == 0 ? "" : ", costs as for " + workingSetBytes + " B per GPU")
                + (p2p == null ? "" : ", p2p " + p2p.channelsPerPeer() + " ch per peer, chunk " + p2p.chunkBytes() + " B") + "]";
    }
}
