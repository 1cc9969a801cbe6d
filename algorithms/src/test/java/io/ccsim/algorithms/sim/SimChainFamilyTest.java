package io.ccsim.algorithms.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.SimCosts;
import io.ccsim.algorithms.profile.SimProtocolCosts;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.TopologyCatalog;
import org.junit.jupiter.api.Test;

/** Ring broadcast and reduce are charged {@code sim.chain}; the other ring ops and the tree keep their own families. */
class SimChainFamilyTest {
    static final int N = 4;
    static final long BYTES = 4L << 10;
    static final double EXTRA_LAUNCH_US = 10.0;

    static double timeUs(CalibrationProfile p, CollectiveOp op, Algorithm algo) {
        PerfRunner r = new PerfRunner(TopologyCatalog.build("hgx-h200", BuildOptions.of(N, 1)), N, p, NcclEnv.empty(), 1);
        return r.simulate(op, BYTES / 4, DataType.FLOAT32, ReduceOp.SUM, 0, algo, Protocol.SIMPLE, 1).timeUs();
    }

    /** The built-in h200 profile with sim.chain.Simple's launch latency raised by {@link #EXTRA_LAUNCH_US}. */
    static CalibrationProfile slowerChain() {
        CalibrationProfile p = CalibrationProfile.builtin("h200");
        SimProtocolCosts c = p.sim().get(SimCosts.Family.CHAIN, Protocol.SIMPLE);
        return p.withSim(p.sim().with(SimCosts.Family.CHAIN, Protocol.SIMPLE,
                c.withLatencies(c.launchLatencyUs() + EXTRA_LAUNCH_US, c.hopLatencyUs())));
    }

    @Test
    void familyFollowsAlgorithmAndOp() {
        assertThat(SimCosts.Family.of(Algorithm.RING, CollectiveOp.BROADCAST)).isEqualTo(SimCosts.Family.CHAIN);
        assertThat(SimCosts.Family.of(Algorithm.RING, CollectiveOp.REDUCE)).isEqualTo(SimCosts.Family.CHAIN);
        assertThat(SimCosts.Family.of(Algorithm.RING, CollectiveOp.ALL_GATHER)).isEqualTo(SimCosts.Family.RING);
        assertThat(SimCosts.Family.of(Algorithm.RING, CollectiveOp.ALL_REDUCE)).isEqualTo(SimCosts.Family.RING);
        assertThat(SimCosts.Family.of(Algorithm.TREE, CollectiveOp.ALL_REDUCE)).isEqualTo(SimCosts.Family.TREE);
        assertThat(SimCosts.Family.of(Algorithm.P2P, CollectiveOp.SEND_RECV)).isEqualTo(SimCosts.Family.P2P);
    }

    @Test
    void broadcastAndReducePayTheChainsLaunchLatency() {
        CalibrationProfile base = CalibrationProfile.builtin("h200");
        CalibrationProfile slow = slowerChain();
        for (CollectiveOp op : new CollectiveOp[] {CollectiveOp.BROADCAST, CollectiveOp.REDUCE}) {
            // every rank starts EXTRA_LAUNCH_US later, so the whole call shifts by it
            assertThat(timeUs(slow, op, Algorithm.RING)).as(op.toString())
                    .isCloseTo(timeUs(base, op, Algorithm.RING) + EXTRA_LAUNCH_US, org.assertj.core.api.Assertions.within(1e-6));
        }
    }

    @Test
    void otherOpsIgnoreTheChain() {
        CalibrationProfile base = CalibrationProfile.builtin("h200");
        CalibrationProfile slow = slowerChain();
        for (CollectiveOp op : new CollectiveOp[] {CollectiveOp.ALL_GATHER, CollectiveOp.REDUCE_SCATTER, CollectiveOp.ALL_REDUCE}) {
            assertThat(timeUs(slow, op, Algorithm.RING)).as(op.toString()).isEqualTo(timeUs(base, op, Algorithm.RING));
        }
        assertThat(timeUs(slow, CollectiveOp.ALL_REDUCE, Algorithm.TREE)).isEqualTo(timeUs(base, CollectiveOp.ALL_REDUCE, Algorithm.TREE));
    }
}
