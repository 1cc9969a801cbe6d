package io.ccsim.algorithms.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.plan.PlanOptions;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A call that stands for a larger one (an extrapolation's sample) costs its bytes as the larger one does: the cost
 * model's cache term reads the working set the plan carries ({@link PlanOptions#workingSetBytes}), not the call's own.
 */
class SampleWorkingSetTest {
    private static final Topology TWO = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 2));
    private static final PerfRunner RUNNER = new PerfRunner(TWO, TWO.gpus().size(), CalibrationProfile.builtin("h100"),
            NcclEnv.parse(Map.of()), 0);

    private static double broadcast(long bytes, long workingSet) {
        return RUNNER.simulateAsPartOf(2, workingSet, CollectiveOp.BROADCAST, bytes / 4, DataType.FLOAT32, ReduceOp.SUM, 0,
                Algorithm.RING, Protocol.LL, 1).timeUs();
    }

    /**
     * Ring/LL x1 on 2 HGX nodes (4 KiB units): a 128 KiB broadcast fits in L2 (60 MB), so told its own working set, or
     * none, it costs what it always did; told a 2 GiB one it costs more, and the time a unit adds between 8 and 16 MiB
     * is then the one it adds between 128 and 256 MiB, where the calls themselves miss L2.
     */
    @Test
    void aSampleCostsItsBytesAsTheCallItStandsFor() {
        long own = 2L * (128 << 10);
        double plain = RUNNER.simulate(CollectiveOp.BROADCAST, (128 << 10) / 4, DataType.FLOAT32, ReduceOp.SUM, 0,
                Algorithm.RING, Protocol.LL, 1).timeUs();
        assertThat(broadcast(128 << 10, 0)).isEqualTo(plain);
        assertThat(broadcast(128 << 10, own)).isEqualTo(plain);
        assertThat(broadcast(128 << 10, 2L << 30)).isGreaterThan(plain * 1.1);
        double perUnitSample = (broadcast(16 << 20, 2L << 30) - broadcast(8 << 20, 2L << 30)) / 2048;
        double perUnitLarge = (broadcast(256 << 20, 0) - broadcast(128 << 20, 0)) / 32_768;
        double perUnitCached = (broadcast(16 << 20, 0) - broadcast(8 << 20, 0)) / 2048;
        assertThat(perUnitSample).isCloseTo(perUnitLarge, within(1e-4 * perUnitLarge));
        assertThat(perUnitCached).isLessThan(0.9 * perUnitLarge);
    }

    @Test
    void aNegativeWorkingSetIsRefused() {
        assertThatThrownBy(() -> PlanOptions.of(Algorithm.RING, Protocol.LL, 1).withWorkingSetBytes(-1))
                .hasMessage("PlanOptions.workingSetBytes must be >= 1, or 0 for the call's own, got -1");
        assertThat(PlanOptions.of(Algorithm.RING, Protocol.LL, 1).withWorkingSetBytes(1 << 30).toString())
                .contains("costs as for 1073741824 B per GPU");
    }
}
