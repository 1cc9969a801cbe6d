package io.ccsim.gpu.calibrate;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The calibrator's line fits, on numbers with known answers (no GPU needed). */
class LineFitTest {

    @Test
    void lineFitRecoversLatencyAndBandwidthExactly() {
        // t(µs) = 7.5 + bytes / (20 GB/s) = 7.5 + bytes × 5e-5
        double a = 7.5, b = 1.0 / 20e3;
        List<double[]> pts = new ArrayList<>();
        for (long x = 4096; x <= (64L << 20); x *= 4) pts.add(new double[] {x, a + b * x});
        double[] ab = LineFit.fit(pts);
        assertThat(ab[0]).isCloseTo(a, within(1e-9));
        assertThat(ab[1]).isCloseTo(b, within(1e-15));
        assertThat(LineFit.medianRelErr(pts, ab)).isLessThan(1e-12);
        assertThat(1e-3 / ab[1]).as("GB/s").isCloseTo(20.0, within(1e-9));
    }

    @Test
    void relativeWeightingKeepsTheSmallSizesRight() {
        // a 10 % outlier at the largest size must not move the intercept much: t = 5 + x/1000, last point +10 %
        List<double[]> pts = new ArrayList<>();
        double[] xs = {100, 1_000, 10_000, 100_000, 1_000_000};
        for (double x : xs) pts.add(new double[] {x, 5 + x / 1000});
        pts.get(4)[1] *= 1.10;
        double[] ab = LineFit.fit(pts);
        assertThat(ab[0]).isCloseTo(5.0, within(0.5));
        // median relative error of the other four points stays small; the outlier is excluded by the median
        assertThat(LineFit.medianRelErr(pts, ab)).isLessThan(0.05);
    }

    @Test
    void fitNeedsTwoPositivePoints() {
        assertThatThrownBy(() -> LineFit.fit(List.of(new double[] {1, 2})))
                .hasMessageContaining("at least 2 points");
        assertThatThrownBy(() -> LineFit.fit(List.of(new double[] {1, 2}, new double[] {2, 0})))
                .hasMessageContaining("must be > 0");
    }
}
