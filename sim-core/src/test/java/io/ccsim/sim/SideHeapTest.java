package io.ccsim.sim;

import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The side heap alone, against a map sorted by (time, sequence). */
class SideHeapTest {

    private static TreeMap<long[], Long> reference() {
        return new TreeMap<>((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    }

    @Test
    void popsInTimeThenSequenceOrderAndFiltersInPlace() {
        SplittableRandom r = new SplittableRandom(11);
        SideHeap heap = new SideHeap();
        TreeMap<long[], Long> ref = reference();
        long seq = 0;
        for (int op = 0; op < 50_000; op++) {
            int what = r.nextInt(100);
            if (what < 55) {
                long t = r.nextLong(200) - 50; // many equal times, some negative
                heap.push(t, seq, 7 * seq);
                ref.put(new long[]{t, seq}, 7 * seq);
                seq++;
            } else if (what < 99) {
                if (ref.isEmpty()) {
                    assertThat(heap.size()).isZero();
                    continue;
                }
                var first = ref.pollFirstEntry();
                assertThat(new long[]{heap.headTime(), heap.headSeq(), heap.headHandle()}).as("op %d", op)
                        .containsExactly(first.getKey()[0], first.getKey()[1], first.getValue());
                heap.pop();
            } else { // keep the entries of even sequence: filter in storage order, then restore the heap
                int kept = 0;
                for (int k = 0; k < heap.size(); k++) {
                    if (heap.handleAt(k) / 7 % 2 == 0) {
                        heap.moveEntry(k, kept++);
                    }
                }
                heap.truncate(kept);
                ref.keySet().removeIf(key -> key[1] % 2 != 0);
            }
            assertThat(heap.size()).isEqualTo(ref.size());
        }
    }
}
