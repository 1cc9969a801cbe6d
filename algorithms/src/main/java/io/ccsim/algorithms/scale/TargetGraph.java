package io.ccsim.algorithms.scale;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.graph.CommGraph;
import io.ccsim.algorithms.tuner.CollNetGraph;
import io.ccsim.algorithms.tuner.NvlsGraph;
import io.ccsim.algorithms.tuner.TuneInput;

import java.util.Objects;

/**
 * The tuner's view of a communicator over all GPUs of {@code nodes} identical nodes, without building them: the graph
 * of a communicator over fewer of the same nodes, with the rank and node counts of the target.
 *
 * <p>Contract: for a cluster built by one builder from {@code nodes} boards, {@link #tuneInput} equals what
 * {@link CommGraph#tuneInput} gives on the built cluster, for any sample graph of 2 or more of its nodes.
 *
 * @param sample     a graph over all GPUs of 2 or more of the same nodes
 * @param sampleName the name of the sample's topology
 * @param nodes      the target's node count, ≥ 2
 * @param name       the name of the target's topology (where the sample's reasons for no NVLS or CollNet graph name
 *                   the sample's topology, the target's reasons name this)
 */
public record TargetGraph(CommGraph sample, String sampleName, int nodes, String name) {
    /*
     * What NCCL's tuner reads (src/graph/tuning.cc ncclTopoTuneModel, through TuneInput) comes from its graph search
     * per node and per NIC (src/graph/search.cc): the intra-node class and bandwidth, the channel count, the network
     * bandwidth per channel, the NVLS and CollNet graphs. In ccsim's model of that search (CommGraph, NvlsSearch,
     * CollNetSearch) each is a function of one node's GPUs, links and NICs, and of the node count only through
     * "more than one node" (bwInter is used from 2 nodes on, NVLS heads are the NICs' GPUs across nodes, CollNet needs
     * 2 nodes); the rest of the tuner's input is nRanks = nodes x ranks per node and nNodes. So the graph of any 2 or
     * more nodes of the cluster, with those two counts replaced, is the target's: TargetGraphTest checks it against
     * built clusters of 2 to 40 nodes, with and without SHARP, with 4 NICs per node and with one GPU per node.
     */

    public TargetGraph {
        Objects.requireNonNull(sample, "sample");
        Objects.requireNonNull(sampleName, "sampleName");
        Objects.requireNonNull(name, "name");
        if (sample.nNodes() < 2) {
            throw new IllegalArgumentException("the sample graph must span 2 or more nodes (bandwidths across nodes), got "
                    + sample.nNodes());
        }
        if (nodes < 2) throw new IllegalArgumentException("the target must have 2 or more nodes, got " + nodes);
        if ((long) nodes * sample.gpusPerNode() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(nodes + " nodes of " + sample.gpusPerNode() + " ranks are more ranks than"
                    + " an int counts");
        }
    }

    /** Ranks of the target: its nodes times the sample's ranks per node. */
    public int nRanks() { return nodes * sample.gpusPerNode(); }

    /** The tuner's input for {@code op} of {@code bytes} (NCCL's nBytes) of {@code dtype} reduced by {@code redop}. */
    public TuneInput tuneInput(CollectiveOp op, long bytes, DataType dtype, ReduceOp redop) {
        TuneInput s = sample.tuneInput(op, bytes, dtype, redop);
        NvlsGraph nvls = s.nvls().refusal().isEmpty() ? s.nvls() : NvlsGraph.none(renamed(s.nvls().refusal().get()));
        CollNetGraph collNet = s.collNet().available() ? s.collNet() : CollNetGraph.none(renamed(s.collNet().refusal().get()));
        return new TuneInput(op, bytes, nRanks(), nodes, s.gpusPerNode(), s.intraBwGBs(), s.interBwGBs(), s.intraClass(),
                s.maxChannels(), s.interLatencyUs(), s.ringSameChannels(), nvls, s.dtype(), s.redop(), collNet, s.netGraph());
    }

    /** {@code reason} naming the target's topology where it names the sample's. */
    private String renamed(String reason) {
        return reason.replace("topology " + sampleName + " ", "topology " + name + " ");
    }
}
