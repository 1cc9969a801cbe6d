package io.ccsim.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class ProgressTest {
    /** A clock the test moves by hand, ns. */
    private static final class Clock {
        long now = 1_000_000_000L;

        long get() { return now; }
    }

    @Test
    void redrawsAtMostFourTimesASecondOnOneLine() {
        StringWriter w = new StringWriter();
        Clock c = new Clock();
        Progress p = new Progress(new PrintWriter(w), true, c::get);
        int draws = 0;
        for (int i = 0; i < 1000; i++) {   // 1,000 updates over 2 s of clock
            c.now += 2_000_000L;
            String before = w.toString();
            p.show("perf all_reduce 1M (1/2)", i / 1000.0);
            if (!w.toString().equals(before)) draws++;
        }
        // the first update (at 2 ms) draws at once, then one each 250 ms later: 252, 502, ..., 1752 ms
        assertThat(draws).isEqualTo(1 + (2000 - 2) / 250);
        assertThat(w.toString()).doesNotContain("\n").startsWith("\r");
    }

    @Test
    void showsTheFractionTheElapsedTimeAndAnEta() {
        StringWriter w = new StringWriter();
        Clock c = new Clock();
        Progress p = new Progress(new PrintWriter(w), true, c::get);
        c.now += 10_000_000_000L;   // 10 s for a quarter: 30 s to go
        p.show("tune all_reduce 8 (3/12)", 0.25);
        assertThat(w.toString()).isEqualTo("\rtune all_reduce 8 (3/12) | 25 % done, 10 s, ETA 30 s");
    }

    @Test
    void noEtaBeforeOnePercentOrOneSecondAndNoneWhenTheFractionIsUnknown() {
        StringWriter w = new StringWriter();
        Clock c = new Clock();
        Progress p = new Progress(new PrintWriter(w), true, c::get);
        c.now += 500_000_000L;
        p.show("a", 0.5);
        assertThat(w.toString()).endsWith("| 50 % done, 1 s").doesNotContain("ETA");
        c.now += 5_000_000_000L;
        p.show("b", Double.NaN);
        assertThat(w.toString()).endsWith("\rb | 6 s" + " ".repeat("a | 50 % done, 1 s".length() - "b | 6 s".length()));
    }

    @Test
    void aLongLineIsCutToTheWidthAndErasedBeforeALine() {
        StringWriter w = new StringWriter();
        Progress p = new Progress(new PrintWriter(w), true, new Clock()::get);
        p.show("x".repeat(200), 0.0);
        String shown = w.toString().substring(1);
        assertThat(shown).hasSize(Progress.WIDTH).contains("...");
        p.line("measured: 1 GiB");
        assertThat(w.toString()).endsWith("\r" + " ".repeat(Progress.WIDTH) + "\rmeasured: 1 GiB" + System.lineSeparator());
    }

    @Test
    void disabledItDrawsNothingButLinesStillPrint() {
        StringWriter w = new StringWriter();
        Progress p = new Progress(new PrintWriter(w), false, new Clock()::get);
        assertThat(p.due()).isFalse();
        p.show("perf", 0.5);
        p.clear();
        assertThat(w.toString()).isEmpty();
        p.line("calibrating");
        assertThat(w.toString()).isEqualTo("calibrating" + System.lineSeparator());
    }

    @Test
    void itemsWeighTheirWork() {
        // three sizes of 1, 1 and 8 units: half of the third is (1 + 1 + 4) / 10 of the work
        Progress.Items items = new Progress.Items(new long[] {1, 1, 8});
        assertThat(items.fraction(0, 0)).isZero();
        assertThat(items.fraction(2, 0.5)).isCloseTo(0.6, offset(1e-12));
        assertThat(items.fraction(3, 0)).isEqualTo(1.0);
        assertThat(new Progress.Items(new long[0]).fraction(0, 0)).isZero();
    }

    @Test
    void durationsReadAsAPersonWouldSayThem() {
        assertThat(Progress.duration(12.4)).isEqualTo("12 s");
        assertThat(Progress.duration(185)).isEqualTo("3 min 05 s");
        assertThat(Progress.duration(7620)).isEqualTo("2 h 07 min");
    }
}
