package io.ccsim.topology.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class StrictJsonTest {

    final JsonFields f = new JsonFields("f.json");

    @Test
    void readsOneValue() {
        assertThat(StrictJson.parse(" {\"a\": [1, 2]} \n", f).getAsJsonObject().get("a").getAsJsonArray()).hasSize(2);
    }

    @Test
    void lenientSyntaxIsMalformedWithItsPosition() {
        assertThatThrownBy(() -> StrictJson.parse("{'a': 1}", f)).isInstanceOf(TopologyFormatException.class)
                .hasMessageStartingWith("f.json: $: malformed JSON at line 1 column 3: syntax that strict"
                        + " JSON (RFC 8259) does not allow");
        assertThatThrownBy(() -> StrictJson.parse("{\"a\": [1,,2]}", f))
                .hasMessageStartingWith("f.json: $: malformed JSON at line 1 column ");
        assertThatThrownBy(() -> StrictJson.parse("{\"a\":\n 1 /* c */}", f))
                .hasMessageStartingWith("f.json: $: malformed JSON at line 2 column ");
    }

    @Test
    void contentAfterTheDocumentIsMalformed() {
        assertThatThrownBy(() -> StrictJson.parse("{} {}", f))
                .hasMessageStartingWith("f.json: $: malformed JSON at line 1 column 5: syntax that strict").hasMessageEndingWith(
                        "a second document)");
    }

    @Test
    void anEmptyDocumentSaysSo() {
        assertThatThrownBy(() -> StrictJson.parse(" \n", f)).hasMessageStartingWith("f.json: $: the document is empty; valid: a"
                + " topology object");
    }

    @Test
    void duplicateKeysAndDeepNestingAreRefusedWhereTheyOccur() {
        assertThatThrownBy(() -> StrictJson.parse("{\"a\": {\"b\": 1,\n \"b\": 2}}", f))
                .hasMessage("f.json: $.a.b: key 'b' appears twice in one object, at line 2 column 2; valid: each key once");
        assertThatThrownBy(() -> StrictJson.parse("{\"a\":" + "[".repeat(255) + "]".repeat(255) + "}", f))
                .hasMessageStartingWith("f.json: $: arrays and objects nested deeper than 64 levels, at line 1 column ")
                .hasMessageEndingWith("; valid: at most 64");
        assertThat(StrictJson.parse("[".repeat(64) + "]".repeat(64), f).isJsonArray()).isTrue();
    }
}
