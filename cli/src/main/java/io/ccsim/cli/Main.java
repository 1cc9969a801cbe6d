package io.ccsim.cli;

import io.ccsim.sim.RunControl;
import io.ccsim.sim.RunStoppedException;
import java.io.PrintWriter;
import java.util.function.LongSupplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code ccsim} command. The only place that parses command lines and prints for humans.
 *
 * <p>Exit codes: {@link ExitCode}, printed in {@code ccsim --help}'s footer and tabulated in docs/cli.md. Output escapes control
 * characters ({@link EscapingWriter}). A user mistake is one clear line on stderr, never a stack trace
 * (set {@code CCSIM_DEBUG=1} to see one for unexpected internal errors).
 */
@Command(name = "ccsim", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Discrete-event simulator of GPU collective communication (NCCL-style).")
public final class Main implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command; try 'ccsim --help'");
    }

    public static void main(String[] args) {
        // the GPU bundle's trimmed runtime has no java.management: no heap watch there (its runs are GPU measurements)
        Session session = new Session(new RunControl(), Progress.stderrIsTerminal(), System::nanoTime,
                Runtime.getRuntime().maxMemory(), ModuleLayer.boot().findModule("java.management").isPresent(),
                new java.util.concurrent.atomic.AtomicBoolean());
        StopSignals.install(session, System.err);
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true), System.getenv(), session));
    }

    /** Runs the command line with the given streams and environment; returns the exit code. Nothing stops it early. */
    public static int execute(String[] args, PrintWriter out, PrintWriter err, java.util.Map<String, String> env) {
        return execute(args, out, err, env, new Session(new RunControl(), false, System::nanoTime, Runtime.getRuntime().maxMemory()));
    }

    /**
     * Runs the command line with the given streams, environment and session (the control that stops a long command,
     * and whether its stderr is a terminal); returns the exit code.
     */
    public static int execute(String[] args, PrintWriter rawOut, PrintWriter rawErr, java.util.Map<String, String> env,
                              Session session) {
        PrintWriter out = new PrintWriter(new EscapingWriter(rawOut), true);
        PrintWriter err = new PrintWriter(new EscapingWriter(rawErr), true);
        EnvFactory factory = new EnvFactory(env, session);
        CommandLine cl = new CommandLine(new Main(), factory);
        Subcommands.register(cl, args, factory, java.util.Map.copyOf(env), session);   // before the streams and handlers
        cl.setOut(out);
        cl.setErr(err);
        cl.getCommandSpec().usageMessage().footer(ExitCode.footer().toArray(new String[0]));
        cl.setParameterExceptionHandler((ex, a) -> {
            err.println("ccsim: " + io.ccsim.topology.input.InputException.oneLine(ex.getMessage()));
            CommandLine c = ex.getCommandLine();
            err.println("usage: " + c.getCommandSpec().qualifiedName() + " --help");
            return ExitCode.USAGE.code;
        });
        cl.setExecutionExceptionHandler((ex, c, parseResult) -> {
            if (ex instanceof RunStoppedException) {
                String reason = ((RunStoppedException) ex).reason();
                err.println("ccsim: stopped " + StopSignals.byWhat(reason) + " before any result");
                return StopSignals.exitCode(reason);
            }
            if (ex instanceof UserException || ex instanceof IllegalArgumentException) {
                err.println("ccsim: error: " + io.ccsim.topology.input.InputException.oneLine(ex.getMessage()));
                return ExitCode.FAILED.code;
            }
            if (ex instanceof io.ccsim.gpu.cuda.CudaUnavailableException || ex instanceof io.ccsim.gpu.cuda.GpuException) {
                err.println("ccsim: " + ex.getMessage());   // "no CUDA device found: ..." as the gpu-backend words it
                return ExitCode.FAILED.code;
            }
            if (HeapWatch.outOfMemory(ex)) {   // thrown in a worker thread (--jobs): the budget's estimate fell short
                err.println("ccsim: " + HeapWatch.outOfMemory(session.maxHeapBytes()));
                return ExitCode.BUDGET.code;
            }
            err.println("ccsim: internal error: " + ex);
            if (env.containsKey("CCSIM_DEBUG")) ex.printStackTrace(err);
            else err.println("(set CCSIM_DEBUG=1 for a stack trace)");
            return ExitCode.INTERNAL.code;
        });
        int code;
        try {
            code = cl.execute(args);
        } catch (OutOfMemoryError e) {   // picocli hands errors on: the allocation's frames are gone, the heap free again
            err.println("ccsim: " + HeapWatch.outOfMemory(session.maxHeapBytes()));
            code = ExitCode.BUDGET.code;
        }
        out.flush();
        err.flush();
        return code;
    }

    /**
     * What the process gives a long command: the control that stops it (signals, tests), whether stderr is a terminal
     * (progress is shown there), the wall clock in ns, the heap a run may use in bytes ({@link RunBudget}), whether a
     * {@link HeapWatch} stops the control's runs when the heap stays full (installed by {@link #stoppable}), and whether
     * the command now running stops on request ({@link #stoppable}; else a signal ends the process at once).
     */
    record Session(RunControl control, boolean stderrTerminal, LongSupplier clock, long maxHeapBytes, boolean watchesHeap,
                   java.util.concurrent.atomic.AtomicBoolean stopsOnRequest) {
        /** A session without heap watch. */
        Session(RunControl control, boolean stderrTerminal, LongSupplier clock, long maxHeapBytes) {
            this(control, stderrTerminal, clock, maxHeapBytes, false, new java.util.concurrent.atomic.AtomicBoolean());
        }

        /** The budget that runs of this session must fit. */
        RunBudget budget() {
            return new RunBudget(maxHeapBytes);
        }

        /**
         * Called by a command before work that polls the control: a signal then asks it to stop, not the process, and
         * (where {@link #watchesHeap}) the heap watch starts, once; commands that run nothing never pay for it.
         */
        void stoppable() {
            if (!stopsOnRequest.getAndSet(true) && watchesHeap) HeapWatch.install(control);
        }
    }

    /** Gives every command the process environment (NCCL_* variables) and the session without reading globals. */
    static final class EnvFactory implements CommandLine.IFactory {
        private final java.util.Map<String, String> env;
        private final Session session;
        private final CommandLine.IFactory fallback = CommandLine.defaultFactory();

        EnvFactory(java.util.Map<String, String> env, Session session) {
            this.env = java.util.Map.copyOf(env);
            this.session = session;
        }

        @Override
        public <K> K create(Class<K> cls) throws Exception {
            K k = fallback.create(cls);
            if (k instanceof NeedsEnv) ((NeedsEnv) k).setEnv(env);
            if (k instanceof NeedsSession) ((NeedsSession) k).setSession(session);
            return k;
        }
    }

    /** Implemented by commands that read NCCL_* variables from the environment. */
    interface NeedsEnv {
        void setEnv(java.util.Map<String, String> env);
    }

    /** Implemented by commands that can run long: they show progress and stop on request. */
    interface NeedsSession {
        void setSession(Session session);
    }

    /** {@code ccsim 0.1.0-SNAPSHOT (git 00f1ed4)}: the version and commit this ccsim was built from ({@link BuildInfo}). */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"ccsim " + BuildInfo.current().label()};
        }
    }
}
