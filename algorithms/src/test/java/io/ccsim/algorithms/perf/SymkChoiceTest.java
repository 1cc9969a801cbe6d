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
 * nccl-tests sizes: all-gather and reduce-scatter 8 × nBytes, all-reduce nBytes. Both boards have sm90 and NVLS;
 * Blackwell's constants are checked on a GB200 NVL72 domain and an HGX B200.
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
        assertThat(SymkModel.timeUs(Algorithm.SYM_AG_LLMC, 8, 8 * KIB, 7, 90)).isCloseTo(5.70, org.assertj.core.data.Offset.offset(0.01));
        assertThat(SymkModel.timeUs(Algorithm.SYM_AG_STMC, 8, 8 * KIB, 1, 90)).isCloseTo(8.20, org.assertj.core.data.Offset.offset(0.01));
        // the multicast LL kernel's 1.1 makes it a little faster per block than the unicast one at equal bytes
        assertThat(SymkModel.timeUs(Algorithm.SYM_AG_LLMC, 8, 8 * KIB, 4, 90))
                .isLessThan(SymkModel.timeUs(Algorithm.SYM_AG_LL, 8, 8 * KIB, 4, 90));
        assertThat(SymkModel.timeUs(Algorithm.SYM_RS_LL, 8, 8 * KIB, 8, 90))
                .isEqualTo(SymkModel.timeUs(Algorithm.SYM_AG_LL, 8, 8 * KIB, 8, 90));
        SymkModel.Choice c = runner("hgx-h100", Map.of()).symmetricChoice(CollectiveOp.ALL_GATHER, 8 * 8 * KIB,
                DataType.FLOAT32, ReduceOp.SUM).choice().orElseThrow();
        assertThat(c.blocks()).isEqualTo(7);
        assertThat(c.timeUs()).isCloseTo(5.70, org.assertj.core.data.Offset.offset(0.01));
    }

    /**
     * Blackwell's constants (sm100: baseLat LL 8.5 all-gather / 11, else 19.5 all-reduce / 13 µs; smBw 55 GiB/s; peak
     * 1000 for RSxLDMC_AGxSTMC, 600 else; multimem blocks at most ⌈32 / n⌉):
     * <pre>
     * AllGather_STMC, 72 ranks, 1 MiB per rank, 1 block: bw = softmin(55 · 0.55 · 72 = 2178, 600, 55) = 600 GiB/s
     *   = 644,245 B/µs; busBytes 71 MiB = 74,448,896 B: 13 + softplus(115.56 − 1) = 127.56 µs
     *   (sm90: softmin(1742, 320, 44) = 320 GiB/s, 7.8 + 215.67 = 223.47 µs)
     * AllReduce_RSxLDMC_AGxSTMC, 72 ranks, 1 GiB: busBytes 2^30 · 73/72; softmin(3960, 1000, 55) = 1000 GiB/s:
     *   19.5 + 1012.89 = 1032.39 µs
     * at 4 KiB: RSxLDMC_AGxSTMC 1 block 19.81 µs, cost 20.31; AGxLLMC_R (busBytes 72 · 9 · 4 KiB) 10 blocks 14.41 µs,
     *   cost 18.01 → AGxLLMC_R; at 8 KiB AGxLLMC_R needs 11 blocks for 18.45 µs, cost 23.52 → RSxLDMC_AGxSTMC (20.31)
     * 8 × B200, large all-gather: STMC at most ⌈32/8⌉ = 4 blocks (softmin(968, 600) = 599.9 GiB/s); 3 blocks give
     *   594.7, within 2.5 %; 2 blocks 477.7 → 3 blocks (sm90's formula would allow 2)
     * </pre>
     */
    @Test
    void blackwellConstantsAndSeventyTwoRanks() {
        org.assertj.core.data.Offset<Double> cent = org.assertj.core.data.Offset.offset(0.01);
        assertThat(SymkModel.timeUs(Algorithm.SYM_AG_STMC, 72, 1L << 20, 1, 100)).isCloseTo(127.56, cent);
        assertThat(SymkModel.timeUs(Algorithm.SYM_AG_STMC, 72, 1L << 20, 1, 90)).isCloseTo(223.47, cent);
        assertThat(SymkModel.timeUs(Algorithm.SYM_AR_MULTIMEM, 72, 1L << 30, 1, 100)).isCloseTo(1032.39, cent);
        PerfRunner nvl72 = new PerfRunner(TopologyCatalog.build("gb200-nvl72", BuildOptions.of(0, 1)), 72,
                CalibrationProfile.builtin("b200"), NcclEnv.parse(Map.of()), 0, SymkModel.parse(Map.of()));
        SymkModel.Choice small = nvl72.symmetricChoice(CollectiveOp.ALL_REDUCE, 4 * KIB, DataType.FLOAT32, ReduceOp.SUM)
                .choice().orElseThrow();
        assertThat(small.kernel()).isEqualTo(Algorithm.SYM_AR_ONE_SHOT_MC);
        assertThat(small.blocks()).isEqualTo(10);
        assertThat(pick(nvl72, CollectiveOp.ALL_REDUCE, 8 * KIB)).isEqualTo(Algorithm.SYM_AR_MULTIMEM);
        SymkModel.Choice ag = nvl72.symmetricChoice(CollectiveOp.ALL_GATHER, 72L << 20, DataType.FLOAT32, ReduceOp.SUM)
                .choice().orElseThrow();
        assertThat(ag.kernel()).isEqualTo(Algorithm.SYM_AG_STMC);
        assertThat(ag.timeUs()).isCloseTo(127.56, cent);
        // sm100 would let the switch reduce fp8; ccsim's planner does not, so the choice says what it left out
        SymkModel.Choice fp8 = nvl72.symmetricChoice(CollectiveOp.REDUCE_SCATTER, 72L << 20, DataType.FP8_E4M3,
                ReduceOp.SUM).choice().orElseThrow();
        assertThat(fp8.kernel()).isNotEqualTo(Algorithm.SYM_RS_LDMC);
        assertThat(fp8.note()).contains("fp8 multimem load-reduce");
        assertThat(ag.note()).isEmpty();
        PerfRunner b200 = new PerfRunner(TopologyCatalog.build("hgx-b200", BuildOptions.of(0, 1)), 8,
                CalibrationProfile.builtin("b200"), NcclEnv.parse(Map.of()), 0, SymkModel.parse(Map.of()));
        assertThat(b200.symmetricChoice(CollectiveOp.ALL_GATHER, 1L << 30, DataType.FLOAT32, ReduceOp.SUM).choice()
                .orElseThrow().blocks()).isEqualTo(3);
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
