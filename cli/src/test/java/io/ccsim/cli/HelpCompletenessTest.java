package io.ccsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.sim.RunControl;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code --help} of every command and subcommand, the nccl-tests binaries included, describes every option and
 * parameter, names the default of every option that has one, and labels every option's value (N, SIZE, text|json). Read from the commands' picocli model, the same one {@code --help} prints.
 */
class HelpCompletenessTest {
    /** Every command reachable from {@code ccsim}, as its qualified name and spec. */
    private static List<CommandSpec> commands() {
        Main.Session session = new Main.Session(new RunControl(), false, System::nanoTime, 1L << 30);
        Main.EnvFactory factory = new Main.EnvFactory(Map.of(), session);
        CommandLine cl = new CommandLine(new Main(), factory);
        Subcommands.registerAll(cl, factory, Map.of(), session);
        List<CommandSpec> out = new ArrayList<>();
        collect(cl, out);
        return out;
    }

    private static void collect(CommandLine cl, List<CommandSpec> out) {
        out.add(cl.getCommandSpec());
        for (CommandLine sub : cl.getSubcommands().values()) {
            if (!out.contains(sub.getCommandSpec())) collect(sub, out);
        }
    }

    private static String description(ArgSpec a) {
        return String.join(" ", a.description()).strip();
    }

    @Test
    void everyCommandHasADescription() {
        List<String> missing = new ArrayList<>();
        for (CommandSpec c : commands()) {
            if (String.join(" ", c.usageMessage().description()).isBlank()) missing.add(c.qualifiedName());
        }
        assertThat(missing).isEmpty();
    }

    @Test
    void everyOptionAndParameterIsDescribed() {
        List<String> missing = new ArrayList<>();
        int seen = 0;
        for (CommandSpec c : commands()) {
            for (ArgSpec a : c.args()) {
                seen++;
                if (description(a).isEmpty()) missing.add(c.qualifiedName() + " " + label(a));
            }
        }
        assertThat(seen).isGreaterThan(200);
        assertThat(missing).isEmpty();
    }

    @Test
    void everyOptionWithADefaultSaysIt() {
        List<String> missing = new ArrayList<>();
        for (CommandSpec c : commands()) {
            for (OptionSpec o : c.options()) {
                if (o.usageHelp() || o.versionHelp() || o.defaultValue() == null || o.typeInfo().isBoolean()) continue;
                String d = description(o).toLowerCase(Locale.ROOT);
                if (!d.contains("default")) missing.add(c.qualifiedName() + " " + o.longestName() + " (default " + o.defaultValue() + ")");
            }
        }
        assertThat(missing).isEmpty();
    }

    @Test
    void everyValueOptionNamesItsValue() {
        // picocli's fallback label is the field name in angle brackets (--seed=<seed>), which says nothing of the value
        List<String> unnamed = new ArrayList<>();
        for (CommandSpec c : commands()) {
            for (OptionSpec o : c.options()) {
                if (o.arity().max() > 0 && o.paramLabel().startsWith("<")) unnamed.add(c.qualifiedName() + " " + o.longestName());
            }
        }
        assertThat(unnamed).isEmpty();
    }

    private static String label(ArgSpec a) {
        return a instanceof OptionSpec o ? o.longestName() : a.paramLabel();
    }
}
