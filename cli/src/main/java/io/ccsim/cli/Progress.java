package io.ccsim.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * What a long command is doing, on stderr: one status line redrawn in place (carriage return) with what is being
 * done, how far (a fraction of the command's work), the elapsed time and an ETA; and the permanent progress lines of
 * commands that log each measurement (calibrate).
 *
 * <p>Contract:
 * <ul>
 *   <li>The status line is drawn only when enabled (stderr is a terminal, or {@code --progress}), at most once per
 *       {@link #REDRAW_NS} (4 times a second), never longer than {@link #WIDTH} characters, and erased before
 *       anything else is printed ({@link #line}, {@link #clear}): it never reaches stdout or a golden output.</li>
 *   <li>{@link #line} always prints, enabled or not.</li>
 *   <li>The ETA is elapsed × (1 − f) / f for the fraction f of the work done, shown once f ≥ 1 % and 1 s has passed;
 *       the caller weighs its items by their work (steps of a plan), so the ETA is as good as that weight.</li>
 * </ul>
 * One instance per command run; thread-safe (the simulating threads of a sweep draw through it).
 */
final class Progress {
    /** Least time between two draws of the status line, ns. */
    static final long REDRAW_NS = 250_000_000L;
    /** Most characters of the status line (an 80-column terminal would wrap the 80th). */
    static final int WIDTH = 79;

    private final PrintWriter err;
    private final boolean enabled;
    private final LongSupplier clock;
    private final long startNs;
    private long lastDrawNs;
    private int shown;

    /**
     * @param err     the command's stderr
     * @param enabled whether to draw the status line
     * @param clock   wall clock, ns ({@code System::nanoTime}; tests give their own)
     */
    Progress(PrintWriter err, boolean enabled, LongSupplier clock) {
        this.err = err;
        this.enabled = enabled;
        this.clock = clock;
        this.startNs = clock.getAsLong();
        this.lastDrawNs = startNs - REDRAW_NS;
    }

    /** Whether the status line is drawn at all. */
    boolean enabled() {
        return enabled;
    }

    /** Whether a {@link #show} now would draw: enabled and the last draw at least {@link #REDRAW_NS} ago. */
    synchronized boolean due() {
        return enabled && clock.getAsLong() - lastDrawNs >= REDRAW_NS;
    }

    /**
     * Draws the status line if {@link #due()}: {@code what}, then the fraction done, the elapsed time and the ETA.
     *
     * @param fraction the part of the command's work done, in [0, 1]; NaN when unknown (no percentage, no ETA)
     */
    synchronized void show(String what, double fraction) {
        if (!due()) return;
        long now = clock.getAsLong();
        lastDrawNs = now;
        double elapsed = (now - startNs) / 1e9;
        StringBuilder tail = new StringBuilder(" | ");
        if (!Double.isNaN(fraction)) tail.append(String.format(Locale.ROOT, "%.0f %% done, ", 100 * Math.min(1, fraction)));
        tail.append(duration(elapsed));
        if (!Double.isNaN(fraction) && fraction >= 0.01 && elapsed >= 1 && fraction < 1) {
            tail.append(", ETA ").append(duration(elapsed * (1 - fraction) / fraction));
        }
        int room = WIDTH - tail.length();
        String head = what.length() <= room ? what : what.substring(0, Math.max(0, room - 3)) + "...";
        String text = head + tail;
        StringBuilder sb = new StringBuilder("\r").append(text);
        for (int i = text.length(); i < shown; i++) sb.append(' ');
        err.print(sb);
        err.flush();
        shown = text.length();
    }

    /** Prints {@code text} as a line of its own, the status line erased first. */
    synchronized void line(String text) {
        clear();
        err.println(text);
        err.flush();
    }

    /** Erases the status line, if one is shown. */
    synchronized void clear() {
        if (shown == 0) return;
        err.print("\r" + " ".repeat(shown) + "\r");
        err.flush();
        shown = 0;
    }

    /** {@code 12 s}, {@code 3 min 05 s}, {@code 2 h 07 min}. */
    static String duration(double seconds) {
        long s = Math.round(seconds);
        if (s < 60) return s + " s";
        if (s < 3600) return String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60);
        return String.format(Locale.ROOT, "%d h %02d min", s / 3600, (s % 3600) / 60);
    }

    /**
     * Whether this process's stderr is a terminal: on Linux, what file descriptor 2 points to
     * ({@code /dev/pts/N}, {@code /dev/ttyN}); elsewhere whether the JVM has a console (stdin and stdout terminals).
     */
    static boolean stderrIsTerminal() {
        Path fd2 = Path.of("/proc/self/fd/2");
        try {
            if (Files.isSymbolicLink(fd2)) {
                String target = Files.readSymbolicLink(fd2).toString();
                return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
            }
        } catch (IOException | SecurityException | UnsupportedOperationException e) {
            // not readable here: fall back to the console
        }
        return System.console() != null;
    }

    /**
     * The part of a sequence of items done, each weighted by its work: items {@code 0 .. current − 1} done and
     * {@code within} of item {@code current}.
     */
    static final class Items {
        private final long[] prefix;

        /** @param work the work of each item, in any unit (steps of its plan), each ≥ 0 */
        Items(long[] work) {
            prefix = new long[work.length + 1];
            for (int i = 0; i < work.length; i++) prefix[i + 1] = prefix[i] + Math.max(0, work[i]);
        }

        /** The fraction of all work done, in [0, 1]; 0 when there is none. */
        double fraction(int current, double within) {
            int n = prefix.length - 1;
            long total = prefix[n];
            if (total == 0) return 0;
            if (current >= n) return 1;
            double w = Math.max(0, Math.min(1, within));
            return (prefix[current] + w * (prefix[current + 1] - prefix[current])) / total;
        }
    }
}
