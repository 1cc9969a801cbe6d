package io.ccsim.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ccsim sweep on Spark's local mode: the same rows as the local engine, and the same rows in Parquet. */
class SparkSweepTest {
    @TempDir Path dir;

    private record Result(int code, String out, String err) { }

    private static Result sweep(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true), Map.of());
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void sparkGivesTheLocalEnginesRowsAndWritesThemToParquet() throws Exception {
        Path spec = dir.resolve("study.json");
        Files.writeString(spec, "{\"topology\": \"hgx-h200\", \"gpus\": [2, 8], \"ops\": [\"all_reduce\", \"all_gather\"],"
                + " \"sizes\": {\"min\": \"1K\", \"max\": \"64M\", \"factor\": 8}, \"env\": {\"NCCL_ALGO\": [\"Ring\", \"Tree\"]},"
                + " \"what_if\": [{}, {\"nvlink_gbps\": 10}]}", StandardCharsets.UTF_8);
        Result local = sweep("sweep", spec.toString(), "--format", "jsonl", "--jobs", "2");
        assertThat(local.code()).as(local.err()).isZero();
        Path jsonl = dir.resolve("rows.jsonl");
        Path parquet = dir.resolve("rows.parquet");
        Result spark = sweep("sweep", spec.toString(), "--master", "local[2]", "--out", jsonl.toString(), "--out",
                parquet.toString());
        assertThat(spark.code()).as(spark.err()).isZero();
        List<String> rows = local.out().lines().toList();
        assertThat(rows).hasSize(2 * 2 * 2 * 2 * 6);   // gpus x what-if x NCCL_ALGO x ops x sizes 1K..32M by 8
        assertThat(Files.readString(jsonl)).isEqualTo(local.out());
        SparkSession s = SparkSession.builder().master("local[1]").config("spark.ui.enabled", "false").getOrCreate();
        try {
            Dataset<Row> df = s.read().parquet(parquet.toString());
            assertThat(df.schema()).isEqualTo(SparkSweep.SCHEMA);
            List<String> back = df.orderBy("point").toJSON().collectAsList();
            assertThat(back).hasSize(rows.size());
            Row r = df.orderBy("point").first();
            assertThat(r.getAs("id").toString()).isEqualTo(rows.get(0).substring(rows.get(0).indexOf("\"id\":\"") + 6,
                    rows.get(0).indexOf("\"id\":\"") + 22));
        } finally {
            s.stop();
        }
    }
}
