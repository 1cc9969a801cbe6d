package io.ccsim.cli;

import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The subcommands of {@code ccsim}, and which of them one command line needs.
 *
 * <p>{@link #register} adds to the root command only the subcommand that the first word of the command line names
 * (and nothing for a lone {@code --version}); any other command line ({@code --help}, {@code help perf}, a misspelt
 * command, none) gets every subcommand, in {@link #COMMANDS}' order and then the
 * nccl-tests binaries, as {@code ccsim --help} lists them. What a command line prints and returns does not depend on
 * which subcommands it was given.
 */
final class Subcommands {
    /*
     * Why: picocli builds the model of every subcommand it is given, reflecting over its options, mixins and nested
     * subcommands and loading the classes they name. For all 12 commands and the 7 nccl-tests binaries that is about
     * 60 % of a short process (`ccsim --version` with every command's model loads 1,595 classes, with none 1,331;
     * measurements in docs/performance.md, "Start-up").
     */

    /** Every subcommand class, in the order {@code ccsim --help} lists them; picocli's help command last. */
    static final List<Class<?>> COMMANDS = List.of(TopologyCommand.class, PerfCommand.class, TuneCommand.class,
            ScenarioCommand.class, DiagnoseCommand.class, CalibrateCommand.class, DeviceCommand.class,
            ValidateCommand.class, FitCommand.class, BundleCommand.class, DdpCommand.class, SweepCommand.class,
            CommandLine.HelpCommand.class);

    private Subcommands() {}

    /**
     * Adds to {@code root} the subcommands that {@code args} needs, each created through {@code factory}; the
     * nccl-tests binaries get {@code env} and {@code session}. Call before setting streams and handlers on
     * {@code root}, which picocli passes on to the subcommands it has.
     */
    static void register(CommandLine root, String[] args, CommandLine.IFactory factory, Map<String, String> env,
                         Main.Session session) {
        String first = args.length == 0 ? "" : args[0];
        if (args.length == 1 && (first.equals("--version") || first.equals("-V"))) return;
        for (Class<?> c : COMMANDS) {
            if (c != CommandLine.HelpCommand.class && name(c).equals(first)) {
                root.addSubcommand(new CommandLine(c, factory));
                return;
            }
        }
        for (NcclTestsCommand.Binary b : NcclTestsCommand.Binary.values()) {
            if (b.program.equals(first)) {
                NcclTestsCommand.register(root, b, env, session);
                return;
            }
        }
        registerAll(root, factory, env, session);
    }

    /** Adds every subcommand to {@code root}, as {@code ccsim --help} lists them. */
    static void registerAll(CommandLine root, CommandLine.IFactory factory, Map<String, String> env, Main.Session session) {
        for (Class<?> c : COMMANDS) root.addSubcommand(new CommandLine(c, factory));
        for (NcclTestsCommand.Binary b : NcclTestsCommand.Binary.values()) NcclTestsCommand.register(root, b, env, session);
    }

    /** The name a subcommand class declares in its {@link Command} annotation. */
    private static String name(Class<?> c) {
        return c.getAnnotation(Command.class).name();
    }
}
