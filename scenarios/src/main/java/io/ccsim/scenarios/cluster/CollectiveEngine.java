package io.ccsim.scenarios.cluster;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;

/**
 * What the scenarios layer needs from a collective executor, in the shape of
 * {@code io.ccsim.algorithms.sim.SimExecutor}'s API (start a plan, launch ranks one by one, rank-done and
 * all-done callbacks); {@link SimCollectiveEngine} implements it over the SimExecutor. A rank that is
 * never launched stalls its peers: a hang, not an error.
 */
public interface CollectiveEngine {

    /** Prepares a collective over {@code gpuOfRank.length} ranks; nothing runs until ranks launch. */
    Execution start(Spec spec, int[] gpuOfRank, int[] globalRankOf, Listener listener);

    /**
     * A symmetric-memory all-reduce of {@code bytes} per rank over the GPUs {@code gpuOfRank}
     * (PyTorch's one-shot or two-shot kernel on buffers every rank maps); nothing moves until every rank
     * launched; {@code done} receives the completion time, ps.
     */
    Execution startSymmetric(io.ccsim.scenarios.format.Step.SymmAlgo algo, long bytes, int[] gpuOfRank,
                             java.util.function.LongConsumer done);

    /** Whether GPUs {@code gpuA} and {@code gpuB} map each other's memory (CUDA P2P over NVLink). */
    boolean p2pReachable(int gpuA, int gpuB);

    /** Link health changed (a fault): executions in flight re-solve their rates. */
    void healthChanged();

    /** A bit flips in data crossing the link group at this instant. */
    void bitFlip(int groupIndex);

    /**
     * One collective call as the executor sees it.
     *
     * @param op       the collective
     * @param count    elements per rank (the larger of input/output, as nccl-tests' size)
     * @param dtype    element type
     * @param seqLabel a label for reports ("world#3")
     * @param dataSeed seed of the synthetic input data (checksums)
     * @param channels channels (rings) to spread the data over
     */
    record Spec(CollectiveOp op, long count, DataType dtype, String seqLabel, long dataSeed, int channels) {
        long bytes() { return count * dtype.bytes(); }
    }

    /** A started collective. */
    interface Execution {
        /** Rank {@code r}'s kernel starts now (communicator rank). */
        void launch(int r);

        boolean isRankDone(int r);

        /** Stops the execution (ncclCommAbort); no callback fires afterwards. */
        void abort();
    }

    /** Completion and failure callbacks; times in ps. */
    interface Listener {
        void onRankDone(int r, long timePs);

        void onAllDone(CollectiveStats stats);

        /** The transport gave up (IB retry count exceeded); {@code detail} is NCCL's message. */
        void onNetworkError(int senderRank, String detail);
    }
}
