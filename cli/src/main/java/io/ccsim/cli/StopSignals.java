package io.ccsim.cli;

import io.ccsim.sim.RunControl;
import java.io.PrintStream;

/**
 * Ctrl-C (SIGINT) and SIGTERM for the {@code ccsim} process. While a command that polls its {@link RunControl} runs
 * ({@link Main.Session#stoppable}), the first signal asks it to stop, so it prints what it has and exits with
 * {@link #exitCode} (130 or 143, as a shell reports a process ended by that signal); if it has not ended
 * {@link #GRACE_MS} later (busy in a phase that checks no stop request, or in a long garbage collection), or on a
 * second signal, the process ends at once with that code and a line saying so. Any other command (GPU
 * measurements, fits) ends at once, as without these handlers.
 *
 * <p>Installed once by {@link Main#main}, never by {@link Main#execute} (tests stop runs through the control itself).
 */
final class StopSignals {
    /** How long a stop request may take before the process is ended without output, ms. */
    static final long GRACE_MS = 3000;

    private StopSignals() {}

    /** The exit code for a run stopped by {@code reason}: 143 for SIGTERM, 130 for SIGINT and anything else. */
    static int exitCode(String reason) {
        return "SIGTERM".equals(reason) ? ExitCode.SIGTERM.code : ExitCode.SIGINT.code;
    }

    /** Handles SIGINT and SIGTERM from now on (where the JVM lets it: not under {@code -Xrs}). */
    static void install(Main.Session session, PrintStream err) {
        for (String name : new String[] {"INT", "TERM"}) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(name), sig -> onSignal(session, "SIG" + name, err));
            } catch (IllegalArgumentException e) {
                // the signal is reserved here: the JVM's default (exit) stays
            }
        }
    }

    private static void onSignal(Main.Session session, String reason, PrintStream err) {
        int code = exitCode(reason);
        RunControl control = session.control();
        if (!session.stopsOnRequest().get()) {
            System.exit(code);   // as the JVM's own handler: shutdown hooks, then exit
            return;
        }
        if (control.stopRequested()) {
            err.println("\nccsim: " + reason + " again: stopping now, without output");
            Runtime.getRuntime().halt(code);
        }
        control.requestStop(reason);
        Thread grace = new Thread(() -> {
            try {
                Thread.sleep(GRACE_MS);
            } catch (InterruptedException e) {
                return;
            }
            err.println("\nccsim: did not stop within " + GRACE_MS / 1000 + " s of " + reason + "; stopping now, without output");
            Runtime.getRuntime().halt(code);
        }, "ccsim-stop-grace");
        grace.setDaemon(true);
        grace.start();
    }
}
