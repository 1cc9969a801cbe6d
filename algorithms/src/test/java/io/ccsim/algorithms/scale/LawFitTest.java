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
}
