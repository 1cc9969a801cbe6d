package io.ccsim.algorithms.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A ring plan's sequence key: equal keys mean equal step sequences; a rank-dependent sequence has none. */
class RingSequenceKeyTest {
    /** Rank r's steps on channel c as text: primitive, count, slots, and whether it sends to next / receives from prev. */
    private static List<String> steps(Plan p, int r, int c) {
        StepCursor cur = new StepCursor();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < p.stepCount(r, c, 0); i++) {
            p.step(r, c, 0, i, cur);
            out.add(cur.prim() + " " + cur.count() + " " + cur.slots() + " " + cur.nRecv() + " " + cur.nSend());
        }
        return out;
    }

    private static Plan plan(CollectiveOp op, long count, int n, Protocol proto) {
        CollectiveCall call = new CollectiveCall(op, count, DataType.FLOAT32, ReduceOp.SUM, 0, CommLayout.singleHost(n));
        return Planners.standard().plan(call, PlanOptions.of(Algorithm.RING, proto, 4));
    }

    @Test
    void equalKeysMeanEqualSequencesAndUnevenChunksHaveNoKey() {
        int keyed = 0;
        int unkeyed = 0;
        for (CollectiveOp op : new CollectiveOp[] {CollectiveOp.ALL_REDUCE, CollectiveOp.ALL_GATHER, CollectiveOp.REDUCE_SCATTER}) {
            for (Protocol proto : Protocol.values()) {
                for (long count : new long[] {1 << 16, 1 << 20, 100_003, 7}) {
                    Plan p = plan(op, count, 6, proto);
                    for (int c = 0; c < p.nChannels(); c++) {
                        List<String> first = steps(p, 0, c);
                        boolean allEqual = true;
                        for (int r = 1; r < p.nRanks(); r++) allEqual &= steps(p, r, c).equals(first);
                        long k0 = p.sequenceKey(0, c, 0);
                        for (int r = 1; r < p.nRanks(); r++) {
                            if (k0 != Plan.NO_KEY && p.sequenceKey(r, c, 0) == k0) {
                                assertThat(steps(p, r, c)).as("%s %s %d ch %d rank %d", op, proto, count, c, r).isEqualTo(first);
                            }
                        }
                        if (k0 == Plan.NO_KEY) unkeyed++;
                        else keyed++;
                        if (!allEqual) assertThat(k0).as("%s %s %d ch %d: ranks differ", op, proto, count, c).isEqualTo(Plan.NO_KEY);
                    }
                }
            }
        }
        assertThat(keyed).as("divisible sizes are keyed").isPositive();
        assertThat(unkeyed).as("an all-reduce of 100,003 floats on 6 ranks has uneven chunks").isPositive();
        Plan bcast = Planners.standard().plan(new CollectiveCall(CollectiveOp.BROADCAST, 1 << 16, DataType.FLOAT32,
                ReduceOp.SUM, 0, CommLayout.singleHost(4)), PlanOptions.of(Algorithm.RING, Protocol.SIMPLE, 2));
        assertThat(bcast.sequenceKey(1, 0, 0)).as("a broadcast depends on the root's position").isEqualTo(Plan.NO_KEY);
    }
}
