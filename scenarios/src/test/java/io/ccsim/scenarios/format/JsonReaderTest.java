package io.ccsim.scenarios.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.ccsim.scenarios.ScenarioFormatException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every typed read names the file, the path, what was wrong and what is valid. */
class JsonReaderTest {
    private final JsonReader r = new JsonReader("s.json");

    private static JsonElement j(String text) { return JsonParser.parseString(text); }

    private static void fails(Runnable read, String path, String... fragments) {
        assertThatThrownBy(read::run).isInstanceOf(ScenarioFormatException.class)
                .satisfies(e -> assertThat(((ScenarioFormatException) e).path()).isEqualTo(path))
                .hasMessageStartingWith("s.json: " + path + ": ").hasMessageContainingAll(fragments);
    }

    @Test
    void objectsAcceptOnlyTheirFieldsAndRequiredFieldsMustBeThere() {
        JsonObject o = r.obj(j("{\"a\": 1}"), "$.x", List.of("a", "b"));
        assertThat(r.req(o, "a", "$.x").getAsInt()).isEqualTo(1);
        fails(() -> r.req(o, "b", "$.x"), "$.x.b", "required field is missing");
        fails(() -> r.obj(j("{\"c\": 1}"), "$.x", List.of("a", "b")), "$.x.c", "unknown field 'c'", "valid fields: [a, b]");
        fails(() -> r.obj(j("[1]"), "$.x", List.of("a")), "$.x", "expected an object with fields [a]");
    }

    @Test
    void scalarsAreTypedAndRanged() {
        assertThat(r.integer(j("7"), "$.n", 1, 8)).isEqualTo(7);
        fails(() -> r.integer(j("9"), "$.n", 1, 8), "$.n", "expected an integer in [1, 8], got 9");
        fails(() -> r.integer(j("1.5"), "$.n", 1, 8), "$.n", "expected an integer in [1, 8]");
        fails(() -> r.integer(j("\"7\""), "$.n", 1, 8), "$.n", "expected an integer in [1, 8]");
        assertThat(r.number(j("0.5"), "$.f", 0, 1)).isEqualTo(0.5);
        fails(() -> r.number(j("2"), "$.f", 0, 1), "$.f", "expected a number in [0.0, 1.0], got 2");
        assertThat(r.bool(j("true"), "$.b")).isTrue();
        fails(() -> r.bool(j("1"), "$.b"), "$.b", "expected true or false");
        fails(() -> r.str(j("1"), "$.s", "a name"), "$.s", "expected a string; valid: a name");
    }

    @Test
    void durationsAndSizesUseTheUnitsGrammar() {
        assertThat(r.duration(j("\"3s\""), "$.d")).isEqualTo(Units.s(3));
        fails(() -> r.duration(j("\"3 parsecs\""), "$.d"), "$.d", "bad duration", "ps, ns, us, ms, s, min, h");
        assertThat(r.bytes(j("\"1GiB\""), "$.b")).isEqualTo(Units.GIB);
        assertThat(r.bytes(j("4096"), "$.b")).isEqualTo(4096);
        fails(() -> r.bytes(j("-1"), "$.b"), "$.b", "expected an integer in [0, ");
    }

    @Test
    void rankListsAreDistinctRanksOfTheJob() {
        assertThat(r.rankList(j("[3, 1]"), "$.r", 4)).containsExactly(3, 1);
        fails(() -> r.rankList(j("[1, 1]"), "$.r", 4), "$.r[1]", "rank 1 is listed twice");
        fails(() -> r.rankList(j("[4]"), "$.r", 4), "$.r[0]", "[0, 3]");
        fails(() -> r.rankList(j("3"), "$.r", 4), "$.r", "expected an array of ranks in [0, 3]");
    }
}
