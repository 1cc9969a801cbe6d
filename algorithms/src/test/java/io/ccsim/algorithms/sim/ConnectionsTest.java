package io.ccsim.algorithms.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.algorithms.Protocol;
import org.junit.jupiter.api.Test;

/** Slots and credits of connections: arrivals and credit returns land one hop latency after they are sent. */
class ConnectionsTest {
    private static final long HOP = 1_000;

    /** Connections 0 = (ch 0, 0 -> 1) and 1 = (ch 0, 1 -> 0), hop latency {@link #HOP} ps, no path. */
    private static Connections two() {
        ConnIndex index = new ConnIndex();
        index.add(0, 0, 1);
        index.add(0, 1, 0);
        Connections c = new Connections(index);
        c.setRoute(0, null, HOP);
        c.setRoute(1, null, HOP);
        return c;
    }

    @Test
    void connectionsKnowTheirEndsAndStartWithoutWorkers() {
        Connections c = two();
        assertThat(c.count()).isEqualTo(2);
        assertThat(c.find(0, 1, 0)).isEqualTo(1);
        assertThat(c.is(0, 0, 0, 1)).isTrue();
        assertThat(c.is(1, 0, 0, 1)).isFalse();
        assertThat(c.from(1)).isEqualTo(1);
        assertThat(c.to(1)).isEqualTo(0);
        assertThat(c.channel(1)).isZero();
        assertThat(c.sender(0)).isEqualTo(-1);
        assertThat(c.receiver(0)).isEqualTo(-1);
        c.setSender(0, 4);
        c.setReceiver(0, 7);
        assertThat(c.sender(0)).isEqualTo(4);
        assertThat(c.receiver(0)).isEqualTo(7);
    }

    @Test
    void dataLandsOneHopAfterItsFlowEnds() {
        Connections c = two();
        assertThat(c.recvReadyAt(0, true, 2, 0)).as("nothing sent").isEqualTo(Connections.NO_WAKE);
        assertThat(c.eventuallyArrives(0, true, 2)).isFalse();
        c.arrive(0, 500, 2);
        assertThat(c.eventuallyArrives(0, true, 2)).isTrue();
        assertThat(c.recvReadyAt(0, true, 2, 600)).as("in flight: ready when it lands").isEqualTo(500 + HOP);
        assertThat(c.recvReadyAt(0, true, 2, 2_000)).as("landed").isEqualTo(2_000);
        // taking the slots consumes them: the next step needs new data
        c.take(0, 2);
        assertThat(c.recvReadyAt(0, true, 2, 2_000)).isEqualTo(Connections.NO_WAKE);
        // the other connection is untouched
        assertThat(c.eventuallyArrives(1, true, 1)).isFalse();
    }

    @Test
    void aStepNeedsAllItsSlotsTheLastArrivalCompletesIt() {
        Connections c = two();
        c.arrive(0, 0, 1);
        c.arrive(0, 300, 1);
        assertThat(c.recvReadyAt(0, true, 2, 0)).isEqualTo(300 + HOP);
        assertThat(c.recvReadyAt(0, true, 3, 0)).isEqualTo(Connections.NO_WAKE);
    }

    @Test
    void subTransfersCountInUnitsBeyondTheFinishedSteps() {
        Connections c = two();
        // sub-transfers 0 and 1 of a 3-unit step: the slots come with the last one only
        c.arrive(0, 0, 0);
        c.arrive(0, 100, 0);
        assertThat(c.recvReadyAt(0, false, 1, 0)).isEqualTo(HOP);
        assertThat(c.recvReadyAt(0, false, 2, 0)).isEqualTo(100 + HOP);
        assertThat(c.recvReadyAt(0, false, 3, 0)).isEqualTo(Connections.NO_WAKE);
        c.arrive(0, 200, 2);
        assertThat(c.recvReadyAt(0, true, 2, 5_000)).as("the whole step's slots").isEqualTo(5_000);
        // once the receiver's 3-unit step ends, the next step's sub-transfer 0 needs a fourth unit
        c.take(0, 2);
        c.consume(0, 3, 2, 5_000);
        assertThat(c.recvReadyAt(0, false, 1, 5_000)).isEqualTo(Connections.NO_WAKE);
    }

    @Test
    void creditsComeBackOneHopAfterTheReceiversStepEnds() {
        Connections c = two();
        assertThat(c.creditReadyAt(0, Protocol.NCCL_STEPS, 0)).as("every slot free at first").isZero();
        c.reserve(0, 6);
        assertThat(c.creditReadyAt(0, 2, 0)).isZero();
        assertThat(c.creditReadyAt(0, 3, 0)).isEqualTo(Connections.NO_WAKE);
        assertThat(c.eventuallyFree(0, 3)).isFalse();
        c.consume(0, 1, 2, 400);
        assertThat(c.eventuallyFree(0, 3)).isTrue();
        assertThat(c.creditReadyAt(0, 3, 0)).isEqualTo(400 + HOP);
        assertThat(c.creditReadyAt(0, 4, 10_000)).isEqualTo(10_000);
        assertThat(c.creditReadyAt(0, 5, 10_000)).isEqualTo(Connections.NO_WAKE);
    }
}
