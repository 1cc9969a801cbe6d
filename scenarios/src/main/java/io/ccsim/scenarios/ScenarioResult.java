package io.ccsim.scenarios;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.ccsim.scenarios.diagnosis.Category;
import io.ccsim.scenarios.diagnosis.Diagnosis;
import io.ccsim.scenarios.diagnosis.FrEntry;
import io.ccsim.scenarios.diagnosis.RankEvent;
import io.ccsim.scenarios.diagnosis.RankPhase;
import io.ccsim.scenarios.diagnosis.RankRanges;
import io.ccsim.scenarios.format.Units;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a scenario run produced: the outcome, the simulated time, the diagnosis and a per-rank
 * timeline summary; rendered as text for people ({@link #toText()}) and as JSON for tools
 * ({@link #toJson()}). Deterministic: the same scenario and seed give the same renderings.
 */
public final class ScenarioResult {
    private final String scenario;
    private final long seed;
    private final Outcome outcome;
    private final long simTimePs;
    private final boolean horizonReached;
    private final List<Diagnosis> diagnosis;
    private final List<RankSummary> ranks;
    private final List<String> faults;
    private final List<RankEvent> events;
    private final int attempts;
    private final Map<Integer, List<FrEntry>> flight;

    /**
     * One rank at the end of the run.
     *
     * @param rank        global rank
     * @param gpu         topology GPU id
     * @param state       final phase
     * @param sinceS      in that phase since, s
     * @param detail      what it waits for or why it stopped
     * @param iteration   training iteration reached (-1: before the loop)
     * @param computeS    GPU compute time, s
     * @param collectiveS time in collectives (from enqueue to completion), s
     * @param collectives collectives completed (last attempt)
     */
    public record RankSummary(int rank, String gpu, RankPhase state, double sinceS, String detail, int iteration,
                              double computeS, double collectiveS, int collectives) {}

    ScenarioResult(String scenario, long seed, Outcome outcome, long simTimePs, boolean horizonReached,
                   List<Diagnosis> diagnosis, List<RankSummary> ranks, List<String> faults, List<RankEvent> events,
                   int attempts, Map<Integer, List<FrEntry>> flight) {
        this.scenario = scenario;
        this.seed = seed;
        this.outcome = outcome;
        this.simTimePs = simTimePs;
        this.horizonReached = horizonReached;
        this.diagnosis = List.copyOf(diagnosis);
        this.ranks = List.copyOf(ranks);
        this.faults = List.copyOf(faults);
        this.events = List.copyOf(events);
        this.attempts = attempts;
        Map<Integer, List<FrEntry>> f = new LinkedHashMap<>();
        for (Map.Entry<Integer, List<FrEntry>> e : flight.entrySet()) f.put(e.getKey(), List.copyOf(e.getValue()));
        this.flight = java.util.Collections.unmodifiableMap(f);
    }

    /** Each rank's flight-recorder dump (every launch, in order). */
    public Map<Integer, List<FrEntry>> flightRecords() { return flight; }

    public String scenario() { return scenario; }

    public long seed() { return seed; }

    public Outcome outcome() { return outcome; }

    /** Simulated time at the end of the run, ps. */
    public long simTimePs() { return simTimePs; }

    /** Simulated time at the end of the run, s. */
    public double simTimeSeconds() { return Units.toSeconds(simTimePs); }

    /** True if the run was cut at the horizon (still had events). */
    public boolean horizonReached() { return horizonReached; }

    public List<Diagnosis> diagnosis() { return diagnosis; }

    public List<RankSummary> ranks() { return ranks; }

    /** Faults as they were applied, with times. */
    public List<String> faults() { return faults; }

    /** Every rank's log lines, in time order. */
    public List<RankEvent> events() { return events; }

    /** Launches of the job (1 + elastic restarts). */
    public int attempts() { return attempts; }

    /** Diagnoses of one category. */
    public List<Diagnosis> diagnosis(Category c) {
        List<Diagnosis> out = new ArrayList<>();
        for (Diagnosis d : diagnosis) if (d.category() == c) out.add(d);
        return out;
    }

    /** Human-readable report: outcome, per-rank timeline summary (ranks in the same state merged), diagnosis. */
    public String toText() {
        StringBuilder sb = new StringBuilder();
        sb.append("scenario ").append(scenario).append(" (seed ").append(seed).append(")\n");
        sb.append(String.format(Locale.ROOT, "outcome: %s after %.6f s simulated%s, %d attempt(s)%n", outcome.id(),
                simTimeSeconds(), horizonReached ? " (horizon reached)" : "", attempts));
        if (!faults.isEmpty()) {
            sb.append("faults:\n");
            for (String f : faults) sb.append("  ").append(f).append('\n');
        }
        sb.append("ranks:\n");
        Map<String, List<Integer>> merged = new LinkedHashMap<>();
        Map<String, RankSummary> sample = new LinkedHashMap<>();
        for (RankSummary r : ranks) {
            String key = r.state() + "|" + norm(r.detail()) + "|" + r.iteration() + "|" + r.collectives();
            merged.computeIfAbsent(key, k -> new ArrayList<>()).add(r.rank());
            sample.putIfAbsent(key, r);
        }
        for (Map.Entry<String, List<Integer>> e : merged.entrySet()) {
            RankSummary r = sample.get(e.getKey());
            sb.append(String.format(Locale.ROOT, "  %-14s %-19s since %10.3f s  iter %3d  %4d collectives  compute %.3f s  in collectives %.3f s  %s%n",
                    RankRanges.format(e.getValue()), r.state(), r.sinceS(), r.iteration(), r.collectives(), r.computeS(),
                    r.collectiveS(), forRanks(norm(r.detail()), e.getValue())));
        }
        sb.append("diagnosis:\n");
        if (diagnosis.isEmpty()) sb.append("  (nothing abnormal)\n");
        for (Diagnosis d : diagnosis) {
            sb.append("  [").append(d.category()).append("]");
            if (!d.ranks().isEmpty()) sb.append(" ranks ").append(RankRanges.format(d.ranks()));
            if (!d.links().isEmpty()) sb.append(" links ").append(String.join(", ", d.links()));
            sb.append("\n    ").append(d.summary()).append('\n');
        }
        return sb.toString();
    }

    /** Rank-specific prefixes replaced so that ranks in the same state merge in the text report. */
    private static String norm(String detail) {
        return detail.replaceAll("\\[Rank \\d+\\]", "[Rank *]").replaceAll("\\[rank \\d+\\]", "[rank *]");
    }

    /** A merged detail with its rank prefix naming the ranks of the line ({@code [Rank 0-2, 4-7]}). */
    private static String forRanks(String merged, List<Integer> ranks) {
        String rs = RankRanges.format(ranks);
        return merged.replace("[Rank *]", "[Rank " + rs + "]").replace("[rank *]", "[rank " + rs + "]");
    }

    /**
     * JSON: {@code scenario}, {@code seed}, {@code outcome}, {@code sim_time_s}, {@code horizon_reached},
     * {@code attempts}, {@code diagnosis} [{category, ranks, links, summary}], {@code ranks} [per-rank
     * summary], {@code faults}.
     */
    public String toJson() {
        JsonObject o = new JsonObject();
        o.addProperty("scenario", scenario);
        o.addProperty("seed", seed);
        o.addProperty("outcome", outcome.id());
        o.addProperty("sim_time_s", simTimeSeconds());
        o.addProperty("horizon_reached", horizonReached);
        o.addProperty("attempts", attempts);
        JsonArray ds = new JsonArray();
        for (Diagnosis d : diagnosis) {
            JsonObject j = new JsonObject();
            j.addProperty("category", d.category().name());
            JsonArray rs = new JsonArray();
            for (int r : d.ranks()) rs.add(r);
            j.add("ranks", rs);
            JsonArray ls = new JsonArray();
            for (String l : d.links()) ls.add(l);
            j.add("links", ls);
            j.addProperty("summary", d.summary());
            ds.add(j);
        }
        o.add("diagnosis", ds);
        JsonArray rs = new JsonArray();
        for (RankSummary r : ranks) {
            JsonObject j = new JsonObject();
            j.addProperty("rank", r.rank());
            j.addProperty("gpu", r.gpu());
            j.addProperty("state", r.state().name().toLowerCase(Locale.ROOT));
            j.addProperty("since_s", r.sinceS());
            j.addProperty("iteration", r.iteration());
            j.addProperty("collectives", r.collectives());
            j.addProperty("compute_s", r.computeS());
            j.addProperty("collective_s", r.collectiveS());
            j.addProperty("detail", r.detail());
            rs.add(j);
        }
        o.add("ranks", rs);
        JsonArray fs = new JsonArray();
        for (String f : faults) fs.add(f);
        o.add("faults", fs);
        return new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create().toJson(o);
    }
}
