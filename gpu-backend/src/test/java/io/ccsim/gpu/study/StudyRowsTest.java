package io.ccsim.gpu.study;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.gpu.exec.CudaCheck;
import io.ccsim.gpu.exec.CudaPerf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The rows the studies write, without a GPU: names, order and rounding of timing.json and of the check rows. */
class StudyRowsTest {

    @Test
    void timingRowsCarryNcclNamesAndRoundToThreeDecimals(@TempDir Path dir) throws Exception {
        CudaPerf.Row r = new CudaPerf.Row(CollectiveOp.ALL_GATHER, 1 << 20, 1 << 16, DataType.FLOAT32, ReduceOp.SUM, 0,
                Algorithm.RING, Protocol.LL128, 16, 12.34567, 84.93849, 63.70386);
        List<Map<String, Object>> rows = new ArrayList<>();
        TimingRows.add(rows, r, 4, true, "ops_sweep");
        TimingRows.add(rows, r, 4, true, "fidelity", 2);
        assertThat(rows.get(0).keySet()).containsExactly("set", "op", "bytes", "count", "dtype", "redop", "root", "algo",
                "proto", "channels", "n", "graph", "time_us", "algbw_gbps", "busbw_gbps");
        assertThat(rows.get(1).keySet()).containsExactly("set", "trial", "op", "bytes", "count", "dtype", "redop", "root",
                "algo", "proto", "channels", "n", "graph", "time_us", "algbw_gbps", "busbw_gbps");
        assertThat(rows.get(1)).containsEntry("trial", 2).containsEntry("op", "all_gather").containsEntry("dtype", "float")
                .containsEntry("redop", "sum").containsEntry("algo", "Ring").containsEntry("proto", "LL128")
                .containsEntry("time_us", 12.346).containsEntry("algbw_gbps", 84.938).containsEntry("busbw_gbps", 63.704);
        Path f = dir.resolve("timing.json");
        ResultFiles.writeJson(f, rows.subList(0, 1));
        assertThat(Files.readString(f)).startsWith("[\n  {\n    \"set\": \"ops_sweep\",\n    \"op\": \"all_gather\",")
                .contains("\"time_us\": 12.346,");
    }

    @Test
    void checkRowsNameTheFirstMismatchOnlyWhenThereIsOne() {
        Map<String, Object> ok = CorrectnessStudies.row(new CudaCheck.Result("p", true, 0, 10, ""), 2, true, 1.26);
        assertThat(ok.keySet()).containsExactly("plan", "n", "small_buffers", "ok", "mismatches", "elements", "wall_ms");
        assertThat(ok).containsEntry("wall_ms", 1.3);
        Map<String, Object> bad = CorrectnessStudies.row(new CudaCheck.Result("p", false, 1, 10, "rank 1 offset 2: x"), 2, false, 0.04);
        assertThat(bad).containsEntry("first_mismatch", "rank 1 offset 2: x").containsEntry("wall_ms", 0.0);
    }
}
