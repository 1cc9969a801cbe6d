package io.ccsim.scenarios.format;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.ccsim.scenarios.Outcome;
import io.ccsim.scenarios.ScenarioFormatException;
import io.ccsim.scenarios.diagnosis.Category;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The {@code expect} section of a catalog scenario: the outcome and the findings the diagnosis must contain. */
final class ExpectReader {
    private final JsonReader json;
    private final int worldSize;

    /** @param worldSize the job's ranks (expected findings name ranks in [0, worldSize)) */
    ExpectReader(JsonReader json, int worldSize) {
        this.json = json;
        this.worldSize = worldSize;
    }

    Scenario.Expectation read(JsonElement e) {
        JsonObject o = json.obj(e, "$.expect", List.of("outcome", "diagnosis"));
        Outcome outcome;
        try {
            outcome = Outcome.parse(json.str(json.req(o, "outcome", "$.expect"), "$.expect.outcome",
                    "completed, hang, error, corrupted, degraded"));
        } catch (ScenarioFormatException ex) {
            throw ex;
        } catch (IllegalArgumentException ex) {
            throw json.err("$.expect.outcome", ex.getMessage());
        }
        List<Scenario.ExpectedDiagnosis> ds = new ArrayList<>();
        if (o.has("diagnosis")) {
            JsonElement de = o.get("diagnosis");
            if (!de.isJsonArray()) throw json.err("$.expect.diagnosis", "expected an array of {category, ranks, links}");
            for (int i = 0; i < de.getAsJsonArray().size(); i++) {
                ds.add(diagnosis(de.getAsJsonArray().get(i), "$.expect.diagnosis[" + i + "]"));
            }
        }
        return new Scenario.Expectation(outcome, ds);
    }

    private Scenario.ExpectedDiagnosis diagnosis(JsonElement e, String p) {
        JsonObject d = json.obj(e, p, List.of("category", "ranks", "links"));
        String c = json.str(json.req(d, "category", p), p + ".category", Arrays.toString(Category.values()));
        Category cat;
        try {
            cat = Category.valueOf(c);
        } catch (IllegalArgumentException ex) {
            throw json.err(p + ".category", "unknown category '" + c + "'; valid: " + Arrays.toString(Category.values()));
        }
        List<Integer> ranks = d.has("ranks") ? json.rankList(d.get("ranks"), p + ".ranks", worldSize) : List.of();
        List<String> links = new ArrayList<>();
        if (d.has("links")) {
            JsonElement le = d.get("links");
            if (!le.isJsonArray()) throw json.err(p + ".links", "expected an array of link ids");
            for (int j = 0; j < le.getAsJsonArray().size(); j++) {
                links.add(json.str(le.getAsJsonArray().get(j), p + ".links[" + j + "]", "a topology link id"));
            }
        }
        return new Scenario.ExpectedDiagnosis(cat, ranks, links);
    }
}
