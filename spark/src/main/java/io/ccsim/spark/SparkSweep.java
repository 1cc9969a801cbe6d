package io.ccsim.spark;

import io.ccsim.cli.SweepCluster;
import io.ccsim.cli.SweepEngine;
import io.ccsim.cli.SweepPoint;
import io.ccsim.cli.SweepRows;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * {@code ccsim sweep --master URL} on Apache Spark: the points are split into partitions, each simulated by a
 * {@link SweepEngine} on an executor, so a row is the very text the local engine gives for the same point.
 *
 * <p>Contract (as {@link SweepCluster}): the rows come back in the order of the points (Spark keeps a parallelized
 * list's order through {@code mapPartitions} and {@code collect}); with a Parquet path they are also written there,
 * one Parquet column per row column ({@link #SCHEMA}), overwriting the directory. The jars that hold ccsim's classes
 * go to the executors with {@code spark.jars}; a Spark master that cannot be reached fails the run with Spark's
 * message.
 */
public final class SparkSweep implements SweepCluster {
    /** The Parquet schema: the row columns with their types. */
    public static final StructType SCHEMA = schema();

    /** Points per partition at most: small partitions balance points of unequal cost across executors. */
    private static final int POINTS_PER_PARTITION = 16;

    @Override
    public List<String> run(String master, List<SweepPoint> points, Path parquet) {
        if (points.isEmpty()) return List.of();
        SparkSession.Builder b = SparkSession.builder().master(master).appName("ccsim sweep")
                .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false");
        String jars = jars();
        if (!jars.isEmpty()) b.config("spark.jars", jars);
        SparkSession spark = b.getOrCreate();
        try {
            JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
            List<String> input = new ArrayList<>(points.size());
            for (SweepPoint p : points) input.add(p.toJson().toString());
            int slices = Math.max(1, (points.size() + POINTS_PER_PARTITION - 1) / POINTS_PER_PARTITION);
            JavaRDD<String> rows = jsc.parallelize(input, slices).mapPartitions(it -> {
                SweepEngine engine = new SweepEngine(null);
                List<String> out = new ArrayList<>();
                while (it.hasNext()) out.add(engine.row(SweepPoint.fromJson(it.next())));
                return out.iterator();
            });
            List<String> result = rows.collect();
            if (parquet != null) {
                Dataset<Row> df = spark.read().schema(SCHEMA).json(spark.createDataset(result, Encoders.STRING()));
                df.coalesce(1).write().mode(SaveMode.Overwrite).parquet(parquet.toString());
            }
            return result;
        } finally {
            spark.stop();
        }
    }

    /** The jar files (not class folders) that hold ccsim's classes, comma-separated, for the executors. */
    private static String jars() {
        Set<String> out = new LinkedHashSet<>();
        for (Class<?> c : List.of(SweepEngine.class, SparkSweep.class)) {
            try {
                Path p = Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
                if (p.toString().endsWith(".jar")) out.add(p.toString());
            } catch (URISyntaxException | SecurityException | NullPointerException e) {
                // no code source: the classes are on the executors' class path already, as in local mode
            }
        }
        return String.join(",", out);
    }

    private static StructType schema() {
        List<StructField> fields = new ArrayList<>();
        for (String c : SweepRows.COLUMNS) fields.add(DataTypes.createStructField(c, type(c), true));
        return DataTypes.createStructType(fields);
    }

    private static DataType type(String column) {
        return switch (column) {
            case "point", "ranks", "nodes", "nics_per_node", "channels" -> DataTypes.IntegerType;
            case "seed", "bytes", "count", "events" -> DataTypes.LongType;
            case "oversubscription", "time_us", "algbw_gbps", "busbw_gbps", "error_bound_pct" -> DataTypes.DoubleType;
            case "calibrated", "sharp" -> DataTypes.BooleanType;
            default -> DataTypes.StringType;
        };
    }
}
