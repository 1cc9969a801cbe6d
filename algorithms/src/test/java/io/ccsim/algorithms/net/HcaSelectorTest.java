package io.ccsim.algorithms.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** NCCL_IB_HCA's grammar (src/misc/utils.cc parseStringList / matchIfList, v2.28.9). */
class HcaSelectorTest {
    @Test
    void aNameIsAPrefixUnlessEqualsMakesItExact() {
        HcaSelector p = HcaSelector.parse("mlx5_1");
        assertThat(p.selects("mlx5_1", 1)).isTrue();
        assertThat(p.selects("mlx5_10", 1)).isTrue();
        assertThat(p.selects("mlx5_2", 1)).isFalse();
        HcaSelector e = HcaSelector.parse("=mlx5_1");
        assertThat(e.selects("mlx5_1", 1)).isTrue();
        assertThat(e.selects("mlx5_10", 1)).isFalse();
    }

    @Test
    void caretExcludesAndPortsRestrict() {
        HcaSelector x = HcaSelector.parse("^=mlx5_0,mlx5_3");
        assertThat(x.selects("mlx5_0", 1)).isFalse();
        assertThat(x.selects("mlx5_3", 1)).isFalse();
        assertThat(x.selects("mlx5_1", 1)).isTrue();
        HcaSelector port = HcaSelector.parse("mlx5_0:1,mlx5_1:2");
        assertThat(port.selects("mlx5_0", 1)).isTrue();
        assertThat(port.selects("mlx5_1", 1)).isFalse();
        assertThat(HcaSelector.parse("").selects("anything", 1)).isTrue();
        assertThat(HcaSelector.parse("^").selects("anything", 1)).isTrue();
    }

    @Test
    void badEntriesAreRefused() {
        assertThatThrownBy(() -> HcaSelector.parse("mlx5_0:x")).hasMessage("port \"x\" of \"mlx5_0:x\" is not a port number (1, 2, ...)");
        assertThatThrownBy(() -> HcaSelector.parse(":1")).hasMessage("entry \":1\" has no device name");
    }
}
