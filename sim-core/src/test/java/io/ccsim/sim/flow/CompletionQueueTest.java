package io.ccsim.sim.flow;

import io.ccsim.sim.Simulator;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Flows by (completion time, id): the head against a sorted reference, positions kept in the flows. */
class CompletionQueueTest {
    private final FlowNetwork net = new FlowNetwork(new Simulator(1));

    private Flow flow(long id) {
        return new Flow(net, id, new int[0], 1, 1, null, 0, new Constraint[0], new int[0]);
    }

    @Test
    void nextTimeIsTheLeastThroughAddsRemovesAndChangedTimes() {
        Comparator<Flow> order = Comparator.<Flow>comparingLong(f -> f.completionTime).thenComparingLong(Flow::id);
        for (long seed = 0; seed < 50; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            CompletionQueue q = new CompletionQueue();
            assertThat(q.nextTime()).isEqualTo(Long.MAX_VALUE);
            List<Flow> in = new ArrayList<>();
            List<Flow> out = new ArrayList<>();
            for (int i = 0; i < 40; i++) out.add(flow(i));
            for (int op = 0; op < 2_000; op++) {
                int what = r.nextInt(3);
                if (what == 0 && !out.isEmpty()) {
                    Flow f = out.remove(r.nextInt(out.size()));
                    f.completionTime = r.nextInt(100); // ties: broken by id
                    q.add(f);
                    in.add(f);
                } else if (what == 1 && !in.isEmpty()) {
                    Flow f = in.remove(r.nextInt(in.size()));
                    q.remove(f);
                    assertThat(f.heapPos).isEqualTo(-1);
                    q.remove(f); // absent: nothing
                    out.add(f);
                } else if (!in.isEmpty()) {
                    Flow f = in.get(r.nextInt(in.size()));
                    f.completionTime = r.nextInt(100);
                    q.fix(f);
                }
                assertThat(q.size()).isEqualTo(in.size());
                long expected = in.stream().min(order).map(f -> f.completionTime).orElse(Long.MAX_VALUE);
                assertThat(q.nextTime()).as("seed %d op %d", seed, op).isEqualTo(expected);
            }
            // drained in (time, id) order
            List<Flow> sorted = new ArrayList<>(in);
            sorted.sort(order);
            for (Flow f : sorted) {
                assertThat(q.nextTime()).isEqualTo(f.completionTime);
                assertThat(f.heapPos).isZero();
                q.remove(f);
            }
            assertThat(q.size()).isZero();
        }
    }
}
