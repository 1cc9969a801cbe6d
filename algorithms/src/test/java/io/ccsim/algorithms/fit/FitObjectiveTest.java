package io.ccsim.algorithms.fit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.measurements.MeasuredRow;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The fit's losses: soft-L1 of log(predicted / measured) with scale 0.1, rho(r) = 2 (sqrt(1 + (r/0.1)^2) - 1), its
 * weighting of the rows from the size class boundary, and the group criterion.
 */
class FitObjectiveTest {

    static MeasuredRow row(long bytes) {
        return MeasuredRow.fixedPlan("t.json", CollectiveOp.ALL_REDUCE, 2, Algorithm.RING, Protocol.SIMPLE, 16, bytes, 10.0);
    }

    @Test
    void largeWeightWeighsTheRowsFromOneMebibyteInTheSearchLoss() {
        // two rows: 512 KiB 20 % slow, 4 MiB 5 % fast; soft-L1 with scale 0.1: rho(r) = 2 (sqrt(1 + (r/0.1)^2) - 1)
        List<Prediction> preds = List.of(
                new Prediction(row(512 << 10), 12.0, Algorithm.RING, Protocol.SIMPLE, 16),
                new Prediction(row(4 << 20), 9.5, Algorithm.RING, Protocol.SIMPLE, 16));
        double small = 2 * (Math.sqrt(1 + Math.pow(Math.log(1.2) / 0.1, 2)) - 1);
        double large = 2 * (Math.sqrt(1 + Math.pow(Math.log(0.95) / 0.1, 2)) - 1);
        ProfileFitter f = ProfileFitter.forKernelTimings(20);
        assertThat(f.searchLoss(preds)).isCloseTo((small + large) / 2, within(1e-12));
        assertThat(FitObjective.loss(preds)).isCloseTo((small + large) / 2, within(1e-12));
        f.withLargeRowWeight(3);
        assertThat(f.searchLoss(preds)).isCloseTo((small + 3 * large) / 4, within(1e-12));
        assertThat(FitObjective.loss(preds)).as("the reported loss stays unweighted").isCloseTo((small + large) / 2, within(1e-12));
        assertThatThrownBy(() -> f.withLargeRowWeight(0.5)).hasMessageContaining("must be a finite number >= 1, got 0.5");
        assertThatThrownBy(() -> f.withLargeRowWeight(Double.NaN)).hasMessageContaining(">= 1");
    }

    @Test
    void criterionScoresEachGroupsMedianAgainstItsBound() {
        // group A (all_reduce Ring/Simple n=2 >=1MiB): errors 8 %, 2 %, 7 % -> median 7 %, bound 5 %
        // group B (same, <1MiB): errors 10 %, 20 % -> median 15 %, bound 15 %
        List<Prediction> preds = List.of(
                new Prediction(row(1 << 20), 10.8, Algorithm.RING, Protocol.SIMPLE, 16),
                new Prediction(row(2 << 20), 9.8, Algorithm.RING, Protocol.SIMPLE, 16),
                new Prediction(row(4 << 20), 10.7, Algorithm.RING, Protocol.SIMPLE, 16),
                new Prediction(row(4 << 10), 11.0, Algorithm.RING, Protocol.SIMPLE, 16),
                new Prediction(row(8 << 10), 8.0, Algorithm.RING, Protocol.SIMPLE, 16));
        ProfileFitter f = ProfileFitter.forKernelTimings(20).withGroupCriterion(0.15, 0.05, 0.8);
        // A: 0.07 / 0.05 - 0.8 = 0.6; B: 0.15 / 0.15 - 0.8 = 0.2; mean of squares over 2 groups, plus the tie term
        double expected = (0.6 * 0.6 + 0.2 * 0.2) / 2 + FitObjective.CRITERION_TIE * FitObjective.loss(preds);
        assertThat(f.searchLoss(preds)).isCloseTo(expected, within(1e-9));
        // a group below margin x bound adds nothing: margin 1 leaves only A (0.4^2 / 2)
        ProfileFitter g = ProfileFitter.forKernelTimings(20).withGroupCriterion(0.15, 0.05, 1.0);
        assertThat(g.searchLoss(preds)).isCloseTo(0.4 * 0.4 / 2 + FitObjective.CRITERION_TIE * FitObjective.loss(preds), within(1e-9));
        // the tie term weighs the rows from 1 MiB as the large-row weight says
        g.withLargeRowWeight(3);
        ProfileFitter w = ProfileFitter.forKernelTimings(20).withLargeRowWeight(3);
        assertThat(g.searchLoss(preds)).isCloseTo(0.4 * 0.4 / 2 + FitObjective.CRITERION_TIE * w.searchLoss(preds), within(1e-9));
        assertThatThrownBy(() -> g.withGroupCriterion(0.15, 0.05, 0)).hasMessageContaining("margin in (0, 1]");
        assertThatThrownBy(() -> g.withGroupCriterion(0, 0.05, 1)).hasMessageContaining("bounds must be > 0");
    }
}
