package io.ccsim.gpu.kernel;

import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
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

/**
 * What the GPU kernels execute: per (rank, channel, lane) task, the plan's steps in the kernels' encoding
 * (see {@code src/main/cuda/ccsim_prims.cu}), with peers replaced by indices into the task's connection
 * table and element offsets by byte offsets. Pure data, built without a GPU, so the encoding is tested
 * on every machine.
 *
 * <p>Device step words ({@link #STEP_WORDS} longs): {@code [flags, nRecv, rc0, rc1, rc2, nSend, sc0, sc1,
 * sc2, srcOffsetBytes, dstOffsetBytes, bytes | slots << 32]} where rc/sc index the task's connection list.
 *
 * @param nRanks        ranks (= GPUs)
 * @param dtype         element type (selects the PTX module)
 * @param redop         reduction (selects the kernel)
 * @param protocol      wire protocol (selects the kernel)
 * @param slotWireBytes bytes of one connection slot
 * @param maxSlots      most slots one step occupies (buffers carry NCCL_STEPS + maxSlots − 1 slots)
 * @param inputBytes    per rank, input buffer bytes
 * @param outputBytes   per rank, output buffer bytes
 * @param connections   every connection: {channel, from, to}
 * @param tasks         the kernels to launch
 */
public record DeviceProgram(int nRanks, DataType dtype, ReduceOp redop, Protocol protocol, long slotWireBytes, int maxSlots,
                     long[] inputBytes, long[] outputBytes, List<int[]> connections, List<Task> tasks) {

    static final int STEP_WORDS = 12;
    static final int F_READ_SRC = 1;
    static final int F_WRITE_DST = 2;
    static final int F_READ_DST = 4;
    static final int F_PRE = 8;
    static final int F_POST = 16;
    /** The kernel's shared-memory table of connection counters (MAX_CONNS in the .cu). */
    static final int MAX_CONNS_PER_TASK = 64;

    /**
     * One kernel launch: the steps of (rank, channel, lane).
     *
     * @param rank     the rank (index into the GPU list)
     * @param channel  channel
     * @param lane     lane (0, or 1 for the second concurrent list of tree and p2p)
     * @param words    device step words, {@link #STEP_WORDS} per step
     * @param conns    global connection ids (into {@link #connections()}) of the task's table, in table order
     * @param sending  per table entry: true if this task sends on it, false if it receives
     */
    public record Task(int rank, int channel, int lane, long[] words, int[] conns, boolean[] sending) {
        /** Steps of the task: {@code words.length / STEP_WORDS}. */
        public int nSteps() { return words.length / STEP_WORDS; }
    }

    /**
     * Encodes {@code plan} for the kernels.
     *
     * @throws IllegalArgumentException if a step moves 4 GiB or more, or a task uses more than
     *                                  {@link #MAX_CONNS_PER_TASK} connections
     * @throws IllegalStateException    if the plan is inconsistent: a step over an unlisted connection, more bytes
     *                                  than its slots carry, or a connection end used by two tasks
     */
    public static DeviceProgram fromPlan(Plan plan) {
        CollectiveCall call = plan.call();
        int n = plan.nRanks();
        int eb = call.dtype().bytes();
        ProtocolGeometry g = plan.geometry();
        Reduction red = Reduction.of(call.dtype(), call.redop(), n);
        boolean pre = call.isReduction() && red.hasPreOp();
        boolean post = call.isReduction() && red.hasPostOp();

        List<int[]> conns = new ArrayList<>();
        Map<Long, Integer> connId = new HashMap<>();
        plan.forEachConnection((c, f, t) -> {
            connId.put(key(c, f, t), conns.size());
            conns.add(new int[] {c, f, t});
        });

        Primitive[] prims = Primitive.values();
        List<Task> tasks = new ArrayList<>();
        int maxSlots = 1;
        Map<Integer, String> owner = new HashMap<>();  // connection end -> task that uses it
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < plan.nChannels(); c++) {
                for (int l = 0; l < plan.nLanes(); l++) {
                    long[] src = plan.encodeSteps(r, c, l);
                    int ns = src.length / StepCursor.ENCODED_LONGS;
                    long[] w = new long[ns * STEP_WORDS];
                    List<Integer> table = new ArrayList<>();
                    List<Boolean> sending = new ArrayList<>();
                    Map<Long, Integer> local = new HashMap<>();
                    for (int s = 0; s < ns; s++) {
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
                            w[q + 2 + k] = k < nRecv ? localIndex(local, table, sending, connId, c, (int) src[p + 2 + k], r, false) : -1;
                            w[q + 6 + k] = k < nSend ? localIndex(local, table, sending, connId, c, r, (int) src[p + 6 + k], true) : -1;
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
                    if (table.size() > MAX_CONNS_PER_TASK) {
                        throw new IllegalArgumentException("rank " + r + " channel " + c + " lane " + l + " uses "
                                + table.size() + " connections; the kernels hold at most " + MAX_CONNS_PER_TASK);
                    }
                    int[] ids = new int[table.size()];
                    boolean[] snd = new boolean[table.size()];
                    for (int i = 0; i < ids.length; i++) {
                        ids[i] = table.get(i);
                        snd[i] = sending.get(i);
                        int end = ids[i] * 2 + (snd[i] ? 1 : 0);
                        String me = "rank " + r + " channel " + c + " lane " + l;
                        String prev = owner.putIfAbsent(end, me);
                        if (prev != null) {
                            throw new IllegalStateException("connection " + describe(conns.get(ids[i])) + " is used by both "
                                    + prev + " and " + me + "; concurrent kernels cannot share a connection end");
                        }
                    }
                    tasks.add(new Task(r, c, l, w, ids, snd));
                }
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

    private static int localIndex(Map<Long, Integer> local, List<Integer> table, List<Boolean> sending,
                                  Map<Long, Integer> connId, int c, int from, int to, boolean send) {
        long k = key(c, from, to);
        Integer i = local.get(k);
        if (i != null) return i;
        Integer id = connId.get(k);
        if (id == null) {
            throw new IllegalStateException("plan step uses connection channel " + c + " " + from + "->" + to
                    + " that the plan does not list");
        }
        table.add(id);
        sending.add(send);
        local.put(k, table.size() - 1);
        return table.size() - 1;
    }

    static long key(int c, int from, int to) {
        return ((long) c << 40) | ((long) from << 20) | to;
    }

    static String describe(int[] conn) {
        return "channel " + conn[0] + " " + conn[1] + "->" + conn[2];
    }

    /** Slots a connection buffer holds: NCCL_STEPS plus room for a slice that starts in the last slot. */
    public long slotsAllocated() {
        return Protocol.NCCL_STEPS + maxSlots - 1L;
    }

    /**
     * A one-rank, one-task program of a single local step over {@code bytes} (float32, Simple kernel, no
     * connection): {@code out = in + out} if {@code reduce}, else {@code out = in}. The calibrator times it for the
     * launch cost and one CTA's reduce and copy throughput.
     *
     * @throws IllegalArgumentException if {@code bytes} exceeds 4 GiB − 1
     */
    public static DeviceProgram localStep(long bytes, boolean reduce) {
        if (bytes > 0xFFFF_FFFFL) throw new IllegalArgumentException("local step of " + bytes + " B exceeds 4 GiB");
        long[] w = new long[STEP_WORDS];
        w[0] = F_READ_SRC | F_WRITE_DST | (reduce ? F_READ_DST : 0);
        w[2] = w[3] = w[4] = w[6] = w[7] = w[8] = -1;
        w[11] = bytes;  // 0 slots: no connection
        Task t = new Task(0, 0, 0, w, new int[0], new boolean[0]);
        return new DeviceProgram(1, DataType.FLOAT32, ReduceOp.SUM, Protocol.SIMPLE, 4096, 1, new long[] {bytes},
                new long[] {bytes}, List.of(), List.of(t));
    }
}
