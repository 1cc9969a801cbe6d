package io.ccsim.algorithms.profile;

/**
 * A constant that NCCL tabulates by node count in three columns N1/N2/N4 (src/graph/tuning.cc,
 * ncclTopoTuneModel: {@code index2 = nNodes <= 2 ? nNodes - 1 : 2}).
 *
 * @param oneNode   value for a single node (JSON {@code n1})
 * @param twoNodes  value for two nodes ({@code n2})
 * @param manyNodes value for three or more nodes ({@code n4})
 */
public record ByNodeCount(double oneNode, double twoNodes, double manyNodes) {

    /** The column NCCL uses for {@code nNodes} nodes (1, 2, or 3+). */
    public double forNodes(int nNodes) {
        if (nNodes < 1) throw new IllegalArgumentException("nNodes must be >= 1, got " + nNodes);
        return nNodes == 1 ? oneNode : nNodes == 2 ? twoNodes : manyNodes;
    }
}
