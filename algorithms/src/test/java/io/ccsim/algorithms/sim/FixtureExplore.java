package io.ccsim.algorithms.sim;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.ccsim.algorithms.*;
import io.ccsim.algorithms.plan.*;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.sim.Simulator;
import io.ccsim.topology.*;
import java.nio.file.*;
import org.junit.jupiter.api.Test;

class FixtureExplore {
    @Test
    void explore() throws Exception {
        if (System.getenv("EXPLORE") == null) return;
        CalibrationProfile prof = System.getenv("PROFILE") != null ? CalibrationProfile.load(Path.of(System.getenv("PROFILE"))) : CalibrationProfile.builtin("h200");
        for (int n : new int[] {4, 2}) {
            var root = JsonParser.parseString(Files.readString(Path.of("../calibration/nccl-h200/nccl-2.28.9-h200-n" + n + ".json"))).getAsJsonObject();
            Topology topo = TopologyCatalog.build("hgx-h200", BuildOptions.of(n, 1));
            for (var e : root.getAsJsonArray("rows")) {
                JsonObject r = e.getAsJsonObject();
                if (r.get("mode").getAsString().equals("default") || !r.get("graph").getAsBoolean()) continue;
                String op = r.get("op").getAsString();
                if (System.getenv("OP") != null && !System.getenv("OP").equals(op)) continue;
                long bytes = r.get("bytes").getAsLong();
                CollectiveOp cop = CollectiveOp.parse(op);
                long elems = bytes / 4;
                long count = (cop == CollectiveOp.ALL_GATHER || cop == CollectiveOp.REDUCE_SCATTER || cop == CollectiveOp.ALL_TO_ALL) ? elems / n : elems;
                String[] m = r.get("mode").getAsString().split("/");
                Algorithm a = m[0].equals("Tree") ? Algorithm.TREE : Algorithm.RING;
                Protocol p = m[1].equals("LL") ? Protocol.LL : m[1].equals("LL128") ? Protocol.LL128 : Protocol.SIMPLE;
                int ch = r.get("nccl_reported_channels").isJsonNull() ? 8 : r.get("nccl_reported_channels").getAsInt();
                if (a == Algorithm.TREE) ch = Math.max(1, ch);
                CollectiveCall call = new CollectiveCall(cop, count, DataType.FLOAT32, ReduceOp.SUM, 0, CommLayout.singleHost(n));
                Plan plan = Planners.standard().plan(call, PlanOptions.of(a, p, ch));
                Simulator sim = new Simulator(1);
                SimExecutor ex = new SimExecutor(sim, new Fabric(sim, topo, prof));
                SimExecution x = ex.start(plan, SimExecutor.firstGpus(topo, n), t -> {});
                x.launchAll();
                sim.run();
                double simUs = x.endTimePs() / 1e6;
                double meas = r.get("time_us").getAsDouble();
                System.out.printf("n=%d %-14s %-10s ch=%2d %11d meas=%10.2f sim=%10.2f err=%+6.1f%%%n", n, op, r.get("mode").getAsString(), ch, bytes, meas, simUs, 100 * (simUs - meas) / meas);
            }
        }
    }
}
