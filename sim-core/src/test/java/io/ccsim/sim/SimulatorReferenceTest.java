package io.ccsim.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The simulator against a reference kernel written as plainly as possible: a {@link TreeMap} from (time, insertion
 * sequence) to the action, a list of end-of-instant actions, and the run loop of {@link Simulator}'s contract.
 *
 * <p>Both run the same random program: every action, when it runs, logs (its id, the clock) and then, from a random
 * stream of its own id, schedules events at delays of every magnitude (0, a few ps, inside a 16,384-ps block, up to
 * 2^50 ps), cancels and queries earlier events, and registers end-of-instant actions, which do the same. The driver
 * alternates {@code runUntil(time)} (often stopping just before the next event, so that later events are scheduled
 * below the queue's last head), {@code step()} and {@code run()}. Since an action's behaviour depends only on its id
 * and on what the kernel answers, any difference in order, cancellation or pending state shows as a difference of
 * the logs.
 */
class SimulatorReferenceTest {

    /** What the program needs of a kernel. */
    private interface Kernel {
        long now();

        long schedule(long delayPs, Runnable action);

        boolean cancel(long handle);

        boolean isPending(long handle);

        void atEndOfInstant(Runnable action);

        void runUntil(long timePs);

        boolean step();

        long pendingCount();
    }

    /** The simulator under test. */
    private static final class Real implements Kernel {
        final Simulator sim = new Simulator(1);

        @Override
        public long now() {
            return sim.now();
        }

        @Override
        public long schedule(long delayPs, Runnable action) {
            return sim.schedule(delayPs, action);
        }

        @Override
        public boolean cancel(long handle) {
            return sim.cancel(handle);
        }

        @Override
        public boolean isPending(long handle) {
            return sim.isPending(handle);
        }

        @Override
        public void atEndOfInstant(Runnable action) {
            sim.atEndOfInstant(action);
        }

        @Override
        public void runUntil(long timePs) {
            sim.runUntil(timePs);
        }

        @Override
        public boolean step() {
            return sim.step();
        }

        @Override
        public long pendingCount() {
            return sim.pendingCount();
        }
    }

    /** The reference: a sorted map and a list, the contract of {@link Simulator} read literally. */
    private static final class Reference implements Kernel {
        private record Key(long time, long seq) implements Comparable<Key> {
            @Override
            public int compareTo(Key o) {
                return time != o.time ? Long.compare(time, o.time) : Long.compare(seq, o.seq);
            }
        }

        private final TreeMap<Key, Runnable> queue = new TreeMap<>();
        private final Map<Long, Key> byHandle = new HashMap<>(); // pending events only
        private final List<Runnable> endOfInstant = new ArrayList<>();
        private long now;
        private long seq;

        @Override
        public long now() {
            return now;
        }

        @Override
        public long schedule(long delayPs, Runnable action) {
            Key k = new Key(now + delayPs, seq);
            queue.put(k, action);
            byHandle.put(seq, k);
            return seq++; // the sequence serves as the handle: unique for the whole run
        }

        @Override
        public boolean cancel(long handle) {
            Key k = byHandle.remove(handle);
            return k != null && queue.remove(k) != null;
        }

        @Override
        public boolean isPending(long handle) {
            return byHandle.containsKey(handle);
        }

        @Override
        public void atEndOfInstant(Runnable action) {
            endOfInstant.add(action);
        }

        @Override
        public void runUntil(long timePs) {
            while (dispatch(timePs)) {
                // loop
            }
            now = timePs;
        }

        @Override
        public boolean step() {
            return dispatch(Long.MAX_VALUE);
        }

        @Override
        public long pendingCount() {
            return queue.size();
        }

        /** One event, or the end-of-instant batch when the next event is later than now or there is none. */
        private boolean dispatch(long limit) {
            Map.Entry<Key, Runnable> first = queue.firstEntry();
            if (!endOfInstant.isEmpty() && (first == null || first.getKey().time > now)) {
                for (int i = 0; i < endOfInstant.size(); i++) { // those registered meanwhile join the batch
                    endOfInstant.get(i).run();
                }
                endOfInstant.clear();
                return true;
            }
            if (first == null || first.getKey().time > limit) {
                return false;
            }
            queue.remove(first.getKey());
            byHandle.remove(first.getKey().seq);
            now = first.getKey().time;
            first.getValue().run();
            return true;
        }
    }

    /** The random program, run on one kernel: the same seed gives the same actions whatever the kernel. */
    private static final class Program {
        final Kernel k;
        final long seed;
        final List<Long> log = new ArrayList<>(); // per action run: id, clock
        final List<Long> handles = new ArrayList<>(); // by event id: the kernel's handle
        int budget;
        long nextId;

        Program(Kernel k, long seed, int budget) {
            this.k = k;
            this.seed = seed;
            this.budget = budget;
        }

        /** A delay of one of the magnitudes the queue treats apart. */
        long delay(SplittableRandom r) {
            int kind = r.nextInt(20);
            if (kind < 5) {
                return 0; // the same instant
            } else if (kind < 7) {
                return r.nextInt(4); // a few ps
            } else if (kind < 11) {
                return r.nextInt(16_384); // within a block
            } else if (kind < 17) {
                return r.nextInt(4_000_000); // the next 4 us
            } else if (kind < 19) {
                return r.nextLong(1L << 40);
            }
            return r.nextLong(1L << 50);
        }

        void scheduleNew(long delayPs) {
            long id = nextId++;
            handles.add(k.schedule(delayPs, () -> event(id)));
        }

        void event(long id) {
            log.add(id);
            log.add(k.now());
            SplittableRandom r = new SplittableRandom(seed * 1_000_003 + id);
            if (budget-- > 0) {
                int n = r.nextInt(20);
                int events = n < 6 ? 0 : n < 15 ? 1 : 2; // 0.95 on average: the population shrinks slowly
                for (int i = 0; i < events; i++) {
                    scheduleNew(delay(r));
                }
            }
            int what = r.nextInt(10);
            if (what == 0 && !handles.isEmpty()) {
                long h = handles.get(r.nextInt(handles.size()));
                log.add(k.cancel(h) ? 1L : 0L);
            } else if (what == 1 && !handles.isEmpty()) {
                long h = handles.get(Math.max(0, handles.size() - 1 - r.nextInt(50)));
                log.add(k.isPending(h) ? 1L : 0L);
            } else if (what == 2) {
                long eid = nextId++;
                k.atEndOfInstant(() -> endOfInstant(eid));
            }
        }

        void endOfInstant(long id) {
            log.add(-id);
            log.add(k.now());
            SplittableRandom r = new SplittableRandom(seed * 1_000_003 + id);
            int what = r.nextInt(10);
            if (what < 3) {
                scheduleNew(0); // runs after the batch, then a new batch if it registers more
            } else if (what < 5) {
                scheduleNew(delay(r));
            } else if (what == 5) {
                long eid = nextId++;
                k.atEndOfInstant(() -> endOfInstant(eid)); // joins the running batch
            } else if (what == 6 && !handles.isEmpty()) {
                log.add(k.cancel(handles.get(r.nextInt(handles.size()))) ? 1L : 0L);
            }
        }

        /** Seeds the queue, then alternates runUntil, step and a final drain. */
        void run() {
            SplittableRandom r = new SplittableRandom(seed);
            for (int i = 0; i < 2_000; i++) {
                scheduleNew(r.nextInt(8) == 0 ? 0 : delay(r));
            }
            while (k.pendingCount() > 0 || budget > 0) {
                int what = r.nextInt(4);
                if (what == 0) {
                    for (int i = r.nextInt(100); i >= 0; i--) {
                        k.step();
                    }
                } else {
                    // often a stop inside the next block: the queue has looked past the clock
                    long gap = what == 1 ? r.nextInt(3) : what == 2 ? r.nextInt(20_000) : r.nextInt(5_000_000);
                    k.runUntil(k.now() + gap);
                    for (int i = r.nextInt(3); i > 0; i--) {
                        scheduleNew(r.nextInt(30_000)); // from outside any action, below the last head too
                    }
                }
                log.add(k.pendingCount());
                if (k.pendingCount() == 0 && budget > 0) {
                    scheduleNew(delay(r));
                }
            }
            while (k.step()) {
                // the end-of-instant actions left
            }
            log.add(k.now());
        }
    }

    private static void compare(long seed, int budget) {
        Program real = new Program(new Real(), seed, budget);
        Program ref = new Program(new Reference(), seed, budget);
        real.run();
        ref.run();
        assertThat(ref.log.size()).as("seed %d: the reference ran", seed).isGreaterThan(2 * budget);
        int n = Math.min(real.log.size(), ref.log.size());
        for (int i = 0; i < n; i++) {
            if (!real.log.get(i).equals(ref.log.get(i))) {
                assertThat(real.log.subList(i, Math.min(n, i + 12))).as("seed %d, log from entry %d", seed, i)
                        .isEqualTo(ref.log.subList(i, Math.min(n, i + 12)));
            }
        }
        assertThat(real.log.size()).as("seed %d: log length", seed).isEqualTo(ref.log.size());
    }

    @Test
    void randomProgramsRunAsOnTheReference() {
        for (long seed = 1; seed <= 12; seed++) {
            compare(seed, 20_000);
        }
    }
}
