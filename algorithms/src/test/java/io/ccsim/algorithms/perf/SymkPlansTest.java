package io.ccsim.algorithms.perf;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.SymmetricSupport;
import io.ccsim.algorithms.plan.UnsupportedAlgorithmException;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.algorithms.tuner.SymkModel;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * NCCL's symmetric-kernel choice ({@link SymkModel}) never names a kernel that ccsim's planner refuses: for every rank
 * count of the board (2..72 GPUs of a GB200 NVL72 domain, 2..8 of an HGX H100, H200 or B200), every nccl-tests size
 * 8 B..8 GiB (× 4), every type summed (max too, which only all-gather's kernels, having no reduction, take), NVLS on
 * and off, and each kernel forced by NCCL_SYM_KERNEL, the call {@code perf -R 2} would time plans as the kernel
 * chosen. Sizes below one element per rank are skipped, as nccl-tests skips them.
 */
class SymkPlansTest {
    private static final CollectiveOp[] OPS = {CollectiveOp.ALL_GATHER, CollectiveOp.REDUCE_SCATTER, CollectiveOp.ALL_REDUCE};

    @ParameterizedTest
    @CsvSource({"gb200-nvl72, b200, 72", "hgx-h100, h100, 8", "hgx-h200, h200, 8", "hgx-b200, b200, 8"})
    void everyPickedKernelPlans(String topology, String profile, int maxRanks) {
        Topology topo = TopologyCatalog.build(topology, BuildOptions.of(0, 1));
        CalibrationProfile prof = CalibrationProfile.builtin(profile);
        List<Map<String, String>> envs = new ArrayList<>();
        envs.add(Map.of());
        envs.add(Map.of("NCCL_NVLS_ENABLE", "0"));
        for (Algorithm k : Algorithm.values()) {
            if (k.isSymmetric() && !k.isTorchSymmMem()) envs.add(Map.of(SymkModel.NCCL_SYM_KERNEL, k.ncclName()));
        }
        Map<Algorithm, Integer> beyond32 = new LinkedHashMap<>();
        int planned = 0;
        for (int n = 2; n <= maxRanks; n++) {
            for (Map<String, String> env : envs) {
                PerfRunner r = new PerfRunner(topo, n, prof, NcclEnv.parse(env), 0, SymkModel.parse(env));
                for (CollectiveOp op : OPS) {
                    for (DataType dt : DataType.values()) {
                        for (ReduceOp red : new ReduceOp[] {ReduceOp.SUM, ReduceOp.MAX}) {
                            for (long bytes = 8; bytes <= (8L << 30); bytes *= 4) {
                                if (r.countFor(op, bytes, dt) == 0) continue;
                                long size = r.sizeFor(op, r.countFor(op, bytes, dt), dt);
                                var choice = r.symmetricChoice(op, size, dt, red).choice();
                                if (choice.isEmpty()) continue;
                                Algorithm k = choice.get().kernel();
                                String what = topology + " n=" + n + " " + env + " " + op.cliName() + " " + dt + " " + red
                                        + " " + bytes + " B: " + k.ncclName();
                                assertThat(SymmetricSupport.opOf(k)).as(what).isEqualTo(op);
                                Plan plan;
                                try {
                                    plan = r.plan(op, bytes, dt, red, 0);
                                } catch (UnsupportedAlgorithmException e) {
                                    throw new AssertionError(what + " is refused by the planner: " + e.getMessage(), e);
                                }
                                assertThat(plan.options().algorithm()).as(what).isEqualTo(k);
                                assertThat(plan.nChannels()).as(what).isEqualTo(choice.get().blocks());
                                planned++;
                                if (n > 32) beyond32.merge(k, 1, Integer::sum);
                            }
                        }
                    }
                }
            }
        }
        assertThat(planned).isPositive();
        if (maxRanks > 32) { // the multimem load/store kernels run beyond NVLS's 32 heads, each picked there
            assertThat(beyond32).containsKeys(Algorithm.SYM_AG_STMC, Algorithm.SYM_RS_LDMC, Algorithm.SYM_AR_MULTIMEM);
        }
    }
}
