package io.ccsim.scenarios.diagnosis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Ranks that ended in an error that no earlier finding explains: the job's own code raised it (a collective on a
 * process group never created, or used after destroy_process_group), as {@link Category#PROGRAM_ERROR}, one finding
 * per distinct error with the ranks that raised it. Without it a run whose outcome is an error would read "nothing
 * abnormal".
 */
final class ProgramErrorCheck extends Check {
    private final List<Diagnosis> earlier;

    /** @param earlier the findings of the checks before it: the ranks they name are explained */
    ProgramErrorCheck(Trace t, List<Diagnosis> earlier) {
        super(t);
        this.earlier = earlier;
    }

    @Override
    void run() {
        Map<String, List<Integer>> byError = new LinkedHashMap<>();
        for (Map.Entry<Integer, Trace.RankState> e : new java.util.TreeMap<>(t.finalStates()).entrySet()) {
            if (e.getValue().phase() != RankPhase.ERROR || explained(e.getKey())) continue;
            byError.computeIfAbsent(e.getValue().detail(), k -> new ArrayList<>()).add(e.getKey());
        }
        for (Map.Entry<String, List<Integer>> e : byError.entrySet()) {
            List<Integer> ranks = e.getValue();
            add(Category.PROGRAM_ERROR, ranks, List.of(), "rank" + (ranks.size() > 1 ? "s " : " ") + ranges(ranks) + " raised "
                    + e.getKey() + ": the job's own code failed, not NCCL or the hardware; fix the program step that raised it");
        }
    }

    private boolean explained(int rank) {
        for (Diagnosis d : earlier) if (d.ranks().contains(rank)) return true;
        return false;
    }
}
