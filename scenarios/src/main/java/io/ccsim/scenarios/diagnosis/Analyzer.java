package io.ccsim.scenarios.diagnosis;

import java.util.ArrayList;
import java.util.List;

/**
 * Names the culprits of a run from what it left behind ({@link Trace}: flight-recorder dumps, rank
 * states, communicator-init records, bootstrap roots, store accesses, collective timings and the
 * agent's restarts), the way an on-call engineer does with torchfrtrace and NCCL RAS. The work is an
 * ordered list of {@link Check}s, one per family of findings, root causes first and consequences
 * after; the diagnosis lists their findings in that order.
 */
public final class Analyzer {
    private Analyzer() {}

    /** The findings of every check, in check order (empty when nothing is abnormal). */
    public static List<Diagnosis> analyze(Trace t) {
        List<Check> checks = List.of(
                new StaleKeyCheck(t),         // init: unique ids of another round
                new InitMemoryCheck(t),       // init: NCCL's buffers did not fit
                new BootstrapCheck(t),        // init: refused connects, waiting roots, ranks never launched
                new SymmMemCheck(t),          // symmetric memory: group registration, backend choice
                new CrashCheck(t),            // processes: hung GPUs, crashes
                new LinkFailureCheck(t),      // links: outages
                new SlowLinkCheck(t),         // speed: the bottleneck link
                new SlowRankCheck(t),         // speed: the straggler
                new CorruptionCheck(t),       // data: checksums
                new CollectiveMatchCheck(t),  // collectives: missing, mismatched, skipped
                new WatchdogTimeoutCheck(t),  // consequences: watchdog timeouts
                new RestartCheck(t));         // consequences: elastic restarts
        List<Diagnosis> out = new ArrayList<>();
        for (Check c : checks) out.addAll(c.findings());
        out.addAll(new ProgramErrorCheck(t, out).findings());   // errors of the job's own code no check explained
        return List.copyOf(out);
    }
}
