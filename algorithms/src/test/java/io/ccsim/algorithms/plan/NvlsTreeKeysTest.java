package io.ccsim.algorithms.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * NVLSTree's structural keys, checked against the steps themselves: two actors of a channel (ranks or switch actors)
 * with equal sequence keys have equal step sequences, peers named by the order in which the actor first meets them;
 * two channels the plan calls alike ({@link Plan#sameChannelSteps}) have equal sequences for every actor and lane,
 * peers by id; and the keys leave the folding little to read.
 */
class NvlsTreeKeysTest {
    private static final int[][] LAYOUTS = {{2, 8}, {3, 8}, {5, 4}, {16, 8}, {4, 2}, {2, 36}};
    private static final long[] COUNTS = {1 << 22, 100_003, 1 << 12};

    private static Plan plan(int hosts, int gpus, long count) {
        CollectiveCall call = new CollectiveCall(CollectiveOp.ALL_REDUCE, count, DataType.FLOAT32, ReduceOp.SUM, 0,
                CommLayout.uniform(hosts, gpus));
        return Planners.standard().plan(call, PlanOptions.of(Algorithm.NVLS_TREE, Protocol.SIMPLE, 16));
    }

    /** A plan of the grid and how it was made, for messages. */
    private record Case(String name, Plan plan) { }

    /** Every layout with every count. */
    private static List<Case> grid() {
        List<Case> out = new java.util.ArrayList<>();
        for (int[] layout : LAYOUTS) {
            for (long count : COUNTS) {
                out.add(new Case(layout[0] + "x" + layout[1] + " count " + count, plan(layout[0], layout[1], count)));
            }
        }
        return out;
    }

    @Test
    void equalKeysMeanEqualSequences() {
        int keyed = 0;
        for (Case g : grid()) {
            Plan p = g.plan();
            for (int c = 0; c < p.nChannels(); c += 5) {
                Map<Long, List<String>> byKey = new HashMap<>();
                for (int a = 0; a < p.nActors(); a++) {
                    long k = p.sequenceKey(a, c, 0);
                    assertThat(k).isNotEqualTo(Plan.NO_KEY);
                    for (int l = 1; l < p.nLanes(); l++) assertThat(p.sequenceKey(a, c, l)).isEqualTo(k);
                    List<String> s = StepSequences.of(p, a, c, true);
                    List<String> first = byKey.putIfAbsent(k, s);
                    if (first != null) {
                        assertThat(s).as("%s ch %d actor %d", g.name(), c, a).isEqualTo(first);
                    }
                }
                keyed += byKey.size();
                // heads by local index, root or not, 0-2 children; switch actors by kind and head: a few dozen
                assertThat(byKey.size()).isLessThan(p.nActors());
            }
        }
        assertThat(keyed).isGreaterThan(100);
    }

    @Test
    void channelsCalledAlikeHaveEqualSequences() {
        int alike = 0;
        for (Case g : grid()) {
            Plan p = g.plan();
            for (int c = 1; c < p.nChannels(); c++) {
                for (int r = 0; r < c; r++) {
                    if (!p.sameChannelSteps(r, c)) continue;
                    alike++;
                    for (int a = 0; a < p.nActors(); a++) {
                        assertThat(StepSequences.of(p, a, c, false)).as("%s ch %d~%d actor %d", g.name(), r, c, a)
                                .isEqualTo(StepSequences.of(p, a, r, false));
                    }
                }
            }
            // the two trees (c mod 2) never alike
            assertThat(p.sameChannelSteps(0, 1)).isFalse();
        }
        assertThat(alike).as("equal parts of one tree").isGreaterThan(100);
    }

    @Test
    void theKeysLeaveTheFoldingReadsThatDoNotGrowWithTheNodes() {
        long[] steps = new long[2];
        long[] reads = new long[2];
        for (int i = 0; i < 2; i++) {
            Plan p = plan(16 << i, 8, 1 << 24);
            for (int c = 0; c < p.nChannels(); c++) {
                for (int a = 0; a < p.nActors(); a++) {
                    for (int l = 0; l < p.nLanes(); l++) steps[i] += p.stepCount(a, c, l);
                }
            }
            reads[i] = io.ccsim.algorithms.sim.FoldingReads.of(p);
        }
        // one actor per key and channel: the same keys on 16 and 32 nodes, while the steps double
        assertThat(steps[1]).isGreaterThan(2 * steps[0] - steps[0] / 10);
        assertThat(reads[1]).isEqualTo(reads[0]);
        assertThat(reads[0]).isLessThan(steps[0] / 5);
    }
}
