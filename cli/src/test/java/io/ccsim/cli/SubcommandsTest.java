package io.ccsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.sim.RunControl;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@link Subcommands}: a command line gets the subcommand it names, and prints what it printed with every one. */
class SubcommandsTest {
    private static List<String> registered(String... args) {
        Main.Session session = new Main.Session(new RunControl(), false, System::nanoTime, 1L << 30);
        Main.EnvFactory factory = new Main.EnvFactory(Map.of(), session);
        CommandLine cl = new CommandLine(new Main(), factory);
        Subcommands.register(cl, args, factory, Map.of(), session);
        return new ArrayList<>(cl.getSubcommands().keySet());
    }

    private static List<String> allNames() {
        List<String> names = new ArrayList<>();
        for (Class<?> c : Subcommands.COMMANDS) names.add(c.getAnnotation(CommandLine.Command.class).name());
        for (NcclTestsCommand.Binary b : NcclTestsCommand.Binary.values()) names.add(b.program);
        return names;
    }

    @Test
    void aNamedCommandGetsItselfAlone() {
        assertThat(registered("perf", "--topology", "hgx-h100")).containsExactly("perf");
        assertThat(registered("scenario", "list")).containsExactly("scenario");
        assertThat(registered("all_reduce_perf", "-b", "8")).containsExactly("all_reduce_perf");
        assertThat(registered("--version")).isEmpty();
    }

    @Test
    void anyOtherCommandLineGetsEveryCommandInHelpOrder() {
        List<String> all = allNames();
        assertThat(all).hasSize(Subcommands.COMMANDS.size() + NcclTestsCommand.Binary.values().length);
        assertThat(registered()).isEqualTo(all);
        assertThat(registered("--help")).isEqualTo(all);
        assertThat(registered("help", "perf")).isEqualTo(all);
        assertThat(registered("pref")).isEqualTo(all);
        assertThat(registered("--version", "perf")).isEqualTo(all);
    }

    @Test
    void aCommandsHelpIsTheSameAloneAsAmongAll() {
        for (String name : allNames()) {
            if (name.equals("help")) continue;
            CliTest.Result alone = CliTest.run(name, "--help");
            CliTest.Result amongAll = CliTest.run("help", name);
            assertThat(alone.code()).as(name).isZero();
            assertThat(alone.out()).as(name).isNotBlank().isEqualTo(amongAll.out());
        }
    }

    @Test
    void aMisspeltCommandIsStillOneUsageError() {
        CliTest.Result r = CliTest.run("pref");
        assertThat(r.code()).isEqualTo(ExitCode.USAGE.code);
        assertThat(r.err()).isEqualTo("ccsim: Unmatched argument at index 0: 'pref'\nusage: ccsim --help\n");
    }

    @Test
    void versionFollowedByACommandStillPrintsTheVersion() {
        CliTest.Result r = CliTest.run("--version", "perf");
        assertThat(r.code()).isZero();
        assertThat(r.out()).startsWith("ccsim ").isEqualTo(CliTest.run("--version").out());
    }
}
