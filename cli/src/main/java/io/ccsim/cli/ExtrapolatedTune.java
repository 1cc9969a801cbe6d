package io.ccsim.cli;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.scale.Extrapolation;
import io.ccsim.algorithms.scale.Extrapolator;
import io.ccsim.algorithms.tuner.Candidate;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.algorithms.tuner.TuneResult;
import io.ccsim.algorithms.tuner.TunerException;
import io.ccsim.algorithms.tuner.Unavailable;
import io.ccsim.sim.RunStoppedException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code tune --sim-mode extrapolated}: the crossover table of a cluster too large to simulate every candidate on,
 * each candidate (every algorithm and protocol NCCL's tuner offers at the target, at its channel count) simulated
 * exactly (folded) on fewer of the same nodes and read at the target by its scaling law ({@link Extrapolator}), as
 * {@code perf --sim-mode extrapolated} reads NCCL's choice. The target is never built.
 *
 * <p>Contract: refuses, before simulating, what {@code perf --sim-mode extrapolated} refuses (a topology file, a
 * degraded or down link, one node). A candidate without a law at a size (a ring beyond its leaf groups, PAT, a chain
 * between one train and two under LL128 or Simple) is no cell of the table: the result names it and why. The fastest
 * of a size is the least extrapolated time; where the runner-up lies within the two laws' error bounds, the result
 * says so ({@link #closeCalls}).
 */
final class ExtrapolatedTune {
    private final TuneCommand cmd;
    private final Main.Session session;
    private SampleClusters clusters;

    /** A size's candidate that has no law there, and why (the refusal's one line). */
    record Refused(long size, Candidate candidate, String reason) { }

    /**
     * What the mode found: the table's lines (sizes of which no candidate has a law are left out), the labels of every
     * candidate offered (table columns), the tuner's unavailable choices, the refused candidates, the wall time and
     * sample simulations, and the stop (null if none) with the sizes it left undone of the {@code sizes} tuned.
     */
    record Result(Provenance provenance, String profileLabel, List<TuneCommand.Line> lines, List<String> labels,
                  List<Unavailable> unavailable, List<Refused> refused, double wallS, int simulations, long events,
                  RunStoppedException stopped, List<Long> missing, int sizes, List<Long> uncovered) { }

    /**
     * No candidate of any size has a law at the target (a ring all-gather on 12,500 nodes): nothing was simulated;
     * {@code auto} simulates them folded instead, {@code extrapolated} refuses.
     */
    static final class NoLaw extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NoLaw(String message) {
            super(message);
        }
    }

    /** One sample simulation: size {@code size}'s candidate {@code candidate}'s sample {@code sample}. */
    private record Item(int size, int candidate, int sample) { }

    /** A sample's time, µs, and the events its simulation dispatched. */
    private record SampleRun(double us, long events) { }

    /** One size: nccl-tests' size, the tuner's result and a plan per candidate (null where it has no law). */
    private record Sized(long bytes, TuneResult result, List<Extrapolator.SizePlan> plans) { }

    ExtrapolatedTune(TuneCommand cmd, Main.Session session) {
        this.cmd = cmd;
        this.session = session;
    }

    /** Tunes {@code sizes} at the command's target: every candidate's extrapolated time. */
    Result run(CollectiveOp cop, DataType dt, long[] sizes, NcclEnv nccl, int threads) {
        SampleClusters.requireExtrapolable(cmd.topology, cmd.whatIf, cmd.nodes, "--sim-mode folded");
        clusters = new SampleClusters(cmd.topology, cmd.gpus, cmd.whatIf, cmd.sharp, cmd.seed, session, nccl, threads);
        SampleClusters.Start start = clusters.start(cmd.profile, cmd.nodes, sizes.length > 0 ? sizes[sizes.length - 1] : 0,
                "tune --sim-mode extrapolated");
        CalibrationProfile prof = start.profile();
        Extrapolator ex = start.extrapolator();
        List<Sized> todo = new ArrayList<>();
        List<Refused> refused = new ArrayList<>();
        for (long requested : sizes) {
            long count = ex.countFor(cop, requested, dt);
            if (count == 0 && requested != 0) continue;   // nccl-tests skips sizes below one element per rank
            long s = PerfRunner.sizeFor(cop, count, dt, ex.target().nRanks());   // nccl-tests' size, as the folded table's
            TuneResult tr;
            try {
                tr = ex.tune(cop, s, dt, ReduceOp.SUM);
            } catch (TunerException e) {
                throw new UserException(e.getMessage(), e);
            }
            List<Extrapolator.SizePlan> plans = new ArrayList<>();
            for (Candidate c : tr.candidates()) {
                Extrapolator.SizePlan p = null;
                try {
                    p = ex.plan(cop, s, dt, ReduceOp.SUM, 0, c);
                } catch (IllegalArgumentException e) {   // no law (NotExtrapolatedException), or a target too small for it
                    refused.add(new Refused(s, c, e.getMessage()));
                }
                plans.add(p);
            }
            todo.add(new Sized(s, tr, plans));
        }
        if (todo.isEmpty()) throw SimSetup.nothingToRun(cmd.sizeOptions.minBytes, cmd.sizeOptions.maxBytes, cop, dt, ex.target().nRanks());
        List<Long> uncovered = new ArrayList<>();   // sizes of which no candidate has a law
        for (Sized z : todo) if (z.plans().stream().allMatch(java.util.Objects::isNull)) uncovered.add(z.bytes());
        if (uncovered.size() == todo.size()) {
            throw new NoLaw(String.format(Locale.ROOT, "no candidate has a scaling law at %,d nodes (%s)", cmd.nodes,
                    refused.get(0).reason()));
        }
        List<Item> items = new ArrayList<>();
        List<Plan> samplePlans = new ArrayList<>();
        for (int i = 0; i < todo.size(); i++) {
            for (int k = 0; k < todo.get(i).plans().size(); k++) {
                Extrapolator.SizePlan p = todo.get(i).plans().get(k);
                if (p == null) continue;
                for (int j = 0; j < p.samples().size(); j++) {
                    samplePlans.add(ex.samplePlan(p, p.samples().get(j)));
                    items.add(new Item(i, k, j));
                }
            }
        }
        if (!samplePlans.isEmpty()) {
            session.budget().check("tune --sim-mode extrapolated", n -> RunBudget.samples(clusters.built(),
                    samplePlans, n), Math.min(threads, items.size()), 0);
        }
        long t0 = System.nanoTime();
        Progress progress = cmd.progressOption.open(cmd.spec.commandLine().getErr(), session);
        long[] work = new long[items.size()];
        for (int i = 0; i < work.length; i++) work[i] = progress.enabled() ? samplePlans.get(i).totalSteps() : 1;
        Sweep<Item, SampleRun> sweep = new Sweep<>(items, work, i -> label(cop, todo, items.get(i)), progress,
                session.control());
        List<SampleRun> runs;
        try {
            runs = sweep.run(() -> null, threads, (none, item, part) -> {
                Extrapolator.SizePlan p = todo.get(item.size()).plans().get(item.candidate());
                Extrapolator.Sample s = p.samples().get(item.sample());
                PerfRunner r = ex.runnerAt(s.nodes());
                part.runner(r);
                double us = ex.simulate(p, s, r);
                return new SampleRun(us, r.lastEvents());
            });
        } catch (IllegalArgumentException e) {   // the planner refusing a candidate on a sample
            throw new UserException("tune --sim-mode extrapolated: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserException("tune: interrupted", e);
        }
        double wall = (System.nanoTime() - t0) / 1e9;
        long events = 0;
        for (SampleRun r : runs) if (r != null) events += r.events();
        Set<String> labels = new LinkedHashSet<>();
        List<TuneCommand.Line> lines = new ArrayList<>();
        List<Long> missing = new ArrayList<>();
        List<Unavailable> unavailable = List.of();
        for (int i = 0; i < todo.size(); i++) {
            Sized z = todo.get(i);
            for (Candidate c : z.result().candidates()) labels.add(c.label());
            unavailable = z.result().unavailable();
            TuneCommand.Line line = line(ex, z, i, items, runs);
            if (line == null) missing.add(z.bytes());
            else if (!line.cells().isEmpty()) lines.add(line);
        }
        Provenance provenance = SampleClusters.provenance(cmd.profile, prof, start.two(), ex, cmd.seed);
        return new Result(provenance, SimSetup.profileLabel(cmd.profile, prof), lines, new ArrayList<>(labels), unavailable,
                refused, wall, items.size(), events, sweep.stopped(), missing, todo.size(), uncovered);
    }

    /**
     * Size {@code i}'s line: a cell per candidate whose samples all ran, the fastest the first of the least time;
     * null where a stop left one of its samples undone.
     */
    private static TuneCommand.Line line(Extrapolator ex, Sized z, int i, List<Item> items, List<SampleRun> runs) {
        Map<Integer, double[]> us = new LinkedHashMap<>();
        for (int t = 0; t < items.size(); t++) {
            Item it = items.get(t);
            if (it.size() != i) continue;
            if (runs.get(t) == null) return null;
            us.computeIfAbsent(it.candidate(), k -> new double[z.plans().get(k).samples().size()])[it.sample()] = runs.get(t).us();
        }
        List<TuneCommand.Cell> cells = new ArrayList<>();
        TuneCommand.Cell best = null;
        for (Map.Entry<Integer, double[]> e : us.entrySet()) {
            Candidate c = z.result().candidates().get(e.getKey());
            Extrapolation x = ex.fit(z.plans().get(e.getKey()), e.getValue());
            TuneCommand.Cell cell = new TuneCommand.Cell(c.label(), c.algorithm(), c.protocol(), c.channels(),
                    x.row().timeUs(), x);
            cells.add(cell);
            if (best == null || cell.timeUs() < best.timeUs()) best = cell;
        }
        return new TuneCommand.Line(z.bytes(), z.result().input().bytes(), cells, best == null ? "" : best.label(),
                z.result().winner().label());
    }

    /**
     * The text footer: the mode, each law that served with its bound and the candidates it served, the candidates
     * without a law, and the sizes whose fastest is within the laws' error bounds of the runner-up.
     */
    static List<String> footer(Result r) {
        List<String> out = new ArrayList<>();
        out.add(String.format(Locale.ROOT, "# extrapolated %d sizes in %.2f s wall from %d simulations on fewer nodes: %d"
                + " events", r.lines().size(), r.wallS(), r.simulations(), r.events()));
        out.add(String.format(Locale.ROOT, "# mode: extrapolated: not simulated at %,d nodes; each candidate simulated"
                + " exactly (folded) on fewer nodes and its scaling law read at %,d nodes", r.provenance().nodes(),
                r.provenance().nodes()));
        Map<String, Set<String>> served = new LinkedHashMap<>();
        Map<String, Extrapolation> lawOf = new LinkedHashMap<>();
        for (TuneCommand.Line l : r.lines()) {
            for (TuneCommand.Cell c : l.cells()) {
                Extrapolation x = c.extrapolation();
                String key = x.law().name() + " on " + sampleNodes(x) + " " + x.errorBoundPct();
                served.computeIfAbsent(key, k -> new LinkedHashSet<>()).add(c.label());
                lawOf.putIfAbsent(key, x);
            }
        }
        for (Map.Entry<String, Set<String>> e : served.entrySet()) {
            Extrapolation x = lawOf.get(e.getKey());
            out.add(String.format(Locale.ROOT, "#   law %s (%s): %s; simulated on %s nodes; measured error <= %.2f %%"
                    + " (validation grid, docs/performance.md)", x.law().name(), String.join(", ", e.getValue()),
                    x.law().description(), sampleNodes(x), x.errorBoundPct()));
        }
        if (!r.refused().isEmpty()) {
            out.add("# not extrapolated (no cell):");
            Map<String, List<Refused>> byLabel = new LinkedHashMap<>();
            for (Refused f : r.refused()) byLabel.computeIfAbsent(f.candidate().label(), k -> new ArrayList<>()).add(f);
            for (List<Refused> fs : byLabel.values()) {
                out.add("#   " + fs.get(0).reason() + (fs.size() == 1 ? "" : String.format(Locale.ROOT,
                        " (and at %d more sizes)", fs.size() - 1)));
            }
            Set<Long> partial = new java.util.TreeSet<>();
            for (Refused f : r.refused()) partial.add(f.size());
            List<String> shown = new ArrayList<>();
            for (TuneCommand.Line l : r.lines()) if (partial.contains(l.bytes())) shown.add(Long.toString(l.bytes()));
            if (!shown.isEmpty()) {
                out.add("#   so the fastest (and the crossovers) at " + String.join(", ", shown) + " B are of the"
                        + " extrapolated candidates only");
            }
            if (!r.uncovered().isEmpty()) {
                out.add("#   and no candidate is extrapolated at " + r.uncovered().stream().map(String::valueOf)
                        .collect(java.util.stream.Collectors.joining(", ")) + " B, left out of the table (--sim-mode"
                        + " folded simulates them)");
            }
        }
        List<Close> close = closeCalls(r.lines());
        if (!close.isEmpty()) {
            out.add("# fastest within the laws' error bounds of the runner-up (either may be the faster):");
            for (Close c : close) {
                out.add(String.format(Locale.ROOT, "#   %d B: %s %.1f us, %s %.1f us (+%.2f %%; bounds %.2f + %.2f %%)",
                        c.bytes(), c.best().label(), c.best().timeUs(), c.next().label(), c.next().timeUs(), c.gapPct(),
                        c.best().extrapolation().errorBoundPct(), c.next().extrapolation().errorBoundPct()));
            }
        }
        return out;
    }

    /** A size whose fastest {@code best} beats the runner-up {@code next} by {@code gapPct} % of its time. */
    record Close(long bytes, TuneCommand.Cell best, TuneCommand.Cell next, double gapPct) { }

    /**
     * The lines whose runner-up's extrapolated time exceeds the fastest's by less than the sum of their laws' error
     * bounds (as a share of the fastest's), in order: where the laws cannot tell which is faster.
     */
    static List<Close> closeCalls(List<TuneCommand.Line> lines) {
        List<Close> out = new ArrayList<>();
        for (TuneCommand.Line l : lines) {
            TuneCommand.Cell best = l.bestCell();
            TuneCommand.Cell next = null;
            for (TuneCommand.Cell c : l.cells()) {
                if (c != best && (next == null || c.timeUs() < next.timeUs())) next = c;
            }
            if (next == null || best.extrapolation() == null || next.extrapolation() == null) continue;
            double gapPct = (next.timeUs() - best.timeUs()) / best.timeUs() * 100;
            if (gapPct < best.extrapolation().errorBoundPct() + next.extrapolation().errorBoundPct()) {
                out.add(new Close(l.bytes(), best, next, gapPct));
            }
        }
        return out;
    }

    private static String label(CollectiveOp cop, List<Sized> todo, Item item) {
        Sized z = todo.get(item.size());
        Extrapolator.SizePlan p = z.plans().get(item.candidate());
        return String.format(Locale.ROOT, "tune %s %s (%d/%d) %s on %d nodes", cop.cliName(), Sizes.human(z.bytes()),
                item.size() + 1, todo.size(), p.choice(), p.samples().get(item.sample()).nodes());
    }

    /** {@code 24, 48}: the node counts {@code x}'s samples ran, each once, ascending. */
    private static String sampleNodes(Extrapolation x) {
        return ExtrapolatedPerf.join(java.util.Arrays.stream(x.sampleNodes()).distinct().sorted().toArray());
    }
}
