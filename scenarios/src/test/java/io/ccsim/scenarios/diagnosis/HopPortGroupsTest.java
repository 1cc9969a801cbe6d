package io.ccsim.scenarios.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.scenarios.ScenarioRunner;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A corrupted hop is told as the port groups it crosses, with why its lane cannot be named. */
class HopPortGroupsTest {

    @Test
    void anNvlinkBitFlipNamesBothGpusPortGroupsAndWhyNotTheLane() {
        Diagnosis d = ScenarioRunner.runCatalog("07-nvlink-bit-flip", 1).diagnosis(Category.DATA_CORRUPTION).get(0);
        // the flipped group n0.gpu3~n0.nvs1 is on the hop 2 -> 3; P2P over NVSwitch stripes it over both GPUs' four groups
        assertThat(d.links()).hasSize(8).contains("n0.gpu3~n0.nvs1");
        assertThat(d.summary()).contains("4 port groups of the sender n0.gpu2 (n0.gpu2~n0.nvs0, n0.gpu2~n0.nvs1,",
                "4 port groups of the receiver n0.gpu3 (n0.gpu3~n0.nvs0,", "not the lane", "nvidia-smi nvlink --errorcounters",
                "Xid 74");
    }

    @Test
    void linksBetweenTheGpusAreToldApartFromTheirPorts() {
        String s = HopPortGroups.describe(List.of("n0.gpu1~n0.pcie0", "n0.nic1~leaf.r1.0", "n1.nic1~leaf.r1.0", "n1.gpu1~n1.pcie0"),
                "n0.gpu1", "n1.gpu1");
        assertThat(s).contains("1 port group of the sender n0.gpu1 (n0.gpu1~n0.pcie0)", "1 port group of the receiver n1.gpu1",
                "2 between them (n0.nic1~leaf.r1.0, n1.nic1~leaf.r1.0)", "crosses each of these links in turn")
                .doesNotContain("striped");
    }

    @Test
    void aSingleLinkHopIsNamedAlone() {
        assertThat(HopPortGroups.describe(List.of("a~b"), "a", "b")).startsWith("over a~b (").doesNotContain("port group");
    }
}
