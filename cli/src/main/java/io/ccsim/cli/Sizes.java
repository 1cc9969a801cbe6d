package io.ccsim.cli;

import java.util.Locale;

/** Byte sizes as nccl-tests takes them: a number with an optional K, M or G suffix (powers of 1024). */
final class Sizes {
    private Sizes() {}

    /**
     * Parses {@code 8}, {@code 64K}, {@code 128M}, {@code 1G} (case-insensitive; a trailing {@code B} or
     * {@code iB} is accepted). nccl-tests' parsesize() uses 1024-based K/M/G.
     */
    static long parse(String option, String text) {
        String t = text.trim().toUpperCase(Locale.ROOT);
        if (t.endsWith("IB")) t = t.substring(0, t.length() - 2);
        else if (t.endsWith("B") && t.length() > 1 && !Character.isDigit(t.charAt(t.length() - 2))) t = t.substring(0, t.length() - 1);
        else if (t.endsWith("B")) t = t.substring(0, t.length() - 1);
        long mult = 1;
        if (!t.isEmpty()) {
            char c = t.charAt(t.length() - 1);
            if (c == 'K') mult = 1L << 10;
            else if (c == 'M') mult = 1L << 20;
            else if (c == 'G') mult = 1L << 30;
            else if (c == 'T') mult = 1L << 40;
            if (mult != 1) t = t.substring(0, t.length() - 1);
        }
        try {
            long v = Long.parseLong(t);
            if (v < 0) throw new NumberFormatException();
            return Math.multiplyExact(v, mult);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new UserException(option + ": invalid size '" + text
                    + "'; valid: a non-negative integer with an optional K, M, G suffix (e.g. 8, 64K, 128M, 1G)");
        }
    }

    /** Formats a byte count the way nccl-tests' size column prints it: the plain integer. */
    static String human(long bytes) {
        if (bytes >= (1L << 30) && bytes % (1L << 30) == 0) return (bytes >> 30) + "G";
        if (bytes >= (1L << 20) && bytes % (1L << 20) == 0) return (bytes >> 20) + "M";
        if (bytes >= (1L << 10) && bytes % (1L << 10) == 0) return (bytes >> 10) + "K";
        return Long.toString(bytes);
    }
}
