package io.ccsim.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MinHeapTest {

    @Test
    void popsValuesInKeyOrder() {
        MinHeap h = new MinHeap();
        h.push(30, 3);
        h.push(10, 1);
        h.push(20, 2);
        assertThat(h.size()).isEqualTo(3);
        assertThat(h.minKey()).isEqualTo(10);
        assertThat(h.pop()).isEqualTo(1);
        assertThat(h.pop()).isEqualTo(2);
        assertThat(h.pop()).isEqualTo(3);
        assertThat(h.isEmpty()).isTrue();
    }

    @Test
    void growsPastItsInitialCapacityAndSortsLikeArraysSort() {
        MinHeap h = new MinHeap();
        Random rnd = new Random(1);
        long[] keys = new long[1000];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = rnd.nextInt(100); // many ties
            h.push(keys[i], i);
        }
        Arrays.sort(keys);
        for (long k : keys) {
            assertThat(h.minKey()).isEqualTo(k);
            h.pop();
        }
        assertThat(h.isEmpty()).isTrue();
    }

    @Test
    void staleEntriesAreTheCallersToSkipAndClearEmpties() {
        MinHeap h = new MinHeap();
        h.push(50, 7);
        h.push(5, 7); // key of 7 lowered: both entries stay
        assertThat(h.size()).isEqualTo(2);
        assertThat(h.pop()).isEqualTo(7);
        assertThat(h.minKey()).isEqualTo(50);
        h.clear();
        assertThat(h.isEmpty()).isTrue();
        h.push(1, 2);
        assertThat(h.pop()).isEqualTo(2);
    }
}
