package io.ccsim.cli;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.ccsim.scenarios.ScenarioCatalog;
import io.ccsim.scenarios.ScenarioFormatException;
import io.ccsim.scenarios.ScenarioResult;
import io.ccsim.scenarios.ScenarioRunner;
import io.ccsim.scenarios.cluster.SimCollectiveEngine;
import io.ccsim.scenarios.format.Scenario;
import io.ccsim.topology.Topology;
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
                    "Exit code 0 whatever the simulated outcome; 1 for an invalid scenario file or one over its limits;"
                            + " 3 when a limit stopped the run."})
    static final class Run implements Callable<Integer>, Main.NeedsSession {
        enum Format { text, json }

        @Spec CommandSpec spec;
        private Main.Session session;
        @Mixin ProgressOption progressOption = new ProgressOption();

        @Override
        public void setSession(Main.Session session) { this.session = session; }

        @Parameters(index = "0", paramLabel = "FILE|NAME", description = "scenario JSON file or catalog name")
        String scenario;

        @Option(names = "--format", defaultValue = "text", paramLabel = "text|json", description = "text|json (default: ${DEFAULT-VALUE})")
        Format format;

        @Option(names = "--chart", paramLabel = "FILE",
                description = "also draw the per-rank timeline (init, compute, waits, collectives, stalls, faults) into FILE, .png or .svg")
        java.nio.file.Path chart;

        @Option(names = "--seed", defaultValue = "1", paramLabel = "S", description = "seed of the run's random streams (default: ${DEFAULT-VALUE})")
        long seed;

        @Option(names = "--max-calls", paramLabel = "N", defaultValue = "1000000",
                description = "refuse, before it starts, a job making more collective calls than N over all its ranks (every"
                        + " repeat unrolled; each call is simulated and recorded) (default: ${DEFAULT-VALUE})")
        long maxCalls;

        @Option(names = "--max-events", paramLabel = "N", defaultValue = "2000000000",
                description = "stop the run after N simulated events, 0 for no limit (default: ${DEFAULT-VALUE})")
        long maxEvents;

        @Option(names = "--max-wall", paramLabel = "DURATION", defaultValue = "0",
                description = "stop the run after this much wall-clock time, e.g. 10min; 0 for no limit (default: ${DEFAULT-VALUE})")
        String maxWall;

        @Override
        public Integer call() {
            if (chart != null) ChartFile.check("--chart", chart);
            ScenarioResult r;
            long t0 = System.nanoTime();
            if (maxCalls < 1 || maxEvents < 0) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(), (maxCalls < 1 ? "--max-calls " + maxCalls
                        : "--max-events " + maxEvents) + ": invalid; valid: a count >= 1" + (maxCalls < 1 ? "" : ", or 0 for no limit"));
            }
            long wallPs;
            try {
                wallPs = maxWall.equals("0") ? 0 : io.ccsim.scenarios.format.Units.parseDuration(maxWall);
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--max-wall " + maxWall + ": " + e.getMessage());
            }
            io.ccsim.scenarios.format.Scenario sc;
            try {
                sc = ScenarioRunner.load(scenario);
            } catch (ScenarioFormatException e) {
                throw new UserException(e.getMessage(), e);
            }
            checkCalls(sc);
            session.control().setBudget(maxEvents, "--max-events N", wallPs / 1000, "--max-wall DURATION");
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
            Provenance provenance;
            try {
                provenance = provenance(sc, seed);
                r = ScenarioRunner.run(sc, seed, session.control());
            } catch (ScenarioFormatException e) {
                // what only the topology can tell is reported under the scenario's name: name the file given instead
                String m = e.getMessage();
                throw new UserException(m.startsWith(sc.name() + ": ") ? scenario + m.substring(sc.name().length()) : m, e);
            } catch (RunStoppedException e) {
                progress.clear();
                PrintWriter err = spec.commandLine().getErr();
                err.printf(Locale.ROOT, "ccsim: scenario %s stopped %s after %.3f s of simulated job time; no diagnosis, the run did"
                        + " not finish%n", scenario, StopSignals.byWhat(e.reason()), jobTimePs[0] / 1e12);
                err.flush();
                return StopSignals.exitCode(e.reason());
            } finally {
                session.control().setWatcher(null);
                progress.clear();
            }
            double wall = (System.nanoTime() - t0) / 1e9;
            PrintWriter out = spec.commandLine().getOut();
            if (format == Format.json) {
                out.println(withProvenance(r.toJson(), provenance));
            } else {
                out.print(r.toText());
                out.println("provenance: " + provenance.text());
                out.printf(Locale.ROOT, "(simulated %.3f s of job time in %.2f s wall)%n", r.simTimeSeconds(), wall);
            }
            if (chart != null) {
                ChartFile.Written w = TimelineChart.write(chart, r);
                if (format == Format.text) out.printf(Locale.ROOT, "chart: %s (%s)%n", chart, w.describe());
            }
            out.flush();
            return 0;
        }

        /**
         * The provenance of {@code scenario} run with {@code seed}: its topology, the built-in profile of its GPUs (the
         * one the run uses), its world size and the hosts of those ranks (rank r on GPU r, host-major).
         */
        static Provenance provenance(Scenario scenario, long seed) {
            Topology topo = ScenarioRunner.topology(scenario, seed);
            int world = Math.min(scenario.job().worldSize(), topo.gpus().size());
            java.util.Set<Integer> hosts = new java.util.HashSet<>();
            for (int g = 0; g < world; g++) hosts.add(topo.gpus().get(g).host());
            return Provenance.of(null, SimCollectiveEngine.profileFor(topo), topo, world, hosts.size(), seed);
        }

        /** The scenario's JSON document with a {@code provenance} object first, the rest as {@code json} has it. */
        static String withProvenance(String json, Provenance provenance) {
            JsonObject o = new JsonObject();
            o.add("provenance", provenance.toJson());
            return Provenance.prepend(o, json);
        }

        /**
         * Refuses, before anything runs, a job whose collective calls over all ranks exceed {@code --max-calls}: every
         * call is simulated and kept in the flight recorder and the trace, so the calls bound the run's events, time
         * and memory.
         */
        private void checkCalls(io.ccsim.scenarios.format.Scenario sc) {
            long perRank = io.ccsim.scenarios.format.ProgramSize.calls(sc.job().program());
            int ranks = sc.job().worldSize();
            long total = perRank > Long.MAX_VALUE / ranks ? Long.MAX_VALUE : perRank * ranks;
            if (total <= maxCalls) return;
            throw new UserException(String.format(Locale.ROOT, "%s: $.job.program: the job makes %s collective calls (%s per rank x %d"
                    + " ranks, every repeat unrolled), more than the limit of %,d; valid: fewer repeat times (a few iterations"
                    + " show a pattern), or raise the limit with --max-calls %d", scenario, total == Long.MAX_VALUE ? "more than 2^63"
                    : String.format(Locale.ROOT, "%,d", total), String.format(Locale.ROOT, "%,d", perRank), ranks, maxCalls,
                    total == Long.MAX_VALUE ? Long.MAX_VALUE : total));
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "The catalog of scenarios (real incidents and their fixed twins).")
    static final class ListCmd implements Callable<Integer> {
        enum Format { text, json }

        @Spec CommandSpec spec;

        @Option(names = "--format", defaultValue = "text", paramLabel = "text|json",
                description = "text: one line per scenario (name, expected outcome, description); json: an array of objects"
                        + " with name, expected, description (default: ${DEFAULT-VALUE})")
        Format format;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            JsonArray a = new JsonArray();
            for (ScenarioCatalog.Entry e : ScenarioCatalog.list()) {
                String expected = e.expected().toString().toLowerCase(Locale.ROOT);
                if (format == Format.text) {
                    out.printf(Locale.ROOT, "%-34s %-10s %s%n", e.name(), expected, e.description());
                    continue;
                }
                JsonObject o = new JsonObject();
                o.addProperty("name", e.name());
                o.addProperty("expected", expected);
                o.addProperty("description", e.description());
                a.add(o);
            }
            if (format == Format.json) out.println(new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create().toJson(a));
            out.flush();
            return 0;
        }
    }
}
