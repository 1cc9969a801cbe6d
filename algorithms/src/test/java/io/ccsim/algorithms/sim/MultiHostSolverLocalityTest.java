package io.ccsim.algorithms.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.perf.PerfRow;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a multi-host ring costs to simulate depends on how many flows the flow network must solve together. A GPU's
 * NVLink direction is shared by the ring channels that leave (or enter) it there, so a component holds at most one
 * flow per simulated channel. When the NVLink duplex efficiency was a joint constraint over both directions, the
 * bursts of a bandwidth-bound ring tied every GPU's send and receive flows together: a host's whole ring (56 flows
 * on 4 × HGX H100) was solved as one, about a million times in a 512-GPU run, which doubled its wall time. This test
 * holds the component size to the channels (the joint model gave 56 here, with the same simulated times).
 */
class MultiHostSolverLocalityTest {
    @Test
    void aRingAcrossHostsIsSolvedOneGpuDirectionAtATime() {
        CalibrationProfile p = CalibrationProfile.builtin("h100");
        NcclEnv env = NcclEnv.parse(Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple"));
        Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(8, 4));
        PerfRunner r = new PerfRunner(t, 32, p, env, 1);
        r.setFolding(SimExecution.Folding.CHANNELS); // every rank simulated: the components of the whole ring
        PerfRow row = r.run(CollectiveOp.ALL_REDUCE, 64L << 20, DataType.FLOAT32, ReduceOp.SUM, 0);
        assertThat(row.channels()).isEqualTo(16);
        // 16 channels, folded in pairs: 8 simulated channels, one of which leaves each GPU through its NIC
        assertThat(r.lastMaxComponentFlows()).as("largest component, flows").isBetween(2, 8);
        assertThat(r.lastFlows()).isEqualTo(31744);
        // bandwidth-bound (the regime where the joint constraint bound): NCCL's model gives ~590 us, see MultiHostLatencyTest
        assertThat(row.timeUs()).isBetween(500.0, 700.0);
    }
}
