package io.ccsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SweepStatusTest {
    @Test
    void aSweepOfSeveralItemsNamesTheRunningItemsPartAndTheOthers() {
        assertThat(Sweep.status("perf all_reduce 1G (3/28) Tree/Simple x16", 0.424, 28, 1, null))
                .isEqualTo("perf all_reduce 1G (3/28) Tree/Simple x16: 42 % +1 more");
        assertThat(Sweep.status("perf all_reduce 8 (1/28) Tree/LL x1", 0.0, 28, 0, null))
                .isEqualTo("perf all_reduce 8 (1/28) Tree/LL x1: 0 %");
    }

    @Test
    void aSingleItemLeavesItsPercentageToTheOverallOne() {
        // the line then reads "perf broadcast 1G (1/1) Ring/Simple x16 | 42 % done, 9 s, ETA 12 s", not "42 % | 42 %"
        assertThat(Sweep.status("perf broadcast 1G (1/1) Ring/Simple x16", 0.42, 1, 0, null))
                .isEqualTo("perf broadcast 1G (1/1) Ring/Simple x16");
    }

    @Test
    void anItemInItsSetUpShowsThePhaseInsteadOfItsPart() {
        // the rank folding of a plan no key covers reads every step first: the line says so, and how far it is
        assertThat(Sweep.status("perf all_reduce 1000000000 (1/1) Ring/LL128 x16", 0, 1, 0, "folding 37 %"))
                .isEqualTo("perf all_reduce 1000000000 (1/1) Ring/LL128 x16: folding 37 %");
        assertThat(Sweep.status("perf all_reduce 1G (2/3) Tree/Simple x16", 0, 3, 1, "folding"))
                .isEqualTo("perf all_reduce 1G (2/3) Tree/Simple x16: folding +1 more");
    }
}
