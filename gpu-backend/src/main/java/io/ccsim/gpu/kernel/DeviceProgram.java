package io.ccsim.gpu.kernel;

import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.plan.Plan;

import java.util.List;

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
 * @param tasks         the CTAs to launch, one per (rank, channel, lane), rank-major
 */
public record DeviceProgram(int nRanks, DataType dtype, ReduceOp redop, Protocol protocol, long slotWireBytes, int maxSlots,
                     long[] inputBytes, long[] outputBytes, List<int[]> connections, List<Task> tasks) {

    /** Longs per device step. */
    static final int STEP_WORDS = 12;
    /** Step flag: the step reads the rank's input at srcOffsetBytes. */
    static final int F_READ_SRC = 1;
    /** Step flag: the step writes the rank's output at dstOffsetBytes. */
    static final int F_WRITE_DST = 2;
    /** Step flag: the step reads the output too (a local reduce into it). */
    static final int F_READ_DST = 4;
    /** Step flag: the reduction's pre-operator applies to the input (e.g. avg's 1/n on floats). */
    static final int F_PRE = 8;
    /** Step flag: the reduction's post-operator applies to the result (e.g. avg's division on integers). */
    static final int F_POST = 16;
    /** The kernel's shared-memory table of connection counters (MAX_CONNS in the .cu). */
    static final int MAX_CONNS_PER_TASK = 64;

    /**
     * One CTA of a rank's kernel launch: the steps of (rank, channel, lane).
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
        return new PlanEncoder(plan).encode();
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
