package io.ccsim.algorithms.scale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class LawFitTest {

    /** Two samples: the line through both, T = 10 + 3x, read beyond them. */
    @Test
    void twoSamplesGiveTheLineThroughThem() {
        LawFit f = LawFit.of(new double[] {2, 4}, new double[] {16, 22});
        assertThat(f.slope()).isEqualTo(3.0);
        assertThat(f.intercept()).isEqualTo(10.0);
        assertThat(f.maxResidual()).isEqualTo(0.0);
        assertThat(f.at(100)).isEqualTo(310.0);
    }

    /**
     * Three samples off a line: least squares. x = 1, 2, 3, t = 1, 3, 2: mean x 2, mean t 2, Sxt = (−1)(−1) + 0 + (1)(0)
     * = 1, Sxx = 2, slope 1/2, intercept 1; residuals −0.5, 1, −0.5.
     */
    @Test
    void threeSamplesAreFittedByLeastSquares() {
        LawFit f = LawFit.of(new double[] {1, 2, 3}, new double[] {1, 3, 2});
        assertThat(f.slope()).isCloseTo(0.5, within(1e-12));
        assertThat(f.intercept()).isCloseTo(1.0, within(1e-12));
        assertThat(f.maxResidual()).isCloseTo(1.0, within(1e-12));
    }

    /** A constant law (every sample at one regressor) is the mean of the samples. */
    @Test
    void equalRegressorsGiveTheMean() {
        LawFit f = LawFit.of(new double[] {0, 0}, new double[] {5, 7});
        assertThat(f.slope()).isEqualTo(0.0);
        assertThat(f.at(0)).isEqualTo(6.0);
        assertThat(f.maxResidual()).isEqualTo(1.0);
        assertThat(LawFit.of(new double[] {0}, new double[] {4}).at(0)).isEqualTo(4.0);
    }

    @Test
    void badSamplesAreRefused() {
        assertThatThrownBy(() -> LawFit.of(new double[0], new double[0])).hasMessageContaining("at least one");
        assertThatThrownBy(() -> LawFit.of(new double[] {1, 2}, new double[] {1})).hasMessageContaining("got 2 and 1");
        assertThatThrownBy(() -> LawFit.of(new double[] {1, 2}, new double[] {1, Double.NaN}))
                .hasMessageContaining("sample 1 is not finite");
    }

    /**
     * Four regressors: samples on the plane T = 9 + 4.9 U + 20 N + 0.6 U ln(N/U) (the chain's form) give its
     * coefficients back, and the law read at a point no sample ran (U = 1,024, N = 12,500) is the plane's value there.
     */
    @Test
    void aPlaneOfFourRegressorsComesBack() {
        double[][] rows = new double[7][];
        double[] t = new double[7];
        int[][] at = {{16, 32}, {32, 32}, {64, 32}, {128, 32}, {32, 64}, {64, 64}, {128, 64}};
        for (int i = 0; i < at.length; i++) {
            rows[i] = ScalingLaw.CHAIN.regressors(at[i][0], at[i][1]);
            t[i] = plane(at[i][0], at[i][1]);
        }
        LawFit f = LawFit.of(rows, t);
        assertThat(f.coefficients()).containsExactly(new double[] {9, 4.9, 20, 0.6}, within(1e-6));
        assertThat(f.maxResidual()).isLessThan(1e-6);
        assertThat(f.at(ScalingLaw.CHAIN.regressors(12_500, 1_024))).isCloseTo(plane(12_500, 1_024), within(1e-4));
    }

    /**
     * Every sample with one train (U = 4): U and the constant are one column, and the least-norm fit still reads the
     * law right at that train (T = 7 + 20 N + 2 ln N here), with a residual where the samples do not fit it.
     */
    @Test
    void aRegressorThatNeverVariesAddsNothing() {
        int[] nodes = {8, 16, 32, 64};
        double[][] rows = new double[4][];
        double[] t = new double[4];
        for (int i = 0; i < 4; i++) {
            rows[i] = ScalingLaw.CHAIN.regressors(nodes[i], 4);
            t[i] = 7 + 20 * nodes[i] + 2 * Math.log(nodes[i]);
        }
        LawFit f = LawFit.of(rows, t);
        assertThat(f.at(ScalingLaw.CHAIN.regressors(12_500, 4))).isCloseTo(7 + 20 * 12_500 + 2 * Math.log(12_500), within(1e-6));
        t[3] += 1;
        assertThat(LawFit.of(rows, t).maxResidual()).isGreaterThan(0.1);
        assertThatThrownBy(() -> LawFit.of(new double[][] {{1, 2}, {1}}, new double[] {1, 2}))
                .hasMessageContaining("sample 1 has 1 regressors");
        assertThatThrownBy(() -> f.slope()).hasMessageContaining("no slope");
    }

    private static double plane(int n, int u) {
        return 9 + 4.9 * u + 20 * n + 0.6 * u * Math.log((double) n / u);
    }
}
