package io.ccsim.topology.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.ccsim.topology.NodeKind;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class JsonFieldsTest {

    final JsonFields f = new JsonFields("f.json");
    final JsonObject o = JsonParser.parseString("""
            {"s": "x", "blank": " ", "n": 12, "big": 12345678901, "frac": 1.5, "t": true, "nil": null,
             "arr": [1], "obj": {}}""").getAsJsonObject();

    @Test
    void readsEachType() {
        assertThat(f.nonBlank(o, "s", "$")).isEqualTo("x");
        assertThat(f.string(o.get("blank"), "$.blank")).isEqualTo(" ");
        assertThat(f.wholeInt(o.get("n"), "$.n")).isEqualTo(12);
        assertThat(f.wholeLong(o.get("big"), "$.big")).isEqualTo(12345678901L);
        assertThat(f.decimal(o.get("frac"), "$.frac")).isEqualTo(new BigDecimal("1.5"));
        assertThat(f.number(o.get("frac"), "$.frac")).isEqualTo(1.5);
        assertThat(f.bool(o.get("t"), "$.t")).isTrue();
        assertThat(f.array(o, "arr", "$")).hasSize(1);
        assertThat(f.object(o.get("obj"), "$.obj").size()).isZero();
        assertThat(f.enumValue(NodeKind.class, "pcie_switch", "$.k")).isEqualTo(NodeKind.PCIE_SWITCH);
    }

    @Test
    void errorsNameThePathWhatWasFoundAndWhatIsValid() {
        assertThatThrownBy(() -> f.required(o, "nil", "$.x")).isInstanceOf(TopologyFormatException.class)
                .hasMessage("f.json: $.x.nil: missing required field 'nil'");
        assertThatThrownBy(() -> f.required(o, "absent", "$")).hasMessage("f.json: $.absent: missing required field"
                + " 'absent'");
        assertThatThrownBy(() -> f.nonBlank(o, "blank", "$")).hasMessage("f.json: $.blank: must be a non-blank string");
        assertThatThrownBy(() -> f.string(o.get("n"), "$.n")).hasMessage("f.json: $.n: expected a string, got"
                + " number 12");
        assertThatThrownBy(() -> f.wholeInt(o.get("big"), "$.big")).hasMessage("f.json: $.big: expected a whole"
                + " number (32-bit), got 12345678901");
        assertThatThrownBy(() -> f.wholeLong(o.get("frac"), "$.frac")).hasMessage("f.json: $.frac: expected a whole"
                + " number (64-bit), got 1.5");
        assertThatThrownBy(() -> f.decimal(o.get("s"), "$.s")).hasMessage("f.json: $.s: expected a number, got"
                + " string \"x\"");
        assertThatThrownBy(() -> f.bool(o.get("arr"), "$.arr")).hasMessage("f.json: $.arr: expected true or false,"
                + " got an array");
        assertThatThrownBy(() -> f.array(o, "obj", "$")).hasMessage("f.json: $.obj: expected an array, got an"
                + " object");
        assertThatThrownBy(() -> f.object(o.get("t"), "$.t")).hasMessage("f.json: $.t: expected an object, got"
                + " boolean true");
        assertThatThrownBy(() -> f.enumValue(NodeKind.class, "tpu", "$.k")).hasMessage("f.json: $.k: unknown"
                + " NodeKind 'tpu'; valid: [gpu, nvswitch, pcie_switch, cpu, nic, net_switch]");
    }

    @Test
    void describeSaysWhatAValueIs() {
        assertThat(JsonFields.describe(null)).isEqualTo("null");
        JsonElement nil = o.get("nil");
        assertThat(JsonFields.describe(nil)).isEqualTo("null");
        assertThat(JsonFields.describe(o.get("obj"))).isEqualTo("an object");
    }

    @Test
    void errorsCarrySourceAndPath() {
        TopologyFormatException e = f.error("$.links[3]", "bad");
        assertThat(e.source()).isEqualTo("f.json");
        assertThat(e.jsonPath()).isEqualTo("$.links[3]");
        assertThat(e).hasMessage("f.json: $.links[3]: bad");
    }
}
