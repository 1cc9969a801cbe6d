package io.ccsim.sim;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SimulatorTest {

    @Test
    void endOfInstantActionsRunAfterEveryEventOfTheirTime() {
        Simulator sim = new Simulator(1);
        java.util.List<String> log = new java.util.ArrayList<>();
        sim.schedule(10, () -> {
            log.add("a@" + sim.now());
            sim.atEndOfInstant(() -> log.add("eoi1@" + sim.now()));
            sim.schedule(0, () -> log.add("b@" + sim.now())); // same instant: before the end-of-instant batch
        });
        sim.schedule(10, () -> {
            log.add("c@" + sim.now());
            sim.atEndOfInstant(() -> {
                log.add("eoi2@" + sim.now());
                sim.schedule(0, () -> log.add("d@" + sim.now())); // runs after the batch, then time moves on
            });
        });
        sim.schedule(20, () -> log.add("e@" + sim.now()));
        assertThat(sim.hasPending()).isTrue();
        sim.run();
        assertThat(log).containsExactly("a@10", "c@10", "b@10", "eoi1@10", "eoi2@10", "d@10", "e@20");
        assertThat(sim.endOfInstantRuns()).isEqualTo(2);
        // runUntil(time) also finishes the instant's batch before stopping
        sim.schedule(5, () -> sim.atEndOfInstant(() -> log.add("f@" + sim.now())));
        sim.runUntil(25);
        assertThat(log).endsWith("f@25");
        assertThat(sim.hasPending()).isFalse();
    }

    @Test
    void ordersByTimeThenInsertion() {
        Simulator sim = new Simulator(1);
        List<String> log = new ArrayList<>();
        sim.schedule(30, () -> log.add("c@30"));
        sim.schedule(10, () -> log.add("a@10"));
        sim.schedule(20, () -> log.add("b1@20"));
        sim.schedule(20, () -> log.add("b2@20"));
        sim.scheduleAt(20, () -> log.add("b3@20"));
        sim.schedule(0, () -> log.add("z@0"));
        sim.run();
        assertThat(log).containsExactly("z@0", "a@10", "b1@20", "b2@20", "b3@20", "c@30");
        assertThat(sim.now()).isEqualTo(30);
        assertThat(sim.dispatchedCount()).isEqualTo(6);
        assertThat(sim.hasPending()).isFalse();
    }

    @Test
    void equalTimeIsFifoEvenWhenScheduledFromActions() {
        Simulator sim = new Simulator(1);
        List<Integer> log = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            int k = i;
            sim.schedule(5, () -> {
                log.add(k);
                if (k == 0) {
                    sim.schedule(0, () -> log.add(-1)); // same instant, after all earlier ones
                }
            });
        }
        sim.run();
        assertThat(log).hasSize(1001);
        for (int i = 0; i < 1000; i++) {
            assertThat(log.get(i)).isEqualTo(i);
        }
        assertThat(log.get(1000)).isEqualTo(-1);
    }

    @Test
    void manyRandomEventsComeOutSorted() {
        Simulator sim = new Simulator(7);
        RandomStream r = sim.random("t");
        long[] last = {-1};
        for (int i = 0; i < 50_000; i++) {
            sim.schedule(r.nextInt(1000), () -> {
                assertThat(sim.now()).isGreaterThanOrEqualTo(last[0]);
                last[0] = sim.now();
            });
        }
        long[] prev = {-1, -1}; // (time, seq) of the previous dispatch
        sim.setTracer((t, seq) -> {
            assertThat(t).isGreaterThanOrEqualTo(prev[0]);
            if (t == prev[0]) {
                assertThat(seq).isGreaterThan(prev[1]);
            }
            prev[0] = t;
            prev[1] = seq;
        });
        sim.run();
        assertThat(sim.dispatchedCount()).isEqualTo(50_000);
    }

    @Test
    void cancelPreventsDispatchAndHandlesAreNotReused() {
        Simulator sim = new Simulator(1);
        List<String> log = new ArrayList<>();
        long a = sim.schedule(10, () -> log.add("a"));
        long b = sim.schedule(20, () -> log.add("b"));
        assertThat(sim.isPending(a)).isTrue();
        assertThat(sim.cancel(a)).isTrue();
        assertThat(sim.cancel(a)).isFalse();
        assertThat(sim.isPending(a)).isFalse();
        assertThat(sim.pendingCount()).isEqualTo(1);
        long c = sim.schedule(5, () -> log.add("c")); // reuses a's slot
        assertThat(c).isNotEqualTo(a);
        assertThat(sim.isPending(a)).isFalse();
        assertThat(sim.cancel(a)).isFalse();
        assertThat(sim.isPending(c)).isTrue();
        sim.run();
        assertThat(log).containsExactly("c", "b");
        assertThat(sim.isPending(b)).isFalse();
        assertThat(sim.cancel(b)).isFalse();
        assertThat(sim.cancel(-5)).isFalse();
        assertThat(sim.cancel(Long.MAX_VALUE)).isFalse();
    }

    @Test
    void massCancellationCompactsAndKeepsOrder() {
        Simulator sim = new Simulator(3);
        long[] handles = new long[10_000];
        List<Long> fired = new ArrayList<>();
        for (int i = 0; i < handles.length; i++) {
            long t = (i * 7919L) % 10_000;
            handles[i] = sim.schedule(t, () -> fired.add(sim.now()));
        }
        for (int i = 0; i < handles.length; i += 2) {
            assertThat(sim.cancel(handles[i])).isTrue();
        }
        assertThat(sim.pendingCount()).isEqualTo(5_000);
        sim.run();
        assertThat(fired).hasSize(5_000).isSorted();
    }

    @Test
    void runUntilTimeDispatchesUpToAndIncludingThenSetsClock() {
        Simulator sim = new Simulator(1);
        List<Long> log = new ArrayList<>();
        for (long t : new long[]{5, 10, 15}) {
            sim.schedule(t, () -> log.add(sim.now()));
        }
        sim.runUntil(10);
        assertThat(log).containsExactly(5L, 10L);
        assertThat(sim.now()).isEqualTo(10);
        sim.runUntil(12);
        assertThat(sim.now()).isEqualTo(12);
        assertThat(sim.pendingCount()).isEqualTo(1);
        assertThatThrownBy(() -> sim.runUntil(11)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("past");
        sim.run();
        assertThat(log).containsExactly(5L, 10L, 15L);
    }

    @Test
    void runUntilConditionIsCheckedAfterEachEvent() {
        Simulator sim = new Simulator(1);
        int[] count = {0};
        for (int i = 1; i <= 10; i++) {
            sim.schedule(i, () -> count[0]++);
        }
        sim.runUntil(() -> count[0] >= 4);
        assertThat(count[0]).isEqualTo(4);
        assertThat(sim.now()).isEqualTo(4);
        sim.runUntil(() -> true);
        assertThat(count[0]).isEqualTo(4);
        sim.runUntil(() -> false); // runs to quiescence
        assertThat(count[0]).isEqualTo(10);
    }

    @Test
    void stopReturnsAfterTheCurrentAction() {
        Simulator sim = new Simulator(1);
        List<Long> log = new ArrayList<>();
        sim.schedule(1, () -> log.add(1L));
        sim.schedule(2, () -> {
            log.add(2L);
            sim.stop();
        });
        sim.schedule(3, () -> log.add(3L));
        sim.run();
        assertThat(log).containsExactly(1L, 2L);
        assertThat(sim.now()).isEqualTo(2);
        sim.run(); // a new run clears the stop request
        assertThat(log).containsExactly(1L, 2L, 3L);
    }

    @Test
    void rejectsBadArguments() {
        Simulator sim = new Simulator(1);
        assertThatThrownBy(() -> sim.schedule(-1, () -> { }))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("delay must be >= 0");
        sim.schedule(100, () -> { });
        sim.run();
        assertThatThrownBy(() -> sim.scheduleAt(99, () -> { }))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("in the past");
        assertThatThrownBy(() -> sim.schedule(Long.MAX_VALUE, () -> { }))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("overflows");
        assertThatThrownBy(() -> sim.schedule(1, null)).isInstanceOf(NullPointerException.class);
        sim.schedule(1, sim::run);
        assertThatThrownBy(sim::run).isInstanceOf(IllegalStateException.class).hasMessageContaining("re-entrantly");
    }

    private static List<long[]> trace(long seed) {
        Simulator sim = new Simulator(seed);
        List<long[]> out = new ArrayList<>();
        sim.setTracer((t, seq) -> out.add(new long[]{t, seq}));
        RandomStream r = sim.random("workload");
        Runnable[] self = new Runnable[1];
        int[] left = {20_000};
        self[0] = () -> {
            if (left[0]-- > 0) {
                sim.schedule(r.nextInt(1000), self[0]);
                if (r.nextBoolean()) {
                    long h = sim.schedule(r.nextInt(1000), self[0]);
                    if (r.nextInt(3) == 0) {
                        sim.cancel(h);
                    }
                }
            }
        };
        for (int i = 0; i < 100; i++) {
            sim.schedule(r.nextInt(100), self[0]);
        }
        sim.run();
        return out;
    }

    @Test
    void sameSeedSameProgramGivesIdenticalTrace() {
        List<long[]> a = trace(42);
        List<long[]> b = trace(42);
        List<long[]> c = trace(43);
        assertThat(a).hasSizeGreaterThan(20_000);
        assertThat(a).usingElementComparator((x, y) -> (x[0] == y[0] && x[1] == y[1]) ? 0 : 1).isEqualTo(b);
        assertThat(a).usingElementComparator((x, y) -> (x[0] == y[0] && x[1] == y[1]) ? 0 : 1).isNotEqualTo(c);
    }

    @Test
    void randomStreamsAreReproducibleByNameAndIndependent() {
        Simulator s1 = new Simulator(99);
        Simulator s2 = new Simulator(99);
        assertThat(s1.random("nic")).isSameAs(s1.random("nic"));
        assertThat(s1.random("nic").name()).isEqualTo("nic");
        // creation order and use of other streams does not matter
        s2.random("gpu").nextLong();
        long[] a = new long[100];
        long[] b = new long[100];
        for (int i = 0; i < 100; i++) {
            a[i] = s1.random("nic").nextLong();
            s2.random("gpu").nextLong();
            b[i] = s2.random("nic").nextLong();
        }
        assertThat(a).isEqualTo(b);
        long[] other = new long[100];
        Simulator s3 = new Simulator(99);
        for (int i = 0; i < 100; i++) {
            other[i] = s3.random("gpu").nextLong();
        }
        assertThat(other).isNotEqualTo(a);
        assertThat(new Simulator(100).random("nic").nextLong()).isNotEqualTo(a[0]);
        // stable across JVMs: the derivation is a pure function of (seed, name)
        assertThat(RandomStream.deriveSeed(99, "nic")).isEqualTo(RandomStream.deriveSeed(99, "nic"));
        RandomStream r = s1.random("dist");
        double sum = 0;
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            double d = r.nextDouble();
            assertThat(d).isBetween(0.0, 1.0);
            sum += r.nextGaussian();
            assertThat(r.nextInt(7)).isBetween(0, 6);
        }
        assertThat(Math.abs(sum / n)).isLessThan(4.0 / Math.sqrt(n)); // mean of N(0,1) within 4 sigma
        assertThatThrownBy(() -> r.nextInt(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dist");
    }

    @Test
    void timeConversionsAndFormat() {
        assertThat(Time.ns(1.5)).isEqualTo(1_500);
        assertThat(Time.us(2)).isEqualTo(2 * Time.PS_PER_US);
        assertThat(Time.ms(0.1)).isEqualTo(100 * Time.PS_PER_US);
        assertThat(Time.seconds(1.2)).isEqualTo(1_200 * Time.PS_PER_MS);
        assertThat(Time.ns(0.0004)).isEqualTo(0);
        assertThat(Time.ns(0.0006)).isEqualTo(1);
        assertThat(Time.toSeconds(Time.PS_PER_S * 3)).isEqualTo(3.0);
        assertThat(Time.toMicros(2_500_000)).isEqualTo(2.5);
        assertThat(Time.toMillis(Time.PS_PER_MS)).isEqualTo(1.0);
        assertThat(Time.format(12_345_000)).isEqualTo("12.345 us");
        assertThat(Time.format(1_200_000_000_000L)).isEqualTo("1.200 s");
        assertThat(Time.format(850)).isEqualTo("850 ps");
        assertThat(Time.format(1_500)).isEqualTo("1.500 ns");
        assertThat(Time.format(2_000_000_000L)).isEqualTo("2.000 ms");
        assertThatThrownBy(() -> Time.seconds(1e9)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("seconds");
        assertThatThrownBy(() -> Time.ns(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    }
}
