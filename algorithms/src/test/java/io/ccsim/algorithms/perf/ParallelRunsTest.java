package io.ccsim.algorithms.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Sizes simulated on several threads give the rows one thread gives, in order; a failure surfaces as itself. */
class ParallelRunsTest {
    private static final Topology T = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 2));
    private static final Supplier<PerfRunner> RUNNERS =
            () -> new PerfRunner(T, 16, CalibrationProfile.builtin("h100"), NcclEnv.parse(Map.of()), 0);
    private static final List<Long> SIZES = List.of(1L << 10, 1L << 16, 1L << 20, 1L << 24, 1L << 26, 3L << 20);

    private static List<String> rows(int threads) throws InterruptedException {
        return new ParallelRuns(RUNNERS, threads).map(SIZES, (r, s) -> {
            PerfRow row = r.run(CollectiveOp.ALL_REDUCE, s, DataType.FLOAT32, ReduceOp.SUM, 0, 1);
            return row.bytes() + " " + row.algo() + " " + row.proto() + " " + Double.doubleToLongBits(row.timeUs())
                    + " " + r.lastEvents();
        });
    }

    @Test
    void threeThreadsGiveOneThreadsRowsInOrder() throws InterruptedException {
        List<String> one = rows(1);
        assertThat(rows(3)).isEqualTo(one);
        assertThat(one.get(0)).startsWith("1024 ");
        assertThat(one.get(5)).startsWith(Long.toString(3L << 20));
    }

    @Test
    void theFirstFailingTaskInOrderIsWhatTheCallerSees() {
        ParallelRuns p = new ParallelRuns(RUNNERS, 2);
        assertThatThrownBy(() -> p.map(List.of(1, 2, 3, 4), (r, i) -> {
            if (i >= 2) throw new IllegalArgumentException("task " + i);
            return i;
        })).isInstanceOf(IllegalArgumentException.class).hasMessage("task 2");
        assertThatThrownBy(() -> new ParallelRuns(RUNNERS, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
