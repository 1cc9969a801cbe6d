package io.ccsim.sim;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The sorted run alone: a fill is a stable sort by time within the block; appends and filters keep the order. */
class BlockRunTest {

    /** (time, handle) in the order given; the handle doubles as the order of counting. */
    private static List<long[]> fill(BlockRun run, List<long[]> in) {
        for (long[] e : in) {
            run.count(e[0]);
        }
        run.offsets();
        for (long[] e : in) {
            run.place(e[0], e[1], e[2]);
        }
        run.endFill();
        List<long[]> out = new ArrayList<>();
        for (; !run.isEmpty(); run.removeHead()) {
            out.add(new long[]{run.headTime(), run.headHandle(), run.headSeq()});
        }
        return out;
    }

    @Test
    void aFillSortsByTimeAndKeepsTheCountedOrderOfEqualTimes() {
        BlockRun run = new BlockRun();
        SplittableRandom r = new SplittableRandom(3);
        for (int round = 0; round < 50; round++) {
            long base = r.nextLong(1L << 40) << BlockRun.BITS;
            int n = round % 5 == 0 ? r.nextInt(4) : r.nextInt(5_000);
            int spread = 1 + r.nextInt(1 << BlockRun.BITS); // from one time for all to the whole block
            List<long[]> in = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                in.add(new long[]{base + r.nextInt(spread), i, 1_000 + i});
            }
            List<long[]> expected = new ArrayList<>(in);
            expected.sort(Comparator.comparingLong((long[] e) -> e[0])); // List.sort is stable
            List<long[]> got = fill(run, in);
            assertThat(got).hasSize(n);
            for (int i = 0; i < n; i++) {
                assertThat(got.get(i)).as("round %d entry %d", round, i).containsExactly(expected.get(i));
            }
        }
    }

    @Test
    void appendsFollowTheFillAndRetainKeepsOrder() {
        BlockRun run = new BlockRun();
        List<long[]> in = List.of(new long[]{30, 0, 0}, new long[]{10, 1, 1}, new long[]{30, 2, 2});
        for (long[] e : in) {
            run.count(e[0]);
        }
        run.offsets();
        for (long[] e : in) {
            run.place(e[0], e[1], e[2]);
        }
        run.endFill();
        assertThat(run.lastTime()).isEqualTo(30);
        for (int i = 3; i < 300; i++) { // past the initial capacity
            run.append(30 + i, i, i);
        }
        assertThat(run.retain(h -> h % 3 != 0)).isEqualTo(300 - 100); // handles 0 to 299, less the multiples of 3
        long last = -1;
        int n = 0;
        for (; !run.isEmpty(); run.removeHead()) {
            assertThat(run.headHandle() % 3).isNotZero();
            assertThat(run.headTime()).isGreaterThanOrEqualTo(last);
            last = run.headTime();
            n++;
        }
        assertThat(n).isEqualTo(200);
        assertThat(run.headIndex()).isZero(); // an emptied run restarts at its front
    }
}
