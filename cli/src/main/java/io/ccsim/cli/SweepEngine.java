package io.ccsim.cli;

import com.google.gson.JsonObject;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.perf.PerfRow;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.perf.StalledRunException;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.sim.SimExecution;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.sim.RunControl;
import io.ccsim.topology.Topology;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Simulates the points of a study, one row each: the engine that both the local sweep and the Spark executors run,
 * so that both give the same rows for the same points.
 *
 * <p>Contract: {@link #row} is a function of the point alone (the same JSON text for the same point, on any thread,
 * in any order, on any machine with the same ccsim build); a point NCCL cannot run (an algorithm refused for the op,
 * a down link that stalls the collective) gives a row whose {@code error} says why and whose numbers are empty.
 * One instance per worker thread: it keeps the runner of its last few setups (topology, what-ifs, NCCL variables,
 * seed, mode) so that the sizes of one setup do not rebuild it. Not thread-safe.
 */
public final class SweepEngine {
    /** Setups whose runner is kept: a few, since the points of one setup are adjacent in a study. */
    private static final int KEPT = 4;

    private final RunControl control;
    private final Map<String, Setup> setups = new LinkedHashMap<>(8, 0.75f, true);
    private final SweepExtrapolation extrapolation;

    /** The {@code sim_mode} whose rows are extrapolated ({@link SweepExtrapolation}), not simulated at the point. */
    static final String EXTRAPOLATED = "extrapolated";
    /**
     * The {@code sim_mode} that extrapolates a point where {@code perf --sim-mode auto} would (a healthy catalog cluster
     * beyond {@link PerfCommand#AUTO_FOLDED_MAX_GPUS} GPUs whose choice has a law) and simulates it folded otherwise.
     */
    static final String AUTO = "auto";

    /** The runner of one setup, and its provenance. */
    private record Setup(PerfRunner runner, Provenance provenance) { }

    /** @param control the control every simulation polls (stop requests), or null for none */
    public SweepEngine(RunControl control) {
        this(control, Runtime.getRuntime().maxMemory());
    }

    /**
     * @param control      the control every simulation polls (stop requests), or null for none
     * @param maxHeapBytes the heap a point may use ({@link RunBudget}): where auto's folded run at the target does
     *                     not fit it, the law answers
     */
    public SweepEngine(RunControl control, long maxHeapBytes) {
        this.control = control;
        this.extrapolation = new SweepExtrapolation(control, maxHeapBytes);
    }

    /** The row of {@code p} as one line of JSON (keys of {@link SweepRows#COLUMNS}, in that order). */
    public String row(SweepPoint p) {
        return SweepRows.json(rowObject(p));
    }

    /** The row of {@code p} as a JSON object. */
    public JsonObject rowObject(SweepPoint p) {
        SweepExtrapolation.Result ex = SweepExtrapolation.extrapolates(p.simMode(), p)
                ? extrapolation.run(p, AUTO.equals(p.simMode())) : null;
        if (ex != null && ex.noLaw() && AUTO.equals(p.simMode())) ex = null;   // auto simulates it folded instead
        Provenance provenance = ex != null && ex.provenance() != null ? ex.provenance() : setup(p).provenance();
        JsonObject o = new JsonObject();
        o.addProperty("point", p.index());
        o.addProperty("id", p.id());
        provenance.addTo(o);
        o.addProperty("nics_per_node", p.nicsPerNode());
        o.addProperty("oversubscription", p.oversubscription());
        o.addProperty("sharp", p.sharp());
        o.addProperty("what_if", p.whatIfText());
        o.addProperty("env", p.envText());
        o.addProperty("sim_mode", p.simMode());
        o.addProperty("op", p.op());
        o.addProperty("dtype", p.dtype());
        o.addProperty("bytes", p.bytes());
        CollectiveOp op = CollectiveOp.parse(p.op());
        DataType dt = DataType.parse(p.dtype());
        long count = PerfRunner.countFor(op, p.bytes(), dt, provenance.ranks());
        o.addProperty("count", count);
        PerfRow row = null;
        long events = 0;
        String error = "";
        if (count == 0 && p.bytes() != 0) {
            error = "below one element per rank (nccl-tests skips this size)";
        } else if (ex != null) {
            row = ex.extrapolation() == null ? null : ex.extrapolation().row();
            events = ex.events();
            error = ex.error();
        } else {
            PerfRunner r = setup(p).runner();
            try {
                String tooLong = "full".equals(p.simMode()) ? null : foldingReadsProblem(r, op, p, dt);
                if (tooLong != null) throw new IllegalArgumentException(tooLong);   // the point's error, as perf's refusal
                row = r.run(op, p.bytes(), dt, ReduceOp.SUM, 0, 1);
                events = r.lastEvents();
            } catch (StalledRunException e) {
                error = "never completes: " + e.getMessage();
            } catch (IllegalArgumentException e) {
                error = e.getMessage();
            }
        }
        SweepRows.perf(o, row, events);
        SweepRows.law(o, ex == null ? null : ex.extrapolation());
        o.addProperty("error", error);
        return o;
    }

    /** Why point {@code p}'s rank folding may not run ({@link PerfSizes#foldingReadsProblem}), or null. */
    private static String foldingReadsProblem(PerfRunner r, CollectiveOp op, SweepPoint p, DataType dt) {
        io.ccsim.algorithms.plan.Plan plan = r.plan(op, p.bytes(), dt, ReduceOp.SUM, 0);
        return PerfSizes.foldingReadsProblem(plan, io.ccsim.algorithms.sim.FoldingReads.of(plan), p.nodes(),
                io.ccsim.algorithms.sim.FoldingReads.LIMIT);
    }

    private Setup setup(SweepPoint p) {
        String key = p.setupKey();
        Setup s = setups.get(key);
        if (s != null) return s;
        NcclEnv nccl = SimSetup.ncclEnv(p.env());
        Topology base = TopologyArgs.resolve(p.topology(), p.gpus(), p.nodes(), p.oversubscription(), p.seed(),
                p.nicsPerNode(), p.sharp());
        SweepWhatIf w = new SweepWhatIf(p.degrade(), p.down(), p.nicGbps(), p.nvlinkGbps(), p.routing());
        io.ccsim.topology.WhatIf.Result applied;
        try {
            applied = w.whatIf().apply(w.routed(base));
        } catch (IllegalArgumentException e) {
            throw new UserException("point " + p.index() + " (" + p.whatIfText() + "): " + e.getMessage(), e);
        }
        Topology t = applied.topology();
        CalibrationProfile prof = SimSetup.profile(null, t);
        PerfRunner r = new PerfRunner(t, t.gpus().size(), prof, nccl, p.seed());
        r.setFolding("full".equals(p.simMode()) ? SimExecution.Folding.NONE : SimExecution.Folding.RANKS);
        r.setRunControl(control);
        s = new Setup(r, Provenance.of(null, prof, t, r.graph(), p.seed()));
        setups.put(key, s);
        if (setups.size() > KEPT) setups.remove(setups.keySet().iterator().next());
        return s;
    }

    /**
     * The runner that simulates {@code p} (built for its setup if not kept), e.g. for progress; null for an
     * extrapolated point, whose cluster is never built.
     */
    PerfRunner runnerFor(SweepPoint p) {
        return SweepExtrapolation.extrapolates(p.simMode(), p) ? null : setup(p).runner();
    }
}
