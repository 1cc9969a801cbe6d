package io.ccsim.algorithms.perf;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.algorithms.tuner.SymkModel;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** NCCL's symmetric kernel choice on 8 × H200 and the simulated times of its kernels. */
class SymmetricPerfTest {
    private final Topology h200 = TopologyCatalog.build("hgx-h200", BuildOptions.of(0, 1));
    private final CalibrationProfile prof = CalibrationProfile.builtin("h200");

    private PerfRunner runner(Map<String, String> env) {
        return new PerfRunner(h200, 8, prof, NcclEnv.parse(env), 0, SymkModel.parse(env));
    }

    @Test
    void smallAllReducesRunOneShotLargeOnesTheMultimemKernel() {
        PerfRunner r = runner(Map.of());
        assertThat(r.run(CollectiveOp.ALL_REDUCE, 8192, DataType.FLOAT32, ReduceOp.SUM, 0).algo())
                .isEqualTo(Algorithm.SYM_AR_ONE_SHOT_MC);
        assertThat(runner(Map.of("NCCL_NVLS_ENABLE", "0")).run(CollectiveOp.ALL_REDUCE, 8192, DataType.FLOAT32, ReduceOp.SUM, 0)
                .algo()).isEqualTo(Algorithm.SYM_AR_ONE_SHOT);
        assertThat(r.run(CollectiveOp.ALL_REDUCE, 64L << 20, DataType.FLOAT32, ReduceOp.SUM, 0).algo())
                .isEqualTo(Algorithm.SYM_AR_MULTIMEM);
        // no symmetric kernel sums double: the normal tuner's choice
        assertThat(r.run(CollectiveOp.ALL_REDUCE, 8192, DataType.FLOAT64, ReduceOp.SUM, 0).algo().isSymmetric()).isFalse();
        assertThat(runner(Map.of("NCCL_WIN_ENABLE", "0")).run(CollectiveOp.ALL_REDUCE, 8192, DataType.FLOAT32, ReduceOp.SUM, 0)
                .algo().isSymmetric()).isFalse();
        assertThat(runner(Map.of("NCCL_SYM_KERNEL", "AllReduce_RSxLD_AGxST"))
                .run(CollectiveOp.ALL_REDUCE, 8192, DataType.FLOAT32, ReduceOp.SUM, 0).algo()).isEqualTo(Algorithm.SYM_AR_TWO_SHOT);
    }

    @Test
    void largeAllGathersAndReduceScattersRunTheMulticastKernels() {
        PerfRunner r = runner(Map.of());
        long big = 256L << 20;
        assertThat(r.run(CollectiveOp.ALL_GATHER, big, DataType.FLOAT32, ReduceOp.SUM, 0).algo()).isEqualTo(Algorithm.SYM_AG_STMC);
        assertThat(r.run(CollectiveOp.ALL_GATHER, big, DataType.FP8_E4M3, ReduceOp.SUM, 0).algo()).isEqualTo(Algorithm.SYM_AG_STMC);
        assertThat(r.run(CollectiveOp.REDUCE_SCATTER, big, DataType.FLOAT32, ReduceOp.SUM, 0).algo())
                .isEqualTo(Algorithm.SYM_RS_LDMC);
        // the switch does not reduce fp8 on sm90: the load-reduce kernel without multicast
        assertThat(r.run(CollectiveOp.REDUCE_SCATTER, big, DataType.FP8_E4M3, ReduceOp.SUM, 0).algo())
                .isEqualTo(Algorithm.SYM_RS_LD);
        // NVLS off (NCCL_NVLS_ENABLE=0): no multicast kernel
        assertThat(runner(Map.of("NCCL_NVLS_ENABLE", "0")).run(CollectiveOp.ALL_GATHER, big, DataType.FLOAT32, ReduceOp.SUM, 0)
                .algo()).isEqualTo(Algorithm.SYM_AG_ST);
        // NCCL's model: at 8 ranks the multicast kernel's 2 blocks reach 0.55 × 8 × 2 × 44 GiB/s ≈ 387 > 320 peak
        long nBytes = big / 8;
        assertThat(SymkModel.timeUs(Algorithm.SYM_AG_STMC, 8, nBytes, 2, 90))
                .isLessThan(SymkModel.timeUs(Algorithm.SYM_AG_ST, 8, nBytes, 2, 90));
    }

    /** docs/calibration.md lists these times (uncalibrated: no symmetric windows on the lent machines). */
    @Test
    void simulatedTimesAgainstNcclsModel() {
        PerfRunner r = runner(Map.of());
        double oneShotSmall = sim(r, Algorithm.SYM_AR_ONE_SHOT, 8192, 64);
        double twoShotSmall = sim(r, Algorithm.SYM_AR_TWO_SHOT, 8192, 64);
        assertThat(oneShotSmall).isLessThan(twoShotSmall); // the LL one-shot is the latency kernel, as in NCCL's model
        double twoShotLarge = sim(r, Algorithm.SYM_AR_TWO_SHOT, 256L << 20, 64);
        assertThat(twoShotLarge).isCloseTo(SymkModel.timeUs(Algorithm.SYM_AR_TWO_SHOT, 8, 256L << 20, 64, 90),
                org.assertj.core.data.Percentage.withPercentage(10));
        assertThat(sim(r, Algorithm.SYM_AR_MULTIMEM, 256L << 20, 2)).isLessThan(twoShotLarge);
    }

    private static double sim(PerfRunner r, Algorithm k, long bytes, int blocks) {
        return r.simulate(CollectiveOp.ALL_REDUCE, bytes / 4, DataType.FLOAT32, ReduceOp.SUM, 0, k,
                k == Algorithm.SYM_AR_ONE_SHOT ? Protocol.LL : Protocol.SIMPLE, blocks).timeUs();
    }
}
