package io.ccsim.algorithms.scale;

import io.ccsim.algorithms.perf.PerfRow;

import java.util.Arrays;
import java.util.Objects;

/**
 * One size extrapolated to the target: the row at the target and how it was found.
 *
 * @param row         the target's row: nccl-tests' size and count at the target's ranks, the tuner's choice there,
 *                    the time of the fitted law at the target, algbw and busbw from it
 * @param targetNodes the target's nodes
 * @param law         the law fitted
 * @param sampleNodes the node counts simulated, ascending
 * @param sampleBytes nccl-tests' size each sample ran, bytes
 * @param sampleUs    the simulated time of each sample, µs
 * @param fit         the law fitted to the samples
 * @param targetRegressors the law's regressors at the target ({@link ScalingLaw#regressors}), where the fit is read
 */
public record Extrapolation(PerfRow row, int targetNodes, ScalingLaw law, int[] sampleNodes, long[] sampleBytes,
                            double[] sampleUs, LawFit fit, double[] targetRegressors) {

    public Extrapolation {
        Objects.requireNonNull(row, "row");
        Objects.requireNonNull(law, "law");
        Objects.requireNonNull(fit, "fit");
        if (sampleNodes.length == 0 || sampleNodes.length != sampleBytes.length || sampleNodes.length != sampleUs.length) {
            throw new IllegalArgumentException("one node count, size and time per sample, at least one; got "
                    + sampleNodes.length + ", " + sampleBytes.length + ", " + sampleUs.length);
        }
        sampleNodes = sampleNodes.clone();
        sampleBytes = sampleBytes.clone();
        sampleUs = sampleUs.clone();
        targetRegressors = targetRegressors.clone();
    }

    @Override public double[] targetRegressors() { return targetRegressors.clone(); }

    /** The largest error of this reading measured on the validation grid, per cent: its law's for its algorithm. */
    public double errorBoundPct() { return law.errorBoundPct(row.algo()); }

    @Override public int[] sampleNodes() { return sampleNodes.clone(); }

    @Override public long[] sampleBytes() { return sampleBytes.clone(); }

    @Override public double[] sampleUs() { return sampleUs.clone(); }

    @Override
    public boolean equals(Object o) {
        return o instanceof Extrapolation e && e.row.equals(row) && e.targetNodes == targetNodes && e.law == law
                && Arrays.equals(e.sampleNodes, sampleNodes) && Arrays.equals(e.sampleBytes, sampleBytes)
                && Arrays.equals(e.sampleUs, sampleUs) && e.fit.equals(fit)
                && Arrays.equals(e.targetRegressors, targetRegressors);
    }

    @Override
    public int hashCode() {
        return Objects.hash(row, targetNodes, law, Arrays.hashCode(sampleNodes), Arrays.hashCode(sampleBytes),
                Arrays.hashCode(sampleUs), fit, Arrays.hashCode(targetRegressors));
    }

    @Override
    public String toString() {
        return "Extrapolation[" + row.algo().ncclName() + "/" + row.proto().ncclName() + " x" + row.channels() + " "
                + row.bytes() + " B to " + targetNodes + " nodes by " + law + " from " + Arrays.toString(sampleNodes)
                + " nodes " + Arrays.toString(sampleUs) + " us: " + row.timeUs() + " us]";
    }
}
