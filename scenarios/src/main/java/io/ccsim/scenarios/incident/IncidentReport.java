package io.ccsim.scenarios.incident;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.ccsim.scenarios.diagnosis.Analyzer;
import io.ccsim.scenarios.diagnosis.Diagnosis;
import io.ccsim.scenarios.diagnosis.RankRanges;
import io.ccsim.scenarios.diagnosis.Trace;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The diagnosis of an incident: what was read, where each rank was, and the analyzer's findings with their evidence;
 * as text for the on-call engineer and as JSON whose {@code diagnosis} array has the schema of {@code scenario run}'s.
 * Deterministic: the same files give the same renderings.
 */
public final class IncidentReport {
    private final Incident incident;
    private final IncidentTrace.Mapped mapped;
    private final List<Diagnosis> diagnosis;
    private final List<List<Evidence>> evidence;

    private IncidentReport(Incident incident, IncidentTrace.Mapped mapped, List<Diagnosis> diagnosis) {
        this.incident = incident;
        this.mapped = mapped;
        this.diagnosis = List.copyOf(diagnosis);
        IncidentEvidence ev = new IncidentEvidence(incident, mapped);
        List<List<Evidence>> es = new ArrayList<>();
        for (Diagnosis d : diagnosis) es.add(ev.of(d));
        this.evidence = List.copyOf(es);
    }

    /** Maps the incident into the analyzer's trace ({@link IncidentTrace}) and analyzes it. */
    public static IncidentReport of(Incident incident, IncidentTrace.Expectation expectation) {
        IncidentTrace.Mapped m = IncidentTrace.map(incident, expectation);
        return new IncidentReport(incident, m, Analyzer.analyze(m.trace()));
    }

    /** The findings, in the analyzer's order (empty: nothing abnormal). */
    public List<Diagnosis> diagnosis() { return diagnosis; }

    /** Per finding, its evidence. */
    public List<List<Evidence>> evidence() { return evidence; }

    /** What the analyzer was given. */
    public IncidentTrace.Mapped mapped() { return mapped; }

    /** What was read. */
    public Incident incident() { return incident; }

    /** Human-readable: files read, rank states, findings each with its evidence. */
    public String toText() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "incident: %d rank(s), %d file(s) read%n", mapped.world(), incident.files().size()));
        sb.append("files:\n");
        for (Incident.FileRead f : incident.files()) {
            boolean used = mapped.chosen().values().stream().anyMatch(d -> d.file().equals(f.file()));
            sb.append(String.format(Locale.ROOT, "  %-8s %-27s %s: %s%s%n", f.rank() < 0 ? "" : "rank " + f.rank(), f.kind(), f.file(),
                    f.detail(), used ? " (used: the rank's state at the incident)" : ""));
        }
        for (String i : incident.ignored()) sb.append("  ignored: ").append(i).append(" (not an incident file)\n");
        Map<Integer, Trace.RankState> states = mapped.trace().finalStates();
        if (!states.isEmpty()) {
            sb.append("ranks:\n");
            for (Map.Entry<Integer, Trace.RankState> e : states.entrySet()) {
                sb.append(String.format(Locale.ROOT, "  %-4d %-19s %s%n", e.getKey(), e.getValue().phase().name().toLowerCase(Locale.ROOT),
                        e.getValue().detail()));
            }
        }
        sb.append("diagnosis:\n");
        if (diagnosis.isEmpty()) sb.append("  (nothing abnormal)\n");
        for (int i = 0; i < diagnosis.size(); i++) {
            Diagnosis d = diagnosis.get(i);
            sb.append("  [").append(d.category()).append("]");
            if (!d.ranks().isEmpty()) sb.append(" ranks ").append(RankRanges.format(d.ranks()));
            if (!d.links().isEmpty()) sb.append(" links ").append(String.join(", ", d.links()));
            sb.append("\n    ").append(d.summary()).append('\n');
            if (!evidence.get(i).isEmpty()) sb.append("    evidence:\n");
            for (Evidence e : evidence.get(i)) sb.append("      ").append(e.where()).append(": ").append(e.text()).append('\n');
        }
        return sb.toString();
    }

    /**
     * JSON: {@code world_size} (the job's rank count), {@code files} [{file, kind, rank, detail, used}], {@code ignored},
     * {@code rank_states} [{rank, state, detail}], {@code diagnosis} [{category, ranks, links, summary}] as
     * {@code scenario run --format json} writes it, and {@code evidence}: per finding, in the same order, [{where, text}].
     */
    public String toJson() {
        JsonObject o = new JsonObject();
        o.addProperty("world_size", mapped.world());
        JsonArray fs = new JsonArray();
        for (Incident.FileRead f : incident.files()) {
            JsonObject j = new JsonObject();
            j.addProperty("file", f.file());
            j.addProperty("kind", f.kind());
            j.addProperty("rank", f.rank());
            j.addProperty("detail", f.detail());
            j.addProperty("used", mapped.chosen().values().stream().anyMatch(d -> d.file().equals(f.file())));
            fs.add(j);
        }
        o.add("files", fs);
        JsonArray ig = new JsonArray();
        incident.ignored().forEach(ig::add);
        o.add("ignored", ig);
        JsonArray rs = new JsonArray();
        for (Map.Entry<Integer, Trace.RankState> e : mapped.trace().finalStates().entrySet()) {
            JsonObject j = new JsonObject();
            j.addProperty("rank", e.getKey());
            j.addProperty("state", e.getValue().phase().name().toLowerCase(Locale.ROOT));
            j.addProperty("detail", e.getValue().detail());
            rs.add(j);
        }
        o.add("rank_states", rs);
        JsonArray ds = new JsonArray(), evs = new JsonArray();
        for (int i = 0; i < diagnosis.size(); i++) {
            Diagnosis d = diagnosis.get(i);
            JsonObject j = new JsonObject();
            j.addProperty("category", d.category().name());
            JsonArray ranks = new JsonArray();
            d.ranks().forEach(ranks::add);
            j.add("ranks", ranks);
            JsonArray links = new JsonArray();
            d.links().forEach(links::add);
            j.add("links", links);
            j.addProperty("summary", d.summary());
            ds.add(j);
            JsonArray ev = new JsonArray();
            for (Evidence e : evidence.get(i)) {
                JsonObject x = new JsonObject();
                x.addProperty("where", e.where());
                x.addProperty("text", e.text());
                ev.add(x);
            }
            evs.add(ev);
        }
        o.add("diagnosis", ds);
        o.add("evidence", evs);
        return new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create().toJson(o);
    }
}
