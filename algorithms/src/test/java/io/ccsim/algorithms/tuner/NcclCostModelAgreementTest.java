package io.ccsim.algorithms.tuner;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * ccsim's tuner against NCCL 2.28.9's own cost model across nodes. The references are what NCCL's unmodified source
 * (graph search, ncclTopoPostset, tuning.cc, enqueue.cc's algorithm selection) picked when compiled and run on
 * modelled clusters: per collective and nccl-tests size (1 KiB to 4 GiB), its algorithm, protocol and channels, with
 * each configuration's graphs and bandwidths in the files' comments. {@code nccl-2.28.9-cost-model.txt}: HGX H100 on
 * 2 to 128 hosts and GB200 NVL72 on 2, 4 and 16 racks (336 choices), against which ccsim's rules were written;
 * {@code nccl-2.28.9-cost-model-2.txt}: HGX H100 with 4 NICs and HGX B200, on 2, 4 and 16 hosts (288 choices), run
 * afterwards to check them. No multi-host measurement exists here, so this is the check of ccsim's choices beyond one
 * host.
 *
 * <p>Every choice (algorithm, protocol and channel count) must agree, NVLSTree on boards with fewer NICs than GPUs (one
 * head per NIC) included.
 */
class NcclCostModelAgreementTest {

    private record Row(String config, CollectiveOp op, long size, String choice, int channels) { }

    private static List<Row> reference(String file) throws Exception {
        List<Row> rows = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(Objects.requireNonNull(
                NcclCostModelAgreementTest.class.getResourceAsStream(file)), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.isBlank() || line.startsWith("#")) continue;
                String[] f = line.trim().split("\\s+");
                rows.add(new Row(f[0], CollectiveOp.parse(f[1]), Long.parseLong(f[2]), f[3] + "/" + f[4], Integer.parseInt(f[5])));
            }
        }
        return rows;
    }

    /**
     * The runner of a reference configuration: {@code H100xN} (N HGX H100 hosts), {@code H100n4xN} (with 4 NICs each),
     * {@code B200xN} (N HGX B200 hosts) or {@code GB200NVL72xN} (N racks).
     */
    private static PerfRunner runner(String config, Map<String, PerfRunner> cache) {
        return cache.computeIfAbsent(config, c -> {
            boolean blackwell = c.startsWith("GB200NVL72x") || c.startsWith("B200x");
            int nodes = Integer.parseInt(c.substring(c.lastIndexOf('x') + 1));
            BuildOptions o = c.startsWith("H100n4x") ? BuildOptions.of(0, nodes).withNicsPerNode(4) : BuildOptions.of(0, nodes);
            String topo = c.startsWith("GB200NVL72x") ? "gb200-nvl72" : c.startsWith("B200x") ? "hgx-b200" : "hgx-h100";
            Topology t = TopologyCatalog.build(topo, o);
            return new PerfRunner(t, t.gpus().size(), CalibrationProfile.builtin(blackwell ? "b200" : "h100"),
                    NcclEnv.parse(Map.of()), 0);
        });
    }

    @Test
    void choicesAcrossNodesAgreeWithNcclsOwnCostModel() throws Exception {
        List<Row> rows = new ArrayList<>(reference("nccl-2.28.9-cost-model.txt"));
        assertThat(rows).hasSize(336);
        rows.addAll(reference("nccl-2.28.9-cost-model-2.txt"));
        assertThat(rows).hasSize(336 + 288);
        Map<String, PerfRunner> cache = new HashMap<>();
        int agree = 0;
        int nvlsTree4Nic = 0;
        StringBuilder off = new StringBuilder();
        for (Row row : rows) {
            if (row.config().startsWith("H100n4x") && row.choice().equals("NVLSTree/Simple")) nvlsTree4Nic++;
            PerfRunner pr = runner(row.config(), cache);
            long count = pr.countFor(row.op(), row.size(), DataType.FLOAT32);
            long size = PerfRunner.sizeFor(row.op(), count, DataType.FLOAT32, pr.graph().nRanks());
            Candidate w = pr.tune(row.op(), size).winner();
            String mine = w.algorithm().ncclName() + "/" + w.protocol().ncclName() + "/" + w.channels();
            if (mine.equals(row.choice() + "/" + row.channels())) {
                agree++;
            } else {
                off.append(String.format("%n  %s %s %d: NCCL %s, ccsim %s", row.config(), row.op().ncclName(),
                        row.size(), row.choice() + "/" + row.channels(), mine));
            }
        }
        assertThat(nvlsTree4Nic).as("NCCL's NVLSTree rows on 4-NIC boards").isEqualTo(6);
        assertThat(agree).as("choices agreeing with NCCL 2.28.9's cost model; differing:%s", off).isEqualTo(rows.size());
    }
}
