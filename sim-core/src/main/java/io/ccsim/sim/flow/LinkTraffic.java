package io.ccsim.sim.flow;

import java.util.Arrays;

/**
 * Per link direction (hop): the sum of the rates of the flows crossing it (bytes/s), the bytes it has carried, and
 * how many flows in their bandwidth phase cross it. Kept only where the network is asked for link traffic.
 *
 * <p>Contract: bytes are settled lazily, only when a direction's rate changes: {@code bytes(now) = bytes(last) +
 * rate x (now - last) / 1e12} with times in ps. A flow crossing a direction k times is listed k times in its route,
 * so it counts k times. Rates never go below 0 (a rounding remainder is clamped) and are exactly 0 once the last
 * flow leaves. Hops must be of links added with {@link #addLink}.
 */
final class LinkTraffic {
    /*
     * Interleaved, STRIDE longs per direction (one cache line where four arrays cost four): the rate and the bytes
     * carried as of the last settle as raw double bits, the time of the last settle (ps), the count of flows in their
     * bandwidth phase.
     */
    private static final double PS_PER_S = 1e12;
    private static final int STRIDE = 4;
    private static final int RATE = 0;
    private static final int BYTES = 1;
    private static final int LAST = 2;
    private static final int FLOWS = 3;
    private long[] dir = new long[32 * STRIDE];

    /** Makes room for both directions of {@code link}, idle and settled at {@code now} (ps). */
    void addLink(int link, long now) {
        int need = (2 * link + 2) * STRIDE;
        if (dir.length < need) {
            dir = Arrays.copyOf(dir, Math.max(need, 2 * dir.length));
        }
        dir[2 * link * STRIDE + LAST] = now;
        dir[(2 * link + 1) * STRIDE + LAST] = now;
    }

    /** @return the bytes hop h has carried as of {@code now} (ps) */
    double bytes(int h, long now) {
        int b = h * STRIDE;
        long dt = now - dir[b + LAST];
        double rate = Double.longBitsToDouble(dir[b + RATE]);
        double bytes = Double.longBitsToDouble(dir[b + BYTES]);
        return dt == 0 || rate == 0 ? bytes : bytes + rate * dt / PS_PER_S;
    }

    /** @return the rate of hop h, bytes/s */
    double rate(int h) {
        return Double.longBitsToDouble(dir[h * STRIDE + RATE]);
    }

    /** A flow over {@code route} enters its bandwidth phase (at rate 0: {@link #changeRate} gives it one). */
    void join(int[] route) {
        for (int h : route) {
            dir[h * STRIDE + FLOWS]++;
        }
    }

    /** A flow over {@code route} standing for {@code multiplicity} flows changes its rate by {@code delta} at now. */
    void changeRate(int[] route, double delta, int multiplicity, long now) {
        for (int h : route) {
            settle(h, now);
            int b = h * STRIDE + RATE;
            dir[b] = Double.doubleToRawLongBits(Double.longBitsToDouble(dir[b]) + delta * multiplicity);
        }
    }

    /**
     * A flow over {@code route} leaves at now, running at {@code rate} (bytes/s, per replica); {@code overshoot}
     * bytes per replica it was counted beyond its size (its completion time rounded up to a ps) are taken back.
     */
    void leave(int[] route, double rate, int multiplicity, double overshoot, long now) {
        for (int h : route) {
            settle(h, now);
            int b = h * STRIDE;
            dir[b + BYTES] = Double.doubleToRawLongBits(Double.longBitsToDouble(dir[b + BYTES]) - overshoot * multiplicity);
            if (--dir[b + FLOWS] == 0) {
                dir[b + RATE] = Double.doubleToRawLongBits(0.0);
            } else {
                double v = Double.longBitsToDouble(dir[b + RATE]) - rate * multiplicity;
                dir[b + RATE] = Double.doubleToRawLongBits(v > 0 ? v : 0.0);
            }
        }
    }

    private void settle(int h, long now) {
        int b = h * STRIDE;
        long dt = now - dir[b + LAST];
        double rate = Double.longBitsToDouble(dir[b + RATE]);
        if (dt > 0 && rate > 0) {
            dir[b + BYTES] = Double.doubleToRawLongBits(Double.longBitsToDouble(dir[b + BYTES]) + rate * dt / PS_PER_S);
        }
        dir[b + LAST] = now;
    }
}
