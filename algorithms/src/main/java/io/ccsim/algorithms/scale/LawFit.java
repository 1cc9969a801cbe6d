package io.ccsim.algorithms.scale;

import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.RealVector;
import org.apache.commons.math3.linear.SingularValueDecomposition;

import java.util.Arrays;

/**
 * A law {@code T = Σ_j coefficients[j] · r_j} fitted to sample times by least squares over the regressors {@code r}
 * of each sample ({@link ScalingLaw#regressors}). A line {@code T = intercept + slope · x} is the case
 * {@code r = (1, x)}: through both points for two samples with distinct x, the mean where every sample has the same
 * x (a constant law). With more regressors the fit is the least-squares solution of least norm (through the singular
 * value decomposition), so a regressor that does not vary over the samples (a chain's train length when every sample
 * runs the target's) adds nothing and the law stays defined wherever the target's row lies in the samples' span.
 *
 * @param coefficients µs per unit of each regressor, in the law's order
 * @param maxResidual  the largest |T_i − law(r_i)| over the samples, µs (0 where the samples determine the law)
 */
public record LawFit(double[] coefficients, double maxResidual) {

    public LawFit {
        coefficients = coefficients.clone();
    }

    /** The coefficients, µs per unit of each regressor. */
    @Override public double[] coefficients() { return coefficients.clone(); }

    /**
     * Fits {@code t[i]} (µs) at {@code x[i]} with a line.
     *
     * @throws IllegalArgumentException for no samples, arrays of different lengths, or values that are not finite
     */
    public static LawFit of(double[] x, double[] t) {
        check(x.length, t);
        for (int i = 0; i < x.length; i++) finite(i, x[i], t[i]);
        double mx = 0;
        double mt = 0;
        for (int i = 0; i < x.length; i++) {
            mx += x[i];
            mt += t[i];
        }
        mx /= x.length;
        mt /= x.length;
        double sxx = 0;
        double sxt = 0;
        for (int i = 0; i < x.length; i++) {
            sxx += (x[i] - mx) * (x[i] - mx);
            sxt += (x[i] - mx) * (t[i] - mt);
        }
        double slope = sxx == 0 ? 0 : sxt / sxx;
        double intercept = mt - slope * mx;
        double worst = 0;
        for (int i = 0; i < x.length; i++) worst = Math.max(worst, Math.abs(t[i] - (intercept + slope * x[i])));
        return new LawFit(new double[] {intercept, slope}, worst);
    }

    /**
     * Fits {@code t[i]} (µs) at the regressors {@code rows[i]} (one row per sample, every row as long).
     *
     * @throws IllegalArgumentException for no samples, arrays of different lengths, rows of different lengths or no
     *                                  regressor, or values that are not finite
     */
    public static LawFit of(double[][] rows, double[] t) {
        check(rows.length, t);
        int k = rows[0].length;
        for (int i = 0; i < rows.length; i++) {
            if (rows[i].length != k || k == 0) {
                throw new IllegalArgumentException("sample " + i + " has " + rows[i].length + " regressors, sample 0 " + k
                        + "; every sample needs the same number, at least one");
            }
            for (double r : rows[i]) finite(i, r, t[i]);
        }
        /* Columns scaled to unit norm first, so that the decomposition's rank threshold compares like with like
         * (a train length of ~1e3 units beside a constant 1). */
        double[] scale = new double[k];
        for (int j = 0; j < k; j++) {
            double s = 0;
            for (double[] row : rows) s += row[j] * row[j];
            scale[j] = s == 0 ? 1 : Math.sqrt(s);
        }
        double[][] a = new double[rows.length][k];
        for (int i = 0; i < rows.length; i++) {
            for (int j = 0; j < k; j++) a[i][j] = rows[i][j] / scale[j];
        }
        RealVector sol = new SingularValueDecomposition(new Array2DRowRealMatrix(a, false)).getSolver()
                .solve(new ArrayRealVector(t, false));
        double[] c = new double[k];
        for (int j = 0; j < k; j++) c[j] = sol.getEntry(j) / scale[j];
        LawFit fit = new LawFit(c, 0);
        double worst = 0;
        for (int i = 0; i < rows.length; i++) worst = Math.max(worst, Math.abs(t[i] - fit.at(rows[i])));
        return new LawFit(c, worst);
    }

    /** A line's intercept (the first coefficient), µs. */
    public double intercept() { return coefficients[0]; }

    /**
     * A line's slope, µs per unit of x.
     *
     * @throws IllegalStateException if the law is not a line (two coefficients)
     */
    public double slope() {
        if (coefficients.length != 2) {
            throw new IllegalStateException("a law of " + coefficients.length + " regressors has no slope");
        }
        return coefficients[1];
    }

    /** The line at {@code x}, µs ({@link #slope}'s contract). */
    public double at(double x) {
        return intercept() + slope() * x;
    }

    /**
     * The law at the regressors {@code row}, µs.
     *
     * @throws IllegalArgumentException if the row has another length than the coefficients
     */
    public double at(double[] row) {
        if (row.length != coefficients.length) {
            throw new IllegalArgumentException(row.length + " regressors for a law of " + coefficients.length);
        }
        double t = 0;
        for (int j = 0; j < row.length; j++) t += coefficients[j] * row[j];
        return t;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LawFit f && Arrays.equals(f.coefficients, coefficients) && f.maxResidual == maxResidual;
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(coefficients) + Double.hashCode(maxResidual);
    }

    @Override
    public String toString() {
        return "LawFit" + Arrays.toString(coefficients) + " max residual " + maxResidual + " us";
    }

    private static void check(int n, double[] t) {
        if (n == 0 || n != t.length) {
            throw new IllegalArgumentException("a fit needs as many times as regressors, at least one; got " + n
                    + " and " + t.length);
        }
    }

    private static void finite(int i, double x, double t) {
        if (!Double.isFinite(x) || !Double.isFinite(t)) {
            throw new IllegalArgumentException("sample " + i + " is not finite: x " + x + ", t " + t);
        }
    }
}
