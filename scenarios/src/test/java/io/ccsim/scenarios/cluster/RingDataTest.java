package io.ccsim.scenarios.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class RingDataTest {
    private static final int[] RANKS = {10, 11, 12, 13, 14, 15};

    private static long sum(long[] a) {
        long s = 0;
        for (long x : a) s += x;
        return s;
    }

    @Test
    void withoutFlipsEveryOutputIsTheSumOfAllInputs() {
        long[][] d = RingData.checksums(RANKS, 5, List.of());
        for (long out : d[1]) assertThat(out).isEqualTo(sum(d[0]));
    }

    @Test
    void aFlipInTheReducePhaseReachesEveryRankIdentically() {
        long[][] ok = RingData.checksums(RANKS, 5, List.of());
        long[][] d = RingData.checksums(RANKS, 5, List.<long[]>of(new long[] {1, 2, 0}));
        assertThat(d[0]).containsExactly(ok[0]);
        for (long out : d[1]) assertThat(out).isEqualTo(d[1][0]).isNotEqualTo(sum(d[0]));
    }

    @Test
    void aFlipInTheAllGatherPhaseCorruptsTheRanksDownstreamOfTheHop() {
        int n = RANKS.length;
        // all-gather step 2 (s = n - 1 + 2): position 3 forwards chunk (3 + 1 - 2) = 2, owned (fully reduced) by
        // position 1; the chunk then travels 4, 5, 0 before the ring closes at its owner's predecessor
        long[][] d = RingData.checksums(RANKS, 5, List.<long[]>of(new long[] {n - 1 + 2, 3, 0}));
        long expect = sum(d[0]);
        boolean[] wrong = new boolean[n];
        for (int i = 0; i < n; i++) wrong[i] = d[1][i] != expect;
        assertThat(wrong).containsExactly(true, false, false, false, true, true);
    }
}
