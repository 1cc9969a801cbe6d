package io.ccsim.scenarios.incident;

import io.ccsim.scenarios.diagnosis.RankPhase;
import io.ccsim.scenarios.diagnosis.Trace;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where each rank was at the incident, from its dump and logs (see {@link IncidentTrace}): failed with an NCCL error
 * before any collective; waiting in its first pending collective; outside NCCL while another rank of its group waits
 * in a later collective; in communicator init (Init START logged, no Init COMPLETE: rank 0 hosts the bootstrap root);
 * done.
 */
final class RankStates {
    private RankStates() {}

    static Map<Integer, Trace.RankState> of(Incident inc, Map<Integer, FrDump> chosen, Map<String, String> labels, int world, long t0) {
        Map<Integer, Trace.RankState> out = new TreeMap<>();
        for (int r = 0; r < world; r++) {
            Trace.RankState s = state(inc, chosen, labels, r, t0);
            if (s != null) out.put(r, s);
        }
        return out;
    }

    private static Trace.RankState state(Incident inc, Map<Integer, FrDump> chosen, Map<String, String> labels, int r, long t0) {
        String err = IncidentTrace.initError(inc, r, chosen);
        if (err != null) return st(RankPhase.ERROR, 0, "communicator init failed: " + err);
        FrDump d = chosen.get(r);
        if (d != null && !d.entries().isEmpty()) {
            for (FrDump.Entry e : d.entries()) {
                if (!e.state().equals("completed") && !e.p2p()) {
                    return st(RankPhase.COLLECTIVE, IncidentTrace.ps(e.createdNs(), t0), TorchNames.opType(e.op()) + " #" + e.collectiveSeq()
                            + " on group " + labels.getOrDefault(e.group(), e.group()) + " " + e.state() + " since "
                            + IncidentTrace.at(IncidentTrace.ps(e.createdNs(), t0)) + " (timeout " + e.timeoutMs() / 1000.0 + " s)");
                }
            }
            FrDump.Entry last = d.entries().get(d.entries().size() - 1);
            String waiter = waiterBeyond(chosen, r, last.group(), last.collectiveSeq(), labels);
            long done = IncidentTrace.ps(last.completedNs(), t0);
            if (waiter != null) {
                return st(RankPhase.RUNNING, done, "outside NCCL: its last collective #" + last.collectiveSeq() + " ("
                        + TorchNames.opType(last.op()) + ") completed at " + IncidentTrace.at(done) + " and it enqueued nothing after, while "
                        + waiter + "; its host code is busy or blocked (sleeping, a slow data loader, a deadlock): look at its stack"
                        + " with py-spy dump");
            }
            return st(RankPhase.DONE, done, "all " + d.entries().size() + " recorded collectives completed");
        }
        if (d != null && !d.withEntries()) {
            for (FrDump.Group g : d.groups().values()) {
                String waiter = waiterBeyond(chosen, r, g.name(), g.lastEnqueued(), labels);
                if (waiter != null && g.lastCompleted() == g.lastEnqueued()) {
                    return st(RankPhase.RUNNING, 0, "outside NCCL: its flight recorder says last enqueued #" + g.lastEnqueued()
                            + ", last completed #" + g.lastCompleted() + ", while " + waiter + "; its host code is busy or blocked"
                            + " (sleeping, a slow data loader, a deadlock): look at its stack with py-spy dump");
                }
            }
        }
        for (NcclLog l : inc.ncclLogs()) {
            if (l.rank() != r || l.initStart() == null || l.initDone() != null) continue;
            return st(r == 0 ? RankPhase.BOOTSTRAP_ROOT_WAIT : RankPhase.BOOTSTRAP_CONNECT, 0, "in ncclCommInitRank: Init START logged ("
                    + l.initStart().where() + "), no Init COMPLETE" + (r == 0 ? "; rank 0 hosts the bootstrap root, which waits for"
                    + " every rank to check in" : "") + " (communicator init has no timeout)");
        }
        return null;
    }

    /** {@code rank 0 waits in #8 (_ALLGATHER_BASE)}: another rank whose first pending collective of the group is a later one, or null. */
    private static String waiterBeyond(Map<Integer, FrDump> chosen, int rank, String group, long lastSeq, Map<String, String> labels) {
        for (Map.Entry<Integer, FrDump> o : chosen.entrySet()) {
            if (o.getKey() == rank) continue;
            for (FrDump.Entry e : o.getValue().entries()) {
                if (e.state().equals("completed") || !e.group().equals(group)) continue;
                if (e.collectiveSeq() <= lastSeq) break;   // it waits in a collective this rank has entered
                return "rank " + o.getKey() + " waits in #" + e.collectiveSeq() + " (" + TorchNames.opType(e.op()) + ") on group "
                        + labels.getOrDefault(e.group(), e.group());
            }
        }
        return null;
    }

    private static Trace.RankState st(RankPhase p, long since, String detail) {
        return new Trace.RankState(p, Math.max(0, since), detail, -1, p, detail);
    }
}
