package io.ccsim.gpu.kernel;

import io.ccsim.algorithms.data.Reduction;
import io.ccsim.algorithms.plan.CollectiveCall;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.Primitive;
import io.ccsim.algorithms.plan.ProtocolGeometry;
import io.ccsim.algorithms.plan.StepCursor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.ccsim.gpu.kernel.DeviceProgram.F_POST;
import static io.ccsim.gpu.kernel.DeviceProgram.F_PRE;
import static io.ccsim.gpu.kernel.DeviceProgram.F_READ_SRC;
import static io.ccsim.gpu.kernel.DeviceProgram.F_WRITE_DST;
import static io.ccsim.gpu.kernel.DeviceProgram.MAX_CONNS_PER_TASK;
import static io.ccsim.gpu.kernel.DeviceProgram.STEP_WORDS;

/**
 * Encodes one {@link Plan} as a {@link DeviceProgram} ({@link DeviceProgram#fromPlan}): the plan's connections in
 * {@link Plan#forEachConnection} order, then one task per (rank, channel, lane) in that order, each step rewritten
 * from the plan's {@link StepCursor#ENCODED_LONGS}-long encoding into the kernels' {@link DeviceProgram#STEP_WORDS}
 * words. Single use.
 */
final class PlanEncoder {
    private final Plan plan;
    private final CollectiveCall call;
    private final int eb;
    private final ProtocolGeometry g;
    private final boolean pre;
    private final boolean post;
    private final Primitive[] prims = Primitive.values();
    private final List<int[]> conns = new ArrayList<>();
    private final Map<Long, Integer> connId = new HashMap<>();
    /** Connection end (id × 2 + 1 if sending) → the task that uses it. */
    private final Map<Integer, String> owner = new HashMap<>();
    private int maxSlots = 1;

    PlanEncoder(Plan plan) {
        if (plan.nActors() > plan.nRanks()) {
            throw new IllegalArgumentException(plan + " has switch actors (NVLS): ccsim's GPU kernels never use NVLink"
                    + " multicast; run it in the simulator or the CPU executor");
        }
        if (plan.options().algorithm().isSymmetric()) {
            throw new IllegalArgumentException(plan + " is the symmetric-memory kernel " + plan.options().algorithm().ncclName()
                    + ": its one-sided loads and stores have no step in ccsim's GPU kernels; run it in the simulator or"
                    + " the CPU executor");
        }
        this.plan = plan;
        this.call = plan.call();
        this.eb = call.dtype().bytes();
        this.g = plan.geometry();
        Reduction red = Reduction.of(call.dtype(), call.redop(), plan.nRanks());
        this.pre = call.isReduction() && red.hasPreOp();
        this.post = call.isReduction() && red.hasPostOp();
        plan.forEachConnection((c, f, t) -> {
            connId.put(key(c, f, t), conns.size());
            conns.add(new int[] {c, f, t});
        });
    }

    /** The whole program; see {@link DeviceProgram#fromPlan} for what is thrown. */
    DeviceProgram encode() {
        int n = plan.nRanks();
        List<DeviceProgram.Task> tasks = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < plan.nChannels(); c++) {
                for (int l = 0; l < plan.nLanes(); l++) tasks.add(task(r, c, l));
            }
        }
        long[] in = new long[n];
        long[] out = new long[n];
        for (int r = 0; r < n; r++) {
            in[r] = call.inputCount() * eb;
            out[r] = call.outputCount() * eb;
        }
        return new DeviceProgram(n, call.dtype(), call.redop(), g.protocol(), g.slotWireBytes(), maxSlots, in, out,
                List.copyOf(conns), List.copyOf(tasks));
    }

    /** The task of (rank r, channel c, lane l): its steps, then its connection table, whose ends it claims. */
    private DeviceProgram.Task task(int r, int c, int l) {
        long[] src = plan.encodeSteps(r, c, l);
        int ns = src.length / StepCursor.ENCODED_LONGS;
        long[] w = new long[ns * STEP_WORDS];
        TaskTable table = new TaskTable();
        for (int s = 0; s < ns; s++) step(src, s, w, table, r, c, l);
        if (table.ids.size() > MAX_CONNS_PER_TASK) {
            throw new IllegalArgumentException("rank " + r + " channel " + c + " lane " + l + " uses "
                    + table.ids.size() + " connections; the kernels hold at most " + MAX_CONNS_PER_TASK);
        }
        int[] ids = new int[table.ids.size()];
        boolean[] snd = new boolean[table.ids.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = table.ids.get(i);
            snd[i] = table.sending.get(i);
            int end = ids[i] * 2 + (snd[i] ? 1 : 0);
            String me = "rank " + r + " channel " + c + " lane " + l;
            String prev = owner.putIfAbsent(end, me);
            if (prev != null) {
                throw new IllegalStateException("connection " + describe(conns.get(ids[i])) + " is used by both "
                        + prev + " and " + me + "; concurrent kernels cannot share a connection end");
            }
        }
        return new DeviceProgram.Task(r, c, l, w, ids, snd);
    }

    /** Step s of the plan's encoding {@code src} into words {@code w[s * STEP_WORDS ..]} of task (r, c, l). */
    private void step(long[] src, int s, long[] w, TaskTable table, int r, int c, int l) {
        int p = s * StepCursor.ENCODED_LONGS;
        int q = s * STEP_WORDS;
        Primitive prim = prims[(int) src[p]];
        int nRecv = (int) src[p + 1];
        int nSend = (int) src[p + 5];
        long count = src[p + 11] & 0xFFFF_FFFFL;
        int slots = (int) (src[p + 11] >>> 32);
        maxSlots = Math.max(maxSlots, slots);
        int flags = 0;
        if (prim.readsInput()) flags |= F_READ_SRC;
        if (prim.writesOutput()) flags |= F_WRITE_DST;
        if (pre && appliesPre(prim)) flags |= F_PRE;
        if (post && appliesPost(prim)) flags |= F_POST;
        w[q] = flags;
        w[q + 1] = nRecv;
        w[q + 5] = nSend;
        for (int k = 0; k < 3; k++) {
            w[q + 2 + k] = k < nRecv ? table.index(c, (int) src[p + 2 + k], r, false) : -1;
            w[q + 6 + k] = k < nSend ? table.index(c, r, (int) src[p + 6 + k], true) : -1;
        }
        w[q + 9] = src[p + 9] * eb;
        w[q + 10] = src[p + 10] * eb;
        long bytes = count * eb;
        if (bytes > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("plan step " + s + " of rank " + r + " channel " + c + " lane " + l
                    + " moves " + bytes + " B; the kernels take at most 4 GiB - 1 per step");
        }
        if (bytes > g.sliceCapacityBytes() && slots > 0) {
            throw new IllegalStateException("plan step " + s + " of rank " + r + " channel " + c + " lane " + l
                    + " carries " + bytes + " B in " + slots + " slots of " + g.slotDataBytes() + " B");
        }
        w[q + 11] = bytes | ((long) slots << 32);
    }

    /** One task's connection table under construction: global ids and directions, in first-use order. */
    private final class TaskTable {
        final List<Integer> ids = new ArrayList<>();
        final List<Boolean> sending = new ArrayList<>();
        private final Map<Long, Integer> local = new HashMap<>();

        /** The table index of connection (channel c, from → to), appended on first use. */
        int index(int c, int from, int to, boolean send) {
            long k = key(c, from, to);
            Integer i = local.get(k);
            if (i != null) return i;
            Integer id = connId.get(k);
            if (id == null) {
                throw new IllegalStateException("plan step uses connection channel " + c + " " + from + "->" + to
                        + " that the plan does not list");
            }
            ids.add(id);
            sending.add(send);
            local.put(k, ids.size() - 1);
            return ids.size() - 1;
        }
    }

    /** The reduction's pre-operator applies where the input is reduced or sent as a partial (Primitive docs). */
    static boolean appliesPre(Primitive p) {
        switch (p) {
            case SEND: case RECV_REDUCE_SEND: case RECV_REDUCE_COPY: case RECV_REDUCE_COPY_SEND: case LOCAL_REDUCE:
                return true;
            default:
                return false;
        }
    }

    /** The post-operator applies once, where the final value is produced. */
    static boolean appliesPost(Primitive p) {
        return p == Primitive.RECV_REDUCE_COPY || p == Primitive.RECV_REDUCE_COPY_SEND || p == Primitive.LOCAL_REDUCE;
    }

    private static long key(int c, int from, int to) {
        return ((long) c << 40) | ((long) from << 20) | to;
    }

    private static String describe(int[] conn) {
        return "channel " + conn[0] + " " + conn[1] + "->" + conn[2];
    }
}
