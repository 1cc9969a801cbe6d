package io.ccsim.algorithms.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.plan.CollectiveCall;
import io.ccsim.algorithms.plan.CommLayout;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.PlanOptions;
import io.ccsim.algorithms.plan.Planners;
import io.ccsim.algorithms.plan.Primitive;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.CtaCosts;
import io.ccsim.algorithms.profile.LinkClass;
import io.ccsim.algorithms.profile.SimCosts;
import io.ccsim.algorithms.profile.SimProtocolCosts;
import io.ccsim.sim.Time;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a step costs, resolved from the profile, and the forwarding unit's arithmetic. */
class StepCostsTest {
    private static final CalibrationProfile H200 = CalibrationProfile.builtin("h200");

    private static Plan plan(CollectiveOp op, Algorithm a, Protocol p, int channels) {
        CollectiveCall call = new CollectiveCall(op, 1 << 20, DataType.FLOAT32, ReduceOp.SUM, 0, CommLayout.singleHost(4));
        return Planners.standard().plan(call, PlanOptions.of(a, p, channels));
    }

    /** Costs of the per-channel limit model: 10 GB/s per channel, 4 GB/s reduction (data), 20 GB/s copy, unit 1000 B. */
    private static StepCosts limits(Protocol p, List<Double> laneShares) {
        SimProtocolCosts pc = H200.sim().get(SimCosts.Family.TREE, p).withLaneShares(laneShares);
        return new StepCosts(p, Algorithm.TREE, SimCosts.Family.TREE, pc, 0, 0, 700, 300, 10e9,
                Math.min(10e9, 4e9 / p.dataEfficiency()), 20e9, 1000, null, 1.0, 1.0);
    }

    @Test
    void theFamilysCostsOfTheProtocolInPicosecondsAndBytesPerSecond() {
        // a ring broadcast is charged the chain family
        Plan plan = plan(CollectiveOp.BROADCAST, Algorithm.RING, Protocol.LL, 4);
        StepCosts c = StepCosts.of(H200, plan);
        SimProtocolCosts pc = H200.sim().get(SimCosts.Family.CHAIN, Protocol.LL);
        assertThat(c.family()).isEqualTo(SimCosts.Family.CHAIN);
        assertThat(c.familyCosts()).isEqualTo(pc);
        assertThat(c.launchPs()).isEqualTo(Time.us(pc.launchLatencyUs()));
        assertThat(c.stepOverheadPs()).isEqualTo(Time.ns(pc.stepOverheadNs()));
        assertThat(c.recvStepOverheadPs()).isEqualTo(Time.ns(pc.recvOnlyStepOverheadNs()));
        assertThat(c.channelCapBps()).isEqualTo(pc.maxChannelBwGbps() * 1e9);
        // the reduction throughput is in data bytes, the limits in wire bytes (LL: 2 wire bytes per data byte)
        assertThat(c.reduceCapBps()).isEqualTo(Math.min(c.channelCapBps(), H200.reduceBwGbps() * 1e9 / 0.5));
        assertThat(c.copyBps()).isEqualTo(H200.copyBwGbps() * 1e9);
        assertThat(c.pipelineBytes()).isEqualTo(pc.pipelineBytes());
        assertThat(c.hopLatencyPs(LinkClass.NVLINK)).isEqualTo(Time.us(pc.hopLatencyUs(LinkClass.NVLINK)));
        // the built-in H200 profile has cta costs for LL (factors for 4 channels and the call's input plus output
        // buffers), none for Simple, and no channel skew
        CtaCosts cta = H200.sim().ctaOf(Protocol.LL);
        assertThat(c.cta()).isEqualTo(cta);
        assertThat(c.loadFactor()).isEqualTo(cta.loadFactor(4));
        assertThat(c.bufferFactor()).isEqualTo(cta.bufferFactor((plan.call().inputCount() + plan.call().outputCount()) * 4L));
        StepCosts simple = StepCosts.of(H200, plan(CollectiveOp.BROADCAST, Algorithm.RING, Protocol.SIMPLE, 4));
        assertThat(simple.cta()).isNull();
        assertThat(simple.loadFactor()).isEqualTo(1.0);
        assertThat(simple.bufferFactor()).isEqualTo(1.0);
        assertThat(c.skewPhases()).isEqualTo(1);
        assertThat(StepCosts.of(H200.withSim(H200.sim().withChannelSkew(20)), plan(CollectiveOp.ALL_REDUCE, Algorithm.RING, Protocol.LL, 4))
                .skewPhases()).isEqualTo(SimCosts.SKEW_PHASES);
    }

    @Test
    void aStepMovesAsCeilOfBytesOverTheUnitSubTransfersTheLastTakingTheRest() {
        StepCosts c = limits(Protocol.SIMPLE, List.of());
        assertThat(c.units(0)).isEqualTo(1);
        assertThat(c.units(1000)).isEqualTo(1);
        assertThat(c.units(1001)).isEqualTo(2);
        assertThat(c.units(2500)).isEqualTo(3);
        assertThat(c.subTransferBytes(2500, 3, 0)).isEqualTo(1000);
        assertThat(c.subTransferBytes(2500, 3, 1)).isEqualTo(1000);
        assertThat(c.subTransferBytes(2500, 3, 2)).isEqualTo(500);
        assertThat(c.subTransferBytes(700, 1, 0)).isEqualTo(700);
    }

    @Test
    void aStepThatSendsNothingPaysItsOwnOverhead() {
        StepCosts c = limits(Protocol.SIMPLE, List.of());
        assertThat(c.overheadPs(true)).isEqualTo(700);
        assertThat(c.overheadPs(false)).isEqualTo(300);
    }

    @Test
    void perChannelLimitsCapSendsAndTimeLocalWork() {
        StepCosts c = limits(Protocol.LL, List.of());
        assertThat(c.sendRateCap(Primitive.COPY_SEND, 0, 1.0)).isEqualTo(10e9);
        assertThat(c.sendRateCap(Primitive.RECV_REDUCE_SEND, 0, 0.5)).isEqualTo(8e9 * 0.5);
        // 1 MB copied at 20 GB/s: 50 µs; reduced at 4 GB/s of data: 250 µs
        // (rounded up to whole ps)
        assertThat(c.localTimePs(Primitive.RECV, 1_000_000, 0, 1.0)).isBetween(50_000_000L, 50_000_001L);
        assertThat(c.localTimePs(Primitive.RECV_REDUCE_COPY, 1_000_000, 0, 1.0)).isBetween(250_000_000L, 250_000_001L);
        assertThat(c.localTimePs(Primitive.RECV, 1_000_000, 0, 0.5)).as("half the block").isBetween(100_000_000L, 100_000_001L);
        assertThat(c.localTimePs(Primitive.RECV, 0, 0, 1.0)).isZero();
    }

    @Test
    void theCtaModelTimesStepsByTheStreamsTheyTouch() {
        CtaCosts cta = new CtaCosts(300, 200, 100, 400, 50);
        CalibrationProfile p = H200.withSim(H200.sim().withCta(Protocol.SIMPLE, cta));
        StepCosts c = StepCosts.of(p, plan(CollectiveOp.ALL_REDUCE, Algorithm.RING, Protocol.SIMPLE, 4));
        double ps = c.psPerByte(Primitive.RECV_REDUCE_SEND, 1, 1);
        assertThat(ps).isEqualTo(cta.psPerByte(1, true, false, 1, true, c.bufferFactor()) * c.loadFactor());
        assertThat(c.sendRateCap(Primitive.RECV_REDUCE_SEND, ps, 0.5)).isEqualTo(Math.min(c.channelCapBps(), 1e12 / ps) * 0.5);
        assertThat(c.localTimePs(Primitive.RECV, 1000, ps, 0.5)).isEqualTo((long) Math.ceil(1000 * ps / 0.5));
    }

    @Test
    void laneSharesMustCoverThePlansLanes() {
        StepCosts none = limits(Protocol.LL, List.of());
        assertThat(none.hasLaneShares()).isFalse();
        StepCosts two = limits(Protocol.LL, List.of(0.7, 0.3));
        assertThat(two.hasLaneShares()).isTrue();
        assertThat(two.laneShare(1, 2)).isEqualTo(0.3);
        assertThatThrownBy(() -> two.laneShare(0, 3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sim.tree.LL.lane_shares lists 2 lanes, but the Tree plan has 3");
    }
}
