package io.ccsim.algorithms.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.LinkClass;
import io.ccsim.algorithms.profile.SimCosts;
import io.ccsim.algorithms.profile.SimProtocolCosts;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.TopologyCatalog;
import org.junit.jupiter.api.Test;

/**
 * The forwarding unit ({@code sim.chain.P.pipeline_bytes}, a ring broadcast is charged the chain family): a ring broadcast forwards each step in sub-transfers,
 * so an extra hop costs about one sub-transfer, not one whole step (store-and-forward).
 */
class SimPipelineTest {
    static final long STEP_BYTES = 512L << 10;   // Simple: NCCL_BUFFSIZE 4 MiB / 8 slots, broadcast slice = 1 slot
    static final long NO_SPLIT = 1L << 40;

    static CalibrationProfile withPipeline(long pipelineBytes) {
        CalibrationProfile p = CalibrationProfile.builtin("h200");
        SimProtocolCosts s = p.sim().get(SimCosts.Family.CHAIN, Protocol.SIMPLE).withPipelineBytes(pipelineBytes);
        return p.withSim(p.sim().with(SimCosts.Family.CHAIN, Protocol.SIMPLE, s));
    }

    static double broadcastUs(CalibrationProfile p, int n, long bytes) {
        PerfRunner r = new PerfRunner(TopologyCatalog.build("hgx-h200", BuildOptions.of(n, 1)), n, p, NcclEnv.empty(), 1);
        return r.simulate(CollectiveOp.BROADCAST, bytes / 4, DataType.FLOAT32, ReduceOp.SUM, 0, Algorithm.RING, Protocol.SIMPLE, 1).timeUs();
    }

    @Test
    void extraHopsCostOneSubTransferNotOneStep() {
        long bytes = 16L << 20;
        long unit = 32L << 10;
        CalibrationProfile saf = withPipeline(NO_SPLIT);
        CalibrationProfile cut = withPipeline(unit);
        SimProtocolCosts c = cut.sim().get(SimCosts.Family.CHAIN, Protocol.SIMPLE);
        double capBps = c.maxChannelBwGbps() * 1e9;
        double hopUs = c.hopLatencyUs(LinkClass.NVLINK);
        double stepUs = STEP_BYTES / capBps * 1e6;
        double unitUs = unit / capBps * 1e6;
        double overheadUs = c.stepOverheadNs() / 1e3;

        double safExtra = broadcastUs(saf, 4, bytes) - broadcastUs(saf, 2, bytes);
        double cutExtra = broadcastUs(cut, 4, bytes) - broadcastUs(cut, 2, bytes);
        // store-and-forward: each of the 2 extra hops holds a whole step before forwarding it
        assertThat(safExtra).isGreaterThanOrEqualTo(2 * stepUs);
        // cut-through: each extra hop delays the pipeline by one sub-transfer, its latency and overhead
        assertThat(cutExtra).isLessThanOrEqualTo(2 * (unitUs + hopUs + overheadUs) + 0.01);
        assertThat(cutExtra).isGreaterThanOrEqualTo(2 * hopUs);
    }

    @Test
    void stepsNoLargerThanTheUnitAreNotSplit() {
        // 64 KiB on one channel: every step is ≤ 64 KiB ≤ the unit, so k = 1 and the time is unchanged
        long bytes = 64L << 10;
        assertThat(broadcastUs(withPipeline(bytes), 4, bytes)).isEqualTo(broadcastUs(withPipeline(NO_SPLIT), 4, bytes));
    }

    @Test
    void splittingKeepsTheResultDeterministic() {
        CalibrationProfile p = withPipeline(20_000); // does not divide the step: last sub-transfer is shorter
        double a = broadcastUs(p, 4, 8L << 20);
        assertThat(broadcastUs(p, 4, 8L << 20)).isEqualTo(a);
        // the bytes still all move: at least the data over the per-channel cap
        assertThat(a).isGreaterThan((8L << 20) / (p.sim().get(SimCosts.Family.CHAIN, Protocol.SIMPLE).maxChannelBwGbps() * 1e9) * 1e6);
    }
}
