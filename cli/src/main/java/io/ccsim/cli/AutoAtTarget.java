package io.ccsim.cli;

import io.ccsim.algorithms.perf.PerfRow;
import io.ccsim.algorithms.scale.Extrapolator;
import io.ccsim.algorithms.scale.ScalingLaw;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The sizes {@code --sim-mode auto} simulates at the target itself (exactly, folded) beyond the GPUs it folds whole
 * runs at: those whose law's reading the validation grid does not hold within the scale goals' bound
 * ({@link ScalingLaw#withinGoal}: the trees, NCCL's Tree and NVLSTree, read up to 6.8 and 8.35 % off at mid sizes), on
 * targets of at most {@link #MAX_GPUS} GPUs whose folded run fits the heap. Beyond that the law answers, its bound
 * stated.
 *
 * <p>Why a size and not the run: the other sizes' laws (rings, chains, CollNet, all-to-all) hold within 2 %, and their
 * samples take a second where the target's folded run takes several (8,192 HGX H100 GPUs: Tree/LL128 from 1 to 32 MiB
 * 9 s for six sizes, NVLSTree at 1 GiB 10 s), so only the sizes a law cannot answer to the goal pay for it
 * (docs/performance.md, "Extrapolated mode").
 */
final class AutoAtTarget {
    /**
     * The most GPUs a target may have for auto to simulate a size there: the scale goals' largest cluster at the same
     * fidelity (8,192 GPUs in 20 s), where NCCL's Tree/LL128 sizes fold in 1 to 4 s each on HGX H100.
     */
    static final int MAX_GPUS = 8192;

    private AutoAtTarget() { }

    /**
     * Whether auto simulates {@code p} at a target of {@code gpus} GPUs, given whether that target's folded run fits
     * ({@code fits}).
     */
    static boolean simulates(Extrapolator.SizePlan p, long gpus, boolean fits) {
        return fits && gpus <= MAX_GPUS && !p.law().withinGoal();
    }

    /**
     * Why auto simulates {@code p} at the target, as a refusal names a choice: {@code all_reduce of 16777216 B on 1024
     * nodes runs Tree/LL128 x16 (NCCL's choice there), which law TREE reads up to 6.80 % off, beyond the scale goals'
     * 2 %}.
     */
    static String why(Extrapolator.SizePlan p, int targetNodes) {
        return String.format(Locale.ROOT, "%s of %d B on %d nodes runs %s (NCCL's choice there), which law %s reads up to"
                + " %.2f %% off, beyond the scale goals' %.0f %%", p.op().cliName(), p.bytes(), targetNodes, p.choice(),
                p.law().name(), p.law().errorBoundPct(p.algo()), ScalingLaw.GOAL_PCT);
    }

    /** A row's JSON keys and CSV columns ({@link ExtrapolatedPerf#COLUMNS}) for a size simulated at the target. */
    static List<String> values(PerfRow row, int targetNodes) {
        return List.of("folded", "", Integer.toString(targetNodes), Long.toString(row.bytes()), "0.00");
    }

    /**
     * The footer's lines for the sizes simulated at the target ({@code plans}, by size): what ran there, why, and how
     * much of it folded (at most {@code simulated} of {@code workers} workers in one size).
     */
    static List<String> modeLines(List<Extrapolator.SizePlan> plans, int targetNodes, long simulated, long workers) {
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "# mode: folded (exact) at %,d nodes for %d size%s (--sim-mode auto): %s"
                + " measured error exceeds the scale goals' %.0f %%; at most %,d of %,d workers (rank, channel) simulated"
                + " in a size, the others by symmetry", targetNodes, plans.size(), plans.size() == 1 ? "" : "s", plans.size() == 1 ? "its law's" : "their laws'",
                ScalingLaw.GOAL_PCT,
                simulated, workers));
        for (Extrapolator.SizePlan p : plans) {
            lines.add(String.format(Locale.ROOT, "#     %d B %s: law %s's measured error%s <= %.2f %%", p.bytes(),
                    p.choice(), p.law().name(), p.law().boundScope(p.algo()), p.law().errorBoundPct(p.algo())));
        }
        return lines;
    }
}
