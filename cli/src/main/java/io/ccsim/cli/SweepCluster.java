package io.ccsim.cli;

import java.nio.file.Path;
import java.util.List;

/**
 * A cluster engine for {@code ccsim sweep --master URL}, found with {@link java.util.ServiceLoader} on the class path
 * (the {@code spark} module provides one), so that the CLI itself carries no cluster library.
 *
 * <p>Contract: {@link #run} returns the row of every point, as {@link SweepEngine#row} gives it, in the order of
 * {@code points}; it writes them also to {@code parquet} when that is not null.
 */
public interface SweepCluster {
    /**
     * @param master  the cluster, e.g. {@code spark://host:7077} or {@code local[4]}
     * @param points  the points to simulate
     * @param parquet a Parquet directory to write the rows to, or null
     * @return the rows as JSON lines, in the order of {@code points}
     */
    List<String> run(String master, List<SweepPoint> points, Path parquet);
}
