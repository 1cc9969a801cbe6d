package io.ccsim.cli;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.perf.PerfRow;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.UnsupportedAlgorithmException;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.sim.FoldingReads;
import io.ccsim.algorithms.sim.SimExecution;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.algorithms.tuner.SymkModel;
import io.ccsim.algorithms.tuner.TunerException;
import io.ccsim.sim.RunStoppedException;
import io.ccsim.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The simulation of one collective call over a list of sizes, as {@code perf} and the nccl-tests commands run it: for
 * every size NCCL's choice, planned first so that a run whose largest plans do not fit the heap is refused before any
 * is simulated ({@link RunBudget}), then timed by {@link PerfRunner}s on up to {@code threads} threads ({@link Sweep}),
 * with progress, and stopped when the session's control asks. Results are those of one size at a time.
 */
final class PerfSizes {
    private PerfSizes() {}

    /**
     * What every size is simulated on.
     *
     * @param topo    the topology
     * @param nRanks  ranks of the communicator (the topology's first GPUs)
     * @param prof    the calibration profile
     * @param nccl    the NCCL variables
     * @param seed    the simulation seed
     * @param symk    NCCL's symmetric kernels where both buffers are symmetric windows ({@code -R 2}); null: none
     * @param folding      what each simulation simulates
     * @param nodes        boards of the cluster, for the budget's advice
     * @param noLaw        why {@code --sim-mode auto} runs folded where it meant to extrapolate, or null
     * @param foldedBudget whether a folded run is budgeted as folded (its state, then what it simulates); else as if
     *                     it simulated every worker
     * @param offer        what a refusal for heap offers besides fewer nodes and more heap (ending in ", "), or null
     *                     for {@code --sim-mode extrapolated} where the run is held to every worker's heap
     * @param registeredP2p whether both buffers of every call are registered with NCCL, so that point-to-point calls
     *                     write into the receiver's buffer ({@link PerfRunner#setRegisteredP2p}; the caller has checked
     *                     {@link PerfRunner#registeredP2pRefusal})
     * @param ownCalls     whether calls are timed as NCCL's own captured calls (nccl-tests' {@code -G};
     *                     {@link PerfRunner#setOwnCalls}) rather than as the profile's measurements timed them
     */
    record Setup(Topology topo, int nRanks, CalibrationProfile prof, NcclEnv nccl, long seed, SymkModel symk,
                 SimExecution.Folding folding, int nodes, String noLaw, boolean foldedBudget, String offer,
                 boolean registeredP2p, boolean ownCalls) {
        /** A setup timed as the profile's measurements timed calls. */
        Setup(Topology topo, int nRanks, CalibrationProfile prof, NcclEnv nccl, long seed, SymkModel symk,
              SimExecution.Folding folding, int nodes, String noLaw, boolean foldedBudget, String offer,
              boolean registeredP2p) {
            this(topo, nRanks, prof, nccl, seed, symk, folding, nodes, noLaw, foldedBudget, offer, registeredP2p, false);
        }

        /** A setup of perf's. */
        Setup(Topology topo, int nRanks, CalibrationProfile prof, NcclEnv nccl, long seed, SymkModel symk,
              SimExecution.Folding folding, int nodes, String noLaw, boolean foldedBudget, boolean registeredP2p) {
            this(topo, nRanks, prof, nccl, seed, symk, folding, nodes, noLaw, foldedBudget, null, registeredP2p);
        }

        /** A setup whose run was not first meant to be extrapolated, budgeted as it simulates; see {@code offer}. */
        Setup(Topology topo, int nRanks, CalibrationProfile prof, NcclEnv nccl, long seed, SymkModel symk,
              SimExecution.Folding folding, int nodes, String offer, boolean registeredP2p) {
            this(topo, nRanks, prof, nccl, seed, symk, folding, nodes, null, true, offer, registeredP2p);
        }

        /** This setup timed as NCCL's own captured calls or not ({@link #ownCalls}). */
        Setup withOwnCalls(boolean own) {
            return new Setup(topo, nRanks, prof, nccl, seed, symk, folding, nodes, noLaw, foldedBudget, offer,
                    registeredP2p, own);
        }

        PerfRunner runner(Main.Session session) {
            PerfRunner r = new PerfRunner(topo, nRanks, prof, nccl, seed, symk);
            r.setRegisteredP2p(registeredP2p);
            r.setOwnCalls(ownCalls);
            r.setFolding(folding);
            r.setRunControl(session.control());
            return r;
        }
    }

    /**
     * The call simulated at every size.
     *
     * @param op    the collective
     * @param dtype the element type
     * @param redop the reduction (ignored by ops without one)
     * @param root  the root rank (ignored by ops without one)
     * @param iters back-to-back calls timed per size (1: one call, launch to completion)
     * @param torch PyTorch's symmetric-memory all-reduce run instead of NCCL's choice; null: NCCL's
     */
    record Call(CollectiveOp op, DataType dtype, ReduceOp redop, int root, int iters, Algorithm torch) { }

    /** One size's row and what simulating it took. */
    record SizeRun(PerfRow row, long events, long flows, long simulatedWorkers, long workers, int unsettledRounds) { }

    /**
     * What a run gave.
     *
     * @param sizes   the sizes asked for
     * @param runs    one per size in order; null for a size a stop request left undone
     * @param wallS   wall-clock seconds the simulations took
     * @param stopped the stop request that ended the run early, or null
     */
    record Outcome(List<Long> sizes, List<SizeRun> runs, double wallS, RunStoppedException stopped) {
        /** The rows of the sizes simulated, in order. */
        List<PerfRow> rows() {
            List<PerfRow> out = new ArrayList<>();
            for (SizeRun r : runs) if (r != null) out.add(r.row());
            return out;
        }

        /** {@code by SIGINT: the 5 rows above are complete; not simulated: ...}, or null where nothing was stopped. */
        String note() {
            if (stopped == null) return null;
            List<Long> missing = new ArrayList<>();
            for (int i = 0; i < sizes.size(); i++) if (runs.get(i) == null) missing.add(sizes.get(i));
            return "by " + stopped.reason() + ": " + PerfCommand.notDone("rows", sizes.size(), missing);
        }
    }

    /**
     * Simulates {@code call} at every size of {@code sizes} (nccl-tests sizes, each with at least one element a rank).
     *
     * @param command the command, for the budget's message and the progress line ({@code perf})
     * @param planner a runner of {@code setup} that plans the sizes (the threads' runners come from {@code setup})
     * @throws UserException if the run does not fit the heap, or NCCL's choice cannot run (with the tuner's or the
     *                       planner's reason)
     */
    static Outcome run(String command, Setup setup, PerfRunner planner, Call call, List<Long> sizes, int threads,
                       Main.Session session, Progress progress) {
        return run(command, setup, planner, call, sizes, threads, session, progress, () -> { });
    }

    /**
     * As {@link #run(String, Setup, PerfRunner, Call, List, int, Main.Session, Progress)}, running {@code planned} once
     * the sizes are planned and fit the budget, before any is simulated (a note a refusal must not precede).
     */
    static Outcome run(String command, Setup setup, PerfRunner planner, Call call, List<Long> sizes, int threads,
                       Main.Session session, Progress progress, Runnable planned) {
        Plan[] plans = plan(command, setup, planner, call, sizes, threads, session);
        planned.run();
        long t0 = System.nanoTime();
        Sweep<Long, SizeRun> sweep = new Sweep<>(sizes, work(plans, call.iters(), progress.enabled()),
                i -> String.format(Locale.ROOT, "%s %s %s (%d/%d)%s", command, call.op().cliName(), Sizes.human(sizes.get(i)),
                        i + 1, sizes.size(), plans[i] == null ? "" : " " + plans[i].label()), progress, session.control());
        List<SizeRun> runs;
        try {
            int concurrent = Math.max(1, Math.min(threads, sizes.size()));
            runs = sweep.run(() -> setup.runner(session), threads, (r, s, part) -> {
                r.setFoldedCheck(session.budget().foldedCheck(setup.topo(), p -> what(command, call, s, p), concurrent,
                        setup.nodes()));
                PerfRow row = call.torch() != null ? r.runTorchSymmMem(call.torch(), s, call.dtype(), call.redop(), call.iters())
                        : r.run(call.op(), s, call.dtype(), call.redop(), call.root(), call.iters());
                return new SizeRun(row, r.lastEvents(), r.lastFlows(), r.lastSimulatedWorkers(), r.lastWorkers(),
                        r.lastUnsettledRounds());
            });
        } catch (TunerException | UnsupportedAlgorithmException e) {
            throw new UserException(e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserException(command + ": interrupted", e);
        }
        return new Outcome(List.copyOf(sizes), runs, (System.nanoTime() - t0) / 1e9, sweep.stopped());
    }

    /**
     * The plan of every size NCCL's choice runs (PyTorch's kernels: none, one node is small), refusing, before any is
     * simulated, a run whose largest plans, {@code threads} at once, do not fit the budget. A size that cannot be
     * planned is left to the simulation, which reports why.
     */
    private static Plan[] plan(String command, Setup setup, PerfRunner runner, Call call, List<Long> sizes, int threads,
                               Main.Session session) {
        Topology topo = setup.topo();
        // folded: the least it needs, its folding checked once known
        boolean folded = setup.folding() == SimExecution.Folding.RANKS && setup.foldedBudget();
        Plan[] plans = new Plan[sizes.size()];
        List<Plan> planned = new ArrayList<>();
        int largest = -1;
        for (int i = 0; i < sizes.size() && call.torch() == null; i++) {
            try {
                plans[i] = runner.plan(call.op(), sizes.get(i), call.dtype(), call.redop(), call.root());
            } catch (IllegalArgumentException e) {   // TunerException and UnsupportedAlgorithmException included
                continue;
            }
            planned.add(plans[i]);
            if (largest < 0 || RunBudget.plans(topo, List.of(plans[i]), 1, folded).heapBytes()
                    > RunBudget.plans(topo, List.of(plans[largest]), 1, folded).heapBytes()) {
                largest = i;
            }
        }
        if (largest >= 0) {
            // held to every worker's heap though folded: auto would extrapolate it (PerfCommand); --sim-mode folded is
            // offered where its own first check passes (the 8,192-GPU NVLSTree: 3,072 workers simulated, 0.5 GB)
            int k = Math.min(threads, planned.size());
            boolean held = setup.folding() == SimExecution.Folding.RANKS && !setup.foldedBudget();
            // made only if the run is refused: the folded offer counts every plan's connections again
            java.util.function.Supplier<String> alternative = () -> setup.offer() != null ? setup.offer()
                    : held ? foldedOffer(session.budget(), topo, planned, k) + "--sim-mode extrapolated, " : "";
            session.budget().check(what(command, call, sizes.get(largest), plans[largest]),
                    j -> RunBudget.plans(topo, planned, j, folded), k, setup.nodes(), alternative);
        }
        for (int i = 0; i < plans.length && setup.folding() == SimExecution.Folding.RANKS; i++) {
            if (plans[i] == null) continue;
            long reads = FoldingReads.of(plans[i]);
            checkFoldingReads(command + " " + call.op().cliName() + " at " + sizes.get(i) + " B (" + plans[i].label() + ")",
                    plans[i], reads, setup.nodes(), FoldingReads.LIMIT);
            if (setup.noLaw() != null && 2 * reads > plans[i].totalSteps()
                    && flowsUnfolded(runner, plans[i]) > AUTO_FOLDED_MAX_FLOWS) {
                // --sim-mode auto turned to the folded run because the choice has no law: it serves where the plan knows
                // ranks alike, or where simulating every rank stays within about a minute; else each rank is read and
                // most are simulated, for hours at 100,000 GPUs
                throw new UserException("perf --sim-mode auto: " + setup.noLaw() + ", and the folded run would simulate"
                        + " its ranks one by one (no two are known to run the same steps); valid here: --sim-mode folded (every"
                        + " rank simulated, slower), fewer --nodes,"
                        + " or NCCL_ALGO or NCCL_PROTO for a choice with a law");
            }
        }
        return plans;
    }

    /**
     * The most sub-transfers (flows) {@code --sim-mode auto} simulates folded where the plan does not know its ranks
     * alike: 2^26, about a minute at the 0.7-1.3 M flows a second of a chain on this 2-core machine (the 1,024-GPU
     * broadcast, Ring/LL128 x16 at 1 GiB: 17.2 M flows before channels fold, 15-18 s).
     */
    static final long AUTO_FOLDED_MAX_FLOWS = 1L << 26;

    /**
     * The sub-transfers of {@code plan} were no two of its ranks alike: rank 0's on channel 0 (a chain's root sends the
     * whole train) times the ranks and channels.
     */
    static long flowsUnfolded(PerfRunner runner, Plan plan) {
        long units = io.ccsim.algorithms.sim.PipelineUnits.of(runner.tuner().profile(), plan, 0, 0);
        return units * plan.nRanks() * plan.nChannels();
    }

    /**
     * Refuses, before it starts, a folded run whose folding would read more plan steps than {@link FoldingReads#LIMIT}
     * (its ranks cannot be known alike without reading every step, and then mostly differ), naming the reads, the
     * limit and about how many nodes stay within it (the reads grow about with the square of the ranks: each rank's
     * sequence is as long as the ring).
     *
     * @throws UserException if it reads more
     */
    static void checkFoldingReads(String what, Plan plan, int nodes) {
        checkFoldingReads(what, plan, FoldingReads.of(plan), nodes, FoldingReads.LIMIT);
    }

    /** {@link #checkFoldingReads(String, Plan, int)} for a plan whose folding reads {@code reads} steps, limit {@code limit}. */
    static void checkFoldingReads(String what, Plan plan, long reads, int nodes, long limit) {
        String problem = foldingReadsProblem(plan, reads, nodes, limit);
        if (problem != null) throw new UserException(what + ": " + problem);
    }

    /**
     * Why a plan whose folding reads {@code reads} steps may not run (the reads, the limit, what would do), or null if
     * {@code reads} is within {@code limit}.
     */
    static String foldingReadsProblem(Plan plan, long reads, int nodes, long limit) {
        if (reads <= limit) return null;
        long fit = (long) Math.floor(nodes * Math.sqrt(limit / (double) reads));
        return String.format(Locale.ROOT, "folding its %,d ranks would read %.1e plan steps, more than the %.1e a run may"
                        + " (about %s), as no two of them are known to run the same steps, and ranks whose steps differ"
                        + " are each simulated after that; valid here: %sanother size (a ring's ranks fold where its chunks"
                        + " are all equal)",
                plan.nRanks(), (double) reads, (double) limit, Progress.duration(limit * FoldingReads.NS_PER_READ / 1e9),
                nodes > 1 && fit >= 1 ? String.format(Locale.ROOT, "about --nodes <= %,d, ", fit) : "");
    }

    /**
     * What a held default run's refusal offers for {@code --sim-mode folded}: the folded run where its own first check
     * passes with {@code k} sizes at once, else with one ({@code --jobs 1}), else nothing.
     */
    private static String foldedOffer(RunBudget budget, Topology topo, List<Plan> planned, int k) {
        String exact = " (exact; its heap is checked again once its folding is known), ";
        if (budget.fits(RunBudget.plans(topo, planned, k, true))) return "--sim-mode folded" + exact;
        if (k > 1 && budget.fits(RunBudget.plans(topo, planned, 1, true))) return "--sim-mode folded --jobs 1" + exact;
        return "";
    }

    /** {@code perf all_reduce at 1073741824 B (Ring/Simple x16)}: the run of one size, for the budget's refusals. */
    private static String what(String command, Call call, long bytes, Plan plan) {
        return command + " " + call.op().cliName() + " at " + bytes + " B (" + plan.label() + ")";
    }

    /** The work of each size: the steps of its plan for each simulated call (1 where unplanned or not needed). */
    private static long[] work(Plan[] plans, int iters, boolean needed) {
        long[] w = new long[plans.length];
        for (int i = 0; i < plans.length; i++) {
            w[i] = !needed || plans[i] == null ? 1 : plans[i].totalSteps() * Math.min(iters, PerfRunner.SIMULATED_ITERATIONS);
        }
        return w;
    }
}
