package io.ccsim.algorithms.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The double binary tree's sequence key: two ranks of a channel with equal keys in both lanes have equal step sequences,
 * peers named by the order in which the rank first meets them; ranks of different shapes have different keys.
 */
class TreeSequenceKeyTest {
    @Test
    void equalKeysMeanEqualSequencesAcrossBothLanes() {
        int shapes = 0;
        for (int[] hostsAndGpus : new int[][] {{1, 8}, {2, 4}, {5, 3}, {12, 2}, {33, 1}, {16, 8}}) {
            for (long count : new long[] {1 << 18, 100_003}) {
                CollectiveCall call = new CollectiveCall(CollectiveOp.ALL_REDUCE, count, DataType.FLOAT32, ReduceOp.SUM, 0,
                        CommLayout.uniform(hostsAndGpus[0], hostsAndGpus[1]));
                Plan p = Planners.standard().plan(call, PlanOptions.of(Algorithm.TREE, Protocol.SIMPLE, 8));
                for (int c = 0; c < p.nChannels(); c++) {
                    Map<Long, List<String>> byKey = new HashMap<>();
                    Set<List<String>> sequences = new HashSet<>();
                    for (int r = 0; r < p.nRanks(); r++) {
                        long k = p.sequenceKey(r, c, 0);
                        assertThat(k).isNotEqualTo(Plan.NO_KEY).isEqualTo(p.sequenceKey(r, c, 1));
                        List<String> s = StepSequences.of(p, r, c, true);
                        List<String> first = byKey.putIfAbsent(k, s);
                        if (first != null) {
                            assertThat(s).as("%s ch %d rank %d", java.util.Arrays.toString(hostsAndGpus), c, r).isEqualTo(first);
                        }
                        sequences.add(s);
                    }
                    assertThat(byKey).as("one key per distinct sequence").hasSameSizeAs(sequences);
                    shapes += byKey.size();
                }
            }
        }
        assertThat(shapes).as("roots, chain links, leaves and heads with one or two child hosts").isGreaterThan(100);
    }
}
