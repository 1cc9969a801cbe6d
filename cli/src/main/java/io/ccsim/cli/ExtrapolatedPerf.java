package io.ccsim.cli;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.perf.PerfRow;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.scale.Extrapolation;
import io.ccsim.algorithms.scale.Extrapolator;
import io.ccsim.algorithms.scale.NotExtrapolatedException;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.algorithms.tuner.TunerException;
import io.ccsim.sim.RunStoppedException;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code perf --sim-mode extrapolated}: the rows of a cluster too large to simulate, each from exact (folded)
 * simulations of NCCL's choice at the target on fewer of the same nodes and the choice's scaling law
 * ({@link Extrapolator}). The target is never built, but where {@code --sim-mode auto} simulates a size there
 * ({@link AutoAtTarget}: a law that misses the scale goals' 2 % on a target that folds); the budget covers the clusters
 * built and the simulations.
 *
 * <p>Contract: refuses, before simulating, a topology file (it may be faulty or uneven: a degraded link makes the
 * run asymmetric, which no law of the node count describes), {@code -n} &gt; 1, {@code -R 2}, {@code --symm-mem},
 * and any size whose choice at the target has no law, each in one line naming what is valid. The text output ends
 * with {@code # mode: extrapolated ...}: the node counts simulated, each size's law, its fit and the law's measured
 * error bound; sizes simulated at the target have a {@code # mode: folded (exact) at N nodes ...} part of their own,
 * and their JSON and CSV rows say {@code sim_mode} "folded", no law and a bound of 0.
 */
final class ExtrapolatedPerf {
    private final PerfCommand cmd;
    private final Main.Session session;
    private SampleClusters clusters;

    /** One simulation of one size: which size, which sample ({@link #AT_TARGET}: the target itself). */
    private record Item(int size, int sample) { }

    /** {@link Item#sample} of a size simulated at the target itself ({@link AutoAtTarget}). */
    private static final int AT_TARGET = -1;

    /**
     * A simulation's time and what it took; {@code simulated} of {@code workers} workers where it ran at the target
     * (0 of 0 for a sample).
     */
    private record SampleRun(double us, long events, long flows, long simulated, long workers) { }

    ExtrapolatedPerf(PerfCommand cmd, Main.Session session) {
        this.cmd = cmd;
        this.session = session;
    }

    /** Runs the sizes (nccl-tests' sweep) and prints; the exit code. */
    int call(CollectiveOp cop, DataType dt, ReduceOp ro, long[] sizes, NcclEnv nccl, int threads, int[] samples,
             boolean auto) {
        refuseWhatDoesNotApply();
        clusters = new SampleClusters(cmd.topology, cmd.gpuCount(), cmd.whatIf, cmd.sharp, cmd.seed, session, nccl, threads);
        SampleClusters.Start start = clusters.start(cmd.profile, cmd.nodes, sizes.length > 0 ? sizes[sizes.length - 1] : 0,
                auto ? "perf --sim-mode auto" : "perf --sim-mode extrapolated");
        CalibrationProfile prof = start.profile();
        Extrapolator ex = start.extrapolator();
        ex.setSampleNodes(samples);
        List<Extrapolator.SizePlan> plans = plan(ex, cop, dt, ro, sizes, auto);
        // auto with its own samples: the sizes no law reads to the scale goals' bound run at the target where it fits
        // (at the concurrency the clusters' builds are budgeted at, so that the target's build is not refused after all)
        boolean targetFits = auto && samples == null && anySimulatedAtTarget(plans, ex.target().nRanks())
                && cmd.catalogFits(nccl, threads, cop);
        Work w = work(ex, plans, targetFits);
        int k = Math.min(threads, w.items().size());
        if (w.atTarget()) {   // the target's plans as planned: fewer at once where they need it, else their laws answer
            while (k >= 1 && !session.budget().fits(RunBudget.samples(clusters.built(), w.plans(), k))) k--;
            if (k == 0) {
                w = work(ex, plans, false);
                k = Math.min(threads, w.items().size());
            }
        }
        List<Item> items = w.items();
        List<Plan> samplePlans = w.plans();
        String what = auto ? "perf --sim-mode auto" : "perf --sim-mode extrapolated";
        session.budget().check(what, n -> RunBudget.samples(clusters.built(), samplePlans, n), k, 0);
        long t0 = System.nanoTime();
        Progress progress = cmd.progressOption.open(cmd.spec.commandLine().getErr(), session);
        long[] work = new long[items.size()];
        for (int i = 0; i < work.length; i++) work[i] = progress.enabled() ? samplePlans.get(i).totalSteps() : 1;
        Sweep<Item, SampleRun> sweep = new Sweep<>(items, work, i -> label(plans, items.get(i), ex.target().nodes()),
                progress, session.control());
        ThreadLocal<PerfRunner> atTarget = new ThreadLocal<>();   // one runner on the target per thread, when needed
        List<SampleRun> runs;
        try {
            runs = sweep.run(() -> null, k, (none, item, part) -> {
                Extrapolator.SizePlan p = plans.get(item.size());
                if (item.sample() == AT_TARGET) {
                    PerfRunner r = atTarget.get();
                    if (r == null) {
                        r = ex.runnerAt(ex.target().nodes());
                        atTarget.set(r);
                    }
                    part.runner(r);
                    double us = ex.simulateAtTarget(p, r).timeUs();
                    return new SampleRun(us, r.lastEvents(), r.lastFlows(), r.lastSimulatedWorkers(), r.lastWorkers());
                }
                Extrapolator.Sample s = p.samples().get(item.sample());
                PerfRunner r = ex.runnerAt(s.nodes());
                part.runner(r);
                double us = ex.simulate(p, s, r);
                return new SampleRun(us, r.lastEvents(), r.lastFlows(), 0, 0);
            });
        } catch (IllegalArgumentException e) {   // the planner refusing the choice on a sample
            throw new UserException("perf --sim-mode extrapolated: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserException("perf: interrupted", e);
        }
        double wall = (System.nanoTime() - t0) / 1e9;
        return print(ex, plans, items, runs, cop, sizes, prof, ex.target().name(), wall, sweep.stopped(), auto);
    }

    /** Whether auto would simulate one of {@code plans} at a target of {@code gpus} GPUs, were it to fit. */
    private static boolean anySimulatedAtTarget(List<Extrapolator.SizePlan> plans, long gpus) {
        for (Extrapolator.SizePlan p : plans) if (AutoAtTarget.simulates(p, gpus, true)) return true;
        return false;
    }

    /** The simulations of a run: an item and a plan each, and whether any runs at the target. */
    private record Work(List<Item> items, List<Plan> plans, boolean atTarget) { }

    /** The simulations of {@code plans}: at the target those auto simulates there (where {@code targetFits}), else samples. */
    private static Work work(Extrapolator ex, List<Extrapolator.SizePlan> plans, boolean targetFits) {
        List<Item> items = new ArrayList<>();
        List<Plan> samplePlans = new ArrayList<>();
        PerfRunner targetPlanner = null;   // plans the sizes simulated at the target (one runner for all of them)
        for (int i = 0; i < plans.size(); i++) {
            Extrapolator.SizePlan p = plans.get(i);
            if (AutoAtTarget.simulates(p, ex.target().nRanks(), targetFits)) {
                if (targetPlanner == null) targetPlanner = ex.runnerAt(ex.target().nodes());
                samplePlans.add(ex.targetPlan(p, targetPlanner));
                items.add(new Item(i, AT_TARGET));
                continue;
            }
            for (int j = 0; j < p.samples().size(); j++) {
                samplePlans.add(ex.samplePlan(p, p.samples().get(j)));
                items.add(new Item(i, j));
            }
        }
        return new Work(items, samplePlans, targetPlanner != null);
    }

    /**
     * {@code --sim-mode auto} met a size whose choice has no law, or a target too small for its law's samples: the run
     * is not extrapolated (nothing was simulated or printed yet), and auto simulates it folded instead.
     */
    static final class NoLaw extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NoLaw(NotExtrapolatedException cause) {
            super(cause.getMessage(), cause);
        }

        /** Whether the choice has a law but the target is too small for its samples. */
        boolean tooSmall() { return ((NotExtrapolatedException) getCause()).tooSmall(); }
    }

    /**
     * The per-size plans at the target, refusing (one line) a size whose choice has no law, or, for {@code auto},
     * throwing {@link NoLaw}.
     */
    private List<Extrapolator.SizePlan> plan(Extrapolator ex, CollectiveOp cop, DataType dt, ReduceOp ro, long[] sizes,
                                             boolean auto) {
        List<Extrapolator.SizePlan> plans = new ArrayList<>();
        for (long s : sizes) {
            if (ex.countFor(cop, s, dt) == 0 && s != 0) continue; // nccl-tests skips sizes below one element per rank
            try {
                plans.add(ex.plan(cop, s, dt, ro, cmd.root));
            } catch (TunerException e) {
                throw new UserException(e.getMessage(), e);
            } catch (NotExtrapolatedException e) {
                if (auto) throw new NoLaw(e);
                if (e.tooSmall()) throw new UserException("perf --sim-mode extrapolated: " + e.getMessage(), e);
                throw new UserException("perf --sim-mode extrapolated: " + e.getMessage() + "; valid here: --sim-mode"
                        + " folded or full (at a node count that fits), or NCCL_ALGO or NCCL_PROTO for a choice with a law", e);
            } catch (IllegalArgumentException e) {
                throw new UserException("perf --sim-mode extrapolated" + (cmd.extrapolateFrom == null ? "" : " --extrapolate-from")
                        + ": " + e.getMessage(), e);
            }
        }
        return plans;
    }

    /**
     * For a run folded by default (no {@code --sim-mode}) on a catalog cluster beyond auto's folded limit: the note
     * that {@code --sim-mode auto} would extrapolate some of its sizes in seconds, naming the laws and their bounds, or
     * null where it would extrapolate none. Plans the sizes at the target only (NCCL's choice there, a chain's train
     * on 2 nodes); simulates nothing.
     */
    String autoNote(CollectiveOp cop, DataType dt, ReduceOp ro, long[] sizes, NcclEnv nccl, int threads, int gpus) {
        Extrapolator ex;
        try {
            refuseWhatDoesNotApply();
            clusters = new SampleClusters(cmd.topology, cmd.gpuCount(), cmd.whatIf, cmd.sharp, cmd.seed, session, nccl,
                    threads);
            ex = clusters.start(cmd.profile, cmd.nodes, 0, "perf --sim-mode auto").extrapolator();
        } catch (UserException | IllegalArgumentException e) {
            return null;   // auto would not extrapolate this run at all: nothing to suggest
        }
        Map<String, Double> laws = new TreeMap<>();
        int served = 0;
        int counted = 0;
        Boolean targetFits = null;   // checked once a size needs it
        for (long s : sizes) {
            if (ex.countFor(cop, s, dt) == 0 && s != 0) continue;
            counted++;
            try {
                Extrapolator.SizePlan p = ex.plan(cop, s, dt, ro, cmd.root);
                if (AutoAtTarget.simulates(p, gpus, true)) {
                    if (targetFits == null) targetFits = cmd.catalogFits(nccl, threads, cop);
                    if (targetFits) continue;   // auto would simulate it here too
                }
                laws.merge(p.law().name(), p.law().errorBoundPct(p.algo()), Math::max);
                served++;
            } catch (RuntimeException e) {   // no law, a refused regime, or nothing to choose: auto runs it folded too
                continue;
            }
        }
        if (served == 0) return null;
        StringBuilder named = new StringBuilder();
        laws.forEach((l, b) -> named.append(named.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT,
                "%s <= %.2f %%", l, b)));
        return String.format(Locale.ROOT, "ccsim: note: perf simulates all %,d GPUs folded (exact), which may take long"
                + " where ranks do not fold; --sim-mode auto would extrapolate %s from fewer nodes in seconds (law %s)",
                gpus, counted == 1 ? "it" : served + " of these " + counted + " sizes", named);
    }

    /** The options this mode cannot honour, refused in one line each. */
    private void refuseWhatDoesNotApply() {
        refuseAsymmetric(cmd.topology, cmd.whatIf, "--sim-mode folded or full");
        if (cmd.iters != 1) {
            throw new UserException("-n/--iters " + cmd.iters + ": --sim-mode extrapolated times one call; valid: 1");
        }
        if (cmd.register == 2 || cmd.symmMem != null) {
            throw new UserException((cmd.register == 2 ? "-R 2" : "--symm-mem") + " runs inside one node;"
                    + " --sim-mode extrapolated is for clusters of many nodes");
        }
    }

    /**
     * Refuses, in one line, what no extrapolation describes: a topology file (it may be uneven or faulty) or a degraded
     * or down link; {@code valid} names the modes that simulate it ("--sim-mode folded or full").
     */
    static void refuseAsymmetric(String topology, WhatIfOptions whatIf, String valid) {
        if (!TopologyArgs.isCatalog(topology)) {
            throw new UserException("--sim-mode extrapolated needs a catalog topology (--topology " + String.join("|",
                    TopologyCatalog.names()) + " with --nodes): it simulates fewer of the same healthy nodes; a topology"
                    + " file may be uneven or faulty (a degraded link makes the run asymmetric), so simulate it with "
                    + valid);
        }
        if (!whatIf.degrade.isEmpty() || !whatIf.down.isEmpty()) {
            throw new UserException((whatIf.degrade.isEmpty() ? "--down" : "--degrade") + ": --sim-mode extrapolated"
                    + " simulates fewer of the same healthy nodes; a degraded or down link makes the run asymmetric, which no"
                    + " law of the node count describes: simulate it with " + valid + " (--nic-gbps and --nvlink-gbps,"
                    + " which change every link alike, apply)");
        }
    }

    private static String label(List<Extrapolator.SizePlan> plans, Item item, int targetNodes) {
        Extrapolator.SizePlan p = plans.get(item.size());
        return String.format(Locale.ROOT, "perf %s %s %s on %d nodes", p.op().cliName(), Sizes.human(p.bytes()), p.choice(),
                item.sample() == AT_TARGET ? targetNodes : p.samples().get(item.sample()).nodes());
    }

    /** A size's row and how it was found: a law's reading, or (law null) its simulation at the target. */
    private record Served(PerfRow row, Extrapolation law) { }

    /**
     * Fits every size whose samples all ran (takes a size simulated at the target as it ran), prints them, and returns
     * the exit code.
     */
    private int print(Extrapolator ex, List<Extrapolator.SizePlan> plans, List<Item> items, List<SampleRun> runs,
                      CollectiveOp cop, long[] sizes, CalibrationProfile prof, String targetName, double wall,
                      RunStoppedException stopped, boolean auto) {
        List<Served> served = new ArrayList<>();
        List<Extrapolation> done = new ArrayList<>();
        List<Extrapolator.SizePlan> atTarget = new ArrayList<>();
        List<Long> missing = new ArrayList<>();
        long events = 0;
        long flows = 0;
        long simulated = 0;
        long workers = 0;
        int at = 0;
        for (int i = 0; i < plans.size(); i++) {
            Extrapolator.SizePlan p = plans.get(i);
            if (items.get(at).sample() == AT_TARGET) {
                SampleRun r = runs.get(at++);
                if (r == null) {
                    missing.add(p.bytes());
                    continue;
                }
                events += r.events();
                flows += r.flows();
                simulated = Math.max(simulated, r.simulated());
                workers = Math.max(workers, r.workers());
                atTarget.add(p);
                served.add(new Served(ex.rowAt(p, r.us()), null));
                continue;
            }
            double[] us = new double[p.samples().size()];
            boolean complete = true;
            for (int j = 0; j < us.length; j++, at++) {
                SampleRun r = runs.get(at);
                if (r == null) {
                    complete = false;
                    continue;
                }
                us[j] = r.us();
                events += r.events();
                flows += r.flows();
            }
            if (complete) {
                Extrapolation e = ex.fit(p, us);
                done.add(e);
                served.add(new Served(e.row(), e));
            } else {
                missing.add(p.bytes());
            }
        }
        List<PerfRow> rows = new ArrayList<>();
        for (Served x : served) rows.add(x.row());
        int targetNodes = ex.target().nodes();
        java.util.function.IntFunction<List<String>> values = i -> served.get(i).law() == null
                ? AutoAtTarget.values(served.get(i).row(), targetNodes) : values(served.get(i).law());
        String note = stopped == null ? null : "by " + stopped.reason() + ": " + PerfCommand.notDone("rows", plans.size(), missing);
        PrintWriter out = cmd.spec.commandLine().getOut();
        Topology two = clusters.at(2);
        Provenance provenance = SampleClusters.provenance(cmd.profile, prof, two, ex, cmd.seed);
        switch (cmd.format) {
            case json: PerfRowFormats.printJson(out, rows, provenance, COLUMNS, values); break;
            case csv: PerfRowFormats.printCsv(out, rows, provenance, COLUMNS, values); break;
            default:
                cmd.printText(out, rows, targetName, two.routing(), ex.target().nRanks(), targetNodes, ex.target().sample(), cop,
                        sizes, (atTarget.isEmpty() ? "extrapolated" : done.isEmpty() ? "folded" : "extrapolated and folded")
                                + ", NCCL " + CalibrationProfile.NCCL_VERSION + " model",
                        "profile " + SimSetup.profileLabel(cmd.profile, prof));
                if (atTarget.isEmpty()) {
                    out.printf(Locale.ROOT, "# extrapolated %d sizes in %.2f s wall from %d simulations on fewer nodes: %d"
                            + " events, %d flows%n", rows.size(), wall, items.size(), events, flows);
                } else {
                    out.printf(Locale.ROOT, "# simulated %d size%s at %,d nodes%s in %.2f s wall from %d simulations: %d"
                            + " events, %d flows%n", atTarget.size(), atTarget.size() == 1 ? "" : "s", targetNodes,
                            done.isEmpty() ? "" : " and extrapolated " + done.size(), wall, items.size(), events, flows);
                    for (String line : AutoAtTarget.modeLines(atTarget, targetNodes, simulated, workers)) out.println(line);
                }
                if (!done.isEmpty()) {
                    for (String line : modeLines(done, targetNodes, auto, false, !atTarget.isEmpty())) out.println(line);
                }
                if (note != null) out.println("# interrupted " + note);
                out.println("#");
        }
        out.flush();
        if (stopped == null) return 0;
        PrintWriter err = cmd.spec.commandLine().getErr();
        err.println("ccsim: perf stopped " + note);
        err.flush();
        return StopSignals.exitCode(stopped.reason());
    }

    /**
     * The extrapolation's own JSON keys and CSV columns, after the provenance's: how the row was found. The samples'
     * node counts and nccl-tests sizes (bytes) are space-separated lists in the same order, one entry per simulation.
     */
    static final List<String> COLUMNS = List.of("sim_mode", "law", "samples_nodes", "samples_bytes", "error_bound_pct");

    private static List<String> values(Extrapolation e) {
        String bytes = java.util.Arrays.stream(e.sampleBytes()).mapToObj(Long::toString)
                .collect(java.util.stream.Collectors.joining(" "));
        return List.of("extrapolated", e.law().name(), join(e.sampleNodes()).replace(", ", " "), bytes,
                String.format(Locale.ROOT, "%.2f", e.errorBoundPct()));
    }

    /**
     * The footer: which mode, then per law and sample set the sizes it served, the node counts simulated, each size's
     * sample times and the law's measured error bound. {@code byCall}: the rows are distinct calls of several
     * collectives (ddp's), each line naming its op; {@code others}: the other sizes were simulated at the target
     * ({@link AutoAtTarget}), so these are the sizes not simulated there.
     */
    static List<String> modeLines(List<Extrapolation> done, int targetNodes, boolean auto, boolean byCall, boolean others) {
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "# mode: extrapolated%s: %s at %,d nodes; each %s choice there"
                + " simulated exactly (folded) on fewer nodes and its scaling law read at %,d nodes",
                auto ? " (--sim-mode auto)" : "", others ? "the other sizes not simulated" : "not simulated", targetNodes,
                byCall ? "distinct collective's" : "size's", targetNodes));
        Map<String, List<Extrapolation>> byLaw = new TreeMap<>();
        for (Extrapolation e : done) {
            byLaw.computeIfAbsent(e.law().name() + " " + java.util.Arrays.toString(e.sampleNodes()) + " "
                    + e.law().boundScope(e.row().algo()), x -> new ArrayList<>()).add(e);
        }
        for (List<Extrapolation> group : byLaw.values()) {
            Extrapolation first = group.get(0);
            lines.add(String.format(Locale.ROOT, "#   law %s: %s; simulated on %s nodes; measured error of this law%s <= %.2f"
                    + " %% (validation grid, docs/performance.md)", first.law().name(), first.law().description(),
                    join(java.util.Arrays.stream(first.sampleNodes()).distinct().sorted().toArray()),
                    first.law().boundScope(first.row().algo()), first.errorBoundPct()));
            for (Extrapolation e : group) {
                StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "#     %s%d B %s/%s x%d:",
                        byCall ? e.row().op().cliName() + " " : "", e.row().bytes(),
                        e.row().algo().ncclName(), e.row().proto().ncclName(), e.row().channels()));
                for (int i = 0; i < e.sampleNodes().length; i++) {
                    sb.append(String.format(Locale.ROOT, "%s %.3f us (%d nodes%s)", i == 0 ? "" : ",", e.sampleUs()[i],
                            e.sampleNodes()[i], e.sampleBytes()[i] == e.row().bytes() ? "" : ", " + e.sampleBytes()[i] + " B"));
                }
                sb.append("; ").append(e.law().formula(e.fit(), e.targetRegressors(), targetNodes));
                lines.add(sb.toString());
            }
        }
        return lines;
    }

    /** {@code 16, 32, 64}. */
    static String join(int[] v) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < v.length; i++) sb.append(i == 0 ? "" : ", ").append(v[i]);
        return sb.toString();
    }
}
