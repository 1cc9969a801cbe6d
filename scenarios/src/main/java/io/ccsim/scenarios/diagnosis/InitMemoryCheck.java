package io.ccsim.scenarios.diagnosis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@link Category#INIT_OUT_OF_MEMORY}: ranks whose communicator init stalled because NCCL could not
 * allocate its buffers, with the ranks that wait for them; and {@link Category#OUT_OF_MEMORY}: a
 * PyTorch allocation that failed.
 */
final class InitMemoryCheck extends Check {
    InitMemoryCheck(Trace t) { super(t); }

    @Override
    void run() {
        List<Integer> stalled = new ArrayList<>();
        for (Map.Entry<Integer, Trace.RankState> e : t.finalStates().entrySet()) {
            if (e.getValue().before() == RankPhase.INIT_ALLOC_STALL) stalled.add(e.getKey());
        }
        if (!stalled.isEmpty()) {
            List<Integer> waiting = new ArrayList<>();
            List<Integer> inCollective = new ArrayList<>();
            for (Map.Entry<Integer, Trace.RankState> e : t.finalStates().entrySet()) {
                RankPhase ph = e.getValue().before();
                if (ph == RankPhase.BOOTSTRAP_ROOT_WAIT || ph == RankPhase.BOOTSTRAP_RING || ph == RankPhase.BOOTSTRAP_CONNECT) {
                    waiting.add(e.getKey());
                } else if (ph == RankPhase.COLLECTIVE || e.getValue().phase() == RankPhase.ERROR) {
                    inCollective.add(e.getKey());
                }
            }
            int r0 = stalled.get(0);
            add(Category.INIT_OUT_OF_MEMORY, stalled, List.of(), "rank " + ranges(stalled) + " stalled in lazy communicator init: "
                    + t.finalStates().get(r0).beforeDetail() + "."
                    + (waiting.isEmpty() ? "" : " Ranks " + ranges(waiting) + " of its group wait for it in bootstrap forever with no error output.")
                    + (inCollective.isEmpty() ? "" : " Ranks " + ranges(inCollective) + " then wait for those ranks in their next collective.")
                    + " Fix: create the communicator while memory is free (a barrier on the group right after new_group)");
        }
        for (RankEvent e : t.events()) {
            if (e.kind().equals("ERROR") && e.text().contains("OutOfMemoryError")) {
                add(Category.OUT_OF_MEMORY, List.of(e.rank()), List.of(), "rank " + e.rank() + ": " + e.text());
            }
        }
    }
}
