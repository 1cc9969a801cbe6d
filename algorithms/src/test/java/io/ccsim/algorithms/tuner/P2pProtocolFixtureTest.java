package io.ccsim.algorithms.tuner;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.perf.PerfRow;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.TopologyCatalog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * NCCL's protocol for point-to-point operations, as NCCL 2.28.9 ran it on 4 × H100 (experiments/nccl-p2p-protocol-h100x4:
 * all-to-all and send/recv timed with NCCL's default, with LL forced and with Simple forced through
 * NCCL_P2P_LL_THRESHOLD). NCCL logs no protocol for p2p, so the default's protocol is read from its time: the forced
 * row it matches, where the two forced rows differ by more than 20 % and the default is within 10 % of one. ccsim's
 * {@code perf} must pick the same protocol at every such size.
 */
class P2pProtocolFixtureTest {
    static final Path FILE = Path.of("target", "test-classes", "experiments", "nccl-p2p-protocol-h100x4",
            "p2p-protocol.jsonl");

    @Test
    void perfPicksTheProtocolNcclRan() throws IOException {
        Map<String, Double> t = new HashMap<>();
        List<long[]> points = new ArrayList<>(); // {op ordinal, bytes}
        for (String line : Files.readAllLines(FILE)) {
            JsonObject o = JsonParser.parseString(line).getAsJsonObject();
            CollectiveOp op = o.get("op").getAsString().equals("all_to_all") ? CollectiveOp.ALL_TO_ALL : CollectiveOp.SEND_RECV;
            long bytes = o.get("bytes").getAsLong();
            String setting = o.get("setting").getAsString();
            t.put(setting + "/" + op + "/" + bytes, o.get("time_us").getAsDouble());
            if (setting.equals("default")) points.add(new long[] {op.ordinal(), bytes});
        }
        PerfRunner runner = new PerfRunner(TopologyCatalog.build("hgx-h100", BuildOptions.of(4, 1)), 4,
                CalibrationProfile.builtin("h100"), NcclEnv.empty(), 0);
        List<String> checked = new ArrayList<>();
        for (long[] p : points) {
            CollectiveOp op = CollectiveOp.values()[(int) p[0]];
            long bytes = p[1];
            double d = t.get("default/" + op + "/" + bytes);
            double ll = t.get("LL/" + op + "/" + bytes);
            double simple = t.get("Simple/" + op + "/" + bytes);
            if (Math.max(ll, simple) < 1.2 * Math.min(ll, simple)) continue; // the two protocols cost the same here
            Protocol ran = Math.abs(d - ll) < Math.abs(d - simple) ? Protocol.LL : Protocol.SIMPLE;
            if (Math.abs(d - (ran == Protocol.LL ? ll : simple)) > 0.1 * d) continue;
            PerfRow row = runner.run(op, bytes, DataType.FLOAT32, ReduceOp.SUM, 0);
            assertThat(row.proto()).as("%s %d B: NCCL's default ran %s (%.2f us; LL %.2f, Simple %.2f)", op, bytes, ran,
                    d, ll, simple).isEqualTo(ran);
            checked.add(op + " " + bytes + " " + ran);
        }
        // the forced settings, as the run forced them: NCCL_P2P_LL_THRESHOLD 2^40 (always LL) and 0 (never)
        for (String[] forced : new String[][] {{"1099511627776", "LL"}, {"0", "Simple"}}) {
            PerfRunner f = new PerfRunner(TopologyCatalog.build("hgx-h100", BuildOptions.of(4, 1)), 4,
                    CalibrationProfile.builtin("h100"), NcclEnv.parse(Map.of("NCCL_P2P_LL_THRESHOLD", forced[0])), 0);
            for (long[] p : points) {
                CollectiveOp op = CollectiveOp.values()[(int) p[0]];
                assertThat(f.run(op, p[1], DataType.FLOAT32, ReduceOp.SUM, 0).proto().ncclName()).as("%s %d", op, p[1])
                        .isEqualToIgnoringCase(forced[1]);
            }
        }
        // send/recv: LL at 256 KiB, Simple at 1 MiB (NCCL: LL up to 32 channels x 16 KiB = 512 KiB an operation);
        // all-to-all: LL at 512 KiB (128 KiB an operation), Simple at 8 MiB; between them the protocols cost within 20 %
        assertThat(checked).hasSizeGreaterThanOrEqualTo(16)
                .contains("all_to_all 524288 LL", "all_to_all 8388608 Simple", "sendrecv 262144 LL",
                        "sendrecv 1048576 Simple");
    }
}
