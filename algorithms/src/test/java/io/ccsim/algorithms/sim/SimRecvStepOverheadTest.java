package io.ccsim.algorithms.sim;

import static io.ccsim.algorithms.sim.SimCtaModelTest.BYTES;
import static io.ccsim.algorithms.sim.SimCtaModelTest.DST;
import static io.ccsim.algorithms.sim.SimCtaModelTest.RECV;
import static io.ccsim.algorithms.sim.SimCtaModelTest.RED;
import static io.ccsim.algorithms.sim.SimCtaModelTest.SEND;
import static io.ccsim.algorithms.sim.SimCtaModelTest.SRC;
import static io.ccsim.algorithms.sim.SimCtaModelTest.us;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.fit.FitParameter;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.CtaCosts;
import io.ccsim.algorithms.profile.ProfileException;
import io.ccsim.algorithms.profile.SimCosts;
import io.ccsim.algorithms.profile.SimProtocolCosts;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code recv_step_overhead_ns}: a step that sends nothing pays its own overhead instead of the step overhead (ccsim's
 * Simple kernel fences only before it publishes a send). Latencies are zeroed, one channel, one step per rank and
 * slice, so every time below is the steps' overheads plus their stream costs ({@link SimCtaModelTest}), written out.
 */
class SimRecvStepOverheadTest {
    static final double STEP_NS = 5000, RECV_NS = 300;

    static CalibrationProfile profile(double stepNs, double recvNs) {
        CalibrationProfile p = SimCtaModelTest.profile(new CtaCosts(RECV, SRC, DST, SEND, RED));
        SimCosts s = p.sim();
        for (SimCosts.Family f : SimCosts.Family.values()) {
            s = s.with(f, Protocol.SIMPLE, s.get(f, Protocol.SIMPLE).withStepOverheadNs(stepNs).withRecvStepOverheadNs(recvNs));
        }
        return p.withSim(s);
    }

    @Test
    void aReceiveOnlyStepPaysItsOwnOverhead() {
        // broadcast of 2 ranks: the root's COPY_SEND, then rank 1's RECV, one after the other
        double streams = us(BYTES, SRC + DST + SEND) + us(BYTES, RECV + DST);
        double unset = SimCtaModelTest.timeUs(profile(STEP_NS, SimProtocolCosts.SAME_AS_STEP), CollectiveOp.BROADCAST, 2);
        assertThat(unset).isCloseTo(2 * STEP_NS / 1000 + streams, within(1e-3));
        double own = SimCtaModelTest.timeUs(profile(STEP_NS, RECV_NS), CollectiveOp.BROADCAST, 2);
        assertThat(own).isCloseTo((STEP_NS + RECV_NS) / 1000 + streams, within(1e-3));
        double free = SimCtaModelTest.timeUs(profile(STEP_NS, 0), CollectiveOp.BROADCAST, 2);
        assertThat(free).isCloseTo(STEP_NS / 1000 + streams, within(1e-3));
    }

    @Test
    void aChainPaysTheStepOverheadPerSendingStepAndTheOtherPerReceiveOnlyStep() {
        // broadcast of 4 ranks (ring family "chain", one step per rank): COPY_SEND, RECV_COPY_SEND twice, then RECV,
        // each waiting for the one before it: three sending steps and one receive-only step in a row
        double bcast = us(BYTES, SRC + DST + SEND) + 2 * us(BYTES, RECV + DST + SEND) + us(BYTES, RECV + DST);
        assertThat(SimCtaModelTest.timeUs(profile(STEP_NS, RECV_NS), CollectiveOp.BROADCAST, 4))
                .isCloseTo((3 * STEP_NS + RECV_NS) / 1000 + bcast, within(1e-3));
        // reduce of 4 ranks: SEND, RECV_REDUCE_SEND twice, then the root's RECV_REDUCE_COPY, which sends nothing either
        double reduce = us(BYTES, SRC + SEND) + 2 * us(BYTES, RECV + SRC + SEND + RED) + us(BYTES, RECV + SRC + DST + RED);
        assertThat(SimCtaModelTest.timeUs(profile(STEP_NS, RECV_NS), CollectiveOp.REDUCE, 4))
                .isCloseTo((3 * STEP_NS + RECV_NS) / 1000 + reduce, within(1e-3));
    }

    @Test
    void theJsonKeyIsOptionalAndRoundTrips() throws Exception {
        CalibrationProfile base = CalibrationProfile.builtin("h200");
        assertThat(base.sim().get(SimCosts.Family.RING, Protocol.SIMPLE).hasRecvStepOverhead()).isFalse();
        assertThat(base.toJson()).doesNotContain("recv_step_overhead_ns");
        SimProtocolCosts ring = base.sim().get(SimCosts.Family.RING, Protocol.SIMPLE);
        assertThat(ring.recvOnlyStepOverheadNs()).isEqualTo(ring.stepOverheadNs());

        CalibrationProfile set = base.withSim(base.sim().with(SimCosts.Family.RING, Protocol.SIMPLE, ring.withRecvStepOverheadNs(12.5)));
        String json = set.toJson();
        assertThat(json).containsOnlyOnce("\"recv_step_overhead_ns\"");
        CalibrationProfile back = CalibrationProfile.parse(json, "test.json");
        assertThat(back.sim().get(SimCosts.Family.RING, Protocol.SIMPLE).recvOnlyStepOverheadNs()).isEqualTo(12.5);
        assertThat(back.sim().get(SimCosts.Family.TREE, Protocol.SIMPLE).hasRecvStepOverhead()).isFalse();

        String negative = json.replaceFirst("\"recv_step_overhead_ns\": 12.5", "\"recv_step_overhead_ns\": -1");
        assertThat(negative).isNotEqualTo(json);
        assertThatThrownBy(() -> CalibrationProfile.parse(negative, "bad.json")).isInstanceOf(ProfileException.class)
                .hasMessageContaining("$.sim.ring.Simple.recv_step_overhead_ns");
        assertThatThrownBy(() -> ring.withRecvStepOverheadNs(Double.POSITIVE_INFINITY)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("recvStepOverheadNs");
    }

    @Test
    void aFitMovesItOnlyWhereTheProfileSetsIt() {
        List<String> without = FitParameter.sim(SimCosts.Family.RING, Protocol.SIMPLE, 4096, false, false).stream().map(FitParameter::name).toList();
        assertThat(without).doesNotContain("sim.ring.Simple.recv_step_overhead_ns");
        List<FitParameter> with = FitParameter.sim(SimCosts.Family.RING, Protocol.SIMPLE, 4096, false, true);
        FitParameter p = with.stream().filter(f -> f.name().equals("sim.ring.Simple.recv_step_overhead_ns")).findFirst().orElseThrow();
        CalibrationProfile base = profile(STEP_NS, RECV_NS);
        assertThat(p.get().applyAsDouble(base)).isEqualTo(RECV_NS);
        CalibrationProfile moved = p.set().apply(base, 40);
        assertThat(moved.sim().get(SimCosts.Family.RING, Protocol.SIMPLE).recvOnlyStepOverheadNs()).isEqualTo(40);
        assertThat(moved.sim().get(SimCosts.Family.RING, Protocol.SIMPLE).stepOverheadNs()).isEqualTo(STEP_NS);
    }
}
