package io.ccsim.sim;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The event queue alone: (time, insertion sequence) order, cancellation and handles, against a sorted reference. */
class EventQueueTest {

    /** The queue's head order must be that of a map sorted by (time, sequence), also for times below the last head. */
    @Test
    void takesEventsInTimeThenInsertionOrderAgainstASortedReference() {
        for (long seed = 0; seed < 30; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            EventQueue q = new EventQueue();
            // reference: (time, seq) -> handle; seq is the queue's insertion order
            TreeMap<long[], Long> ref = new TreeMap<>((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
            List<long[]> keys = new ArrayList<>();
            Runnable noop = () -> { };
            long seq = 0;
            long head = 0;
            for (int op = 0; op < 20_000; op++) {
                int what = r.nextInt(10);
                if (what < 5 || ref.isEmpty()) {
                    // mostly at or after the last head (as the simulator's clock guarantees), sometimes before it
                    long t = r.nextInt(8) == 0 ? Math.max(0, head - r.nextInt(50)) : head + r.nextInt(r.nextBoolean() ? 4 : 100_000);
                    long h = q.enqueue(t, noop);
                    long[] k = {t, seq++};
                    ref.put(k, h);
                    keys.add(k);
                } else if (what < 7) {
                    long[] k = keys.get(r.nextInt(keys.size()));
                    Long h = ref.remove(k);
                    assertThat(q.cancelEvent(h == null ? -1 : h)).isEqualTo(h != null);
                } else {
                    int slot = q.peek();
                    long[] expected = ref.firstKey();
                    assertThat(q.headTime()).as("seed %d op %d", seed, op).isEqualTo(expected[0]);
                    assertThat(q.headSeq()).isEqualTo(expected[1]);
                    long h = ref.remove(expected);
                    assertThat(q.isQueued(h)).isTrue();
                    assertThat(q.take(slot)).isSameAs(noop);
                    assertThat(q.isQueued(h)).isFalse();
                    head = expected[0];
                }
                assertThat(q.liveEvents()).isEqualTo(ref.size());
            }
            while (!ref.isEmpty()) {
                int slot = q.peek();
                long[] expected = ref.pollFirstEntry().getKey();
                assertThat(q.headTime()).isEqualTo(expected[0]);
                assertThat(q.headSeq()).isEqualTo(expected[1]);
                q.take(slot);
            }
            assertThat(q.peek()).isEqualTo(-1);
        }
    }

    @Test
    void handlesOfTakenOrCancelledEventsNeverNameALaterOne() {
        EventQueue q = new EventQueue();
        Set<Long> seen = new HashSet<>();
        long previous = -1;
        for (int i = 0; i < 10_000; i++) {
            long h = q.enqueue(i, () -> { });
            assertThat(h).isNotNegative();
            assertThat(seen.add(h)).as("handle %d reused", h).isTrue();
            assertThat(q.isQueued(previous)).isFalse();
            if (i % 2 == 0) {
                assertThat(q.cancelEvent(h)).isTrue();
                assertThat(q.cancelEvent(h)).isFalse();
            } else {
                q.take(q.peek());
            }
            previous = h;
        }
        assertThat(q.liveEvents()).isZero();
        assertThat(q.peek()).isEqualTo(-1);
        assertThat(q.cancelEvent(-5)).isFalse();
        assertThat(q.cancelEvent(Long.MAX_VALUE)).isFalse();
        assertThat(q.isQueued(Long.MAX_VALUE)).isFalse();
    }

    @Test
    void massCancellationKeepsTheLiveEventsInOrder() {
        EventQueue q = new EventQueue();
        long[] handles = new long[10_000];
        for (int i = 0; i < handles.length; i++) {
            handles[i] = q.enqueue((i * 7919L) % 10_000, () -> { });
        }
        for (int i = 0; i < handles.length; i += 2) {
            assertThat(q.cancelEvent(handles[i])).isTrue(); // past 1,024 stale entries the queue compacts
        }
        assertThat(q.liveEvents()).isEqualTo(5_000);
        for (int i = 1; i < handles.length; i += 2) {
            assertThat(q.isQueued(handles[i])).isTrue();
        }
        long last = -1;
        int taken = 0;
        for (int slot = q.peek(); slot >= 0; slot = q.peek()) {
            assertThat(q.headTime()).isGreaterThanOrEqualTo(last);
            last = q.headTime();
            q.take(slot);
            taken++;
        }
        assertThat(taken).isEqualTo(5_000);
    }
}
