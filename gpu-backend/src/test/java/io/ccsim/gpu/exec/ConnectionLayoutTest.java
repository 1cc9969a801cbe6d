package io.ccsim.gpu.exec;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.plan.Planners;
import io.ccsim.gpu.kernel.DeviceProgram;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Connection memory regions and task tables, without a GPU: every region inside its rank's memory, none shared. */
class ConnectionLayoutTest {
    /** Far apart fake base addresses: rank r's memory starts at (r + 1) << 40. */
    private static long[] bases(int n) {
        long[] b = new long[n];
        for (int r = 0; r < n; r++) b[r] = (long) (r + 1) << 40;
        return b;
    }

    @Test
    void everyTableEntryPointsIntoTheRightRanksMemoryAndNoTwoRegionsOverlap() {
        int n = 4;
        for (CollectiveOp op : CollectiveOp.values()) {
            for (Algorithm a : Planners.standard().supportedOnKernels(op)) {
                for (Protocol p : Protocol.values()) {
                    DeviceProgram prog = DeviceProgram.fromPlan(DevicePlans.forCount(op, 5_003, DataType.FLOAT32, ReduceOp.SUM, 0,
                            a, p, 2, n, true));
                    checkLayout(prog, op + " " + a + " " + p);
                }
            }
        }
    }

    private static void checkLayout(DeviceProgram prog, String what) {
        int n = prog.nRanks();
        ConnectionLayout layout = ConnectionLayout.of(prog);
        long buf = layout.bufBytes();
        assertThat(buf % 256).isZero();
        assertThat(buf).isGreaterThanOrEqualTo(prog.slotsAllocated() * prog.slotWireBytes());
        long[] base = bases(n);
        // per rank, the regions seen by any task: [start, end) of slot buffer + tail block, and of head block
        List<List<long[]>> regions = new ArrayList<>();
        for (int r = 0; r < n; r++) regions.add(new ArrayList<>());
        for (DeviceProgram.Task t : prog.tasks()) {
            long[] table = layout.table(t, base);
            assertThat(table).hasSize(t.conns().length * ConnectionLayout.ENTRY_LONGS);
            for (int i = 0; i < t.conns().length; i++) {
                int[] c = prog.connections().get(t.conns()[i]);
                int from = c[1], to = c[2];
                long slots = table[i * 4], tail = table[i * 4 + 1], head = table[i * 4 + 2], own = table[i * 4 + 3];
                assertThat(tail).as(what).isEqualTo(slots + buf);
                assertThat(own).as(what).isEqualTo(t.sending()[i] ? head + 128 : tail + 128);
                assertThat(slots - base[to]).as(what + ": slot buffer in the receiver's memory").isBetween(0L, layout.allocBytes(to) - buf - 256);
                assertThat(head - base[from]).as(what + ": head in the sender's memory").isBetween(0L, layout.allocBytes(from) - 256);
                addOnce(regions.get(to), slots, slots + buf + 256);
                addOnce(regions.get(from), head, head + 256);
            }
        }
        for (List<long[]> rs : regions) {
            rs.sort((x, y) -> Long.compare(x[0], y[0]));
            for (int i = 1; i < rs.size(); i++) assertThat(rs.get(i)[0]).as(what + ": regions overlap").isGreaterThanOrEqualTo(rs.get(i - 1)[1]);
        }
    }

    /** The sender's and the receiver's task both name a connection's regions: count each once. */
    private static void addOnce(List<long[]> rs, long start, long end) {
        for (long[] r : rs) {
            if (r[0] == start && r[1] == end) return;
        }
        rs.add(new long[] {start, end});
    }

    @Test
    void aProgramWithoutConnectionsStillAllocates256Bytes() {
        ConnectionLayout layout = ConnectionLayout.of(DeviceProgram.localStep(1024, false));
        assertThat(layout.allocBytes(0)).isEqualTo(256);
        assertThat(layout.table(DeviceProgram.localStep(1024, false).tasks().get(0), bases(1))).isEmpty();
    }
}
