package io.ccsim.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Every exit status the {@code ccsim} process ends with: the one list that the code returns from, {@code ccsim
 * --help} prints in its footer and docs/cli.md tabulates (a test holds the three equal).
 *
 * <p>Where the codes come from: 2 for a usage error as picocli's and most Unix tools' convention; 70 for an internal
 * error, {@code EX_SOFTWARE} of BSD's sysexits.h; 130 and 143 as a shell reports a process ended by SIGINT (128 + 2)
 * and SIGTERM (128 + 15); 7 is the status the nccl-tests binaries end with when their mean bus bandwidth is below
 * 0.9 × {@code NCCL_TESTS_MIN_BW} (nccl-tests' main, src/common.cu, returns {@code testNumResults} then; the release
 * modelled is {@link NcclTestsCommand}'s).
 */
enum ExitCode {
    OK(0, "success (scenario run: whatever the simulated outcome)"),
    FAILED(1, "failed on its input: bad file or value, no CUDA device, heap too small"),
    USAGE(2, "bad command line: unknown option, missing or malformed value"),
    NCCL_TESTS_MIN_BW(7, "nccl-tests command: mean busbw below 0.9 x NCCL_TESTS_MIN_BW"),
    INTERNAL(70, "internal error, a bug (CCSIM_DEBUG=1 prints its stack trace)"),
    SIGINT(130, "stopped by Ctrl-C (SIGINT), after printing what it had"),
    SIGTERM(143, "stopped by SIGTERM, after printing what it had");

    /** The process exit status, 0-255. */
    final int code;
    /** What it means, one line of at most 70 characters (the help footer's width). */
    final String meaning;

    ExitCode(int code, String meaning) {
        this.code = code;
        this.meaning = meaning;
    }

    /** The lines of {@code ccsim --help}'s footer: one per code, and where the table is. */
    static List<String> footer() {
        List<String> out = new ArrayList<>();
        out.add("Exit codes (docs/cli.md):");
        for (ExitCode c : values()) out.add(String.format(java.util.Locale.ROOT, "  %3d  %s", c.code, c.meaning));
        return out;
    }
}
