package io.ccsim.algorithms.fit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.measurements.MeasuredRow;
import org.junit.jupiter.api.Test;

/** KernelFit's command-line options: {@code --sparse}'s sizes, {@code --blocks}' check and {@code --large-weight}'s loss. */
class KernelFitOptionsTest {

    static MeasuredRow row(long bytes) {
        return MeasuredRow.fixedPlan("t.json", CollectiveOp.ALL_REDUCE, 2, Algorithm.RING, Protocol.SIMPLE, 16, bytes, 10.0);
    }

    @Test
    void sparseKeepsEveryOtherSizeOfTheSweep() {
        // the fidelity sweep: 4 KiB .. 512 MiB by 2x; --sparse searches 4 KiB x 4^k
        int kept = 0;
        for (int i = 0; i < 18; i++) {
            boolean k = KernelFit.sparseSize(row(4096L << i));
            assertThat(k).as("4 KiB << %d", i).isEqualTo(i % 2 == 0);
            if (k) kept++;
        }
        assertThat(kept).isEqualTo(9);
        assertThat(KernelFit.sparseSize(row(3 * 4096))).isFalse();
    }

    @Test
    void blocksThatMatchNothingAreAnError() {
        assertThat(ProfileFitter.kernelBlockNames()).contains("launch", "cta Simple", "p2p Simple", "links");
        assertThatThrownBy(() -> KernelFit.main(new String[] {"--base", "x.json", "--out", "y.json", "--date", "2026-11-22",
                "--blocks", "nope", "t.json"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--blocks nope matches no block")
                .hasMessageContaining("p2p Simple");
        assertThatThrownBy(() -> KernelFit.main(new String[] {"--bogus"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--sparse").hasMessageContaining("--blocks");
    }

    @Test
    void largeWeightWeighsTheRowsFromOneMebibyteInTheSearchLoss() {
        // two rows: 512 KiB 20 % slow, 4 MiB 5 % fast; soft-L1 with scale 0.1: rho(r) = 2 (sqrt(1 + (r/0.1)^2) - 1)
        java.util.List<Prediction> preds = java.util.List.of(
                new Prediction(row(512 << 10), 12.0, Algorithm.RING, Protocol.SIMPLE, 16),
                new Prediction(row(4 << 20), 9.5, Algorithm.RING, Protocol.SIMPLE, 16));
        double small = 2 * (Math.sqrt(1 + Math.pow(Math.log(1.2) / 0.1, 2)) - 1);
        double large = 2 * (Math.sqrt(1 + Math.pow(Math.log(0.95) / 0.1, 2)) - 1);
        ProfileFitter f = ProfileFitter.forKernelTimings(null, 20);
        assertThat(f.searchLoss(preds)).isCloseTo((small + large) / 2, org.assertj.core.api.Assertions.within(1e-12));
        assertThat(ProfileFitter.loss(preds)).isCloseTo((small + large) / 2, org.assertj.core.api.Assertions.within(1e-12));
        f.withLargeRowWeight(3);
        assertThat(f.searchLoss(preds)).isCloseTo((small + 3 * large) / 4, org.assertj.core.api.Assertions.within(1e-12));
        assertThat(ProfileFitter.loss(preds)).as("the reported loss stays unweighted").isCloseTo((small + large) / 2,
                org.assertj.core.api.Assertions.within(1e-12));
        assertThatThrownBy(() -> f.withLargeRowWeight(0.5)).hasMessageContaining("must be a finite number >= 1, got 0.5");
        assertThatThrownBy(() -> f.withLargeRowWeight(Double.NaN)).hasMessageContaining(">= 1");
        assertThatThrownBy(() -> KernelFit.main(new String[] {"--bogus"})).hasMessageContaining("--large-weight");
    }

    @Test
    void criterionScoresEachGroupsMedianAgainstItsBound() {
        // group A (all_reduce Ring/Simple n=2 >=1MiB): errors 8 %, 2 %, 7 % -> median 7 %, bound 5 %
        // group B (same, <1MiB): errors 10 %, 20 % -> median 15 %, bound 15 %
        java.util.List<Prediction> preds = java.util.List.of(
                new Prediction(row(1 << 20), 10.8, Algorithm.RING, Protocol.SIMPLE, 16),
                new Prediction(row(2 << 20), 9.8, Algorithm.RING, Protocol.SIMPLE, 16),
                new Prediction(row(4 << 20), 10.7, Algorithm.RING, Protocol.SIMPLE, 16),
                new Prediction(row(4 << 10), 11.0, Algorithm.RING, Protocol.SIMPLE, 16),
                new Prediction(row(8 << 10), 8.0, Algorithm.RING, Protocol.SIMPLE, 16));
        ProfileFitter f = ProfileFitter.forKernelTimings(null, 20).withGroupCriterion(0.15, 0.05, 0.8);
        // A: 0.07 / 0.05 - 0.8 = 0.6; B: 0.15 / 0.15 - 0.8 = 0.2; mean of squares over 2 groups, plus the tie term
        double expected = (0.6 * 0.6 + 0.2 * 0.2) / 2 + ProfileFitter.CRITERION_TIE * ProfileFitter.loss(preds);
        assertThat(f.searchLoss(preds)).isCloseTo(expected, org.assertj.core.api.Assertions.within(1e-9));
        // a group below margin x bound adds nothing: margin 1 leaves only A (0.4^2 / 2)
        ProfileFitter g = ProfileFitter.forKernelTimings(null, 20).withGroupCriterion(0.15, 0.05, 1.0);
        assertThat(g.searchLoss(preds)).isCloseTo(0.4 * 0.4 / 2 + ProfileFitter.CRITERION_TIE * ProfileFitter.loss(preds),
                org.assertj.core.api.Assertions.within(1e-9));
        // the tie term weighs the rows from 1 MiB as --large-weight says
        g.withLargeRowWeight(3);
        ProfileFitter w = ProfileFitter.forKernelTimings(null, 20).withLargeRowWeight(3);
        assertThat(g.searchLoss(preds)).isCloseTo(0.4 * 0.4 / 2 + ProfileFitter.CRITERION_TIE * w.searchLoss(preds),
                org.assertj.core.api.Assertions.within(1e-9));
        assertThatThrownBy(() -> g.withGroupCriterion(0.15, 0.05, 0)).hasMessageContaining("margin in (0, 1]");
        assertThatThrownBy(() -> g.withGroupCriterion(0, 0.05, 1)).hasMessageContaining("bounds must be > 0");
        assertThatThrownBy(() -> KernelFit.main(new String[] {"--bogus"})).hasMessageContaining("--criterion");
        assertThatThrownBy(() -> KernelFit.main(new String[] {"--base", "x.json", "--out", "y.json", "--date", "2026-11-23",
                "--criterion", "1.5", "t.json"})).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--criterion 1.5: the margin must be in (0, 1]");
    }
}
