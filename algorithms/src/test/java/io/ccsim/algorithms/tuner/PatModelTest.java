package io.ccsim.algorithms.tuner;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.LinkClass;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** NCCL 2.28.9's PAT cost model and enable rules (tuning.cc ncclPatEnable, ncclTopoTuneModel; enqueue.cc). */
class PatModelTest {
    private static final CalibrationProfile H100 = CalibrationProfile.builtin("h100");
    private static final long KIB = 1024;
    private static final long MIB = 1024 * KIB;

    /** N nodes of one GPU each: 2 channels of 25 GB/s network (one 400 Gb/s NIC), 0.5 µs extra NIC latency. */
    private static TuneInput onePerNode(CollectiveOp op, long bytes, int nodes) {
        return new TuneInput(op, bytes, nodes, nodes, 1, 25.0, 25.0, LinkClass.NVLINK, 2, 0.5, true);
    }

    private static Tuner tuner(Map<String, String> env) { return new Tuner(H100, NcclEnv.parse(env)); }

    @Test
    void modelIsNcclsFormula() {
        TuneInput in = onePerNode(CollectiveOp.ALL_GATHER, 8 * MIB, 64);
        Candidate pat = tuner(Map.of()).tune(in).candidate(Algorithm.PAT, Protocol.SIMPLE).orElseThrow();
        // busBw = nChannels × bwInter × 0.75 = 2 × 25 × 0.75 = 37.5 GB/s, stored without bus → algorithm conversion
        assertThat(pat.bandwidthGBs()).isCloseTo(37.5, within(1e-9));
        // latency = 8 + log2i(64) × (14 + 2 × 0.5) / 3.5 + 64 × 2.8 = 8 + 6 × 15/3.5 + 179.2
        double latency = 8 + 6 * (15.0 / 3.5) + 64 * 2.8;
        assertThat(pat.latencyUs()).isCloseTo(latency, within(1e-9));
        assertThat(pat.costUs()).isCloseTo(latency + 8.0 * MIB / (1000 * 37.5), within(1e-9));
        assertThat(pat.channels()).isEqualTo(2); // the communicator's channels, never reduced by size
        // two nodes: bwIntra, log2i(2) = 1
        Candidate two = tuner(Map.of()).tune(new TuneInput(CollectiveOp.REDUCE_SCATTER, MIB, 2, 2, 1, 40.0, 25.0,
                LinkClass.NVLINK, 4, 0, true)).candidate(Algorithm.PAT, Protocol.SIMPLE).orElseThrow();
        assertThat(two.bandwidthGBs()).isCloseTo(4 * 40.0 * 0.75, within(1e-9));
        assertThat(two.latencyUs()).isCloseTo(8 + 14 / 3.5 + 2 * 2.8, within(1e-9));
    }

    @Test
    void chosenAtSmallAndMidSizesOnManyNodesRingAtLargeSizes() {
        Tuner t = tuner(Map.of());
        for (int nodes : new int[] {64, 128}) {
            assertThat(t.tune(onePerNode(CollectiveOp.ALL_GATHER, 64 * KIB, nodes)).winner().algorithm()).isEqualTo(Algorithm.PAT);
            assertThat(t.tune(onePerNode(CollectiveOp.ALL_GATHER, 16 * MIB, nodes)).winner().algorithm()).isEqualTo(Algorithm.PAT);
            assertThat(t.tune(onePerNode(CollectiveOp.REDUCE_SCATTER, MIB, nodes)).winner().algorithm()).isEqualTo(Algorithm.PAT);
            assertThat(t.tune(onePerNode(CollectiveOp.ALL_GATHER, 1024 * MIB, nodes)).winner().algorithm()).isEqualTo(Algorithm.RING);
        }
    }

    @Test
    void enableRulesFollowNccl() {
        TuneInput eightPerNode = new TuneInput(CollectiveOp.ALL_GATHER, MIB, 64, 8, 8, 20.0, 12.0, LinkClass.NVLINK, 16,
                0, true);
        assertThat(tuner(Map.of()).tune(eightPerNode).unavailable())
                .anySatisfy(u -> assertThat(u.reason()).isEqualTo("PAT needs one rank per node, the communicator has 8 per node"));
        assertThatThrownBy(() -> tuner(Map.of("NCCL_PAT_ENABLE", "1")).tune(eightPerNode))
                .isInstanceOf(TunerException.class).hasMessageContaining("NCCL_PAT_ENABLE=1 forces PAT");
        TuneInput many = onePerNode(CollectiveOp.ALL_GATHER, 64 * KIB, 64);
        assertThat(tuner(Map.of("NCCL_PAT_ENABLE", "0")).tune(many).winner().algorithm()).isEqualTo(Algorithm.RING);
        assertThat(tuner(Map.of("NCCL_PAT_ENABLE", "0")).tune(many).unavailable())
                .anySatisfy(u -> assertThat(u.reason()).isEqualTo("disabled by NCCL_PAT_ENABLE=0"));
        assertThat(tuner(Map.of("NCCL_ALGO", "PAT")).tune(many).winner().algorithm()).isEqualTo(Algorithm.PAT);
        TuneInput avg = onePerNode(CollectiveOp.REDUCE_SCATTER, 64 * KIB, 64).withData(DataType.FLOAT32, ReduceOp.AVG);
        assertThat(tuner(Map.of()).tune(avg).winner().algorithm()).isNotEqualTo(Algorithm.PAT);
        assertThat(tuner(Map.of()).tune(avg).unavailable()).anySatisfy(u -> assertThat(u.reason()).contains("avg"));
        assertThat(tuner(Map.of()).tune(many).unavailable())
                .anySatisfy(u -> assertThat(u.label()).isEqualTo("PAT/LL128"));
        assertThatThrownBy(() -> NcclEnv.parse(Map.of("NCCL_PAT_ENABLE", "3")))
                .isInstanceOf(NcclEnvException.class).hasMessageContaining("NCCL_PAT_ENABLE");
        assertThat(NcclEnv.honours("NCCL_PAT_ENABLE")).isTrue();
    }
}
