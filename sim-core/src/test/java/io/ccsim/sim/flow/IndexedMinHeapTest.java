package io.ccsim.sim.flow;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The filling's indexed heap of constraint levels, against a linear scan for the least key. */
class IndexedMinHeapTest {

    @Test
    void theTopIsAlwaysTheLeastKeyThroughRandomOperations() {
        IndexedMinHeap h = new IndexedMinHeap();
        for (long seed = 0; seed < 200; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            int n = 1 + r.nextInt(seed < 100 ? 20 : 300); // grows past the initial arrays, then is reused smaller
            h.reset(n);
            double[] key = new double[n];
            List<Integer> in = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                if (r.nextInt(4) == 0) {
                    h.markAbsent(i);
                } else {
                    key[i] = r.nextInt(8) == 0 ? 1.0 : r.nextDouble(); // ties too
                    h.append(i, key[i]);
                    in.add(i);
                }
            }
            h.heapify();
            for (int i = 0; i < n; i++) {
                assertThat(h.contains(i)).isEqualTo(in.contains(i));
            }
            while (!in.isEmpty()) {
                assertThat(h.size()).isEqualTo(in.size());
                double least = Double.POSITIVE_INFINITY;
                for (int i : in) least = Math.min(least, key[i]);
                assertThat(h.topKey()).as("seed %d", seed).isEqualTo(least);
                int top = h.top();
                assertThat(key[top]).isEqualTo(least);
                int op = r.nextInt(3);
                if (op == 0) {
                    key[top] = least + r.nextDouble(); // a stale level raised when it surfaces
                    h.raiseTopKey(key[top]);
                } else if (op == 1) {
                    key[top] = least - r.nextDouble();
                    h.lowerTopKey(key[top]);
                    assertThat(h.top()).isEqualTo(top);
                } else {
                    h.removeAt(0);
                    in.remove(Integer.valueOf(top));
                    assertThat(h.contains(top)).isFalse();
                }
            }
            assertThat(h.size()).isZero();
        }
    }

    @Test
    void equalKeysComeOutInADeterministicOrder() {
        List<Integer> first = drain();
        assertThat(drain()).isEqualTo(first).hasSize(50);
    }

    private static List<Integer> drain() {
        IndexedMinHeap h = new IndexedMinHeap();
        h.reset(50);
        for (int i = 0; i < 50; i++) h.append(i, i % 5);
        h.heapify();
        List<Integer> out = new ArrayList<>();
        double last = Double.NEGATIVE_INFINITY;
        while (h.size() > 0) {
            assertThat(h.topKey()).isGreaterThanOrEqualTo(last);
            last = h.topKey();
            out.add(h.top());
            h.removeAt(0);
        }
        return out;
    }
}
