package io.ccsim.algorithms.scale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.graph.CommGraph;
import io.ccsim.algorithms.net.NetPolicy;
import io.ccsim.algorithms.tuner.TuneInput;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import org.junit.jupiter.api.Test;

/** The tuner's input at a node count, from the graph of 2 nodes, equals the one of the built cluster. */
class TargetGraphTest {

    @Test
    void theTunersInputAtNNodesIsTheBuiltClustersOne() {
        BuildOptions[] shapes = {
            BuildOptions.of(0, 2), BuildOptions.of(0, 2).withNicsPerNode(4), BuildOptions.of(0, 2).withSharp(true),
            BuildOptions.of(1, 2), BuildOptions.of(2, 2), new BuildOptions(0, 2, 2.0, 0L),
        };
        CollectiveOp[] ops = {CollectiveOp.ALL_REDUCE, CollectiveOp.ALL_GATHER, CollectiveOp.BROADCAST};
        for (String board : new String[] {"hgx-h100", "hgx-b200"}) {
            for (BuildOptions shape : shapes) {
                CommGraph two = graph(board, shape);
                String twoName = TopologyCatalog.fullName(board, shape);
                for (int nodes : new int[] {2, 3, 5, 33, 40}) {
                    CommGraph built = graph(board, shape.withNodes(nodes));
                    TargetGraph target = new TargetGraph(two, twoName, nodes, TopologyCatalog.fullName(board, shape.withNodes(nodes)));
                    assertThat(target.nRanks()).isEqualTo(built.nRanks());
                    for (CollectiveOp op : ops) {
                        for (long bytes : new long[] {1024, 64L << 20}) {
                            TuneInput want = built.tuneInput(op, bytes, DataType.BFLOAT16, ReduceOp.SUM);
                            assertThat(target.tuneInput(op, bytes, DataType.BFLOAT16, ReduceOp.SUM))
                                    .as(board + " " + shape + " at " + nodes + " nodes, " + op + " " + bytes).isEqualTo(want);
                        }
                    }
                }
            }
        }
    }

    @Test
    void aGraphOfOneNodeOrATargetOfOneIsRefused() {
        CommGraph one = graph("hgx-h100", BuildOptions.of(0, 1));
        assertThatThrownBy(() -> new TargetGraph(one, "a", 8, "b")).hasMessageContaining("2 or more nodes");
        CommGraph two = graph("hgx-h100", BuildOptions.of(0, 2));
        assertThatThrownBy(() -> new TargetGraph(two, "a", 1, "b")).hasMessage("the target must have 2 or more nodes, got 1");
        assertThatThrownBy(() -> new TargetGraph(two, "a", Integer.MAX_VALUE / 4, "b"))
                .hasMessageContaining("more ranks than an int");
    }

    private static CommGraph graph(String board, BuildOptions o) {
        Topology t = TopologyCatalog.build(board, o);
        return CommGraph.of(t, t.gpus().size(), NetPolicy.DEFAULT);
    }
}
