package io.ccsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SweepStatusTest {
    @Test
    void aSweepOfSeveralItemsNamesTheRunningItemsPartAndTheOthers() {
        assertThat(Sweep.status("perf all_reduce 1G (3/28) Tree/Simple x16", 0.424, 28, 1))
                .isEqualTo("perf all_reduce 1G (3/28) Tree/Simple x16: 42 % +1 more");
        assertThat(Sweep.status("perf all_reduce 8 (1/28) Tree/LL x1", 0.0, 28, 0))
                .isEqualTo("perf all_reduce 8 (1/28) Tree/LL x1: 0 %");
    }

    @Test
    void aSingleItemLeavesItsPercentageToTheOverallOne() {
        // the line then reads "perf broadcast 1G (1/1) Ring/Simple x16 | 42 % done, 9 s, ETA 12 s", not "42 % | 42 %"
        assertThat(Sweep.status("perf broadcast 1G (1/1) Ring/Simple x16", 0.42, 1, 0))
                .isEqualTo("perf broadcast 1G (1/1) Ring/Simple x16");
    }
}
