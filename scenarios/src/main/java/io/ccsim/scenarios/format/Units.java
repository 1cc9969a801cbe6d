package io.ccsim.scenarios.format;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Time and size units of the scenarios layer (parsing and printing of scenario files): simulated
 * time is a {@code long} in picoseconds, as sim-core's {@link io.ccsim.sim.Time}.
 */
public final class Units {
    public static final long PS_PER_NS = io.ccsim.sim.Time.PS_PER_NS;
    public static final long PS_PER_US = io.ccsim.sim.Time.PS_PER_US;
    public static final long PS_PER_MS = io.ccsim.sim.Time.PS_PER_MS;
    public static final long PS_PER_S = io.ccsim.sim.Time.PS_PER_S;
    public static final long KIB = 1024L, MIB = KIB * 1024, GIB = MIB * 1024;

    private static final Pattern DURATION = Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?)\\s*(ps|ns|us|ms|s|min|h)\\s*");
    private static final Pattern SIZE = Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?)\\s*(B|KiB|MiB|GiB|TiB|KB|MB|GB|TB)?\\s*");

    private Units() {}

    /** Milliseconds to picoseconds. */
    public static long ms(long ms) { return Math.multiplyExact(ms, PS_PER_MS); }

    /** Seconds to picoseconds. */
    public static long s(long s) { return Math.multiplyExact(s, PS_PER_S); }

    /** Picoseconds to seconds, for printing only. */
    public static double toSeconds(long ps) { return ps / (double) PS_PER_S; }

    /** Picoseconds to whole milliseconds (truncated), as PyTorch prints durations. */
    public static long toMillis(long ps) { return ps / PS_PER_MS; }

    /**
     * Parses a duration such as {@code "3s"}, {@code "100ms"}, {@code "2.5us"}, {@code "10min"} into
     * picoseconds. @throws IllegalArgumentException naming the valid forms
     */
    public static long parseDuration(String text) {
        Matcher m = DURATION.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("bad duration '" + text
                    + "'; valid: a number followed by one of ps, ns, us, ms, s, min, h (e.g. \"3s\", \"100ms\")");
        }
        double v = Double.parseDouble(m.group(1));
        long unit;
        switch (m.group(2)) {
            case "ps": unit = 1; break;
            case "ns": unit = PS_PER_NS; break;
            case "us": unit = PS_PER_US; break;
            case "ms": unit = PS_PER_MS; break;
            case "s": unit = PS_PER_S; break;
            case "min": unit = 60 * PS_PER_S; break;
            default: unit = 3600 * PS_PER_S; break;
        }
        double ps = v * unit;
        if (ps > Long.MAX_VALUE / 2.0) throw new IllegalArgumentException("duration '" + text + "' is too long");
        return Math.round(ps);
    }

    /**
     * Parses a byte size such as {@code "1GiB"}, {@code "300MiB"}, {@code "128.5GiB"} or a bare number of
     * bytes. Binary (KiB, MiB, GiB, TiB) and decimal (KB, MB, GB, TB) suffixes are accepted.
     */
    public static long parseBytes(String text) {
        Matcher m = SIZE.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("bad size '" + text
                    + "'; valid: a number optionally followed by B, KiB, MiB, GiB, TiB, KB, MB, GB, TB (e.g. \"1GiB\")");
        }
        double v = Double.parseDouble(m.group(1));
        String u = m.group(2) == null ? "B" : m.group(2);
        double mult;
        switch (u) {
            case "B": mult = 1; break;
            case "KiB": mult = KIB; break;
            case "MiB": mult = MIB; break;
            case "GiB": mult = GIB; break;
            case "TiB": mult = GIB * 1024.0; break;
            case "KB": mult = 1e3; break;
            case "MB": mult = 1e6; break;
            case "GB": mult = 1e9; break;
            default: mult = 1e12; break;
        }
        return Math.round(v * mult);
    }

    /** Formats bytes for humans: {@code 1.00 GiB}, {@code 300.0 MiB}. */
    public static String formatBytes(long b) {
        if (b >= 1024 * GIB) return String.format(Locale.ROOT, "%.2f TiB", b / (double) (1024 * GIB));
        if (b >= GIB) return String.format(Locale.ROOT, "%.2f GiB", b / (double) GIB);
        if (b >= MIB) return String.format(Locale.ROOT, "%.1f MiB", b / (double) MIB);
        if (b >= KIB) return String.format(Locale.ROOT, "%.1f KiB", b / (double) KIB);
        return b + " B";
    }

    /** Formats a duration for humans with an adaptive unit ({@code 59.500 s}, {@code 12.3 ms}). */
    public static String formatDuration(long ps) {
        if (ps >= PS_PER_S) return String.format(Locale.ROOT, "%.3f s", ps / (double) PS_PER_S);
        if (ps >= PS_PER_MS) return String.format(Locale.ROOT, "%.3f ms", ps / (double) PS_PER_MS);
        if (ps >= PS_PER_US) return String.format(Locale.ROOT, "%.3f us", ps / (double) PS_PER_US);
        if (ps == 0) return "0 s";
        return ps + " ps";
    }
}
