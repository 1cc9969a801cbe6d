package io.ccsim.algorithms.perf;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.plan.TorchSymmMem;
import io.ccsim.algorithms.plan.UnsupportedAlgorithmException;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import java.util.Map;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** PyTorch's symmetric-memory all-reduces timed on 8 × H200 (docs/calibration.md lists these times; uncalibrated). */
class TorchSymmPerfTest {
    private final Topology h200 = TopologyCatalog.build("hgx-h200", BuildOptions.of(0, 1));
    private final PerfRunner r = new PerfRunner(h200, 8, CalibrationProfile.builtin("h200"), NcclEnv.parse(Map.of()), 0);

    @Test
    void twoShotMatchesNcclsTwoShotKernelOnAsManyBlocksPlusTheBarriers() {
        long bytes = 256L << 20;
        PerfRow torch = r.runTorchSymmMem(Algorithm.TORCH_TWO_SHOT, bytes, DataType.FLOAT32, ReduceOp.SUM, 1);
        assertThat(torch.algo()).isEqualTo(Algorithm.TORCH_TWO_SHOT);
        assertThat(torch.channels()).isEqualTo(24); // PyTorch's block cap
        double plan = r.simulate(CollectiveOp.ALL_REDUCE, bytes / 4, DataType.FLOAT32, ReduceOp.SUM, 0,
                Algorithm.TORCH_TWO_SHOT, Protocol.SIMPLE, 24).timeUs();
        assertThat(torch.timeUs()).isCloseTo(plan + TorchSymmMem.BARRIERS * TorchSymmMem.BARRIER_US, Percentage.withPercentage(0.01));
        double nccl = r.simulate(CollectiveOp.ALL_REDUCE, bytes / 4, DataType.FLOAT32, ReduceOp.SUM, 0,
                Algorithm.SYM_AR_TWO_SHOT, Protocol.SIMPLE, 24).timeUs();
        assertThat(plan).isCloseTo(nccl, Percentage.withPercentage(5)); // same bytes per link, other layout
    }

    @Test
    void oneShotMovesNMinusOneBuffersPerRankSoLosesAtLargeSizes() {
        double one = r.runTorchSymmMem(Algorithm.TORCH_ONE_SHOT, 256L << 20, DataType.BFLOAT16, ReduceOp.SUM, 1).timeUs();
        double two = r.runTorchSymmMem(Algorithm.TORCH_TWO_SHOT, 256L << 20, DataType.BFLOAT16, ReduceOp.SUM, 1).timeUs();
        // one-shot loads 7 S per rank, two-shot 2 x 7/8 S: about 4x the data
        assertThat(one / two).isBetween(2.5, 5.0);
    }

    @Test
    void refusesHalfWithPyTorchsReason() {
        assertThatThrownBy(() -> r.runTorchSymmMem(Algorithm.TORCH_TWO_SHOT, 1 << 20, DataType.FLOAT16, ReduceOp.SUM, 1))
                .isInstanceOf(UnsupportedAlgorithmException.class).hasMessageContaining("float and bfloat16 only");
    }
}
