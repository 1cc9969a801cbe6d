package io.ccsim.scenarios.diagnosis;

import java.util.List;

/**
 * {@link Category#ELASTIC_RESTART}: each restart by the elastic agent, with the checkpoint it resumed
 * from and the iterations and time lost.
 */
final class RestartCheck extends Check {
    RestartCheck(Trace t) { super(t); }

    @Override
    void run() {
        for (Trace.Restart r : t.restarts()) {
            int lost = Math.max(0, r.lastIteration() - r.resumeFrom() + 1);
            String from = r.checkpointPs() < 0 ? "from scratch (no checkpoint)" : "from the checkpoint taken at " + s(r.checkpointPs())
                    + " (resuming at iteration " + r.resumeFrom() + ")";
            long lostPs = r.failedPs() - Math.max(0, r.checkpointPs());
            add(Category.ELASTIC_RESTART, List.of(), List.of(), "attempt " + r.attempt() + " failed at " + s(r.failedPs()) + " ("
                    + r.reason() + "); the elastic agent restarted the job " + from + ": " + lost + " iteration(s) and "
                    + s(lostPs) + " of work lost (restart " + (r.attempt() + 1) + " of max " + t.settings().maxRestarts() + ")");
        }
    }
}
