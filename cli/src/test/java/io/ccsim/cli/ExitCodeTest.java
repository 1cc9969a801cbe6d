package io.ccsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The exit codes: docs/cli.md's table, {@code ccsim --help}'s footer and the code returned are one list. */
class ExitCodeTest {
    private static final Path DOC = Path.of("..", "docs", "cli.md");
    private static final Pattern ROW = Pattern.compile("^\\| (\\d+) \\| ([A-Z_0-9]+) \\| .+\\|$");

    @Test
    void theDocumentedTableIsTheCodesList() throws IOException {
        Map<Integer, String> documented = new LinkedHashMap<>();
        for (String line : Files.readAllLines(DOC, StandardCharsets.UTF_8)) {
            Matcher m = ROW.matcher(line);
            if (m.matches()) assertThat(documented.put(Integer.parseInt(m.group(1)), m.group(2))).as(line).isNull();
        }
        Map<Integer, String> code = new LinkedHashMap<>();
        for (ExitCode c : ExitCode.values()) code.put(c.code, c.name());
        assertThat(documented).containsExactlyEntriesOf(code);
    }

    @Test
    void helpFooterListsEveryCode() {
        CliTest.Result r = CliTest.run("--help");
        assertThat(r.code()).isZero();
        for (ExitCode c : ExitCode.values()) assertThat(r.out()).containsPattern("(?m)^ +" + c.code + "  " + Pattern.quote(c.meaning) + "$");
        assertThat(r.out()).contains("Exit codes (docs/cli.md):");
    }

    @Test
    void theCommandLineReturnsTheListedCodes() {
        assertThat(CliTest.run("perf", "--no-such-option").code()).isEqualTo(ExitCode.USAGE.code);
        assertThat(CliTest.run("topology", "no-such-board").code()).isEqualTo(ExitCode.FAILED.code);
        assertThat(CliTest.run("topology", "hgx-h200", "--gpus", "2").code()).isEqualTo(ExitCode.OK.code);
        assertThat(StopSignals.exitCode("SIGINT")).isEqualTo(ExitCode.SIGINT.code).isEqualTo(128 + 2);
        assertThat(StopSignals.exitCode("SIGTERM")).isEqualTo(ExitCode.SIGTERM.code).isEqualTo(128 + 15);
        // nccl-tests' MIN_BW check: a threshold no simulated bandwidth reaches
        CliTest.Result low = CliTest.run(Map.of("NCCL_TESTS_MIN_BW", "1000000"), "all_reduce_perf", "-g", "2", "-b", "1M", "-e", "1M");
        assertThat(low.code()).isEqualTo(ExitCode.NCCL_TESTS_MIN_BW.code);
    }
}
