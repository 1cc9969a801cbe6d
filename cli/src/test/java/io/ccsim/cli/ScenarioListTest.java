package io.ccsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.ccsim.scenarios.Outcome;
import io.ccsim.scenarios.ScenarioCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** {@code scenario list}: the catalog in text and in JSON, the same entries in the same order. */
class ScenarioListTest {
    @Test
    void jsonListsTheCatalogAsTheTextDoes() {
        CliTest.Result text = CliTest.run("scenario", "list");
        CliTest.Result json = CliTest.run("scenario", "list", "--format", "json");
        assertThat(json.code()).as(json.err()).isZero();
        JsonArray a = JsonParser.parseString(json.out()).getAsJsonArray();
        List<ScenarioCatalog.Entry> catalog = ScenarioCatalog.list();
        assertThat(a).hasSize(catalog.size());
        List<String> outcomes = new ArrayList<>();
        for (Outcome o : Outcome.values()) outcomes.add(o.toString().toLowerCase(Locale.ROOT));
        List<String> textLines = text.out().lines().toList();
        for (int i = 0; i < a.size(); i++) {
            JsonObject o = a.get(i).getAsJsonObject();
            assertThat(o.keySet()).containsExactly("name", "expected", "description");
            assertThat(o.get("name").getAsString()).isEqualTo(catalog.get(i).name());
            assertThat(o.get("description").getAsString()).isEqualTo(catalog.get(i).description());
            assertThat(o.get("expected").getAsString()).isIn(outcomes);
            // the text line of the same entry: name, expected outcome, description
            assertThat(textLines.get(i).split("\\s+", 3)).containsExactly(o.get("name").getAsString(),
                    o.get("expected").getAsString(), o.get("description").getAsString());
        }
    }

    @Test
    void anUnknownFormatIsAUsageError() {
        CliTest.Result r = CliTest.run("scenario", "list", "--format", "yaml");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("--format").contains("text, json");
    }
}
