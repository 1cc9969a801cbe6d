package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;

/**
 * Per-channel data ranges and chunk sizes of a plan: channel c works on elements
 * [offset(c), offset(c)+count(c)) of the op's per-rank count (see {@link Chunking}).
 */
final class ChannelParts {
    final long[] offset;
    final long[] count;
    final long[] chunkElems;

    ChannelParts(CollectiveCall call, ProtocolGeometry g, Algorithm a, int nChannels, long bytesPerElementOfPart) {
        this(call, g, a, nChannels, bytesPerElementOfPart, Math.max(1, call.nRanks() / call.layout().nHosts()), 0);
    }

    /**
     * As the other constructor, with CollNet Direct's heads per host ({@link PlanOptions#netHeads}) and the node
     * count the tree chunk rules read ({@link PlanOptions#chunkingNodes}, 0: the call's own).
     */
    ChannelParts(CollectiveCall call, ProtocolGeometry g, Algorithm a, int nChannels, long bytesPerElementOfPart,
                 int netHeads, int chunkingNodes) {
        int elt = call.dtype().bytes();
        long[][] p = Chunking.partition(call.count(), elt, nChannels);
        offset = p[0];
        count = p[1];
        chunkElems = new long[nChannels];
        int nNodes = call.layout().nHosts();
        int nRanks = call.nRanks();
        boolean tree = a == Algorithm.TREE || a == Algorithm.NVLS_TREE;
        if (tree && chunkingNodes > 0) { // the same nodes, more of them: their ranks per node stay
            nRanks = nRanks / nNodes * chunkingNodes;
            nNodes = chunkingNodes;
        }
        for (int c = 0; c < nChannels; c++) {
            long bytes = count[c] * bytesPerElementOfPart;
            chunkElems[c] = Math.max(1, Chunking.chunkBytes(g, a, call.op(), bytes, nRanks, nNodes, netHeads) / elt);
        }
    }

    /** First element of chunk {@code chunk} of channel c. */
    long chunkStart(int c, long chunk) {
        return offset[c] + chunk * chunkElems[c];
    }

    /** Elements of channel c's chunk starting at element {@code start} (the last chunk may be short). */
    long chunkCount(int c, long start) {
        return Math.min(chunkElems[c], offset[c] + count[c] - start);
    }

    /** Chunks of channel c: ⌈count(c) / chunkElems(c)⌉. */
    int chunks(int c) {
        return Math.toIntExact(Chunking.divUp(count[c], chunkElems[c]));
    }

    long footprintBytes() {
        return 3L * (16 + 8L * offset.length);
    }
}
