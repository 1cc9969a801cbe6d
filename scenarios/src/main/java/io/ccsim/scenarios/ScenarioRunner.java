package io.ccsim.scenarios;

import io.ccsim.scenarios.diagnosis.Analyzer;
import io.ccsim.scenarios.diagnosis.Category;
import io.ccsim.scenarios.diagnosis.Diagnosis;
import io.ccsim.scenarios.diagnosis.FrEntry;
import io.ccsim.scenarios.diagnosis.RankPhase;
import io.ccsim.scenarios.diagnosis.SymmMemRecord;
import io.ccsim.scenarios.diagnosis.Trace;
import io.ccsim.scenarios.format.Scenario;
import io.ccsim.scenarios.format.ScenarioParser;
import io.ccsim.scenarios.format.SymmBackend;
import io.ccsim.scenarios.format.Units;
import io.ccsim.scenarios.job.ScenarioSimulation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs scenarios: from a file, from the catalog, or from a parsed {@link Scenario}. Every run
 * terminates — when no event is left (finished, or a hang: nothing can make progress) or at the
 * scenario's horizon — and the same scenario and seed give the same result.
 */
public final class ScenarioRunner {
    private ScenarioRunner() {}

    /** Parses and runs a scenario file. @throws ScenarioFormatException for a malformed file */
    public static ScenarioResult run(Path file, long seed) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        return run(ScenarioParser.parse(text, file.toString(), file.toAbsolutePath().getParent()), seed);
    }

    /**
     * Runs {@code nameOrPath}: an existing file, else a catalog scenario of that name.
     * @throws IllegalArgumentException naming the catalog's scenarios if it is neither
     */
    public static ScenarioResult runNamed(String nameOrPath, long seed) throws IOException {
        return runNamed(nameOrPath, seed, null);
    }

    /**
     * As {@link #runNamed(String, long)}, every simulation of the run polling {@code control} (null: none): a stop
     * requested there ends the run with {@link io.ccsim.sim.RunStoppedException}.
     */
    public static ScenarioResult runNamed(String nameOrPath, long seed, io.ccsim.sim.RunControl control) throws IOException {
        return run(load(nameOrPath), seed, control);
    }

    /**
     * Parses {@code nameOrPath}: an existing file, else a catalog scenario of that name.
     * @throws IllegalArgumentException naming the catalog's scenarios if it is neither
     * @throws ScenarioFormatException for a malformed file
     */
    public static Scenario load(String nameOrPath) throws IOException {
        Path p = Path.of(nameOrPath);
        if (Files.isRegularFile(p)) {
            String text = Files.readString(p, StandardCharsets.UTF_8);
            return ScenarioParser.parse(text, p.toString(), p.toAbsolutePath().getParent());
        }
        if (ScenarioCatalog.names().contains(nameOrPath)) return ScenarioCatalog.load(nameOrPath);
        throw new IllegalArgumentException("'" + nameOrPath + "' is neither a scenario file nor a catalog scenario; catalog: "
                + ScenarioCatalog.names());
    }

    /**
     * The topology {@code scenario} runs on with {@code seed}: its file, or its catalog board built with its nodes and
     * GPUs per node; the same topology the run builds.
     */
    public static io.ccsim.topology.Topology topology(Scenario scenario, long seed) {
        return ScenarioSimulation.topology(scenario, seed);
    }

    /** Runs a catalog scenario by name ({@link ScenarioCatalog#names()}). */
    public static ScenarioResult runCatalog(String name, long seed) {
        return run(ScenarioCatalog.load(name), seed);
    }

    /** Runs a parsed scenario. */
    public static ScenarioResult run(Scenario scenario, long seed) {
        return run(scenario, seed, null);
    }

    /** Runs a parsed scenario, every simulation polling {@code control} (null: none). */
    public static ScenarioResult run(Scenario scenario, long seed, io.ccsim.sim.RunControl control) {
        Trace t = ScenarioSimulation.run(scenario, seed, control);
        List<Diagnosis> ds = Analyzer.analyze(t);
        Outcome outcome = outcome(t, ds);
        List<ScenarioResult.RankSummary> ranks = new ArrayList<>();
        for (int r = 0; r < t.worldSize(); r++) {
            Trace.RankState st = t.finalStates().get(r);
            Trace.RankTimes busy = t.busy().get(r);
            int done = 0;
            long since = t.restarts().isEmpty() ? -1 : t.restarts().get(t.restarts().size() - 1).failedPs();
            for (FrEntry e : t.flight().get(r)) if (e.state().equals("completed") && e.createdPs() > since) done++;
            for (SymmMemRecord m : t.symmMem()) {
                // a native-path all-reduce is a ProcessGroupNCCL one, already counted by its flight record
                if (m instanceof SymmMemRecord.Op op && op.rank() == r && op.startPs() > since && op.backend() != SymmBackend.NATIVE) done++;
            }
            ranks.add(new ScenarioResult.RankSummary(r, t.gpuIds().get(r), st.phase(), Units.toSeconds(st.sincePs()), st.detail(),
                    st.iteration(), Units.toSeconds(busy.computePs()), Units.toSeconds(busy.collectivePs()), done));
        }
        return new ScenarioResult(scenario.name(), seed, outcome, t.endPs(), t.horizonReached(), ds, ranks, t.faults(), t.events(),
                t.restarts().size() + 1, t.flight());
    }

    /**
     * Failed process in the last attempt: error. All ranks done: corrupted if results differ, degraded
     * if a link or rank slowed the job or it ran another path than configured, else completed.
     * Otherwise: hang.
     */
    static Outcome outcome(Trace t, List<Diagnosis> ds) {
        boolean allDone = true;
        for (Trace.RankState s : t.finalStates().values()) {
            if (s.phase() == RankPhase.ERROR || s.phase() == RankPhase.CRASHED) return Outcome.ERROR;
            if (s.phase() != RankPhase.DONE) allDone = false;
        }
        if (!allDone) return Outcome.HANG;
        for (Diagnosis d : ds) if (d.category() == Category.DATA_CORRUPTION) return Outcome.CORRUPTED;
        for (Diagnosis d : ds) {
            if (d.category() == Category.SLOW_LINK || d.category() == Category.SLOW_RANK || d.category() == Category.LINK_FAILURE
                    || d.category() == Category.BACKEND_FALLBACK) {
                return Outcome.DEGRADED;
            }
        }
        return Outcome.COMPLETED;
    }
}
