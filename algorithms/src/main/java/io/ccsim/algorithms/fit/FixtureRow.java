package io.ccsim.algorithms.fit;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One graph-replay measurement: a row of an NCCL calibration fixture (calibration/nccl-h200/*.json, taken by
 * tools/nccl-measure/measure.py; see its README for how), or a row of the CudaExecutor's own timings
 * (gpu-backend/results/h200x4/timing.json, read by {@link KernelTimings}), which ran a fixed plan.
 *
 * @param source        file and row index, for messages
 * @param op            the collective
 * @param nRanks        ranks of the communicator (GPUs of one HGX board)
 * @param forcedAlgo    the NCCL_ALGO forced for the row, empty in NCCL's default mode
 * @param forcedProto   the NCCL_PROTO forced for the row, empty in NCCL's default mode
 * @param bytes         nccl-tests' {@code size} in bytes
 * @param timeUs        measured time of one collective, µs (mean over ranks of the median over replays)
 * @param ncclAlgo      the algorithm NCCL logged for the row, empty for p2p ops (which log none)
 * @param ncclProto     the protocol NCCL logged for the row, empty for p2p ops
 * @param ncclChannels  the channel count NCCL logged, empty for p2p ops
 * @param planChannels  the channel count the row ran with a fixed plan (the CudaExecutor's rows: forced algorithm,
 *                      protocol and channels, predicted with exactly that plan); empty where the tuner chose
 *                      (NCCL fixtures)
 */
public record FixtureRow(String source, CollectiveOp op, int nRanks, Optional<Algorithm> forcedAlgo,
                         Optional<Protocol> forcedProto, long bytes, double timeUs, Optional<Algorithm> ncclAlgo,
                         Optional<Protocol> ncclProto, OptionalInt ncclChannels, OptionalInt planChannels) {

    public FixtureRow {
        if (planChannels.isPresent()) {
            if (forcedAlgo.isEmpty() || forcedProto.isEmpty()) {
                throw new IllegalArgumentException(source + ": a fixed plan (channels " + planChannels.getAsInt()
                        + ") needs its algorithm and protocol");
            }
            if (planChannels.getAsInt() < 1) {
                throw new IllegalArgumentException(source + ": channels must be >= 1, got " + planChannels.getAsInt());
            }
        }
    }

    /** An NCCL fixture row: the channel count is the tuner's ({@code planChannels} empty). */
    public FixtureRow(String source, CollectiveOp op, int nRanks, Optional<Algorithm> forcedAlgo,
                      Optional<Protocol> forcedProto, long bytes, double timeUs, Optional<Algorithm> ncclAlgo,
                      Optional<Protocol> ncclProto, OptionalInt ncclChannels) {
        this(source, op, nRanks, forcedAlgo, forcedProto, bytes, timeUs, ncclAlgo, ncclProto, ncclChannels, OptionalInt.empty());
    }

    /** Whether the row was measured with NCCL_ALGO/NCCL_PROTO forced. */
    public boolean forced() { return forcedAlgo.isPresent(); }

    /** The fixture's mode column: {@code default} or {@code Algo/Proto}. */
    public String mode() {
        return forced() ? forcedAlgo.get().ncclName() + "/" + forcedProto.get().ncclName() : "default";
    }

    /**
     * The (algorithm, protocol) the row's time belongs to: the forced one, else the one NCCL reported,
     * else {@code P2P} for point-to-point ops.
     */
    public String algoProto() {
        if (forced()) return mode();
        if (ncclAlgo.isPresent() && ncclProto.isPresent()) return ncclAlgo.get().ncclName() + "/" + ncclProto.get().ncclName();
        return "P2P";
    }
}
