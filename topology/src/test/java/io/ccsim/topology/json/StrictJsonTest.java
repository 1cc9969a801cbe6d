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
                .hasMessageStartingWith("f.json: $: malformed JSON at line 1 column 3 (near $.): syntax that strict"
                        + " JSON (RFC 8259) does not allow");
        assertThatThrownBy(() -> StrictJson.parse("{\"a\": [1,,2]}", f))
                .hasMessageStartingWith("f.json: $: malformed JSON at line 1 column ");
        assertThatThrownBy(() -> StrictJson.parse("{\"a\":\n 1 /* c */}", f))
                .hasMessageStartingWith("f.json: $: malformed JSON at line 2 column ");
    }

    @Test
    void contentAfterTheDocumentIsMalformed() {
        assertThatThrownBy(() -> StrictJson.parse("{} {}", f))
                .hasMessageStartingWith("f.json: $: malformed JSON at line 1 column 5 (near $): syntax that strict");
    }

    @Test
    void anEmptyDocumentIsJsonNull() {
        assertThat(StrictJson.parse("", f).isJsonNull()).isTrue();
    }
}
