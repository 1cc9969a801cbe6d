package io.ccsim.scenarios.cluster;

import java.util.List;

/**
 * The data path of a ring all-reduce, executed on synthetic 64-bit values so that checksums and bit
 * flips are real: every rank holds n chunks (one value each, derived from the data seed and its
 * global rank); n-1 reduce-scatter steps (rank r sends chunk (r - s) mod n, the receiver adds its
 * own) then n-1 all-gather steps (rank r sends chunk (r + 1 - s) mod n, the receiver overwrites).
 * Sums wrap, so with no flip every output checksum equals the sum of the input checksums. Pure and
 * independent of timing: an executor that knows at which ring step a flip happened can reuse it.
 */
public final class RingData {
    private RingData() {}

    /** SplitMix64 finalizer ({@link io.ccsim.sim.HashKeys#spread}): a well-mixed deterministic value. */
    public static long mix(long z) {
        return io.ccsim.sim.HashKeys.spread(z);
    }

    /**
     * @param global   global rank of each ring position (ring order)
     * @param dataSeed seed of the synthetic values
     * @param flips    {step, sender ring position, channel}: a bit flips in what that sender sends at that step
     * @return {input checksums, output checksums}, one per ring position
     */
    static long[][] checksums(int[] global, long dataSeed, List<long[]> flips) {
        int n = global.length;
        long[][] v = new long[n][n];
        long[] inSum = new long[n];
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < n; c++) {
                long x = RingData.mix(dataSeed ^ ((long) global[r] << 32) ^ c);
                v[r][c] = x;
                inSum[r] += x;
            }
        }
        int steps = 2 * (n - 1);
        long[] sent = new long[n];
        for (int s = 0; s < steps; s++) {
            boolean reducePhase = s < n - 1;
            for (int r = 0; r < n; r++) {
                int c = reducePhase ? Math.floorMod(r - s, n) : Math.floorMod(r + 1 - (s - (n - 1)), n);
                long x = v[r][c];
                for (long[] f : flips) {
                    if (f[0] == s && f[1] == r) x ^= 1L << (RingData.mix(dataSeed + s) & 63);
                }
                sent[r] = x;
            }
            for (int r = 0; r < n; r++) {
                int from = (r - 1 + n) % n;
                int c = reducePhase ? Math.floorMod(from - s, n) : Math.floorMod(from + 1 - (s - (n - 1)), n);
                v[r][c] = reducePhase ? v[r][c] + sent[from] : sent[from];
            }
        }
        long[] outSum = new long[n];
        for (int r = 0; r < n; r++) for (int c = 0; c < n; c++) outSum[r] += v[r][c];
        return new long[][] {inSum, outSum};
    }
}
