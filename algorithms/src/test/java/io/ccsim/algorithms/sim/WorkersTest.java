package io.ccsim.algorithms.sim;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The packed worker state: ids, the step fields, the connection slots, the flags. */
class WorkersTest {

    @Test
    void idsAreRankMajorThenChannelThenLane() {
        Workers ws = new Workers(3, 4, 2, 3);
        assertThat(ws.count()).isEqualTo(3 * 4 * 2);
        int w = 0;
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 4; c++) {
                for (int l = 0; l < 2; l++, w++) {
                    assertThat(ws.id(r, c, l)).isEqualTo(w);
                    assertThat(ws.rank(w)).isEqualTo(r);
                    assertThat(ws.channel(w)).isEqualTo(c);
                    assertThat(ws.lane(w)).isEqualTo(l);
                }
            }
        }
    }

    @Test
    void aNewWorkerHasNoStepsNoFlagsTheWholeBlockAndNoConnections() {
        Workers ws = new Workers(2, 2, 1, 3);
        for (int w = 0; w < ws.count(); w++) {
            assertThat(ws.stepCount(w)).isZero();
            assertThat(ws.hasStepsLeft(w)).isFalse();
            assertThat(ws.flags(w)).isZero();
            assertThat(ws.laneShare(w)).isEqualTo(1.0);
            for (int i = 0; i < 3; i++) {
                assertThat(ws.recvConn(w, i)).isEqualTo(-1);
                assertThat(ws.sendConn(w, i)).isEqualTo(-1);
            }
            assertThat(ws.firstPeer(w, true)).isEqualTo(-1);
            assertThat(ws.firstPeer(w, false)).isEqualTo(-1);
        }
    }

    @Test
    void aLoadedStepKeepsItsFieldsAndBytesBeyond32Bits() {
        Workers ws = new Workers(1, 2, 1, 3);
        long bytes = (5L << 32) + 0xF000_0001L; // the low word has its sign bit set
        ws.loadStep(1, 4, 2, bytes, 7, 3, 1);
        assertThat(ws.primitive(1)).isEqualTo(4);
        assertThat(ws.slots(1)).isEqualTo(2);
        assertThat(ws.bytes(1)).isEqualTo(bytes);
        assertThat(ws.units(1)).isEqualTo(7);
        assertThat(ws.sub(1)).isZero();
        assertThat(ws.nRecv(1)).isEqualTo(3);
        assertThat(ws.nSend(1)).isEqualTo(1);
        // the other worker is untouched
        assertThat(ws.bytes(0)).isZero();
        assertThat(ws.units(0)).isZero();
    }

    @Test
    void subTransfersStepsAndFlowsCountDown() {
        Workers ws = new Workers(1, 1, 1, 3);
        ws.setStepCount(0, 2);
        ws.loadStep(0, 0, 1, 100, 2, 0, 1);
        assertThat(ws.advanceSub(0)).as("sub-transfer 1 of 2 left").isTrue();
        assertThat(ws.advanceSub(0)).isFalse();
        ws.setPending(0, 2);
        assertThat(ws.flowEnded(0)).isFalse();
        assertThat(ws.flowEnded(0)).isTrue();
        assertThat(ws.hasStepsLeft(0)).isTrue();
        assertThat(ws.advanceStep(0)).isFalse();
        assertThat(ws.stepIndex(0)).isEqualTo(1);
        assertThat(ws.advanceStep(0)).as("the last step").isTrue();
        assertThat(ws.hasStepsLeft(0)).isFalse();
        // loading the next step restarts its sub-transfers
        ws.loadStep(0, 0, 1, 100, 2, 0, 1);
        assertThat(ws.sub(0)).isZero();
    }

    @Test
    void theFirstConnectionKeepsItsPeerTheOthersDoNot() {
        Workers ws = new Workers(1, 1, 1, 3);
        ws.setConn(0, 0, true, 11, 3);
        ws.setConn(0, 2, true, 12, 4);
        ws.setConn(0, 0, false, 21, 5);
        ws.setConn(0, 1, false, 22, 6);
        assertThat(ws.recvConn(0, 0)).isEqualTo(11);
        assertThat(ws.conn(0, 0, true)).isEqualTo(11);
        assertThat(ws.recvConn(0, 2)).isEqualTo(12);
        assertThat(ws.recvConn(0, 1)).isEqualTo(-1);
        assertThat(ws.firstPeer(0, true)).isEqualTo(3);
        assertThat(ws.sendConn(0, 0)).isEqualTo(21);
        assertThat(ws.sendConn(0, 1)).isEqualTo(22);
        assertThat(ws.conn(0, 1, false)).isEqualTo(22);
        assertThat(ws.firstPeer(0, false)).isEqualTo(5);
    }

    @Test
    void workersOfManyPeersKeepEveryConnectionApartEachInItsOwnWideBlock() {
        int peers = 72; // a switch actor of an NVL72 rack
        Workers ws = new Workers(40, 1, 1, peers);
        for (int w = 0; w < 40; w++) {
            for (int i = 0; i < peers; i++) {
                assertThat(ws.recvConn(w, i)).isEqualTo(-1);
                assertThat(ws.sendConn(w, i)).isEqualTo(-1);
            }
        }
        // workers 3, 17 and 39 bind every peer (their blocks grow the wide arrays twice); the others bind two
        int[] wide = {39, 3, 17};
        for (int w : wide) {
            for (int i = 0; i < peers; i++) {
                ws.setConn(w, i, true, 1000 * w + i, i);
                ws.setConn(w, i, false, 1000 * w + 500 + i, i);
            }
        }
        for (int w = 0; w < 40; w++) {
            if (w == 3 || w == 17 || w == 39) continue;
            ws.setConn(w, 1, true, 7, 0);
            ws.setConn(w, 2, false, 8, 0);
        }
        for (int w = 0; w < 40; w++) {
            boolean all = w == 3 || w == 17 || w == 39;
            for (int i = 0; i < peers; i++) {
                int recv = all ? 1000 * w + i : i == 1 ? 7 : -1;
                int send = all ? 1000 * w + 500 + i : i == 2 ? 8 : -1;
                assertThat(ws.recvConn(w, i)).as("worker %d receive %d", w, i).isEqualTo(recv);
                assertThat(ws.sendConn(w, i)).as("worker %d send %d", w, i).isEqualTo(send);
            }
        }
    }

    @Test
    void flagsSetAndClearBitByBit() {
        Workers ws = new Workers(1, 1, 1, 3);
        ws.setFlag(0, Workers.F_STARTED);
        ws.setFlag(0, Workers.F_BUSY);
        assertThat(ws.flags(0)).isEqualTo(Workers.F_STARTED | Workers.F_BUSY);
        ws.clearFlag(0, Workers.F_BUSY);
        assertThat(ws.flags(0)).isEqualTo(Workers.F_STARTED);
        ws.setFlags(0, Workers.F_WAKE | Workers.F_OVERHEAD_PAID);
        assertThat(ws.flags(0)).isEqualTo(Workers.F_WAKE | Workers.F_OVERHEAD_PAID);
        ws.setLaneShare(0, 0.3);
        ws.setPsPerByte(0, 12.5);
        ws.setStepStartPs(0, 99);
        assertThat(ws.laneShare(0)).isEqualTo(0.3);
        assertThat(ws.psPerByte(0)).isEqualTo(12.5);
        assertThat(ws.stepStartPs(0)).isEqualTo(99);
    }
}
