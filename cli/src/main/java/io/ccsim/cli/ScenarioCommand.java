package io.ccsim.cli;

import io.ccsim.scenarios.ScenarioCatalog;
import io.ccsim.scenarios.ScenarioFormatException;
import io.ccsim.scenarios.ScenarioResult;
import io.ccsim.scenarios.ScenarioRunner;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import io.ccsim.sim.RunStoppedException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code ccsim scenario run FILE|NAME} and {@code ccsim scenario list}: fault-injection scenarios and their diagnosis. */
@Command(name = "scenario", mixinStandardHelpOptions = true,
        description = "Fault-injection scenarios: reproduce an incident and get the diagnosis.",
        subcommands = {ScenarioCommand.Run.class, ScenarioCommand.ListCmd.class})
final class ScenarioCommand implements Runnable {
    @Spec CommandSpec spec;

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "missing subcommand: run FILE|NAME, or list");
    }

    @Command(name = "run", mixinStandardHelpOptions = true,
            description = {"Run a scenario file (or a catalog name, see 'scenario list'): per-rank timeline summary and diagnosis.",
                    "Exit code 0 whatever the simulated outcome; 1 for an invalid scenario file."})
    static final class Run implements Callable<Integer>, Main.NeedsSession {
        enum Format { text, json }

        @Spec CommandSpec spec;
        private Main.Session session;
        @Mixin ProgressOption progressOption = new ProgressOption();

        @Override
        public void setSession(Main.Session session) { this.session = session; }

        @Parameters(index = "0", paramLabel = "FILE|NAME", description = "scenario JSON file or catalog name")
        String scenario;

        @Option(names = "--format", defaultValue = "text", description = "text|json (default: ${DEFAULT-VALUE})")
        Format format;

        @Option(names = "--chart", paramLabel = "FILE",
                description = "also draw the per-rank timeline (init, compute, waits, collectives, stalls, faults) into FILE, .png or .svg")
        java.nio.file.Path chart;

        @Option(names = "--seed", defaultValue = "1", description = "seed of the run's random streams (default: ${DEFAULT-VALUE})")
        long seed;

        @Override
        public Integer call() {
            if (chart != null) ChartFile.check("--chart", chart);
            ScenarioResult r;
            long t0 = System.nanoTime();
            session.stoppable();
            Progress progress = progressOption.open(spec.commandLine().getErr(), session);
            long[] jobTimePs = {0};
            session.control().setWatcher(sim -> {
                // the job's simulator is the one furthest in time (reference runs of one collective start at 0)
                if (sim != null) jobTimePs[0] = Math.max(jobTimePs[0], sim.now());
                if (!progress.due()) return;
                progress.show(String.format(Locale.ROOT, "scenario %s: %.3f s of job time simulated", scenario, jobTimePs[0] / 1e12),
                        Double.NaN);
            });
            try {
                r = ScenarioRunner.runNamed(scenario, seed, session.control());
            } catch (ScenarioFormatException e) {
                throw new UserException(e.getMessage(), e);
            } catch (IOException e) {
                throw new UserException("cannot read scenario " + scenario + ": " + e.getMessage(), e);
            } catch (RunStoppedException e) {
                progress.clear();
                PrintWriter err = spec.commandLine().getErr();
                err.printf(Locale.ROOT, "ccsim: scenario %s stopped by %s after %.3f s of simulated job time; no diagnosis, the run did"
                        + " not finish%n", scenario, e.reason(), jobTimePs[0] / 1e12);
                err.flush();
                return StopSignals.exitCode(e.reason());
            } finally {
                session.control().setWatcher(null);
                progress.clear();
            }
            double wall = (System.nanoTime() - t0) / 1e9;
            PrintWriter out = spec.commandLine().getOut();
            if (format == Format.json) {
                out.println(r.toJson());
            } else {
                out.print(r.toText());
                out.printf(Locale.ROOT, "(simulated %.3f s of job time in %.2f s wall)%n", r.simTimeSeconds(), wall);
            }
            if (chart != null) {
                ChartFile.Written w = TimelineChart.write(chart, r);
                if (format == Format.text) out.printf(Locale.ROOT, "chart: %s (%s)%n", chart, w.describe());
            }
            out.flush();
            return 0;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "The catalog of scenarios (real incidents and their fixed twins).")
    static final class ListCmd implements Callable<Integer> {
        @Spec CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            for (ScenarioCatalog.Entry e : ScenarioCatalog.list()) {
                out.printf(Locale.ROOT, "%-34s %-10s %s%n", e.name(), e.expected().toString().toLowerCase(Locale.ROOT), e.description());
            }
            out.flush();
            return 0;
        }
    }
}
