package io.ccsim.scenarios.cluster;

import io.ccsim.scenarios.format.Step;
import io.ccsim.topology.Route;
import java.util.function.LongConsumer;

/**
 * A symmetric-memory all-reduce (PyTorch's one-shot or two-shot kernel) on the engine's flow network:
 * its loads and stores are flows between the ranks' GPUs, sharing links with whatever else runs. Nothing
 * moves until every rank launched (the kernels open with a barrier on the signal pads); the completion
 * goes to one callback, with its time.
 */
final class SymmetricAllReduce implements CollectiveEngine.Execution {
    /*
     * Data flow, PyTorch torch/csrc/distributed/c10d/symm_mem/CUDASymmetricMemoryOps.cu:
     * - one_shot_all_reduce: sync_remote_blocks; every rank loads the whole buffer of every peer and
     *   reduces into its output; sync. Traffic: (n-1) x S into every rank.
     * - two_shot_all_reduce_: sync; rank r owns the contiguous slice r (numel rounded up to the
     *   alignment x n, then / n) and loads it from every peer, reduces, then stores the result into every
     *   peer's buffer; sync. Traffic: (n-1) x S/n in, then (n-1) x S/n out, per rank.
     * A load of a peer's buffer is a flow peer -> reader, a store a flow writer -> peer, on NCCL's route
     * between the two GPUs (NVLink port groups through NVSwitch), so the NVLink port groups bound them.
     *
     * Simple cost, not simulated: the kernel's fixed part (launch, the signal-pad barriers) is NCCL
     * 2.28.9's base latency of its own symmetric all-reduce kernels with the same data flow, sm90
     * (src/sym_kernels.cc, queryModel): 4.5 us for the one-shot LL kernel (AllReduce_AGxLL_R), 7.8 us
     * for the two-shot one (AllReduce_RSxLD_AGxST); added once, after the last flow. Thread-block limits
     * are not modelled: PyTorch's up to 24 blocks at NCCL's 65 GB/s per block (sm90) exceed a GPU's
     * NVLink bandwidth. Multicast variants (multimem) are not modelled (NVLS stays off).
     */
    static final long ONE_SHOT_BASE_PS = 4_500_000L;
    static final long TWO_SHOT_BASE_PS = 7_800_000L;
    /** Two-shot's slice alignment: 16 B (CUDASymmetricMemoryOps.cu, alignment of the vectorized loads). */
    static final long ALIGN_BYTES = 16;

    private final SimCollectiveEngine engine;
    private final Step.SymmAlgo algo;
    private final long bytes;
    private final int[] nodes;
    private final LongConsumer done;
    private final boolean[] launched;
    private int launchedCount;
    private int pendingFlows;
    private boolean storePhase;
    private boolean finished;
    private boolean aborted;

    /**
     * @param bytes per rank (the tensor's size)
     * @param nodes topology node index of each rank's GPU
     */
    SymmetricAllReduce(SimCollectiveEngine engine, Step.SymmAlgo algo, long bytes, int[] nodes, LongConsumer done) {
        this.engine = engine;
        this.algo = algo;
        this.bytes = bytes;
        this.nodes = nodes.clone();
        this.done = done;
        this.launched = new boolean[nodes.length];
    }

    /** Bytes each rank owns in a two-shot all-reduce of {@code bytes} over {@code n} ranks. */
    static long sliceBytes(long bytes, int n) {
        long unit = ALIGN_BYTES * n;
        return (bytes + unit - 1) / unit * unit / n;
    }

    @Override
    public void launch(int r) {
        if (launched[r] || aborted) return;
        launched[r] = true;
        if (++launchedCount == nodes.length) phase(false);
    }

    @Override
    public boolean isRankDone(int r) { return finished; }

    @Override
    public void abort() { aborted = true; }

    /** Starts the loads (every reader pulls from every peer) or, for two-shot's second half, the stores. */
    private void phase(boolean stores) {
        storePhase = stores;
        int n = nodes.length;
        long each = algo == Step.SymmAlgo.ONE_SHOT ? bytes : sliceBytes(bytes, n);
        pendingFlows = n * (n - 1);
        if (pendingFlows == 0) {
            end();
            return;
        }
        for (int r = 0; r < n; r++) {
            for (int p = 0; p < n; p++) {
                if (p == r) continue;
                Route route = stores ? engine.routes.route(nodes[r], nodes[p], 0, false) : engine.routes.route(nodes[p], nodes[r], 0, false);
                engine.network().start(route.hops(), each, 0, 0, f -> flowDone());
            }
        }
    }

    private void flowDone() {
        if (--pendingFlows > 0) return;
        if (algo == Step.SymmAlgo.TWO_SHOT && !storePhase) {
            phase(true);
        } else {
            end();
        }
    }

    private void end() {
        long base = algo == Step.SymmAlgo.ONE_SHOT ? ONE_SHOT_BASE_PS : TWO_SHOT_BASE_PS;
        engine.host.after(base, () -> {
            finished = true;
            if (!aborted) done.accept(engine.host.now());
        });
    }
}
