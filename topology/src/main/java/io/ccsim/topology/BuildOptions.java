package io.ccsim.topology;

/**
 * Parameters of a catalog build.
 *
 * @param gpus             GPUs per board to keep (0 = the board's default); a subset keeps GPUs 0..gpus-1
 * @param nodes            number of boards (hosts), >= 1; more than 1 adds a rail-optimized fat-tree
 * @param oversubscription leaf down/up port ratio of the fat-tree, >= 1 (1 = non-blocking)
 * @param seed             seed of the ECMP hash
 * @param nicsPerNode      network NICs per board (0 = the board's default, one per GPU on HGX); on HGX a divisor
 *                         of the GPU count, NIC k sitting on the PCIe switch of GPU k × gpus / nicsPerNode
 * @param sharp            whether the fat-tree's leaf and spine switches are SHARP-capable (in-network reduction,
 *                         NVIDIA Quantum-2 SHARPv3; node attribute {@code sharp} = {@code true}, see {@link FatTree});
 *                         ignored for one board
 */
public record BuildOptions(int gpus, int nodes, double oversubscription, long seed, int nicsPerNode, boolean sharp) {

    /** One default board, non-blocking, seed 0. */
    static final BuildOptions DEFAULT = new BuildOptions(0, 1, 1.0, 0L);

    public BuildOptions {
        if (gpus < 0) {
            throw new IllegalArgumentException("gpus must be >= 0 (0 = the board's default), got " + gpus);
        }
        if (nodes < 1) {
            throw new IllegalArgumentException("nodes must be >= 1, got " + nodes);
        }
        if (!(oversubscription >= 1.0) || Double.isInfinite(oversubscription)) {
            throw new IllegalArgumentException("oversubscription must be a finite number >= 1 (1 = non-blocking),"
                    + " got " + oversubscription);
        }
        if (nicsPerNode < 0) {
            throw new IllegalArgumentException("nicsPerNode must be >= 0 (0 = the board's default), got " + nicsPerNode);
        }
    }

    /** Options without SHARP. */
    public BuildOptions(int gpus, int nodes, double oversubscription, long seed, int nicsPerNode) {
        this(gpus, nodes, oversubscription, seed, nicsPerNode, false);
    }

    /** Options with the board's default NIC count. */
    public BuildOptions(int gpus, int nodes, double oversubscription, long seed) {
        this(gpus, nodes, oversubscription, seed, 0);
    }

    /** Options for {@code nodes} boards of {@code gpus} GPUs (0 = default). */
    public static BuildOptions of(int gpus, int nodes) {
        return new BuildOptions(gpus, nodes, 1.0, 0L);
    }

    /** The same options with {@code nics} NICs per board (0 = the board's default). */
    public BuildOptions withNicsPerNode(int nics) {
        return new BuildOptions(gpus, nodes, oversubscription, seed, nics, sharp);
    }

    /** The same options for {@code n} boards. */
    public BuildOptions withNodes(int n) {
        return new BuildOptions(gpus, n, oversubscription, seed, nicsPerNode, sharp);
    }

    /** The same options with SHARP-capable network switches ({@code on}) or without. */
    public BuildOptions withSharp(boolean on) {
        return new BuildOptions(gpus, nodes, oversubscription, seed, nicsPerNode, on);
    }
}
