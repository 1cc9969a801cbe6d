package io.ccsim.algorithms.fit;

import io.ccsim.algorithms.measurements.MeasuredRow;
import io.ccsim.algorithms.profile.CalibrationProfile;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.math3.exception.TooManyEvaluationsException;
import org.apache.commons.math3.optim.InitialGuess;
import org.apache.commons.math3.optim.MaxEval;
import org.apache.commons.math3.optim.SimpleBounds;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;
import org.apache.commons.math3.optim.nonlinear.scalar.ObjectiveFunction;
import org.apache.commons.math3.optim.nonlinear.scalar.noderiv.BOBYQAOptimizer;

/**
 * Minimises the search loss over one block's parameters: BOBYQA (Powell's bounded derivative-free quadratic model,
 * commons-math3) in the logarithm of each parameter, within its bounds, from the profile's current values.
 */
final class BlockOptimizer {
    private BlockOptimizer() {}

    /**
     * One block's step.
     *
     * @param profile  the profile with the block's best values, or the start if none lowered the loss
     * @param progress what the step did
     */
    record Step(CalibrationProfile profile, BlockProgress progress) {}

    /**
     * Fits block {@code b} of {@code start} on {@code rows}, with at most {@code maxEval} objective evaluations
     * (6 per parameter at least).
     */
    static Step fit(CalibrationProfile start, FitBlock b, List<MeasuredRow> rows, int round, int maxEval, FitObjective objective,
                    FixturePredictor predictor) {
        List<FitParameter> ps = b.params();
        int n = ps.size();
        double[] x0 = new double[n], lo = new double[n], hi = new double[n];
        for (int i = 0; i < n; i++) {
            FitParameter f = ps.get(i);
            lo[i] = Math.log(f.lower());
            hi[i] = Math.log(f.upper());
            x0[i] = Math.min(hi[i], Math.max(lo[i], Math.log(f.get().applyAsDouble(start))));
        }
        double before = objective.searchLoss(predictor.predictAll(start, rows));
        // BOBYQA throws at the evaluation budget instead of returning its best point, so the
        // objective remembers the best point it has seen.
        double[] bestX = x0.clone();
        double[] bestV = {before};
        ObjectiveFunction obj = new ObjectiveFunction(x -> {
            double v = objective.searchLoss(predictor.predictAll(FitParameter.apply(start, ps, exp(x)), rows));
            if (v < bestV[0]) {
                bestV[0] = v;
                System.arraycopy(x, 0, bestX, 0, n);
            }
            return v;
        });
        // BOBYQA spends 2n + 1 evaluations on its first model: a block of many parameters gets 6 per parameter at least
        int budget = Math.max(maxEval, 6 * n);
        BOBYQAOptimizer opt = new BOBYQAOptimizer(2 * n + 1, 0.25, 1e-3);
        try {
            opt.optimize(new MaxEval(budget), obj, GoalType.MINIMIZE, new InitialGuess(x0), new SimpleBounds(lo, hi));
        } catch (TooManyEvaluationsException e) {
            // budget spent: keep the best point seen
        }
        CalibrationProfile out = bestV[0] < before ? FitParameter.apply(start, ps, exp(bestX)) : start;
        Map<String, Double> values = new LinkedHashMap<>();
        for (FitParameter f : ps) values.put(f.name(), f.get().applyAsDouble(out));
        return new Step(out, new BlockProgress(round, b.name(), rows.size(), opt.getEvaluations(), before, bestV[0], values));
    }

    private static double[] exp(double[] x) {
        double[] v = new double[x.length];
        for (int i = 0; i < x.length; i++) v[i] = Math.exp(x[i]);
        return v;
    }
}
