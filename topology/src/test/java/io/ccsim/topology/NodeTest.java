package io.ccsim.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeTest {

    @Test
    void onlyNetworkSwitchesMayBelongToNoHost() {
        assertThatThrownBy(() -> new Node("g", NodeKind.GPU, -1, 0)).hasMessageContaining("host must be >= 0");
        assertThat(new Node("spine.0", NodeKind.NET_SWITCH, -1, 0).host()).isEqualTo(-1);
    }

    @Test
    void attributesAreCopied() {
        Node n = new Node("g", NodeKind.GPU, 0, 0, new java.util.HashMap<>(Map.of("model", "H200")));
        assertThat(n.attr("model")).isEqualTo("H200");
        assertThat(n.attr("numa")).isNull();
        assertThat(new Node("g", NodeKind.GPU, 0, 0, null).attrs()).isEmpty();
    }
}
