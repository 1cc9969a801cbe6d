package io.ccsim.topology;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The fat-tree's switches are SHARP-capable only when built so; the default stays without SHARP. */
class SharpFatTreeTest {
    @Test
    void sharpMarksEveryLeafAndSpineAndTheName() {
        Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 4).withSharp(true));
        assertThat(t.name()).isEqualTo("hgx-h100-4n-sharp");
        long switches = t.nodes().stream().filter(n -> n.kind() == NodeKind.NET_SWITCH).count();
        assertThat(switches).isEqualTo(8 + 4); // a leaf per rail, up = 4 spines for 4 hosts at 1:1
        assertThat(t.nodes().stream().filter(n -> n.kind() == NodeKind.NET_SWITCH))
                .allSatisfy(n -> {
                    assertThat(n.attr("sharp")).isEqualTo("true");
                    assertThat(n.attr("sharp_version")).isEqualTo("3");
                });
    }

    @Test
    void defaultHasNoSharp() {
        Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 4));
        assertThat(t.name()).isEqualTo("hgx-h100-4n");
        assertThat(t.nodes()).allSatisfy(n -> assertThat(n.attr("sharp")).isNull());
        assertThat(BuildOptions.of(0, 4).withSharp(true).withSharp(false)).isEqualTo(BuildOptions.of(0, 4));
    }

    @Test
    void oneBoardHasNoFabricToMark() {
        Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 1).withSharp(true));
        assertThat(t.name()).isEqualTo("hgx-h100");
        assertThat(t.nodes()).noneMatch(n -> n.kind() == NodeKind.NET_SWITCH);
    }
}
