package io.ccsim.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A run's result: the same seed gives the same renderings; the JSON has the documented fields. */
class ScenarioResultTest {

    @Test
    void sameSeedSameResultByteForByte() {
        String a = ScenarioRunner.runCatalog("01-stale-bootstrap-keys", 42).toJson();
        String b = ScenarioRunner.runCatalog("01-stale-bootstrap-keys", 42).toJson();
        assertThat(a).isEqualTo(b);
        String text1 = ScenarioRunner.runCatalog("09-ib-link-flap", 5).toText();
        assertThat(ScenarioRunner.runCatalog("09-ib-link-flap", 5).toText()).isEqualTo(text1);
    }

    @Test
    void jsonHasTheDocumentedFields() {
        com.google.gson.JsonObject o = com.google.gson.JsonParser.parseString(
                ScenarioRunner.runCatalog("04-missing-rank", 1).toJson()).getAsJsonObject();
        assertThat(o.get("scenario").getAsString()).isEqualTo("04-missing-rank");
        assertThat(o.get("outcome").getAsString()).isEqualTo("hang");
        assertThat(o.get("sim_time_s").getAsDouble()).isPositive();
        com.google.gson.JsonObject d = o.getAsJsonArray("diagnosis").get(0).getAsJsonObject();
        assertThat(d.keySet()).containsExactly("category", "ranks", "links", "summary");
        assertThat(d.get("category").getAsString()).isEqualTo("MISSING_RANK");
        assertThat(o.getAsJsonArray("ranks")).hasSize(8);
    }

    @Test
    void rankTableNamesTheRanksOfEachMergedLine() {
        String text = ScenarioRunner.runCatalog("05-skipped-collective", 1).toText();
        // ranks 0-2 and 4-7 time out in the same collective and merge into one line; rank 3 in another
        assertThat(text).doesNotContain("[Rank *]").contains("  0-2, 4-7 ", "[Rank 0-2, 4-7] Watchdog caught", "[Rank 3] Watchdog caught");
    }
}
