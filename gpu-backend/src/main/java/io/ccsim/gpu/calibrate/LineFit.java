package io.ccsim.gpu.calibrate;

import org.apache.commons.math3.stat.regression.OLSMultipleLinearRegression;

import java.util.Arrays;
import java.util.List;

/**
 * Least-squares lines t = a + b·x through measured points {x, t, ...} (commons-math3 OLS), weighted so that
 * relative, not absolute, residuals are minimised.
 */
final class LineFit {
    private LineFit() { }

    /**
     * Least squares t = a + b·x over points {x, t, ...} minimising <em>relative</em> residuals (each equation
     * divided by its t: the small sizes, microseconds, weigh as much as the large ones, milliseconds);
     * returns {a, b}.
     *
     * @throws IllegalArgumentException with fewer than 2 points or a time that is not &gt; 0
     */
    static double[] fit(List<double[]> pts) {
        if (pts.size() < 2) throw new IllegalArgumentException("a line fit needs at least 2 points, got " + pts.size());
        OLSMultipleLinearRegression ols = new OLSMultipleLinearRegression();
        ols.setNoIntercept(true);
        double[] y = new double[pts.size()];
        double[][] x = new double[pts.size()][2];
        for (int i = 0; i < y.length; i++) {
            double t = pts.get(i)[1];
            if (!(t > 0)) throw new IllegalArgumentException("measured time must be > 0, got " + t + " at x=" + pts.get(i)[0]);
            x[i][0] = 1.0 / t;
            x[i][1] = pts.get(i)[0] / t;
            y[i] = 1.0;
        }
        ols.newSampleData(y, x);
        return ols.estimateRegressionParameters();
    }

    /** Median over points of |a + b·x − t| / t. */
    static double medianRelErr(List<double[]> pts, double[] ab) {
        double[] e = new double[pts.size()];
        for (int i = 0; i < e.length; i++) {
            double[] p = pts.get(i);
            e[i] = Math.abs(ab[0] + ab[1] * p[0] - p[1]) / p[1];
        }
        Arrays.sort(e);
        return e.length % 2 == 1 ? e[e.length / 2] : (e[e.length / 2 - 1] + e[e.length / 2]) / 2;
    }
}
