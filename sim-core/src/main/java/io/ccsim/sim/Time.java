package io.ccsim.sim;

import java.util.Locale;

/**
 * Conversions between human units and simulated time, a primitive {@code long} count of
 * picoseconds. Pure static helpers, no state. 2^63 ps is about 106 days.
 */
public final class Time {
    /** Picoseconds per nanosecond. */
    public static final long PS_PER_NS = 1_000L;
    /** Picoseconds per microsecond. */
    public static final long PS_PER_US = 1_000_000L;
    /** Picoseconds per millisecond. */
    public static final long PS_PER_MS = 1_000_000_000L;
    /** Picoseconds per second. */
    public static final long PS_PER_S = 1_000_000_000_000L;

    private Time() {
    }

    /** @return {@code ns} nanoseconds in picoseconds, rounded to nearest */
    public static long ns(double ns) {
        return toPs(ns, PS_PER_NS, "ns");
    }

    /** @return {@code us} microseconds in picoseconds, rounded to nearest */
    public static long us(double us) {
        return toPs(us, PS_PER_US, "us");
    }

    /** @return {@code ms} milliseconds in picoseconds, rounded to nearest */
    public static long ms(double ms) {
        return toPs(ms, PS_PER_MS, "ms");
    }

    /** @return {@code s} seconds in picoseconds, rounded to nearest */
    public static long seconds(double s) {
        return toPs(s, PS_PER_S, "seconds");
    }

    private static long toPs(double value, long factor, String unit) {
        double ps = value * factor;
        if (Double.isNaN(ps) || Math.abs(ps) >= 0x1p63) {
            throw new IllegalArgumentException("time " + value + " " + unit
                    + " is not representable in picoseconds: valid is a finite value with |value| < "
                    + (Long.MAX_VALUE / factor) + " " + unit);
        }
        return Math.round(ps);
    }

    /** @return {@code ps} picoseconds in seconds */
    public static double toSeconds(long ps) {
        return ps / (double) PS_PER_S;
    }

    /** @return {@code ps} picoseconds in microseconds */
    public static double toMicros(long ps) {
        return ps / (double) PS_PER_US;
    }

    /** @return {@code ps} picoseconds in milliseconds */
    public static double toMillis(long ps) {
        return ps / (double) PS_PER_MS;
    }

    /**
     * Human-readable time with three decimals in the largest unit not exceeding it:
     * {@code "850 ps"}, {@code "12.345 us"}, {@code "1.200 s"}.
     */
    public static String format(long ps) {
        long abs = ps == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(ps);
        if (abs < PS_PER_NS) {
            return ps + " ps";
        }
        if (abs < PS_PER_US) {
            return String.format(Locale.ROOT, "%.3f ns", ps / (double) PS_PER_NS);
        }
        if (abs < PS_PER_MS) {
            return String.format(Locale.ROOT, "%.3f us", ps / (double) PS_PER_US);
        }
        if (abs < PS_PER_S) {
            return String.format(Locale.ROOT, "%.3f ms", ps / (double) PS_PER_MS);
        }
        return String.format(Locale.ROOT, "%.3f s", ps / (double) PS_PER_S);
    }
}
