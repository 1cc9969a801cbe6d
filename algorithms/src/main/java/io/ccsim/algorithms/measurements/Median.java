package io.ccsim.algorithms.measurements;

import java.util.Arrays;

/** The median of a sample, as used for repeated trials and for error tables. */
public final class Median {
    private Median() {}

    /**
     * The median of {@code v}: its middle value, or the mean of the two middle values for an even count.
     *
     * @throws IllegalArgumentException if {@code v} is empty
     */
    public static double of(double[] v) {
        if (v.length == 0) throw new IllegalArgumentException("median of no values");
        double[] s = v.clone();
        Arrays.sort(s);
        int m = s.length / 2;
        return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
    }
}
