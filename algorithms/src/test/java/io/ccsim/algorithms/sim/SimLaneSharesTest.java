package io.ccsim.algorithms.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.CtaCosts;
import io.ccsim.algorithms.profile.SimCosts;
import io.ccsim.algorithms.profile.SimProtocolCosts;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.TopologyCatalog;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Lanes sharing one thread block ({@code sim.<family>.<protocol>.lane_shares}): on a tree rank where both the
 * reduce-up lane (0) and the broadcast-down lane (1) have steps, lane l runs at share[l] of the block's rate, as
 * NCCL's runTreeSplit splits the threads. The profile is {@link SimCtaModelTest#profile}'s: zero latencies, a
 * forwarding unit larger than the step, thread-block stream costs far slower than NVLink, so a tree all-reduce
 * of one step per rank on one channel is the chain of its steps, each taking bytes × its streams' cost / share.
 */
class SimLaneSharesTest {
    static final double RECV = SimCtaModelTest.RECV, SRC = SimCtaModelTest.SRC, DST = SimCtaModelTest.DST,
            SEND = SimCtaModelTest.SEND, RED = SimCtaModelTest.RED;
    static final long BYTES = SimCtaModelTest.BYTES;

    static CalibrationProfile profile(List<Double> shares) {
        CalibrationProfile p = SimCtaModelTest.profile(new CtaCosts(RECV, SRC, DST, SEND, RED));
        SimCosts s = p.sim();
        SimProtocolCosts tree = s.get(SimCosts.Family.TREE, Protocol.SIMPLE).withLaneShares(shares);
        return p.withSim(s.with(SimCosts.Family.TREE, Protocol.SIMPLE, tree));
    }

    static double treeUs(CalibrationProfile p, int n) {
        PerfRunner r = new PerfRunner(TopologyCatalog.build("hgx-h200", BuildOptions.of(n, 1)), n, p, NcclEnv.empty(), 1);
        return r.simulate(CollectiveOp.ALL_REDUCE, BYTES / 4, DataType.FLOAT32, ReduceOp.SUM, 0, Algorithm.TREE, Protocol.SIMPLE, 1).timeUs();
    }

    static double us(double bytes, double nsPerKiB) { return SimCtaModelTest.us(bytes, nsPerKiB); }

    /**
     * The 4-rank chain 0 (root) - 1 - 2 - 3 (leaf): up, the leaf's send, two middle recvReduceSends, the root's
     * recvReduceCopySend (whole block: its broadcast lane has no steps); down, two middle recvCopySends and the
     * leaf's recv. Up steps on non-root ranks at share {@code up}, down steps at {@code down}.
     */
    static double fourRankChainUs(double up, double down) {
        return us(BYTES, SRC + SEND) / up                         // leaf 3: send
                + 2 * us(BYTES, RECV + SRC + SEND + RED) / up      // ranks 2, 1: recvReduceSend
                + us(BYTES, RECV + SRC + DST + SEND + RED)          // root 0: recvReduceCopySend
                + 2 * us(BYTES, RECV + DST + SEND) / down          // ranks 1, 2: recvCopySend
                + us(BYTES, RECV + DST) / down;                    // leaf 3: recv
    }

    @Test
    void withoutSharesEveryLaneHasTheWholeBlock() {
        assertThat(treeUs(profile(List.of()), 4)).isCloseTo(fourRankChainUs(1, 1), within(1e-3));
        assertThat(treeUs(profile(List.of(1.0, 1.0)), 4)).isCloseTo(fourRankChainUs(1, 1), within(1e-3));
    }

    @Test
    void aNonRootRanksLanesRunAtTheirShareOfTheBlock() {
        assertThat(treeUs(profile(List.of(0.7, 0.3)), 4)).isCloseTo(fourRankChainUs(0.7, 0.3), within(1e-3));
        // a middle rank's broadcast step (recvCopySend) at share 0.3 takes 1 / 0.3 of its whole-block time
        double rcs = us(BYTES, RECV + DST + SEND);
        assertThat(treeUs(profile(List.of(1.0, 0.3)), 4) - treeUs(profile(List.of()), 4))
                .isCloseTo(2 * rcs * (1 / 0.3 - 1) + us(BYTES, RECV + DST) * (1 / 0.3 - 1), within(1e-3));
    }

    @Test
    void twoRanksSplitOnlyTheLeaf() {
        // leaf 1: send (up) and recv (down) at their shares; root 0: recvReduceCopySend on the whole block
        double expect = us(BYTES, SRC + SEND) / 0.6 + us(BYTES, RECV + SRC + DST + SEND + RED) + us(BYTES, RECV + DST) / 0.4;
        assertThat(treeUs(profile(List.of(0.6, 0.4)), 2)).isCloseTo(expect, within(1e-3));
    }

    @Test
    void ringPlansHaveOneLaneAndIgnoreShares() {
        CalibrationProfile p = SimCtaModelTest.profile(new CtaCosts(RECV, SRC, DST, SEND, RED));
        SimCosts s = p.sim();
        CalibrationProfile shared = p.withSim(s.with(SimCosts.Family.RING, Protocol.SIMPLE,
                s.get(SimCosts.Family.RING, Protocol.SIMPLE).withLaneShares(List.of(0.5, 0.5))));
        assertThat(SimCtaModelTest.timeUs(shared, CollectiveOp.ALL_REDUCE, 4)).isEqualTo(SimCtaModelTest.timeUs(p, CollectiveOp.ALL_REDUCE, 4));
    }

    static double allToAllUs(List<Double> shares) {
        CalibrationProfile p = SimCtaModelTest.profile(new CtaCosts(RECV, SRC, DST, SEND, RED));
        SimCosts s = p.sim();
        CalibrationProfile q = p.withSim(s.with(SimCosts.Family.P2P, Protocol.SIMPLE,
                s.get(SimCosts.Family.P2P, Protocol.SIMPLE).withLaneShares(shares)));
        PerfRunner r = new PerfRunner(TopologyCatalog.build("hgx-h200", BuildOptions.of(2, 1)), 2, q, NcclEnv.empty(), 1);
        // the plan ccsim's own kernels run (every peer striped over the channel): its three lanes
        return r.simulateGraphReplay(CollectiveOp.ALL_TO_ALL, BYTES / 4, DataType.FLOAT32, ReduceOp.SUM, 0, Algorithm.P2P,
                Protocol.SIMPLE, 1).timeUs();
    }

    @Test
    void allToAllHasThreeLanesAndTakesThreeShares() {
        // all-to-all's lanes: send (0), receive (1), the own block's copy (2); all three busy on every rank
        double whole = allToAllUs(List.of());
        assertThat(allToAllUs(List.of(1.0, 1.0, 1.0))).isEqualTo(whole);
        // with the thread-block costs far slower than NVLink, halving the send and receive lanes' share halves their rate
        assertThat(allToAllUs(List.of(0.5, 0.5, 1.0))).isGreaterThan(1.5 * whole);
        assertThatThrownBy(() -> allToAllUs(List.of(0.5, 0.5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sim.p2p.Simple.lane_shares lists 2 lanes").hasMessageContaining("has 3");
    }
}
