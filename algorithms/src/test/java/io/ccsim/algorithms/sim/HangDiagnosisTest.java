package io.ccsim.algorithms.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.algorithms.plan.Primitive;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * What an unfinished worker waits for, read from its state: rank 0 sends a 2-slot step to rank 1 on connection 0
 * (channel 0, 0 -> 1), rank 1 receives it.
 */
class HangDiagnosisTest {
    private final Connections conns = connections();
    private final Workers ws = new Workers(2, 1, 1, 3);
    private final int sender = ws.id(0, 0, 0);
    private final int receiver = ws.id(1, 0, 0);

    HangDiagnosisTest() {
        ws.setStepCount(sender, 1);
        ws.loadStep(sender, Primitive.SEND.ordinal(), 2, 1024, 1, 0, 1);
        ws.setConn(sender, 0, false, 0, 1);
        ws.setStepCount(receiver, 1);
        ws.loadStep(receiver, Primitive.RECV.ordinal(), 2, 1024, 1, 1, 0);
        ws.setConn(receiver, 0, true, 0, 0);
    }

    private static Connections connections() {
        ConnIndex index = new ConnIndex();
        index.add(0, 0, 1);
        return new Connections(index);
    }

    private List<String> blocked(boolean[] launched, long nowPs) {
        return HangDiagnosis.blocked(ws, conns, launched, nowPs).stream().map(Object::toString).collect(Collectors.toList());
    }

    @Test
    void aRankNeverLaunchedAndAChannelNotStartedYet() {
        assertThat(blocked(new boolean[] {true, false}, 0)).containsExactly(
                "rank 0 channel 0 step 0/1 SEND: kernel starting",
                "rank 1 channel 0 step 0/1 RECV: kernel never launched");
    }

    @Test
    void aReceiverWaitsForDataNotSentASenderWithFreeSlotsIsRunnable() {
        ws.setFlag(sender, Workers.F_STARTED);
        ws.setFlag(receiver, Workers.F_STARTED);
        assertThat(blocked(new boolean[] {true, true}, 0)).containsExactly(
                "rank 0 channel 0 step 0/1 SEND: runnable",
                "rank 1 channel 0 step 0/1 RECV: waiting for data from rank 0");
        List<SimExecution.Blocked> b = HangDiagnosis.blocked(ws, conns, new boolean[] {true, true}, 0);
        assertThat(b.get(1).waitingForRank()).isZero();
        assertThat(b.get(0).waitingForRank()).isEqualTo(-1);
        // once the data was sent (even still in flight), the receiver is runnable
        conns.arrive(0, 0, 2);
        assertThat(blocked(new boolean[] {true, true}, 0)).element(1).isEqualTo("rank 1 channel 0 step 0/1 RECV: runnable");
    }

    @Test
    void aSenderWaitsForSlotsThatAreNeverFreed() {
        ws.setFlag(sender, Workers.F_STARTED);
        conns.reserve(0, 7);
        assertThat(blocked(new boolean[] {true, false}, 0)).first()
                .isEqualTo("rank 0 channel 0 step 0/1 SEND: waiting for free slots at rank 1");
        // a credit in flight frees them
        conns.consume(0, 1, 2, 0);
        assertThat(blocked(new boolean[] {true, false}, 0)).first().isEqualTo("rank 0 channel 0 step 0/1 SEND: runnable");
    }

    @Test
    void laterSubTransfersDoNotWaitForSlots() {
        ws.setFlag(sender, Workers.F_STARTED);
        ws.loadStep(sender, Primitive.SEND.ordinal(), 2, 1024, 2, 0, 1);
        ws.advanceSub(sender);
        conns.reserve(0, 8);
        assertThat(blocked(new boolean[] {true, false}, 0)).first().isEqualTo("rank 0 channel 0 step 0/1 SEND: runnable");
    }

    @Test
    void aPendingWakeUpOrLatencyPhaseIsStartingABusyWorkerIsTransferring() {
        ws.setFlags(sender, Workers.F_STARTED | Workers.F_WAKE);
        assertThat(blocked(new boolean[] {true, false}, 0)).first().isEqualTo("rank 0 channel 0 step 0/1 SEND: starting its step");
        ws.setFlags(sender, Workers.F_STARTED | Workers.F_BUSY);
        ws.setStepStartPs(sender, 100);
        assertThat(blocked(new boolean[] {true, false}, 50)).first().isEqualTo("rank 0 channel 0 step 0/1 SEND: starting its step");
        assertThat(blocked(new boolean[] {true, false}, 100)).first()
                .isEqualTo("rank 0 channel 0 step 0/1 SEND: transfer in progress (stalled link?)");
    }

    @Test
    void finishedWorkersAndWorkersWithoutStepsAreLeftOut() {
        ws.advanceStep(sender);
        assertThat(blocked(new boolean[] {true, false}, 0)).containsExactly("rank 1 channel 0 step 0/1 RECV: kernel never launched");
        ws.setStepCount(receiver, 0);
        assertThat(blocked(new boolean[] {true, false}, 0)).isEmpty();
    }
}
