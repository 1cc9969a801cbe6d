package io.ccsim.algorithms.measurements;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One measured collective call, as every reader of {@link Measurements} returns it: what ran and how long one call
 * took. A row that names its algorithm and protocol ({@link #forced()}) is reproduced with them; one that also names
 * its channel count ({@link #planChannels()}) ran a fixed plan; otherwise NCCL chose, and {@code ncclAlgo},
 * {@code ncclProto} and {@code ncclChannels} hold what NCCL logged, where the file has it.
 *
 * @param where        file and line or JSON path, for messages
 * @param op           the collective
 * @param n            ranks of the communicator; 0 where the file does not say
 * @param bytes        nccl-tests' {@code size}, bytes
 * @param dtype        element type
 * @param redop        reduction; empty where the op has none or the file does not say
 * @param root         root rank; 0 where the op has none
 * @param algo         the algorithm the row names as the one that ran; empty where NCCL chose it or it is unknown
 * @param proto        the protocol the row names as the one that ran; empty where NCCL chose it or it is unknown
 * @param channels     the channel count the row names as the one that ran; 0 where NCCL chose it or it is unknown
 * @param ncclAlgo     the algorithm NCCL logged for the call; empty where none was logged (p2p ops log none)
 * @param ncclProto    the protocol NCCL logged for the call; empty where none was logged
 * @param ncclChannels the channel count NCCL logged for the call; empty where none was logged
 * @param timeUs       measured time of one call, µs
 * @param nodes        hosts the ranks ran on; 0 where the file does not say
 * @param gpu          the GPU model the file names ({@code NVIDIA H100 80GB HBM3}, {@code H200}); several joined by
 *                     {@code " + "}; empty where the file does not say
 * @param ncclPlaced   a fixed plan's all-to-all placed as NCCL places it, each peer's operation on its own channels
 *                     ({@code "placement": "nccl"}: {@code perf --backend cuda}, {@code device alltoall}); false: striped
 *                     over every channel, as the kernels' fidelity sweep runs it
 * @param registered   NCCL registered the call's user buffers ({@code P2pSettings#registered}): an nccl-tests log's
 *                     send/recv or all-to-all captured in CUDA graphs by one process, or a row whose
 *                     {@link #REGISTERED_FIELD} says so ({@code perf -R 1}); false otherwise
 * @param ownCalls     the time is NCCL's own captured call's (an nccl-tests log under {@code -G}), not one timed as the
 *                     profiles' measurements time calls (PyTorch's captured calls: {@code SimCosts#frameworkCallUs})
 */
public record MeasuredRow(String where, CollectiveOp op, int n, long bytes, DataType dtype, Optional<ReduceOp> redop, int root,
                          Optional<Algorithm> algo, Optional<Protocol> proto, int channels, Optional<Algorithm> ncclAlgo,
                          Optional<Protocol> ncclProto, OptionalInt ncclChannels, double timeUs, int nodes, String gpu,
                          boolean ncclPlaced, boolean registered, boolean ownCalls) {

    /** A row timed as the profiles' measurements time calls. */
    public MeasuredRow(String where, CollectiveOp op, int n, long bytes, DataType dtype, Optional<ReduceOp> redop, int root,
                       Optional<Algorithm> algo, Optional<Protocol> proto, int channels, Optional<Algorithm> ncclAlgo,
                       Optional<Protocol> ncclProto, OptionalInt ncclChannels, double timeUs, int nodes, String gpu,
                       boolean ncclPlaced, boolean registered) {
        this(where, op, n, bytes, dtype, redop, root, algo, proto, channels, ncclAlgo, ncclProto, ncclChannels, timeUs, nodes,
                gpu, ncclPlaced, registered, false);
    }

    /**
     * The field of a JSON or CSV row that says NCCL registered its buffers ({@code "true"} or {@code "false"}, absent:
     * false), as {@code perf -R 1} writes it.
     */
    public static final String REGISTERED_FIELD = "registered_buffers";

    /** A row whose buffers NCCL did not register. */
    public MeasuredRow(String where, CollectiveOp op, int n, long bytes, DataType dtype, Optional<ReduceOp> redop, int root,
                       Optional<Algorithm> algo, Optional<Protocol> proto, int channels, Optional<Algorithm> ncclAlgo,
                       Optional<Protocol> ncclProto, OptionalInt ncclChannels, double timeUs, int nodes, String gpu,
                       boolean ncclPlaced) {
        this(where, op, n, bytes, dtype, redop, root, algo, proto, channels, ncclAlgo, ncclProto, ncclChannels, timeUs, nodes,
                gpu, ncclPlaced, false);
    }

    /** A row of a striped all-to-all or of any other op ({@code ncclPlaced} false). */
    public MeasuredRow(String where, CollectiveOp op, int n, long bytes, DataType dtype, Optional<ReduceOp> redop, int root,
                       Optional<Algorithm> algo, Optional<Protocol> proto, int channels, Optional<Algorithm> ncclAlgo,
                       Optional<Protocol> ncclProto, OptionalInt ncclChannels, double timeUs, int nodes, String gpu) {
        this(where, op, n, bytes, dtype, redop, root, algo, proto, channels, ncclAlgo, ncclProto, ncclChannels, timeUs, nodes,
                gpu, false);
    }

    /** A row whose file names neither its hosts nor its GPU model. */
    public MeasuredRow(String where, CollectiveOp op, int n, long bytes, DataType dtype, Optional<ReduceOp> redop, int root,
                       Optional<Algorithm> algo, Optional<Protocol> proto, int channels, Optional<Algorithm> ncclAlgo,
                       Optional<Protocol> ncclProto, OptionalInt ncclChannels, double timeUs) {
        this(where, op, n, bytes, dtype, redop, root, algo, proto, channels, ncclAlgo, ncclProto, ncclChannels, timeUs, 0, "");
    }

    /** @throws NullPointerException if a reference component is null */
    public MeasuredRow {
        Objects.requireNonNull(gpu, "gpu");
        Objects.requireNonNull(where, "where");
        Objects.requireNonNull(op, "op");
        Objects.requireNonNull(dtype, "dtype");
        Objects.requireNonNull(redop, "redop");
        Objects.requireNonNull(algo, "algo");
        Objects.requireNonNull(proto, "proto");
        Objects.requireNonNull(ncclAlgo, "ncclAlgo");
        Objects.requireNonNull(ncclProto, "ncclProto");
        Objects.requireNonNull(ncclChannels, "ncclChannels");
    }

    /**
     * A row of a fixed plan (algorithm, protocol and channels as given), a float32 sum with root 0: the form of the
     * CudaExecutor's timings.
     */
    public static MeasuredRow fixedPlan(String where, CollectiveOp op, int n, Algorithm algo, Protocol proto, int channels,
                                        long bytes, double timeUs) {
        return fixedPlan(where, op, n, algo, proto, channels, bytes, timeUs, false);
    }

    /** As {@link #fixedPlan(String, CollectiveOp, int, Algorithm, Protocol, int, long, double)}, {@code ncclPlaced} given. */
    public static MeasuredRow fixedPlan(String where, CollectiveOp op, int n, Algorithm algo, Protocol proto, int channels,
                                        long bytes, double timeUs, boolean ncclPlaced) {
        return new MeasuredRow(where, op, n, bytes, DataType.FLOAT32, Optional.of(ReduceOp.SUM), 0, Optional.of(algo),
                Optional.of(proto), channels, Optional.empty(), Optional.empty(), OptionalInt.empty(), timeUs, 0, "", ncclPlaced);
    }

    /** This row with another place and time (a merged or synthetic measurement). */
    public MeasuredRow withTime(String where, double timeUs) {
        return new MeasuredRow(where, op, n, bytes, dtype, redop, root, algo, proto, channels, ncclAlgo, ncclProto, ncclChannels,
                timeUs, nodes, gpu, ncclPlaced, registered, ownCalls);
    }

    /** This row with its buffers registered by NCCL or not. */
    public MeasuredRow withRegistered(boolean r) {
        return new MeasuredRow(where, op, n, bytes, dtype, redop, root, algo, proto, channels, ncclAlgo, ncclProto, ncclChannels,
                timeUs, nodes, gpu, ncclPlaced, r, ownCalls);
    }

    /** This row timed as NCCL's own captured call or not ({@link #ownCalls}). */
    public MeasuredRow withOwnCalls(boolean own) {
        return new MeasuredRow(where, op, n, bytes, dtype, redop, root, algo, proto, channels, ncclAlgo, ncclProto, ncclChannels,
                timeUs, nodes, gpu, ncclPlaced, registered, own);
    }

    /** Whether the row names both its algorithm and its protocol (NCCL_ALGO/NCCL_PROTO forced, or a fixed plan). */
    public boolean forced() { return algo.isPresent() && proto.isPresent(); }

    /** The algorithm of a {@link #forced()} row; empty otherwise. */
    public Optional<Algorithm> forcedAlgo() { return forced() ? algo : Optional.empty(); }

    /** The protocol of a {@link #forced()} row; empty otherwise. */
    public Optional<Protocol> forcedProto() { return forced() ? proto : Optional.empty(); }

    /** The channel count of a fixed plan: present where the row is {@link #forced()} and names its channels (≥ 1). */
    public OptionalInt planChannels() { return forced() && channels > 0 ? OptionalInt.of(channels) : OptionalInt.empty(); }

    /** The measurement's mode: {@code default} (NCCL chose) or {@code Algo/Proto} for a forced row. */
    public String mode() {
        return forced() ? algo.get().ncclName() + "/" + proto.get().ncclName() : "default";
    }

    /**
     * The (algorithm, protocol) the row's time belongs to: the forced one, else the one NCCL logged, else {@code P2P}
     * (point-to-point ops log none).
     */
    public String algoProto() {
        if (forced()) return mode();
        if (ncclAlgo.isPresent() && ncclProto.isPresent()) return ncclAlgo.get().ncclName() + "/" + ncclProto.get().ncclName();
        return "P2P";
    }
}
