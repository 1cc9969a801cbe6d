package io.ccsim.scenarios;

import java.util.Locale;

/** How a scenario run ended. */
public enum Outcome {
    /** Every rank finished its program, results intact, at the expected speed. */
    COMPLETED,
    /** Some rank can make no progress and nothing will ever unblock it (or the horizon was reached). */
    HANG,
    /** A process failed (NCCL error, watchdog timeout, crash) and the job stopped. */
    ERROR,
    /** The job finished but ranks hold different or wrong results. */
    CORRUPTED,
    /** The job finished, slower than the healthy system would have (a slow link or rank). */
    DEGRADED;

    /** The lower-case name used in JSON ({@code completed}, {@code hang}...). */
    public String id() { return name().toLowerCase(Locale.ROOT); }

    /** Parses an id, naming the valid ones on error. */
    public static Outcome parse(String s) {
        for (Outcome o : values()) if (o.id().equals(s)) return o;
        throw new IllegalArgumentException("unknown outcome '" + s + "'; valid: completed, hang, error, corrupted, degraded");
    }
}
