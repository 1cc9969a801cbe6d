package io.ccsim.gpu.kernel;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.plan.P2pSettings;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.Planners;
import io.ccsim.gpu.exec.DevicePlans;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The kernels' step encoding, checked without a GPU for every op, algorithm and protocol. */
class DeviceProgramTest {

    @Test
    void everyConnectionSendsAsManySlotsAndBytesAsItsReceiverConsumes() {
        for (int n : new int[] {2, 4, 8}) {
            for (CollectiveOp op : CollectiveOp.values()) {
                for (Algorithm a : Planners.standard().supportedOnKernels(op)) {
                    for (Protocol p : Protocol.values()) {
                        Plan plan = DevicePlans.forCount(op, 5_003, DataType.FLOAT16, ReduceOp.AVG, n - 1, a, p, 3, n, true);
                        DeviceProgram prog = assertConserved(plan);
                        assertThat(prog.slotWireBytes()).isEqualTo(DevicePlans.smallBuffer(p) / 8);
                    }
                }
            }
        }
    }

    @Test
    void allToAllPlacedAsNcclPlacesItEncodesEveryPeersOperationOnItsOwnChannels() {
        for (int n : new int[] {2, 4, 8}) {
            for (Protocol p : new Protocol[] {Protocol.LL, Protocol.SIMPLE}) {
                for (P2pSettings s : new P2pSettings[] {new P2pSettings(32, 512 << 10), new P2pSettings(2, 128 << 10)}) {
                    for (long bytes : new long[] {4096L * n, 3L << 20, 64L << 20}) {
                        Plan placed = DevicePlans.forSize(CollectiveOp.ALL_TO_ALL, bytes, DataType.FLOAT32, ReduceOp.SUM, 0,
                                Algorithm.P2P, p, 32, n, s);
                        Plan striped = DevicePlans.forSize(CollectiveOp.ALL_TO_ALL, bytes, DataType.FLOAT32, ReduceOp.SUM, 0,
                                Algorithm.P2P, p, 32, n);
                        assertThat(placed.options().p2p()).isEqualTo(s);
                        assertThat(striped.options().p2p()).isNull();
                        // one host: one operation a batch, a send lane and a receive lane; striped: send, receive, copy
                        assertThat(placed.nLanes()).as(placed.toString()).isEqualTo(2);
                        assertThat(striped.nLanes()).isEqualTo(3);
                        DeviceProgram prog = assertConserved(placed);
                        // each peer's operation on its own channels: a channel connects a rank to fewer peers than striped
                        assertThat(prog.connections().size()).as(placed.toString())
                                .isLessThan(DeviceProgram.fromPlan(striped).connections().size());
                    }
                }
            }
        }
    }

    /** Every connection of {@code plan}'s program sends as many slots and bytes as its receiver consumes. */
    private static DeviceProgram assertConserved(Plan plan) {
        DeviceProgram prog = DeviceProgram.fromPlan(plan);
        long[] sentSlots = new long[prog.connections().size()];
        long[] recvSlots = new long[prog.connections().size()];
        long[] sentBytes = new long[prog.connections().size()];
        long[] recvBytes = new long[prog.connections().size()];
        for (DeviceProgram.Task t : prog.tasks()) {
            long[] w = t.words();
            for (int s = 0; s < t.nSteps(); s++) {
                int q = s * DeviceProgram.STEP_WORDS;
                long bytes = w[q + 11] & 0xFFFF_FFFFL;
                long slots = w[q + 11] >>> 32;
                for (int k = 0; k < w[q + 1]; k++) {
                    int id = t.conns()[(int) w[q + 2 + k]];
                    assertThat(t.sending()[(int) w[q + 2 + k]]).isFalse();
                    assertThat(prog.connections().get(id)[2]).as("receiver").isEqualTo(t.rank());
                    recvSlots[id] += slots;
                    recvBytes[id] += bytes;
                }
                for (int k = 0; k < w[q + 5]; k++) {
                    int id = t.conns()[(int) w[q + 6 + k]];
                    assertThat(t.sending()[(int) w[q + 6 + k]]).isTrue();
                    assertThat(prog.connections().get(id)[1]).as("sender").isEqualTo(t.rank());
                    sentSlots[id] += slots;
                    sentBytes[id] += bytes;
                }
                // byte offsets are whole elements
                assertThat(w[q + 9] % plan.call().dtype().bytes()).isZero();
                assertThat(w[q + 10] % plan.call().dtype().bytes()).isZero();
            }
        }
        assertThat(sentSlots).as(plan.toString()).isEqualTo(recvSlots);
        assertThat(sentBytes).as(plan.toString()).isEqualTo(recvBytes);
        return prog;
    }

    @Test
    void avgOnFloatsSetsPreOnInputReadingReductionsAndAvgOnIntsSetsPostAtTheFinalStep() {
        Plan f = DevicePlans.forCount(CollectiveOp.ALL_REDUCE, 4096, DataType.FLOAT32, ReduceOp.AVG, 0, Algorithm.RING,
                Protocol.SIMPLE, 1, 4, false);
        Plan i = DevicePlans.forCount(CollectiveOp.ALL_REDUCE, 4096, DataType.INT32, ReduceOp.AVG, 0, Algorithm.RING,
                Protocol.SIMPLE, 1, 4, false);
        Map<Integer, Integer> fFlags = flagCounts(DeviceProgram.fromPlan(f));
        Map<Integer, Integer> iFlags = flagCounts(DeviceProgram.fromPlan(i));
        // ring all-reduce per rank and chunk: 1 send + (n-2) recvReduceSend + 1 recvReduceCopySend (pre on all n
        // of them), each call cut into slicesPerChunk slices (Simple: 4/2 = 2)
        int n = 4;
        int slices = f.geometry().slicesPerChunk();
        assertThat(slices).isEqualTo(2);
        assertThat(fFlags.getOrDefault(DeviceProgram.F_PRE, 0)).isEqualTo(n * n * slices);
        assertThat(fFlags.getOrDefault(DeviceProgram.F_POST, 0)).isZero();
        // post only at the owner's recvReduceCopySend: one per rank
        assertThat(iFlags.getOrDefault(DeviceProgram.F_POST, 0)).isEqualTo(n * slices);
        assertThat(iFlags.getOrDefault(DeviceProgram.F_PRE, 0)).isZero();
    }

    @Test
    void localStepIsOneConnectionlessStep() {
        DeviceProgram p = DeviceProgram.localStep(1 << 20, true);
        assertThat(p.nRanks()).isEqualTo(1);
        assertThat(p.tasks()).hasSize(1);
        long[] w = p.tasks().get(0).words();
        assertThat(w[0]).isEqualTo(DeviceProgram.F_READ_SRC | DeviceProgram.F_WRITE_DST | DeviceProgram.F_READ_DST);
        assertThat(w[1]).isZero();
        assertThat(w[5]).isZero();
        assertThat(w[11]).as("bytes, 0 slots").isEqualTo(1 << 20);
        assertThatThrownBy(() -> DeviceProgram.localStep(5L << 30, false)).hasMessageContaining("exceeds 4 GiB");
    }

    private static Map<Integer, Integer> flagCounts(DeviceProgram p) {
        Map<Integer, Integer> m = new HashMap<>();
        for (DeviceProgram.Task t : p.tasks()) {
            for (int s = 0; s < t.nSteps(); s++) {
                long f = t.words()[s * DeviceProgram.STEP_WORDS];
                for (int bit : new int[] {DeviceProgram.F_PRE, DeviceProgram.F_POST}) {
                    if ((f & bit) != 0) m.merge(bit, 1, Integer::sum);
                }
            }
        }
        return m;
    }
}
