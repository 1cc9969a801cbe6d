package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;

/**
 * One collective call on a communicator.
 *
 * <p>{@code count} is elements per rank as nccl-tests defines it for the op (nccl-tests
 * src/*.cu {@code GetCollByteCount}), which fixes every buffer size:
 * <table>
 *   <caption>input and output elements per rank</caption>
 *   <tr><th>op</th><th>input</th><th>output</th></tr>
 *   <tr><td>all_reduce</td><td>count</td><td>count</td></tr>
 *   <tr><td>all_gather</td><td>count (the per-rank send count)</td><td>count × n</td></tr>
 *   <tr><td>reduce_scatter</td><td>count × n</td><td>count (the per-rank recv count)</td></tr>
 *   <tr><td>broadcast</td><td>count (read on root only)</td><td>count</td></tr>
 *   <tr><td>reduce</td><td>count</td><td>count (written on root only)</td></tr>
 *   <tr><td>all_to_all</td><td>count × n (block p goes to rank p)</td><td>count × n (block p came from rank p)</td></tr>
 *   <tr><td>sendrecv</td><td>count (sent to rank (r+1) mod n)</td><td>count (received from rank (r−1) mod n)</td></tr>
 * </table>
 * Note for all_to_all: {@code count} is what each rank sends to <em>each</em> peer (nccl-tests'
 * alltoall takes the total and divides it by n; the CLI converts).
 * sendrecv is nccl-tests' sendrecv_perf pattern: every rank sends to its successor.
 *
 * @param op     the collective
 * @param count  elements per rank as above, ≥ 0
 * @param dtype  element type
 * @param redop  reduction (used by all_reduce, reduce_scatter, reduce; must be non-null anyway)
 * @param root   root rank of broadcast/reduce, 0 ≤ root < nRanks (ignored by other ops but validated)
 * @param layout ranks and their hosts
 */
public record CollectiveCall(CollectiveOp op, long count, DataType dtype, ReduceOp redop, int root, CommLayout layout) {

    public CollectiveCall {
        if (op == null) throw new IllegalArgumentException("CollectiveCall.op must not be null");
        if (dtype == null) throw new IllegalArgumentException("CollectiveCall.dtype must not be null");
        if (redop == null) throw new IllegalArgumentException("CollectiveCall.redop must not be null (use SUM for ops without reduction)");
        if (layout == null) throw new IllegalArgumentException("CollectiveCall.layout must not be null");
        if (count < 0) throw new IllegalArgumentException("CollectiveCall.count must be >= 0 elements, got " + count);
        if (root < 0 || root >= layout.nRanks()) {
            throw new IllegalArgumentException("CollectiveCall.root must be in [0, " + (layout.nRanks() - 1) + "], got " + root);
        }
        long maxCount = Long.MAX_VALUE / Math.max(1, layout.nRanks()) / dtype.bytes();
        if (count > maxCount) {
            throw new IllegalArgumentException("CollectiveCall.count " + count + " overflows the buffer size for "
                    + layout.nRanks() + " ranks of " + dtype);
        }
    }

    /** Convenience: sum reduction, root 0. */
    public static CollectiveCall of(CollectiveOp op, long count, DataType dtype, CommLayout layout) {
        return new CollectiveCall(op, count, dtype, ReduceOp.SUM, 0, layout);
    }

    public int nRanks() { return layout.nRanks(); }

    /** True for the ops that combine values with {@link #redop}: all_reduce, reduce_scatter, reduce. */
    public boolean isReduction() {
        return op == CollectiveOp.ALL_REDUCE || op == CollectiveOp.REDUCE_SCATTER || op == CollectiveOp.REDUCE;
    }

    /** Elements of each rank's input buffer (see the class table). */
    public long inputCount() {
        return inputCount(op, count, nRanks());
    }

    /** Elements of each rank's input buffer for {@code op} of {@code count} elements on {@code nRanks} ranks. */
    public static long inputCount(CollectiveOp op, long count, long nRanks) {
        switch (op) {
            case REDUCE_SCATTER: case ALL_TO_ALL: return count * nRanks;
            default: return count;
        }
    }

    /** Elements of each rank's output buffer (see the class table). */
    public long outputCount() {
        return outputCount(op, count, nRanks());
    }

    /** Elements of each rank's output buffer for {@code op} of {@code count} elements on {@code nRanks} ranks. */
    public static long outputCount(CollectiveOp op, long count, long nRanks) {
        switch (op) {
            case ALL_GATHER: case ALL_TO_ALL: return count * nRanks;
            default: return count;
        }
    }

    /** nccl-tests' "size" column in bytes: max(input, output) elements × element size. */
    public long sizeBytes() {
        return Math.max(inputCount(), outputCount()) * dtype.bytes();
    }
}
