package io.ccsim.cli;

import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.measurements.MeasuredRow;
import io.ccsim.algorithms.perf.PerfRow;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.scenarios.incident.IncidentTrace;
import io.ccsim.topology.Topology;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What ccsim simulates for an nccl-tests row, as {@code ccsim validate} does it: the row's ranks on the board of the
 * GPU model its file names ({@link MeasuredTarget}), the built-in profile of that GPU, NCCL's default choice under the
 * given NCCL_* variables. A row of a GPU ccsim has no board for, or of one rank, is not judged (empty).
 */
final class SimulatedExpectation implements IncidentTrace.Expectation {
    private final NcclEnv nccl;
    private final Map<MeasuredTarget, PerfRunner> runners = new HashMap<>();
    private final java.util.List<Provenance> simulated = new java.util.ArrayList<>();

    SimulatedExpectation(NcclEnv nccl) {
        this.nccl = nccl;
    }

    /** The provenance of every simulation made so far, in the order they were set up. */
    java.util.List<Provenance> simulated() {
        return java.util.List.copyOf(simulated);
    }

    @Override
    public Optional<IncidentTrace.Expected> of(MeasuredRow row) {
        if (row.n() < 2) return Optional.empty();
        MeasuredTarget target;
        try {
            target = MeasuredTarget.of(row, row.n(), null);
        } catch (UserException noBoard) {
            return Optional.empty();
        }
        PerfRunner runner = runners.computeIfAbsent(target, t -> {
            Topology topo = TopologyArgs.resolve(t.topology(), t.gpusPerNode(), t.nodes(), 1.0, 0);
            CalibrationProfile prof = SimSetup.profile(null, topo);
            PerfRunner r = new PerfRunner(topo, t.ranks(), prof, nccl, 0);
            simulated.add(Provenance.of(null, prof, topo, r.graph(), 0));
            return r;
        });
        long count = runner.countOf(row.op(), row.bytes(), row.dtype());
        if (count == 0) return Optional.empty();
        PerfRow r = runner.runCount(row.op(), count, row.dtype(), row.redop().orElse(ReduceOp.SUM), 0, 1);
        return Optional.of(new IncidentTrace.Expected(r.timeUs(), target.topology() + ", " + row.n() + " ranks, NCCL's default "
                + r.algo().ncclName() + "/" + r.proto().ncclName()));
    }
}
