package io.ccsim.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The event queue against a map sorted by (time, insertion sequence), operation by operation, under time
 * patterns that reach each of its parts: the sorted run of the current 16,384-ps block, the bucket levels up to
 * times near 2^63, the side heap (times below the last head, and times in the block below the run's last),
 * cancellation and compaction, and instants holding thousands of events.
 */
class EventQueueReferenceTest {

    /** One queued event of the reference: its key, its handle and its own action. */
    private record Ref(long time, long seq, long handle, Runnable action) implements Comparable<Ref> {
        @Override
        public int compareTo(Ref o) {
            return time != o.time ? Long.compare(time, o.time) : Long.compare(seq, o.seq);
        }
    }

    /** The reference queue and the queue under test, driven together. */
    private static final class Pair {
        final EventQueue q = new EventQueue();
        final TreeMap<Ref, Ref> ref = new TreeMap<>();
        final Map<Long, Ref> byHandle = new HashMap<>();
        final List<Long> issued = new ArrayList<>(); // every handle ever returned, taken and cancelled ones included
        long seq;
        long head; // time of the last event taken

        void insert(long time) {
            Runnable action = () -> { };
            long h = q.enqueue(time, action);
            assertThat(h).isNotNegative();
            assertThat(byHandle).doesNotContainKey(h);
            Ref r = new Ref(time, seq++, h, action);
            ref.put(r, r);
            byHandle.put(h, r);
            issued.add(h);
        }

        void cancel(long h) {
            Ref r = byHandle.remove(h);
            assertThat(q.cancelEvent(h)).as("cancel %d", h).isEqualTo(r != null);
            if (r != null) {
                ref.remove(r);
            }
            assertThat(q.isQueued(h)).isFalse();
        }

        void take(String where) {
            Ref expected = ref.isEmpty() ? null : ref.pollFirstEntry().getKey();
            int slot = q.peek();
            if (expected == null) {
                assertThat(slot).as(where).isEqualTo(-1);
                return;
            }
            assertThat(slot).as(where).isNotNegative();
            assertThat(q.headTime()).as(where).isEqualTo(expected.time);
            assertThat(q.headSeq()).as(where).isEqualTo(expected.seq);
            assertThat(q.isQueued(expected.handle)).as(where).isTrue();
            assertThat(q.take(slot)).as(where).isSameAs(expected.action);
            assertThat(q.isQueued(expected.handle)).as(where).isFalse();
            byHandle.remove(expected.handle);
            head = expected.time;
        }

        void checkCounts() {
            assertThat(q.liveEvents()).isEqualTo(ref.size());
        }

        void drain(String where) {
            while (!ref.isEmpty()) {
                take(where);
            }
            take(where);
            for (long h : issued) {
                assertThat(q.isQueued(h)).as("handle %d after the drain", h).isFalse();
                assertThat(q.cancelEvent(h)).isFalse();
            }
        }
    }

    /** Inserts, cancels and takes at random, times drawn by {@code delay} from the last head. */
    private static void mix(long seed, int ops, int cancelPercent, int takePercent, LongUnaryOperator delay) {
        SplittableRandom r = new SplittableRandom(seed);
        Pair p = new Pair();
        for (int op = 0; op < ops; op++) {
            int what = r.nextInt(100);
            if (what < cancelPercent && !p.issued.isEmpty()) {
                p.cancel(p.issued.get(r.nextInt(p.issued.size())));
            } else if (what < cancelPercent + takePercent) {
                p.take("seed " + seed + " op " + op);
            } else {
                long d = delay.applyAsLong(r.nextLong());
                p.insert(d > 0 && p.head > Long.MAX_VALUE - d ? Long.MAX_VALUE - r.nextInt(1_000) : p.head + d);
            }
            p.checkCounts();
        }
        p.drain("seed " + seed + " drain");
    }

    @Test
    void equalTimesComeOutInInsertionOrder() {
        for (long seed = 0; seed < 10; seed++) {
            // delays 0..3 ps: every instant holds many events, all in the run
            mix(seed, 20_000, 5, 40, v -> Math.floorMod(v, 4));
        }
    }

    @Test
    void wideTimesReachEveryLevel() {
        for (long seed = 0; seed < 10; seed++) {
            // delays of every magnitude, 1 ps to ~2^61 ps: every level of buckets, and moves through each
            mix(seed, 20_000, 10, 40, v -> (v >>> 2) >>> Math.floorMod(v, 62));
        }
    }

    @Test
    void timesInsideTheRunsBlockGoToTheSideHeapInOrder() {
        for (long seed = 0; seed < 10; seed++) {
            // delays under one block, in random order: most land below the run's last time
            mix(seed, 20_000, 10, 45, v -> Math.floorMod(v, 20_000));
        }
    }

    @Test
    void timesBeforeTheLastHeadAreTakenFirst() {
        for (long seed = 0; seed < 10; seed++) {
            // a quarter of the inserts go up to 3,000 ps before the last head (allowed to the queue, not to
            // the simulator), some below zero
            mix(seed, 20_000, 10, 40, v -> Math.floorMod(v, 4) == 0 ? -Math.floorMod(v >>> 8, 3_000)
                    : Math.floorMod(v >>> 8, 1_000_000));
        }
    }

    @Test
    void heavyCancellationCompactsEveryPart() {
        for (long seed = 0; seed < 6; seed++) {
            // more cancels than takes: stale entries pass 1,024 and outnumber live ones, so the queue compacts
            // with entries in the run, in buckets of several levels and in the side heap
            mix(seed, 40_000, 45, 10, v -> Math.floorMod(v, 8) == 0 ? -Math.floorMod(v >>> 8, 500)
                    : (v >>> 8) >>> Math.floorMod(v, 40));
        }
    }

    @Test
    void largeInstantsScheduledFromEarlierInstants() {
        // the simulator's pattern: each instant's events schedule the next instant's, thousands per instant, some
        // at the same instant and some a few ps later
        Pair p = new Pair();
        SplittableRandom r = new SplittableRandom(7);
        for (int i = 0; i < 5_000; i++) {
            p.insert(1_000_000);
        }
        for (int step = 0; step < 40_000; step++) {
            p.take("step " + step);
            long now = p.head;
            int k = r.nextInt(10);
            if (k < 6) {
                p.insert(now + 4_000_000L); // the next step, 4 us later
            } else if (k < 8) {
                p.insert(now); // the same instant, behind every event of it
            } else if (k < 9) {
                p.insert(now + r.nextInt(3)); // a few ps later: the run's block
            } else if (!p.issued.isEmpty()) {
                p.cancel(p.issued.get(p.issued.size() - 1 - r.nextInt(Math.min(100, p.issued.size()))));
                p.insert(now + 4_000_000L);
            }
            p.checkCounts();
        }
        p.drain("large instants");
    }

    @Test
    void aSideEntryAndALaterRunEntryOfOneTimeKeepInsertionOrder() {
        Pair p = new Pair();
        p.insert(100);
        p.insert(200);
        p.insert(150); // below the run's last (200): the side heap
        for (int i = 0; i < 1_998; i++) {
            p.insert(1_000_000_000_000L); // live events in the buckets
        }
        int first = p.issued.size();
        for (int i = 0; i < 2_000; i++) {
            p.insert(300);
        }
        p.cancel(p.issued.get(1)); // 200
        // the queue compacts once stale entries pass 1,024 and outnumber live ones: with 2,001 cancelled against
        // 2,000 live, at the last of these cancels, which leaves the run [100]
        for (int i = first; i < p.issued.size(); i++) {
            p.cancel(p.issued.get(i));
        }
        p.insert(150); // now at or above the run's last: appended, after the side heap's older 150
        p.drain("equal times across run and side heap");
    }

    @Test
    void aBucketOfCancelledEventsIsPassedOver() {
        Pair p = new Pair();
        p.insert(0);
        for (int i = 0; i < 10; i++) {
            p.insert(1_000_000 + i); // one bucket, every event of it cancelled below: no compaction (10 stale)
        }
        p.insert(2_000_000);
        p.take("first");
        for (int i = 1; i <= 10; i++) {
            p.cancel(p.issued.get(i));
        }
        p.drain("past the cancelled bucket");
    }

    @Test
    void anEmptyQueueAcceptsAnyTime() {
        Pair p = new Pair();
        p.insert(5_000_000);
        p.take("first");
        p.insert(10); // below the last head with nothing queued: the base moves down
        p.insert(-7);
        p.insert(Long.MAX_VALUE);
        p.insert(Long.MIN_VALUE);
        p.insert(10);
        p.drain("extremes");
    }

    @Test
    void handlesStayUniqueAcrossSlotReuse() {
        EventQueue q = new EventQueue();
        long[] last = new long[4];
        java.util.Set<Long> seen = new java.util.HashSet<>();
        for (int i = 0; i < 50_000; i++) {
            long h = q.enqueue(i, () -> { });
            assertThat(seen.add(h)).as("handle %d issued twice", h).isTrue();
            for (long old : last) {
                assertThat(q.isQueued(old)).isFalse();
            }
            if (i % 3 == 0) {
                assertThat(q.cancelEvent(h)).isTrue();
            } else {
                int slot = q.peek();
                q.take(slot);
            }
            last[i % 4] = h;
        }
        // handles that were never issued name nothing, whatever their bits
        assertThat(q.isQueued(0)).isFalse();
        assertThat(q.isQueued(1L << 28)).isFalse(); // slot 0 with a generation not issued now
        assertThat(q.cancelEvent(-1)).isFalse();
    }
}
