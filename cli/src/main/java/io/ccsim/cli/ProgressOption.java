package io.ccsim.cli;

import java.io.PrintWriter;
import picocli.CommandLine.Option;

/** The {@code --[no-]progress} option of the commands that can run long, and the {@link Progress} it gives. */
final class ProgressOption {
    @Option(names = "--progress", negatable = true,
            description = "show what runs, how far and an ETA on stderr (default: when stderr is a terminal)")
    Boolean progress;

    /** The progress display of a command run: on where asked, else where stderr is a terminal. */
    Progress open(PrintWriter err, Main.Session session) {
        return new Progress(err, progress != null ? progress : session.stderrTerminal(), session.clock());
    }
}
