package io.ccsim.cli;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.scale.Extrapolation;
import io.ccsim.algorithms.scale.Extrapolator;
import io.ccsim.algorithms.scale.NotExtrapolatedException;
import io.ccsim.sim.RunControl;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * A study point in {@code sim_mode} {@code extrapolated}: the row {@code perf --sim-mode extrapolated} prints for the
 * same cluster and call ({@link Extrapolator}: NCCL's choice at the point's nodes, simulated exactly on fewer of the
 * same nodes, its scaling law read at the point's). The point's own cluster is never built.
 *
 * <p>Contract: {@link #run} is a function of the point; a point the mode cannot serve (a topology file, a degraded or
 * down link, a choice without a law, a target too small for its law's samples) gives a result whose {@code error} says
 * why, as perf's refusal does. Not thread-safe: one per worker thread, like {@link SweepEngine}.
 */
final class SweepExtrapolation {
    private final RunControl control;
    /** the heap a point may use, bytes ({@link RunBudget}) */
    private final long maxHeapBytes;

    /**
     * What a point's extrapolation found: the fit ({@code null} where it did not run), the events its samples
     * dispatched, the provenance of the point's cluster (null where the mode refused it before building anything), why
     * it did not run ({@code ""} where it did), and whether that is because NCCL's choice there has no law or the
     * target is too small for its law's samples, or, under {@code auto}, its law reads it beyond the scale goals' bound
     * on a target that folds (where {@code auto} simulates the point folded instead).
     */
    record Result(Extrapolation extrapolation, long events, Provenance provenance, String error, boolean noLaw) {
        Result(Extrapolation extrapolation, long events, Provenance provenance, String error) {
            this(extrapolation, events, provenance, error, false);
        }
    }

    /**
     * Whether point {@code p} is extrapolated when its mode is {@code mode}: always under {@code extrapolated}; under
     * {@code auto} as {@code perf --sim-mode auto} does, for a healthy catalog cluster of more than
     * {@link PerfCommand#AUTO_FOLDED_MAX_GPUS} GPUs (counted without building it).
     */
    static boolean extrapolates(String mode, SweepPoint p) {
        if (SweepEngine.EXTRAPOLATED.equals(mode)) return true;
        return SweepEngine.AUTO.equals(mode) && p.degrade().isEmpty() && p.down().isEmpty()
                && PerfCommand.beyondAutoFolded(p.topology(), options(p));
    }

    /**
     * Whether point {@code p}'s target, folded, fits this JVM's heap by the budget's first estimate (one point at a
     * time; a point that outgrows it is stopped by the heap watch): where not, auto reads the law, its bound stated.
     */
    private boolean targetFits(SweepPoint p) {
        return new RunBudget(maxHeapBytes).fitsCatalog(p.topology(), options(p),
                SimSetup.ncclEnv(p.env()).net(), 1, true, CollectiveOp.ALL_TO_ALL.cliName().equals(p.op()));
    }

    private static BuildOptions options(SweepPoint p) {
        return new BuildOptions(p.gpus(), p.nodes(), p.oversubscription(), p.seed(), p.nicsPerNode(), p.sharp());
    }

    /** The extrapolator of one setup (its sample clusters built once) and the provenance of the setup's cluster. */
    private record Setup(Extrapolator extrapolator, Provenance provenance) { }

    /** Setups kept, as {@link SweepEngine} keeps its runners: the sizes of one setup are adjacent in a study. */
    private static final int KEPT = 4;

    private final Map<String, Setup> setups = new LinkedHashMap<>(8, 0.75f, true);

    /** The setup of catalog point {@code p} of 2 nodes or more, kept across its sizes. */
    private Setup setup(SweepPoint p) {
        String key = p.setupKey();
        Setup kept = setups.get(key);
        if (kept != null) return kept;
        // the samples take the what-ifs that change every link alike; a degraded or down link is refused by run
        SweepWhatIf alike = new SweepWhatIf(List.of(), List.of(), p.nicGbps(), p.nvlinkGbps(), p.routing());
        Map<Integer, Topology> built = new HashMap<>();
        IntFunction<Topology> at = n -> built.computeIfAbsent(n, k -> alike.whatIf().apply(alike.routed(
                TopologyArgs.resolve(p.topology(), p.gpus(), k, p.oversubscription(), p.seed(), p.nicsPerNode(), p.sharp())))
                .topology());
        Topology two = at.apply(2);
        CalibrationProfile prof = SimSetup.profile(null, two);
        BuildOptions target = options(p);
        Extrapolator x = new Extrapolator(at, p.nodes(), TopologyCatalog.fullName(p.topology(), target),
                TopologyCatalog.hostsPerLeaf(target), prof, SimSetup.ncclEnv(p.env()), p.seed());
        x.setRunControl(control);
        Provenance sample = Provenance.of(null, prof, two, x.target().sample(), p.seed());
        Setup s = new Setup(x, new Provenance(sample.ccsimVersion(), sample.ncclModel(), sample.profile(),
                sample.calibrated(), x.target().name(), sample.gpu(), x.target().nRanks(), x.target().nodes(), sample.seed()));
        setups.put(key, s);
        if (setups.size() > KEPT) setups.remove(setups.keySet().iterator().next());
        return s;
    }

    /** @param control the control every sample simulation polls (stop requests), or null for none */
    SweepExtrapolation(RunControl control, long maxHeapBytes) {
        this.control = control;
        this.maxHeapBytes = maxHeapBytes;
    }

    /**
     * Extrapolates point {@code p} (its {@code simMode} is {@code extrapolated}, or {@code auto} beyond the GPUs auto
     * folds); a topology file gives a result without provenance (the caller's own setup has it: the file is small),
     * anything else the point's. Under {@code auto} a choice whose law reads it beyond the scale goals' bound on a
     * target small enough to fold ({@link AutoAtTarget}) is not extrapolated either: the result says so as for a
     * choice without a law ({@link Result#noLaw}), and auto simulates the point folded.
     */
    Result run(SweepPoint p, boolean auto) {
        if (!TopologyArgs.isCatalog(p.topology())) {
            return new Result(null, 0, null, "sim_mode extrapolated needs a catalog topology: it simulates fewer of the"
                    + " same healthy nodes, and a topology file may be uneven or faulty; valid: folded or full");
        }
        if (p.nodes() < 2) {
            return new Result(null, 0, null, "sim_mode extrapolated reads a law of the node count from fewer nodes, so it"
                    + " needs 2 nodes or more; valid: folded or full");
        }
        Setup setup = setup(p);
        Extrapolator x = setup.extrapolator();
        Provenance provenance = setup.provenance();
        if (!p.degrade().isEmpty() || !p.down().isEmpty()) {
            return new Result(null, 0, provenance, "sim_mode extrapolated simulates fewer of the same healthy nodes; a"
                    + " degraded or down link makes the run asymmetric, which no law of the node count describes; valid:"
                    + " folded or full (nic_gbps and nvlink_gbps, which change every link alike, apply)");
        }
        try {
            Extrapolator.SizePlan plan = x.plan(CollectiveOp.parse(p.op()), p.bytes(), DataType.parse(p.dtype()),
                    ReduceOp.SUM, 0);
            if (auto && AutoAtTarget.simulates(plan, x.target().nRanks(), true) && targetFits(p)) {   // auto folds it
                return new Result(null, 0, provenance, AutoAtTarget.why(plan, p.nodes()), true);
            }
            double[] us = new double[plan.samples().size()];
            long events = 0;
            for (int i = 0; i < us.length; i++) {
                Extrapolator.Sample s = plan.samples().get(i);
                PerfRunner r = x.runnerAt(s.nodes());
                us[i] = x.simulate(plan, s, r);
                events += r.lastEvents();
            }
            return new Result(x.fit(plan, us), events, provenance, "");
        } catch (NotExtrapolatedException e) {   // no law, a refused regime, a target too small
            return new Result(null, 0, provenance, e.getMessage(), true);
        } catch (IllegalArgumentException e) {   // nothing to choose, samples that do not suit
            return new Result(null, 0, provenance, e.getMessage());
        }
    }
}
