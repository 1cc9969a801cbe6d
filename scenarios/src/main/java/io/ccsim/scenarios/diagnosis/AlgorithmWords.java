package io.ccsim.scenarios.diagnosis;

import java.util.Locale;

/**
 * How a finding names the data path of the algorithm that ran: what one connection is (a ring hop, a
 * tree edge...), what the whole is, and why one slow connection slows every rank.
 *
 * @param connections plural noun of one connection between two ranks ("ring hops")
 * @param whole       the algorithm's structure as a noun phrase ("the ring")
 * @param pacing      why the slowest connection paces every rank, one clause
 */
record AlgorithmWords(String connections, String whole, String pacing) {

    /*
     * The data paths, after NCCL v2.28.9-1:
     * - Ring (src/device/all_reduce.h runRing): every rank sends to the next; each step waits for the
     *   previous hop, so the slowest hop sets the pace of the whole ring.
     * - Tree (runTreeUpDown / runTreeSplit): chunks are reduced up the tree to the root and broadcast
     *   back down, pipelined; every level waits for its slowest edge (src/graph/trees.cc builds the
     *   inter-node double binary tree, intra-node chains).
     * - PAT (src/device/prims_simple.h, patAlgorithm in src/include/collectives.h): log2(n) steps of
     *   exchanges at doubling distances; a step ends with its slowest exchange.
     * - NVLS / NVLSTree (src/transport/nvls.cc): GPUs write to and read from NVSwitch multicast
     *   objects; the switch reduces at the rate of its slowest GPU port (NVLSTree adds a tree between nodes).
     * - CollnetDirect / CollnetChain (src/transport/coll_net.cc): the network switch reduces (SHARP);
     *   it waits for its slowest contributor.
     * - P2P (send/recv, all-to-all): each pair completes on its own; the call ends with the slowest pair.
     */

    /** The words for NCCL's algorithm name ({@code Ring}, {@code Tree}, ...; null or unknown: generic words). */
    static AlgorithmWords of(String algorithm) {
        String a = algorithm == null ? "" : algorithm.toLowerCase(Locale.ROOT);
        switch (a) {
            case "ring":
                return new AlgorithmWords("ring hop(s)", "the ring", "a ring runs at its slowest hop, so every rank waits");
            case "tree":
                return new AlgorithmWords("tree edge(s)", "the tree", "a tree pipelines the data up to its root and back"
                        + " down its levels, each level at the pace of its slowest edge, so every rank waits");
            case "pat":
                return new AlgorithmWords("PAT exchange(s)", "the PAT schedule", "each PAT step ends with its slowest"
                        + " exchange, so every rank waits");
            case "nvls":
                return new AlgorithmWords("NVLS connection(s) (GPU to NVSwitch multicast)", "the NVLS reduction",
                        "the NVSwitch reduces at the pace of its slowest GPU port, so every rank waits");
            case "nvlstree":
                return new AlgorithmWords("NVLS-tree connection(s) (NVSwitch multicast within nodes, tree edges between)",
                        "the NVLS tree", "the NVSwitch reductions and the tree between nodes run at the pace of their"
                        + " slowest connection, so every rank waits");
            case "collnetdirect":
            case "collnetchain":
                return new AlgorithmWords("CollNet connection(s) (GPU to the in-network reduction)", "the CollNet reduction",
                        "the switch reduces only what every contributor has sent, so every rank waits for the slowest");
            case "p2p":
                return new AlgorithmWords("transfer(s)", "the exchange", "the call ends with its slowest transfer, so every"
                        + " rank waits");
            default:
                return new AlgorithmWords("connection(s)", "the collective", "a collective ends with its slowest"
                        + " connection, so every rank waits");
        }
    }
}
