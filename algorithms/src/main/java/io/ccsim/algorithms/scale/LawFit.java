package io.ccsim.algorithms.scale;

/**
 * A line {@code T = intercept + slope · x} fitted to sample times by least squares: through both points for two
 * samples with distinct x, the mean where every sample has the same x (a constant law).
 *
 * @param intercept   µs
 * @param slope       µs per unit of x
 * @param maxResidual the largest |T_i − line(x_i)| over the samples, µs (0 for two samples with distinct x, or one)
 */
public record LawFit(double intercept, double slope, double maxResidual) {

    /**
     * Fits {@code t[i]} (µs) at {@code x[i]}.
     *
     * @throws IllegalArgumentException for no samples, arrays of different lengths, or values that are not finite
     */
    public static LawFit of(double[] x, double[] t) {
        if (x.length == 0 || x.length != t.length) {
            throw new IllegalArgumentException("a fit needs as many times as regressors, at least one; got " + x.length
                    + " and " + t.length);
        }
        double mx = 0;
        double mt = 0;
        for (int i = 0; i < x.length; i++) {
            if (!Double.isFinite(x[i]) || !Double.isFinite(t[i])) {
                throw new IllegalArgumentException("sample " + i + " is not finite: x " + x[i] + ", t " + t[i]);
            }
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
        return new LawFit(intercept, slope, worst);
    }

    /** The line at {@code x}, µs. */
    public double at(double x) {
        return intercept + slope * x;
    }
}
