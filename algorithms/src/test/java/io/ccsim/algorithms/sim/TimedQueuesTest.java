package io.ccsim.algorithms.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayDeque;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TimedQueuesTest {
    @Test
    void queuesAreIndependentFifos() {
        TimedQueues q = new TimedQueues(3, 4, 8);
        q.push(0, 100, 2);
        q.push(2, 50, 1);
        q.push(0, 120, 0);
        assertThat(q.size(0)).isEqualTo(2);
        assertThat(q.size(1)).isZero();
        assertThat(q.size(2)).isEqualTo(1);
        assertThat(q.time(0, 0)).isEqualTo(100);
        assertThat(q.slots(0, 0)).isEqualTo(2);
        assertThat(q.time(0, 1)).isEqualTo(120);
        assertThat(q.slots(0, 1)).isZero();
        assertThat(q.pop(0)).isEqualTo(2);
        assertThat(q.time(0, 0)).isEqualTo(120);
        assertThat(q.pop(2)).isEqualTo(1);
        assertThat(q.size(2)).isZero();
    }

    @Test
    void capacityIsRoundedUpToAPowerOfTwo() {
        assertThat(new TimedQueues(1, 4, 1).capacity()).isEqualTo(1);
        assertThat(new TimedQueues(1, 4, 5).capacity()).isEqualTo(8);
        assertThat(new TimedQueues(1, 4, 8).capacity()).isEqualTo(8);
    }

    /** Against a reference deque per queue: wrap-around of the ring and growth past the capacity keep every entry in order. */
    @Test
    void matchesReferenceFifosThroughWrapAroundAndGrowth() {
        for (int counters : new int[] {0, 2, 4}) matchesReference(counters);
    }

    private static void matchesReference(int counters) {
        int n = 5;
        TimedQueues q = new TimedQueues(n, counters, 2);
        @SuppressWarnings("unchecked")
        ArrayDeque<long[]>[] ref = new ArrayDeque[n];
        for (int i = 0; i < n; i++) ref[i] = new ArrayDeque<>();
        Random rnd = new Random(42);
        long[] last = new long[n];
        for (int op = 0; op < 20_000; op++) {
            int k = rnd.nextInt(n);
            if (rnd.nextInt(3) > 0 || ref[k].isEmpty()) {
                last[k] += rnd.nextInt(1000);
                int s = rnd.nextInt(9);
                q.push(k, last[k], s);
                ref[k].addLast(new long[] {last[k], s});
            } else {
                assertThat(q.pop(k)).isEqualTo((int) ref[k].removeFirst()[1]);
            }
            if (counters > 0) q.addCounter(k, counters - 1, 1); // counters sit between header and entries
            assertThat(q.size(k)).isEqualTo(ref[k].size());
            int i = 0;
            for (long[] e : ref[k]) {
                assertThat(q.time(k, i)).isEqualTo(e[0]);
                assertThat(q.slots(k, i)).isEqualTo((int) e[1]);
                i++;
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
    void ownerCountersArePerQueueAndSurviveGrowth() {
        TimedQueues q = new TimedQueues(3, 4, 1);
        q.addCounter(1, 0, 5);
        q.addCounter(1, 3, -7);
        q.addCounter(2, 0, 11);
        for (int i = 0; i < 9; i++) q.push(1, 10L * i, i % 3); // grows 1 -> 16 entries
        assertThat(q.capacity()).isEqualTo(16);
        assertThat(q.counter(0, 0)).isZero();
        assertThat(q.counter(1, 0)).isEqualTo(5);
        assertThat(q.counter(1, 3)).isEqualTo(-7);
        assertThat(q.counter(2, 0)).isEqualTo(11);
        for (int i = 0; i < 9; i++) {
            assertThat(q.time(1, 0)).isEqualTo(10L * i);
            assertThat(q.pop(1)).isEqualTo(i % 3);
        }
    }

    @Test
    void entriesPackTimeAndSlotsUpToTheirLimits() {
        TimedQueues q = new TimedQueues(1, 4, 2);
        q.push(0, TimedQueues.MAX_TIME, TimedQueues.MAX_SLOTS);
        assertThat(q.time(0, 0)).isEqualTo(TimedQueues.MAX_TIME);
        assertThat(q.slots(0, 0)).isEqualTo(TimedQueues.MAX_SLOTS);
        assertThatThrownBy(() -> q.push(0, TimedQueues.MAX_TIME + 1, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("time");
        assertThatThrownBy(() -> q.push(0, 5, TimedQueues.MAX_SLOTS + 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("slots");
        assertThatThrownBy(() -> q.push(0, -1, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void badArgumentsAndEmptyPopAreErrors() {
        assertThatThrownBy(() -> new TimedQueues(-1, 4, 8)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("queue count");
        assertThatThrownBy(() -> new TimedQueues(1, 4, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("capacity");
        assertThatThrownBy(() -> new TimedQueues(1, 17, 4)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("counters");
        assertThatThrownBy(() -> new TimedQueues(2, 4, 8).pop(1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("queue 1 is empty");
    }
}
