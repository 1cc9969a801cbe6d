package io.ccsim.sim.flow;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A constraint's windows [start, end) and the most of them that overlap at one instant of an interval. */
class UsageWindowsTest {
    private static final long OPEN = Long.MAX_VALUE;

    private static UsageWindows three() {
        UsageWindows w = new UsageWindows();
        w.ensure(4);
        // constraint 3: a = [0, 10) x 1, b = [10, 20) x 2, c = [5, 15) x 4
        w.add(3, 0, 10, 1);
        w.add(3, 10, 20, 2);
        w.add(3, 5, 15, 4);
        return w;
    }

    @Test
    void theMostLoadIsAtTheIntervalsStartOrWhereAWindowStartsInsideIt() {
        UsageWindows w = three();
        // [0, 20): 1 at 0, 1 + 4 at 5, 2 + 4 at 10 (a ends where b starts: half-open), 2 at 15
        assertThat(w.maxLoad(3, 0, 20)).isEqualTo(2 + 4);
        assertThat(w.maxLoad(3, 0, 5)).as("c starts at the interval's end").isEqualTo(1);
        assertThat(w.maxLoad(3, 7, 10)).isEqualTo(1 + 4);
        assertThat(w.maxLoad(3, 15, 30)).isEqualTo(2);
        assertThat(w.maxLoad(3, 20, 30)).as("every window ended").isZero();
        assertThat(w.maxLoad(2, 0, OPEN)).as("another constraint").isZero();
    }

    @Test
    void aUsageFitsWhereTheWindowsThatOverlapAtEachInstantFit() {
        UsageWindows w = three();
        // [0, 20) meets all three (1 + 2 + 4 = 7) but holds at most 6 at one instant (b and c from 10)
        assertThat(w.fits(3, 0, 20, 7)).isTrue();
        assertThat(w.fits(3, 0, 20, 6)).isTrue();
        assertThat(w.fits(3, 0, 20, 5)).isFalse();
        // [0, 10) holds a and c at most: 5
        assertThat(w.fits(3, 0, 10, 5)).isTrue();
        assertThat(w.fits(3, 0, 10, 4)).isFalse();
        assertThat(w.fits(3, 20, OPEN, 0)).as("nothing from 20 on").isTrue();
        assertThat(w.fits(3, 20, OPEN, -1)).isFalse();
    }

    @Test
    void anOpenedWindowCountsUntilItIsRemoved() {
        UsageWindows w = new UsageWindows();
        w.ensure(1);
        int a = w.add(0, 0, 10, 5);
        int b = w.add(0, 20, 30, 7);
        assertThat(w.maxLoad(0, 10, 20)).isZero();
        w.setEnd(0, a, OPEN);
        assertThat(w.maxLoad(0, 10, 20)).isEqualTo(5);
        assertThat(w.maxLoad(0, 10, OPEN)).isEqualTo(5 + 7);
        w.remove(0, a);
        assertThat(w.maxLoad(0, 0, OPEN)).isEqualTo(7);
        w.remove(0, b);
        assertThat(w.maxLoad(0, 0, OPEN)).isZero();
    }

    @Test
    void beyondItsSlotsAConstraintsLoadIsUnknownUntilTheUnslottedWindowsLeave() {
        UsageWindows w = new UsageWindows();
        w.ensure(1);
        int[] slots = new int[UsageWindows.SLOTS];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = w.add(0, i, i + 1, 1);
            assertThat(slots[i]).isEqualTo(i);
        }
        assertThat(w.maxLoad(0, 0, OPEN)).isEqualTo(1);
        assertThat(w.add(0, 100, 200, 1)).isEqualTo(-1);
        assertThat(w.add(0, 100, 200, 1)).isEqualTo(-1);
        assertThat(w.maxLoad(0, 0, 1)).isEqualTo(Long.MAX_VALUE);
        assertThat(w.fits(0, 300, 400, Long.MAX_VALUE - 1)).as("unknown: fits nothing").isFalse();
        w.remove(0, -1);
        assertThat(w.maxLoad(0, 0, 1)).as("one still counted without a slot").isEqualTo(Long.MAX_VALUE);
        w.remove(0, -1);
        assertThat(w.maxLoad(0, 0, 1)).isEqualTo(1);
        // a freed slot is taken again, lowest first
        w.remove(0, slots[5]);
        w.remove(0, slots[2]);
        assertThat(w.add(0, 50, 60, 3)).isEqualTo(2);
        assertThat(w.maxLoad(0, 50, 60)).isEqualTo(3);
    }
}
