package io.ccsim.algorithms.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayDeque;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TimedQueuesTest {
    @Test
    void queuesAreIndependentFifos() {
        TimedQueues q = new TimedQueues(3, 2, 4, 8);
        q.push(0, 0, 100, 2);
        q.push(2, 0, 50, 1);
        q.push(0, 0, 120, 0);
        q.push(0, 1, 70, 5);
        assertThat(q.size(0, 0)).isEqualTo(2);
        assertThat(q.size(0, 1)).isEqualTo(1);
        assertThat(q.size(1, 0)).isZero();
        assertThat(q.size(2, 0)).isEqualTo(1);
        assertThat(q.size(2, 1)).isZero();
        assertThat(q.time(0, 0, 0)).isEqualTo(100);
        assertThat(q.slots(0, 0, 0)).isEqualTo(2);
        assertThat(q.time(0, 0, 1)).isEqualTo(120);
        assertThat(q.slots(0, 0, 1)).isZero();
        assertThat(q.time(0, 1, 0)).isEqualTo(70);
        assertThat(q.slots(0, 1, 0)).isEqualTo(5);
        assertThat(q.pop(0, 0)).isEqualTo(2);
        assertThat(q.time(0, 0, 0)).isEqualTo(120);
        assertThat(q.size(0, 1)).isEqualTo(1);
        assertThat(q.pop(2, 0)).isEqualTo(1);
        assertThat(q.size(2, 0)).isZero();
        assertThat(q.pop(0, 1)).isEqualTo(5);
    }

    @Test
    void capacityIsRoundedUpToAPowerOfTwo() {
        assertThat(new TimedQueues(1, 1, 4, 1).capacity()).isEqualTo(1);
        assertThat(new TimedQueues(1, 2, 4, 5).capacity()).isEqualTo(8);
        assertThat(new TimedQueues(1, 2, 4, 8).capacity()).isEqualTo(8);
    }

    /**
     * Against a reference deque per queue: wrap-around of the rings and growth past the capacity keep every entry in
     * order, in every queue of every block, and the counters between headers and rings are untouched by them.
     */
    @Test
    void matchesReferenceFifosThroughWrapAroundAndGrowth() {
        for (int queues = 1; queues <= 3; queues++) {
            for (int counters : new int[] {0, 2, 9}) matchesReference(queues, counters);
        }
    }

    private static void matchesReference(int queues, int counters) {
        int n = 5;
        TimedQueues q = new TimedQueues(n, queues, counters, 2);
        @SuppressWarnings("unchecked")
        ArrayDeque<long[]>[] ref = new ArrayDeque[n * queues];
        for (int i = 0; i < ref.length; i++) ref[i] = new ArrayDeque<>();
        Random rnd = new Random(42 + 7L * queues + counters);
        long[] last = new long[n * queues];
        for (int op = 0; op < 20_000; op++) {
            int k = rnd.nextInt(n);
            int r = rnd.nextInt(queues);
            ArrayDeque<long[]> d = ref[k * queues + r];
            if (rnd.nextInt(3) > 0 || d.isEmpty()) {
                last[k * queues + r] += rnd.nextInt(1000);
                int s = rnd.nextInt(9);
                q.push(k, r, last[k * queues + r], s);
                d.addLast(new long[] {last[k * queues + r], s});
            } else {
                assertThat(q.pop(k, r)).isEqualTo((int) d.removeFirst()[1]);
            }
            if (counters > 0) q.addCounter(k, counters - 1, 1); // counters sit between the headers and the rings
            for (int rr = 0; rr < queues; rr++) {
                ArrayDeque<long[]> e = ref[k * queues + rr];
                assertThat(q.size(k, rr)).isEqualTo(e.size());
                int i = 0;
                for (long[] x : e) {
                    assertThat(q.time(k, rr, i)).isEqualTo(x[0]);
                    assertThat(q.slots(k, rr, i)).isEqualTo((int) x[1]);
                    i++;
                }
            }
        }
        assertThat(q.capacity()).isGreaterThan(2);
        if (counters > 0) {
            long total = 0;
            for (int k = 0; k < n; k++) total += q.counter(k, counters - 1);
            assertThat(total).isEqualTo(20_000);
        }
    }

    @Test
    void ownerCountersArePerBlockAndSurviveGrowth() {
        TimedQueues q = new TimedQueues(3, 2, 4, 1);
        q.addCounter(1, 0, 5);
        q.addCounter(1, 3, -7);
        q.setCounter(2, 0, 11);
        q.setCounter(2, 3, -1);
        for (int i = 0; i < 9; i++) q.push(1, 1, 10L * i, i % 3); // grows 1 -> 16 entries
        q.push(1, 0, 3, 4);
        assertThat(q.capacity()).isEqualTo(16);
        assertThat(q.counter(0, 0)).isZero();
        assertThat(q.counter(1, 0)).isEqualTo(5);
        assertThat(q.counter(1, 3)).isEqualTo(-7);
        assertThat(q.counter(2, 0)).isEqualTo(11);
        assertThat(q.counter(2, 3)).isEqualTo(-1);
        assertThat(q.pop(1, 0)).isEqualTo(4);
        for (int i = 0; i < 9; i++) {
            assertThat(q.time(1, 1, 0)).isEqualTo(10L * i);
            assertThat(q.pop(1, 1)).isEqualTo(i % 3);
        }
    }

    @Test
    void entriesPackTimeAndSlotsUpToTheirLimits() {
        TimedQueues q = new TimedQueues(1, 2, 4, 2);
        q.push(0, 1, TimedQueues.MAX_TIME, TimedQueues.MAX_SLOTS);
        assertThat(q.time(0, 1, 0)).isEqualTo(TimedQueues.MAX_TIME);
        assertThat(q.slots(0, 1, 0)).isEqualTo(TimedQueues.MAX_SLOTS);
        assertThat(q.size(0, 0)).isZero();
        assertThatThrownBy(() -> q.push(0, 0, TimedQueues.MAX_TIME + 1, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("time");
        assertThatThrownBy(() -> q.push(0, 0, 5, TimedQueues.MAX_SLOTS + 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("slots");
        assertThatThrownBy(() -> q.push(0, 0, -1, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void badArgumentsAndEmptyPopAreErrors() {
        assertThatThrownBy(() -> new TimedQueues(-1, 1, 4, 8)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("block count");
        assertThatThrownBy(() -> new TimedQueues(1, 0, 4, 8)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("queues per block");
        assertThatThrownBy(() -> new TimedQueues(1, 5, 4, 8)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("queues per block");
        assertThatThrownBy(() -> new TimedQueues(1, 1, 4, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("capacity");
        assertThatThrownBy(() -> new TimedQueues(1, 1, 17, 4)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("counters");
        assertThatThrownBy(() -> new TimedQueues(2, 2, 4, 8).pop(1, 1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("queue 1 of block 1 is empty");
    }
}
