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
 * ccsim's tuner against NCCL 2.28.9's own cost model across nodes. The reference,
 * {@code nccl-2.28.9-cost-model.txt}, is what NCCL's unmodified source (graph search, ncclTopoPostset, tuning.cc,
 * enqueue.cc's algorithm selection) picked when compiled and run on modelled HGX H100 clusters of 2 to 128 hosts
 * and GB200 NVL72 racks (2, 4 and 16): per collective and nccl-tests size, its algorithm, protocol and channels,
 * with each configuration's graphs and bandwidths in the file's comments. No multi-host measurement exists here, so
 * this is the check of ccsim's choices beyond one host.
 *
 * <p>Every one of the 336 choices (algorithm, protocol and channel count) must agree; the disagreements are listed
 * when some do not.
 */
class NcclCostModelAgreementTest {

    private record Row(String config, CollectiveOp op, long size, String choice, int channels) { }

    private static List<Row> reference() throws Exception {
        List<Row> rows = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(Objects.requireNonNull(
                NcclCostModelAgreementTest.class.getResourceAsStream("nccl-2.28.9-cost-model.txt")),
                StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.isBlank() || line.startsWith("#")) continue;
                String[] f = line.trim().split("\\s+");
                rows.add(new Row(f[0], CollectiveOp.parse(f[1]), Long.parseLong(f[2]), f[3] + "/" + f[4], Integer.parseInt(f[5])));
            }
        }
        return rows;
    }

    /** The runner of a reference configuration: {@code H100xN} (N HGX H100 hosts) or {@code GB200NVL72xN} (N racks). */
    private static PerfRunner runner(String config, Map<String, PerfRunner> cache) {
        return cache.computeIfAbsent(config, c -> {
            boolean gb = c.startsWith("GB200NVL72x");
            int nodes = Integer.parseInt(c.substring(c.indexOf('x') + 1));
            Topology t = TopologyCatalog.build(gb ? "gb200-nvl72" : "hgx-h100", BuildOptions.of(0, nodes));
            return new PerfRunner(t, t.gpus().size(), CalibrationProfile.builtin(gb ? "b200" : "h100"),
                    NcclEnv.parse(Map.of()), 0);
        });
    }

    @Test
    void choicesAcrossNodesAgreeWithNcclsOwnCostModel() throws Exception {
        List<Row> rows = reference();
        assertThat(rows).hasSize(336);
        Map<String, PerfRunner> cache = new HashMap<>();
        int agree = 0;
        StringBuilder off = new StringBuilder();
        for (Row row : rows) {
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
        assertThat(agree).as("choices agreeing with NCCL 2.28.9's cost model; differing:%s", off).isEqualTo(rows.size());
    }
}
