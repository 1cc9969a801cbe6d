package io.ccsim.scenarios.incident;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;

class FlightRecorderJsonTest {

    private static JsonObject json(String s) {
        return JsonParser.parseString(s).getAsJsonObject();
    }

    @Test
    void readsTheActiveEntriesOfTheSleepCase() throws Exception {
        JsonObject o = json(Real.text("sleep/fr_hang_rank0.json"));
        assertThat(FlightRecorderJson.is(o)).isTrue();
        FrDump d = FlightRecorderJson.read("fr_hang_rank0.json", 0, o);
        // onlyActive=True: #8-#12 pending behind the all-gather rank 1 never entered (README: sleep)
        assertThat(d.entries()).extracting(FrDump.Entry::collectiveSeq).containsExactly(8L, 9L, 10L, 11L, 12L);
        assertThat(d.entries()).allMatch(e -> e.state().equals("scheduled"));
        // absent times are 0 in the JSON form: not recorded
        assertThat(d.entries().get(0).startedNs()).isEqualTo(-1);
        // pg_status values are strings in the JSON form
        assertThat(d.groups().get("0").lastCompleted()).isEqualTo(7);
        assertThat(d.groups().get("0").lastEnqueued()).isEqualTo(12);
    }

    @Test
    void aDumpOfARankWithNothingPendingHasNoEntries() throws Exception {
        FrDump d = FlightRecorderJson.read("fr_hang_rank1.json", 1, json(Real.text("sleep/fr_hang_rank1.json")));
        assertThat(d.withEntries()).isFalse();
        assertThat(d.entries()).isEmpty();
        assertThat(d.groups().get("0").lastEnqueued()).isEqualTo(7);
    }

    @Test
    void malformedFieldsNameTheirJsonPath() {
        String head = "{\"version\": \"2.10\", \"pg_config\": {\"0\": {\"name\": \"0\", \"desc\": \"default_pg\", \"ranks\": \"[0, 1]\"}},"
                + " \"entries\": [{\"record_id\": 0, \"process_group\": [\"0\", \"default_pg\"], \"profiling_name\": \"nccl:all_reduce\",";
        assertThatThrownBy(() -> FlightRecorderJson.read("f.json", 0, json(head + " \"state\": \"running\"}]}")))
                .hasMessage("f.json: entries[0].state: expected scheduled, started or completed, got \"running\"");
        assertThatThrownBy(() -> FlightRecorderJson.read("f.json", 0, json(head + " \"state\": \"completed\", \"input_sizes\": [[\"x\"]]}]}")))
                .hasMessage("f.json: entries[0].input_sizes[0][0]: expected an integer, got \"x\"");
        assertThatThrownBy(() -> FlightRecorderJson.read("f.json", 0, json(head.replace("\"record_id\": 0, ", "") + " \"state\": \"completed\"}]}")))
                .hasMessage("f.json: entries[0]: missing 'record_id'");
        assertThatThrownBy(() -> FlightRecorderJson.read("f.json", 0, json("{\"version\": \"2.10\", \"pg_config\": {\"0\": {\"ranks\": \"[a]\"}}}")))
                .hasMessage("f.json: pg_config.0.ranks: expected a list of ranks such as \"[0, 1]\", got \"[a]\"");
    }

    @Test
    void otherJsonIsNotADump() {
        assertThat(FlightRecorderJson.is(json("{\"entries\": []}"))).isFalse();
        assertThat(FlightRecorderJson.is(json("{\"version\": 1, \"pg_config\": {}}"))).isTrue();
    }
}
