package io.ccsim.sim.flow;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The filling's heap of flow bounds: pairs come out by key, each value with its own key. */
class BoundHeapTest {

    @Test
    void popsInKeyOrderThroughInterleavedPushesAndPops() {
        BoundHeap h = new BoundHeap();
        for (long seed = 0; seed < 100; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            h.clear();
            List<Double> ref = new ArrayList<>();
            List<double[]> pairs = new ArrayList<>();
            for (int op = 0; op < 500; op++) {
                if (ref.isEmpty() || r.nextInt(3) > 0) {
                    double k = r.nextInt(10) == 0 ? 2.5 : r.nextDouble() * 1e11; // ties too
                    int v = pairs.size();
                    pairs.add(new double[] {k});
                    h.push(k, v);
                    ref.add(k);
                } else {
                    double least = Collections.min(ref);
                    assertThat(h.topKey()).as("seed %d op %d", seed, op).isEqualTo(least);
                    assertThat(pairs.get(h.topValue())[0]).isEqualTo(least); // the value pushed with that key
                    h.pop();
                    ref.remove(least);
                }
                assertThat(h.size()).isEqualTo(ref.size());
            }
        }
    }
}
