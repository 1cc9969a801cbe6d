package io.ccsim.algorithms.perf;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.algorithms.tuner.NcclEnvException;
import io.ccsim.algorithms.tuner.SymkModel;
import io.ccsim.algorithms.tuner.TuneInput;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.TopologyCatalog;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * NCCL 2.28.9's choice among its eleven symmetric kernels (sym_kernels.cc ncclSymkPickKernel, queryModel) on one
 * 8-GPU NVSwitch board, where every kernel is eligible.
 *
 * <p>The crossovers, from NCCL's sm90 constants (nBytes = bytes per rank; bw in GiB/s, 1 GiB/s = 1073.7 B/µs):
 * <pre>
 * LL kernels     busBytes = n·9·nBytes = 72·nBytes, baseLat 4.5 µs, smBw 44 (all-reduce 65), mult 1.1 for LLMC
 * ST, LD         busBytes = 7·nBytes, baseLat 7.8; STMC, LDMC: mult 0.55·8 = 4.4, at most ⌈16/8⌉ = 2 blocks
 * time = baseLat + softplus(busBytes / softmin(blocks·smBw·mult, 320, smBw) − 1), the fewest blocks within 2.5 %
 * of 64 blocks' time, cost = time × (1 + 0.025·blocks), the least cost wins.
 * AllGather_LLMC at 8 KiB: 589,824 B; 64 blocks take 5.61 µs, 7 blocks (softmin(338.8, 320) = 306 GiB/s)
 *   4.5 + softplus(589,824 / 328,600 − 1) = 5.70 µs, cost 5.70 × 1.175 = 6.70
 * AllGather_STMC at 8 KiB: 57,344 B on 1 block (softmin(193.6, 320) = 192 GiB/s): 7.8 + softplus(−0.72) = 8.20,
 *   cost 8.20 × 1.025 = 8.40 → LLMC (AllGather_LL: 8 blocks, 5.68 µs, cost 6.82).
 * At 16 KiB: LLMC 8 blocks, 7.11 µs, cost 8.53; STMC 1 block, 8.30 µs, cost 8.50 → STMC (by 0.3 %).
 * Without NVLS at 16 KiB: AllGather_LL 9 blocks, 7.09 µs, cost 8.69 against AllGather_ST 3 blocks, 8.40 µs, cost
 *   9.03 → LL; at 32 KiB LL costs 12.90 against ST's 9.55.
 * ReduceScatter has the same busBytes and constants as all-gather, without an LLMC kernel: ReduceScatter_LL to
 *   8 KiB (6.82 against LDMC's 8.40), LDMC from 16 KiB (8.50 against LL's 8.69).
 * AllReduce (smBw 65, nBytes = the whole buffer): at 16 KiB AGxLLMC_R 6 blocks 7.13 µs, cost 8.20; AGxLL_R 8.34;
 *   RSxLDMC_AGxSTMC 1 block 8.12 µs, cost 8.33 → AGxLLMC_R; at 32 KiB LLMC costs 12.21, RSxLDMC_AGxSTMC 8.34.
 * </pre>
 * nccl-tests sizes: all-gather and reduce-scatter 8 × nBytes, all-reduce nBytes. Both boards have sm90 and NVLS.
 */
class SymkChoiceTest {
    private static final long KIB = 1024;

    private static PerfRunner runner(String topology, Map<String, String> env) {
        String gpu = topology.equals("hgx-h100") ? "h100" : "h200";
        return new PerfRunner(TopologyCatalog.build(topology, BuildOptions.of(0, 1)), 8, CalibrationProfile.builtin(gpu),
                NcclEnv.parse(env), 0, SymkModel.parse(env));
    }

    private static Algorithm pick(PerfRunner r, CollectiveOp op, long bytes) {
        return r.symmetricChoice(op, bytes, DataType.FLOAT32, ReduceOp.SUM).choice().orElseThrow().kernel();
    }

    @ParameterizedTest
    @ValueSource(strings = {"hgx-h100", "hgx-h200"})
    void smallCallsPickTheLlKernelsLargeOnesTheLoadStoreKernels(String topology) {
        PerfRunner r = runner(topology, Map.of());
        assertThat(pick(r, CollectiveOp.ALL_GATHER, 8 * 8 * KIB)).isEqualTo(Algorithm.SYM_AG_LLMC);
        assertThat(pick(r, CollectiveOp.ALL_GATHER, 8 * 16 * KIB)).isEqualTo(Algorithm.SYM_AG_STMC);
        assertThat(pick(r, CollectiveOp.REDUCE_SCATTER, 8 * 8 * KIB)).isEqualTo(Algorithm.SYM_RS_LL);
        assertThat(pick(r, CollectiveOp.REDUCE_SCATTER, 8 * 16 * KIB)).isEqualTo(Algorithm.SYM_RS_LDMC);
        assertThat(pick(r, CollectiveOp.ALL_REDUCE, 16 * KIB)).isEqualTo(Algorithm.SYM_AR_ONE_SHOT_MC);
        assertThat(pick(r, CollectiveOp.ALL_REDUCE, 32 * KIB)).isEqualTo(Algorithm.SYM_AR_MULTIMEM);
        assertThat(pick(r, CollectiveOp.ALL_GATHER, 8)).isEqualTo(Algorithm.SYM_AG_LLMC);
        assertThat(pick(r, CollectiveOp.ALL_REDUCE, 256L << 20)).isEqualTo(Algorithm.SYM_AR_MULTIMEM);

        PerfRunner noNvls = runner(topology, Map.of("NCCL_NVLS_ENABLE", "0"));
        assertThat(pick(noNvls, CollectiveOp.ALL_GATHER, 8 * 16 * KIB)).isEqualTo(Algorithm.SYM_AG_LL);
        assertThat(pick(noNvls, CollectiveOp.ALL_GATHER, 8 * 32 * KIB)).isEqualTo(Algorithm.SYM_AG_ST);
        assertThat(pick(noNvls, CollectiveOp.REDUCE_SCATTER, 8 * 16 * KIB)).isEqualTo(Algorithm.SYM_RS_LL);
        assertThat(pick(noNvls, CollectiveOp.REDUCE_SCATTER, 8 * 32 * KIB)).isEqualTo(Algorithm.SYM_RS_LD);
        assertThat(pick(noNvls, CollectiveOp.ALL_REDUCE, 16 * KIB)).isEqualTo(Algorithm.SYM_AR_ONE_SHOT);
        assertThat(pick(noNvls, CollectiveOp.ALL_REDUCE, 32 * KIB)).isEqualTo(Algorithm.SYM_AR_TWO_SHOT);
    }

    @Test
    void theModelsNumbersAreTheOnesDerivedAbove() {
        assertThat(SymkModel.timeUs(Algorithm.SYM_AG_LLMC, 8, 8 * KIB, 7)).isCloseTo(5.70, org.assertj.core.data.Offset.offset(0.01));
        assertThat(SymkModel.timeUs(Algorithm.SYM_AG_STMC, 8, 8 * KIB, 1)).isCloseTo(8.20, org.assertj.core.data.Offset.offset(0.01));
        // the multicast LL kernel's 1.1 makes it a little faster per block than the unicast one at equal bytes
        assertThat(SymkModel.timeUs(Algorithm.SYM_AG_LLMC, 8, 8 * KIB, 4))
                .isLessThan(SymkModel.timeUs(Algorithm.SYM_AG_LL, 8, 8 * KIB, 4));
        assertThat(SymkModel.timeUs(Algorithm.SYM_RS_LL, 8, 8 * KIB, 8))
                .isEqualTo(SymkModel.timeUs(Algorithm.SYM_AG_LL, 8, 8 * KIB, 8));
        SymkModel.Choice c = runner("hgx-h100", Map.of()).symmetricChoice(CollectiveOp.ALL_GATHER, 8 * 8 * KIB,
                DataType.FLOAT32, ReduceOp.SUM).choice().orElseThrow();
        assertThat(c.blocks()).isEqualTo(7);
        assertThat(c.timeUs()).isCloseTo(5.70, org.assertj.core.data.Offset.offset(0.01));
    }

    @Test
    void llKernelsLeaveAtTwoGibOfBusBytesAndWhenAGroupBatchesCalls() {
        PerfRunner r = runner("hgx-h100", Map.of("NCCL_SYM_KERNEL", "AllGather_LL"));
        // all-gather busBytes = n × nBytes: 256 MiB per rank is 2 GiB, one cell less is not
        assertThat(pick(r, CollectiveOp.ALL_GATHER, 8 * ((256L << 20) - KIB))).isEqualTo(Algorithm.SYM_AG_LL);
        assertThat(r.symmetricChoice(CollectiveOp.ALL_GATHER, 8 * (256L << 20), DataType.FLOAT32, ReduceOp.SUM).choice())
                .isEmpty();
        SymkModel any = SymkModel.parse(Map.of());
        TuneInput in = r.graph().tuneInput(CollectiveOp.ALL_REDUCE, 8 * KIB, DataType.FLOAT32, ReduceOp.SUM);
        assertThat(any.pick(in, 90, false, true, 1).choice().orElseThrow().kernel()).isEqualTo(Algorithm.SYM_AR_ONE_SHOT_MC);
        assertThat(any.pick(in, 90, false, true, 2).choice().orElseThrow().kernel()).isEqualTo(Algorithm.SYM_AR_MULTIMEM);
        assertThat(any.pick(in, 90, false, false, 2).choice().orElseThrow().kernel()).isEqualTo(Algorithm.SYM_AR_TWO_SHOT);
    }

    @Test
    void multicastLlKernelsNeedNvlsButNoReducibleType() {
        PerfRunner r = runner("hgx-h200", Map.of());
        // fp8: the switch cannot reduce it on sm90, but AGxLLMC_R only stores through multicast
        assertThat(r.symmetricChoice(CollectiveOp.ALL_REDUCE, 4 * KIB, DataType.FP8_E4M3, ReduceOp.SUM).choice()
                .orElseThrow().kernel()).isEqualTo(Algorithm.SYM_AR_ONE_SHOT_MC);
        PerfRunner forced = runner("hgx-h200", Map.of("NCCL_SYM_KERNEL", "AllGather_LLMC", "NCCL_NVLS_ENABLE", "0"));
        assertThat(forced.symmetricChoice(CollectiveOp.ALL_GATHER, 8 * KIB, DataType.FLOAT32, ReduceOp.SUM).reason())
                .contains("NCCL_SYM_KERNEL=AllGather_LLMC does not run this call");
    }

    @Test
    void ncclSymKernelNamesEveryKernelAndTheOneNcclNeverBuilds() {
        for (String k : new String[] {"AllReduce_AGxLLMC_R", "AllGather_LL", "AllGather_LLMC", "ReduceScatter_LL"}) {
            assertThat(SymkModel.parse(Map.of("NCCL_SYM_KERNEL", k)).toString()).contains("kernel=" + k);
        }
        PerfRunner r = runner("hgx-h100", Map.of("NCCL_SYM_KERNEL", "ReduceScatter_LL"));
        assertThat(pick(r, CollectiveOp.REDUCE_SCATTER, 64L << 20)).isEqualTo(Algorithm.SYM_RS_LL);
        PerfRunner never = runner("hgx-h100", Map.of("NCCL_SYM_KERNEL", "AllReduce_RSxNet_ARxMC_AGxNet"));
        assertThat(never.symmetricChoice(CollectiveOp.ALL_REDUCE, 8 * KIB, DataType.FLOAT32, ReduceOp.SUM).reason())
                .contains("runs that kernel for no call");
        assertThat(never.run(CollectiveOp.ALL_REDUCE, 8 * KIB, DataType.FLOAT32, ReduceOp.SUM, 0).algo().isSymmetric()).isFalse();
        assertThatThrownBy(() -> SymkModel.parse(Map.of("NCCL_SYM_KERNEL", "AllGather_LLX")))
                .isInstanceOf(NcclEnvException.class).hasMessageContaining("AllGather_LLMC")
                .hasMessageContaining("not a symmetric kernel name");
    }
}
