package io.ccsim.topology.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.LinkHealth;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import org.junit.jupiter.api.Test;

class TopologyJsonWriterTest {

    @Test
    void numbersAreTheShortestExactDecimals() {
        String json = TopologyJsonWriter.write(TopologyCatalog.build("hgx-h200", BuildOptions.of(1, 1)));
        // 5 NVLink4 lanes of 26.562 GB/s; 300,000 ps = 300 ns, BigDecimal's shortest form being 3E+2
        assertThat(json).contains("\"bandwidth_gbps\": 132.81,").contains("\"latency_ns\": 3E+2,");
        // PCIe Gen5 x16: 32 GT/s x 16 x 128/130 / 8 x 0.85 = 53.5630769... GB/s, the double's shortest repr
        assertThat(json).contains("\"bandwidth_gbps\": 53.56307692307693");
        assertThat(json).contains("\"latency_ns\": 2.5E+2,");
    }

    @Test
    void healthIsWrittenOnlyWhenNotHealthyAndOnlyStripedGroupsAreListed() {
        Topology t = TopologyCatalog.build("hgx-h200", BuildOptions.of(1, 1));
        String healthy = TopologyJsonWriter.write(t);
        assertThat(healthy).doesNotContain("\"health\"");
        assertThat(healthy).contains("\"id\": \"n0.gpu0.nvl\"").doesNotContain("\"id\": \"n0.cpu0~n0.cpu1\",\n"
                + "      \"members\"");
        String sick = TopologyJsonWriter.write(t.withLinkHealth("n0.cpu0~n0.cpu1", LinkHealth.degraded(0.5)));
        assertThat(sick).contains("\"health\": {\n        \"degrade\": 0.5,\n        \"down\": false,\n"
                + "        \"bit_error_rate\": 0.0,\n        \"flaps\": []\n      }");
    }

    @Test
    void attributesAreSortedByKey() {
        String json = TopologyJsonWriter.write(TopologyCatalog.build("hgx-h200", BuildOptions.of(1, 1)));
        assertThat(json).contains("\"attrs\": {\n        \"memory_bytes\": \"150754820096\",\n"
                + "        \"model\": \"H200\",\n        \"numa\": \"0\"\n      }");
    }
}
