package io.ccsim.algorithms.fit;

import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.measurements.MeasuredRow;
import io.ccsim.algorithms.perf.PerfRow;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Predicts fixture rows exactly as {@code ccsim perf} would: the {@link PerfRunner} on
 * {@code hgx-h200} with {@code n} GPUs of one board, float32 sum, root 0; forced rows run with
 * NCCL_ALGO/NCCL_PROTO set to the row's mode, default rows with an empty environment (NCCL's choice
 * by the tuner). Rows with a fixed plan ({@link MeasuredRow#planChannels()}, the CudaExecutor's timings) are
 * simulated with exactly that plan (algorithm, protocol, channels), as {@code ccsim validate} does. Rows are
 * simulated in parallel; every simulation is seeded and independent, so the result does not depend on the thread count.
 */
final class FixturePredictor {
    /** The topology the fixtures were measured on (4 × H200 of an HGX board, NVSwitch). */
    static final String TOPOLOGY = "hgx-h200";
    private static final long SEED = 1;

    private final Map<Integer, Topology> topologies = new HashMap<>();

    /** Builds the predictor; topologies are built once per rank count. */
    FixturePredictor() {}

    private synchronized Topology topology(int n) {
        return topologies.computeIfAbsent(n, k -> TopologyCatalog.build(TOPOLOGY, BuildOptions.of(k, 1)));
    }

    /** The NCCL environment of a row: NCCL_ALGO and NCCL_PROTO for forced rows, empty for default ones. */
    static NcclEnv envOf(MeasuredRow row) {
        if (!row.forced()) return NcclEnv.empty();
        return NcclEnv.parse(Map.of(NcclEnv.NCCL_ALGO, row.forcedAlgo().get().ncclName(),
                NcclEnv.NCCL_PROTO, row.forcedProto().get().ncclName()));
    }

    /** Predicts one row with {@code profile}. */
    Prediction predict(CalibrationProfile profile, MeasuredRow row) {
        if (row.planChannels().isPresent()) {
            PerfRunner runner = new PerfRunner(topology(row.n()), row.n(), profile, NcclEnv.empty(), SEED);
            long count = runner.countFor(row.op(), row.bytes(), DataType.FLOAT32);
            if (count == 0) throw new IllegalArgumentException(row.where() + ": " + row.bytes() + " B is less than one float per rank");
            // the CudaExecutor times back-to-back graph replays: predict the mean per call of as many, with its skew
            PerfRow r = runner.simulateGraphReplay(row.op(), count, DataType.FLOAT32, ReduceOp.SUM, 0, row.forcedAlgo().get(),
                    row.forcedProto().get(), row.planChannels().getAsInt(), row.ncclPlaced());
            return new Prediction(row, r.timeUs(), r.algo(), r.proto(), r.channels());
        }
        PerfRunner runner = new PerfRunner(topology(row.n()), row.n(), profile, envOf(row), SEED);
        runner.setRegisteredP2p(row.registered());
        runner.setOwnCalls(row.ownCalls());
        PerfRow r = runner.run(row.op(), row.bytes(), DataType.FLOAT32, ReduceOp.SUM, 0);
        return new Prediction(row, r.timeUs(), r.algo(), r.proto(), r.channels());
    }

    /** Predicts every row with {@code profile}, in the rows' order. */
    List<Prediction> predictAll(CalibrationProfile profile, List<MeasuredRow> rows) {
        for (MeasuredRow r : rows) topology(r.n());
        Prediction[] out = new Prediction[rows.size()];
        IntStream.range(0, rows.size()).parallel().forEach(i -> out[i] = predict(profile, rows.get(i)));
        return List.of(out);
    }
}
