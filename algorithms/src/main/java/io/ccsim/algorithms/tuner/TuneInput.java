package io.ccsim.algorithms.tuner;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.profile.LinkClass;

import java.util.Objects;

/**
 * What the tuner needs to know about one call and its communicator: the graph numbers NCCL's
 * ncclTopoTuneModel reads from its ring/tree graphs (src/graph/tuning.cc) plus the message size.
 *
 * @param op               the collective
 * @param bytes            NCCL's {@code nBytes} (enqueue.cc ncclGetAlgoInfo): element size × count for
 *                         all-reduce, broadcast, reduce; element size × count × nRanks for all-gather and
 *                         reduce-scatter (ncclFuncMaxSendRecvCount: the whole gathered / scattered buffer);
 *                         for send/recv the bytes sent; for all-to-all the bytes each rank sends in total
 * @param nRanks           ranks in the communicator, >= 1
 * @param nNodes           nodes, >= 1, dividing nRanks
 * @param gpusPerNode      ranks per node = nRanks / nNodes (NCCL's ppn)
 * @param intraBwGBs       per-channel bandwidth of the intra-node graph, GB/s (NCCL graph {@code bwIntra});
 *                         with NCCL_P2P_DISABLE=1 the caller passes the bandwidth of the path through host
 *                         memory
 * @param interBwGBs       per-channel network bandwidth, GB/s (NCCL graph {@code bwInter}); used by NCCL only
 *                         for 3+ nodes (tuning.cc line 306); ignored on one node
 * @param intraClass       NVLINK or PCIE: the link class of the intra-node graph (NCCL typeIntra == LINK_NVL)
 * @param maxChannels      channels of the communicator's graphs (NCCL graph {@code nChannels}), 1..64, before
 *                         NCCL_MIN/MAX_NCHANNELS
 * @param interLatencyUs   extra network latency per inter-node hop, µs (NCCL graph {@code latencyInter}; 0
 *                         when the topology has none); NCCL adds it twice for Simple (flush)
 * @param ringSameChannels whether the ring graph's channels are duplicates (NCCL graph {@code sameChannels}),
 *                         which decides broadcast/reduce ring latency (tuning.cc lines 395-402)
 * @param nvls             the NVLS graph, or why there is none
 * @param dtype            the element type (NVLS reduces only some, {@code NvlsSupport})
 * @param redop            the reduction (SUM for collectives without one)
 * @param collNet          the CollNet graphs (a SHARP network), or why there are none
 * @param netGraph         across nodes, the ring and tree graphs as NCCL's tuner reads them ({@link NetGraph}); null
 *                         on one node or where the caller has none, when {@code maxChannels} and the per-channel
 *                         bandwidths stand for them
 */
public record TuneInput(CollectiveOp op, long bytes, int nRanks, int nNodes, int gpusPerNode, double intraBwGBs,
                        double interBwGBs, LinkClass intraClass, int maxChannels, double interLatencyUs,
                        boolean ringSameChannels, NvlsGraph nvls, DataType dtype, ReduceOp redop, CollNetGraph collNet,
                        NetGraph netGraph) {

    /**
     * The ring and tree graphs across nodes as NCCL's ncclTopoTuneModel reads them (src/graph/tuning.cc): the search's
     * channels and speed after ncclTopoDupChannels, before ncclTopoPostset doubles the communicator's channels
     * ({@code graphs[a]->nChannels}, {@code bwIntra = bwInter}), and whether the tree search found the balanced
     * pattern (parent and children on two NICs) or only the plain tree, whose bandwidth NCCL takes at 0.85
     * ({@code maxTreePattern == NCCL_TOPO_PATTERN_TREE}).
     *
     * @param channels        search channels, &gt;= 1
     * @param bwGBs           their speed, GB/s, &gt; 0 (the ring graph's bwIntra = bwInter, the tree graph's bwInter)
     * @param treeIntraBwGBs  the tree graph's bwIntra, GB/s, &gt; 0: the search's speed before ncclTopoDupChannels
     *                        halved it, as the tree's NVLink part needs no NIC (48 with 4 NICs on 8 H100, whose
     *                        ring runs at 24)
     * @param balancedTree    whether the tree graph is NCCL_TOPO_PATTERN_BALANCED_TREE
     */
    public record NetGraph(int channels, double bwGBs, double treeIntraBwGBs, boolean balancedTree) {
        public NetGraph {
            if (channels < 1) throw new IllegalArgumentException("graph channels must be >= 1, got " + channels);
            if (!(bwGBs > 0) || Double.isInfinite(bwGBs)) throw new IllegalArgumentException("graph bandwidth must be finite and > 0, got " + bwGBs);
            if (!(treeIntraBwGBs > 0) || Double.isInfinite(treeIntraBwGBs)) {
                throw new IllegalArgumentException("tree intra bandwidth must be finite and > 0, got " + treeIntraBwGBs);
            }
        }
    }

    /** No graph across nodes given: {@code maxChannels} and the per-channel bandwidths stand for it. */
    public TuneInput(CollectiveOp op, long bytes, int nRanks, int nNodes, int gpusPerNode, double intraBwGBs,
                     double interBwGBs, LinkClass intraClass, int maxChannels, double interLatencyUs,
                     boolean ringSameChannels, NvlsGraph nvls, DataType dtype, ReduceOp redop, CollNetGraph collNet) {
        this(op, bytes, nRanks, nNodes, gpusPerNode, intraBwGBs, interBwGBs, intraClass, maxChannels, interLatencyUs,
                ringSameChannels, nvls, dtype, redop, collNet, null);
    }

    /** No CollNet graph ("no SHARP network given"). */
    public TuneInput(CollectiveOp op, long bytes, int nRanks, int nNodes, int gpusPerNode, double intraBwGBs,
                     double interBwGBs, LinkClass intraClass, int maxChannels, double interLatencyUs,
                     boolean ringSameChannels, NvlsGraph nvls, DataType dtype, ReduceOp redop) {
        this(op, bytes, nRanks, nNodes, gpusPerNode, intraBwGBs, interBwGBs, intraClass, maxChannels, interLatencyUs,
                ringSameChannels, nvls, dtype, redop, CollNetGraph.none("no SHARP network given"));
    }

    /** No NVLS graph ("no NVSwitch with multicast"), float sum: the inputs of Ring and Tree alone. */
    public TuneInput(CollectiveOp op, long bytes, int nRanks, int nNodes, int gpusPerNode, double intraBwGBs,
                     double interBwGBs, LinkClass intraClass, int maxChannels, double interLatencyUs,
                     boolean ringSameChannels) {
        this(op, bytes, nRanks, nNodes, gpusPerNode, intraBwGBs, interBwGBs, intraClass, maxChannels, interLatencyUs,
                ringSameChannels, NvlsGraph.none("no NVLS graph given"), DataType.FLOAT32, ReduceOp.SUM);
    }

    public TuneInput {
        Objects.requireNonNull(op, "op");
        Objects.requireNonNull(intraClass, "intraClass");
        Objects.requireNonNull(nvls, "nvls");
        Objects.requireNonNull(dtype, "dtype");
        Objects.requireNonNull(redop, "redop");
        Objects.requireNonNull(collNet, "collNet");
        if (bytes < 0) throw new IllegalArgumentException("bytes must be >= 0, got " + bytes);
        if (nRanks < 1) throw new IllegalArgumentException("nRanks must be >= 1, got " + nRanks);
        if (nNodes < 1 || nNodes > nRanks) {
            throw new IllegalArgumentException("nNodes must be in 1.." + nRanks + " (nRanks), got " + nNodes);
        }
        if ((long) nNodes * gpusPerNode != nRanks) {
            throw new IllegalArgumentException("nRanks (" + nRanks + ") must equal nNodes (" + nNodes
                    + ") × gpusPerNode (" + gpusPerNode + ")");
        }
        if (!(intraBwGBs > 0) || Double.isInfinite(intraBwGBs)) {
            throw new IllegalArgumentException("intraBwGBs must be finite and > 0, got " + intraBwGBs);
        }
        if (nNodes > 1 && (!(interBwGBs > 0) || Double.isInfinite(interBwGBs))) {
            throw new IllegalArgumentException("interBwGBs must be finite and > 0 with " + nNodes
                    + " nodes, got " + interBwGBs);
        }
        if (intraClass == LinkClass.NET) {
            throw new IllegalArgumentException("intraClass must be NVLINK or PCIE (the intra-node graph), got NET");
        }
        if (maxChannels < 1 || maxChannels > NcclEnv.MAX_CHANNELS) {
            throw new IllegalArgumentException("maxChannels must be in 1.." + NcclEnv.MAX_CHANNELS + ", got "
                    + maxChannels);
        }
        if (!(interLatencyUs >= 0) || Double.isInfinite(interLatencyUs)) {
            throw new IllegalArgumentException("interLatencyUs must be finite and >= 0, got " + interLatencyUs);
        }
    }

    /**
     * An input with no extra network latency and duplicated ring channels (what NCCL's ring search finds on
     * NVSwitch and rail-optimized systems).
     */
    public static TuneInput of(CollectiveOp op, long bytes, int nRanks, int nNodes, double intraBwGBs,
                               double interBwGBs, LinkClass intraClass, int maxChannels) {
        if (nNodes < 1) throw new IllegalArgumentException("nNodes must be >= 1, got " + nNodes);
        return new TuneInput(op, bytes, nRanks, nNodes, nRanks / nNodes, intraBwGBs, interBwGBs, intraClass,
                maxChannels, 0.0, true);
    }

    /** The same call with another size in bytes. */
    public TuneInput withBytes(long newBytes) {
        return new TuneInput(op, newBytes, nRanks, nNodes, gpusPerNode, intraBwGBs, interBwGBs, intraClass,
                maxChannels, interLatencyUs, ringSameChannels, nvls, dtype, redop, collNet, netGraph);
    }

    /** The same communicator and size for another collective. */
    public TuneInput withOp(CollectiveOp newOp) {
        return new TuneInput(newOp, bytes, nRanks, nNodes, gpusPerNode, intraBwGBs, interBwGBs, intraClass,
                maxChannels, interLatencyUs, ringSameChannels, nvls, dtype, redop, collNet, netGraph);
    }

    /** The same call of another element type and reduction. */
    public TuneInput withData(DataType newType, ReduceOp newRedop) {
        return new TuneInput(op, bytes, nRanks, nNodes, gpusPerNode, intraBwGBs, interBwGBs, intraClass,
                maxChannels, interLatencyUs, ringSameChannels, nvls, newType, newRedop, collNet, netGraph);
    }

    /** The same call with the NVLS graph {@code g}. */
    public TuneInput withNvls(NvlsGraph g) {
        return new TuneInput(op, bytes, nRanks, nNodes, gpusPerNode, intraBwGBs, interBwGBs, intraClass,
                maxChannels, interLatencyUs, ringSameChannels, g, dtype, redop, collNet, netGraph);
    }

    /** The same call with the CollNet graph {@code g}. */
    public TuneInput withCollNet(CollNetGraph g) {
        return new TuneInput(op, bytes, nRanks, nNodes, gpusPerNode, intraBwGBs, interBwGBs, intraClass,
                maxChannels, interLatencyUs, ringSameChannels, nvls, dtype, redop, g, netGraph);
    }
}
