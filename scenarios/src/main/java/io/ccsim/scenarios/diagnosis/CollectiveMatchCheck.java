package io.ccsim.scenarios.diagnosis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Collectives matched per group and sequence number over the flight records of the last attempt:
 * members without the entry ({@link Category#MISSING_RANK}: "did not join"), entries that disagree
 * in op, size or dtype ({@link Category#COLLECTIVE_MISMATCH}: the minority is the culprit), and a
 * rank whose #N is the others' #N+1, or whose calls from #N on are the others' from #N+1 on (it skipped #N:
 * {@link Category#MISSING_RANK}). The first problem
 * of a group is reported; later sequence numbers follow from it.
 *
 * <p>Findings are ordered by causality. A rank that lacks a collective while it is blocked in an
 * earlier one (a collective that the ranks which did enter this one called before it) is waiting, not
 * missing: it is not named as a culprit, and what it waits for is told in the finding of the
 * collective it is blocked in (the root cause), which comes first. Roots are ordered by when their
 * collective was first entered. Ranks blocked in a collective where no member is missing wait for
 * what another check names (a hung GPU, a crash, a link): this check does not name them.
 */
final class CollectiveMatchCheck extends Check {
    /** A problem of one collective, before ordering. */
    private record Finding(long atPs, String group, long seq, Category category, List<Integer> ranks, StringBuilder text) {}

    /**
     * Ranks that lack collective {@code entered} (#seq of {@code group}) because they are blocked in
     * {@code blockedIn}, which the ranks {@code have} called before it.
     */
    private record Waiting(String group, long seq, List<Integer> ranks, FrEntry blockedIn, FrEntry entered, List<Integer> have) {}

    private final List<Finding> roots = new ArrayList<>();
    private final List<Waiting> waiting = new ArrayList<>();
    private int lastAttempt;

    CollectiveMatchCheck(Trace t) { super(t); }

    @Override
    void run() {
        lastAttempt = t.restarts().size();
        for (Map.Entry<String, List<Integer>> g : t.groupMembers().entrySet()) {
            String name = g.getKey().contains("/") ? g.getKey().substring(0, g.getKey().indexOf('/')) : g.getKey();
            List<Integer> members = g.getValue();
            Map<Integer, Map<Long, FrEntry>> byRank = new LinkedHashMap<>();
            long maxSeq = 0;
            for (int r : members) {
                Map<Long, FrEntry> m = new TreeMap<>();
                for (FrEntry e : lastAttemptEntries(r, lastAttempt)) {
                    if (e.group().equals(name)) {
                        m.put(e.collectiveSeq(), e);
                        maxSeq = Math.max(maxSeq, e.collectiveSeq());
                    }
                }
                byRank.put(r, m);
            }
            for (long seq = 1; seq <= maxSeq; seq++) {
                if (checkSeq(name, members, byRank, seq)) break;
            }
        }
        emit();
    }

    /**
     * Roots in order of their collective, each with the ranks waiting on it. Ranks waiting on a
     * collective in which no member is missing or mismatched are left to the check that finds why it
     * hangs (a hung GPU, a crash, a link): they are blocked, not culprits of this check.
     */
    private void emit() {
        List<Finding> ordered = new ArrayList<>(roots);
        ordered.sort(Comparator.comparingLong(Finding::atPs));
        for (Finding f : ordered) {
            for (Waiting w : waiting) {
                if (w.blockedIn().group().equals(f.group()) && w.blockedIn().collectiveSeq() == f.seq()) {
                    f.text().append(w.ranks().size() == 1 ? ". Rank " : ". Ranks ").append(ranges(w.ranks()))
                            .append(w.ranks().size() == 1 ? " waits" : " wait").append(" in it and so never reached collective #")
                            .append(w.seq()).append(" (").append(sig(w.entered())).append(") on group ").append(w.group())
                            .append(", which ").append(rankWord(w.have())).append(ranges(w.have())).append(" entered at ").append(s(w.entered().createdPs()))
                            .append(w.ranks().size() == 1 ? ": it is blocked, not missing" : ": they are blocked, not missing");
                }
            }
            add(f.category(), f.ranks(), List.of(), f.text().toString());
        }
    }

    /** Flight-recorder entries of the last attempt (the recorder of a restarted process starts empty). */
    private List<FrEntry> lastAttemptEntries(int rank, int lastAttempt) {
        List<FrEntry> all = t.flight().get(rank);
        if (lastAttempt == 0) return all;
        long restartPs = t.restarts().get(t.restarts().size() - 1).failedPs();
        List<FrEntry> out2 = new ArrayList<>();
        for (FrEntry e : all) if (e.createdPs() > restartPs) out2.add(e);
        return out2;
    }

    private static String sig(FrEntry e) { return e.op() + " NumelIn=" + e.numelIn() + " NumelOut=" + e.numelOut() + " " + e.dtype(); }

    /** Checks collective #seq of a group; true if a problem was reported (later sequence numbers follow from it). */
    private boolean checkSeq(String group, List<Integer> members, Map<Integer, Map<Long, FrEntry>> byRank, long seq) {
        List<Integer> have = new ArrayList<>(), lack = new ArrayList<>();
        Map<String, List<Integer>> bySig = new LinkedHashMap<>();
        boolean allCompleted = true;
        for (int r : members) {
            FrEntry e = byRank.get(r).get(seq);
            if (e == null) {
                lack.add(r);
            } else {
                have.add(r);
                bySig.computeIfAbsent(sig(e), k -> new ArrayList<>()).add(r);
                if (!e.state().equals("completed")) allCompleted = false;
            }
        }
        if (allCompleted && lack.isEmpty() && bySig.size() == 1) return false;
        if (have.isEmpty()) return false;
        if (bySig.size() > 1) {
            mismatch(group, byRank, seq, bySig);
            return true;
        }
        if (!lack.isEmpty()) {
            didNotJoin(group, byRank, seq, have, lack);
            return true;
        }
        return false;
    }

    /** Ranks called #seq with different signatures: the minority is the culprit; mismatched, or skipped a call. */
    private void mismatch(String group, Map<Integer, Map<Long, FrEntry>> byRank, long seq, Map<String, List<Integer>> bySig) {
        // the majority signature is the intended call; the others are culprits
        // (a tie, as on two ranks, goes to the signature the ranks' other calls use most: the usual call)
        String major = null;
        for (Map.Entry<String, List<Integer>> e : bySig.entrySet()) {
            int n = e.getValue().size(), m = major == null ? -1 : bySig.get(major).size();
            if (n > m || n == m && uses(byRank, e.getKey()) > uses(byRank, major)) major = e.getKey();
        }
        List<Integer> culprits = new ArrayList<>();
        for (Map.Entry<String, List<Integer>> e : bySig.entrySet()) if (!e.getKey().equals(major)) culprits.addAll(e.getValue());
        Collections.sort(culprits);
        int c = culprits.get(0);
        FrEntry mine = byRank.get(c).get(seq);
        int ref = bySig.get(major).get(0);
        // Skipped, not mismatched: the others' call #seq appears nowhere in the culprit's history,
        // while the culprit's #seq is a call the others make at another position (its sequence is shifted).
        boolean majorInCulprit = false, mineInMajor = false;
        for (FrEntry e : byRank.get(c).values()) majorInCulprit |= sig(e).equals(major);
        for (FrEntry e : byRank.get(ref).values()) mineInMajor |= e.collectiveSeq() != seq && sig(e).equals(sig(mine));
        if (!majorInCulprit && mineInMajor || shifted(byRank.get(c), byRank.get(ref), seq)) {
            root(byRank, seq, group, Category.MISSING_RANK, culprits, rankWord(culprits) + ranges(culprits) + " did not join collective #" + seq + " ("
                    + major + ") on group " + group + " that " + rankWord(bySig.get(major)) + ranges(bySig.get(major)) + " entered at "
                    + s(byRank.get(ref).get(seq).createdPs()) + ": its #" + seq + " is " + sig(mine)
                    + ", a call the others make at another position. It skipped a collective (a conditional taken differently on"
                    + " this rank), so its sequence is shifted and NCCL pairs unrelated calls; nothing completes");
        } else {
            root(byRank, seq, group, Category.COLLECTIVE_MISMATCH, culprits, "collective #" + seq + " on group " + group + ": "
                    + rankWord(culprits) + ranges(culprits) + " called " + sig(mine) + " while " + rankWord(bySig.get(major))
                    + ranges(bySig.get(major)) + " called " + major
                    + (completed(byRank, seq) ? "; NCCL does not compare sizes across ranks and here the call completed: the"
                    + " results are silently wrong" : "; NCCL matches calls by order only, so the collective never completes"));
        }
    }

    /** How many calls of every rank's history have signature {@code sig}. */
    private static int uses(Map<Integer, Map<Long, FrEntry>> byRank, String sig) {
        int n = 0;
        for (Map<Long, FrEntry> m : byRank.values()) for (FrEntry e : m.values()) if (sig(e).equals(sig)) n++;
        return n;
    }

    /**
     * Whether the culprit's calls from #seq on are the reference's from #seq+1 on (at least two compared, all equal):
     * it skipped the reference's #seq, and everything after pairs with the wrong call.
     */
    private static boolean shifted(Map<Long, FrEntry> culprit, Map<Long, FrEntry> ref, long seq) {
        int compared = 0;
        for (long k = seq; culprit.containsKey(k) && ref.containsKey(k + 1); k++) {
            if (!sig(culprit.get(k)).equals(sig(ref.get(k + 1)))) return false;
            compared++;
        }
        return compared >= 2;
    }

    /** Whether every entry #seq is completed. */
    private static boolean completed(Map<Integer, Map<Long, FrEntry>> byRank, long seq) {
        for (Map<Long, FrEntry> m : byRank.values()) {
            FrEntry e = m.get(seq);
            if (e != null && !e.state().equals("completed")) return false;
        }
        return true;
    }

    private void root(Map<Integer, Map<Long, FrEntry>> byRank, long seq, String group, Category c, List<Integer> ranks, String text) {
        long at = Long.MAX_VALUE;
        for (Map<Long, FrEntry> m : byRank.values()) {
            FrEntry e = m.get(seq);
            if (e != null) at = Math.min(at, e.createdPs());
        }
        roots.add(new Finding(at, group, seq, c, List.copyOf(ranks), new StringBuilder(text)));
    }

    /**
     * Members without entry #seq: those blocked in an earlier collective wait (told with the root they
     * wait on); the others did not join, the alive ones named first since they explain the rest.
     */
    private void didNotJoin(String group, Map<Integer, Map<Long, FrEntry>> byRank, long seq, List<Integer> have,
                            List<Integer> lack) {
        FrEntry e = byRank.get(have.get(0)).get(seq);
        List<Integer> dead = new ArrayList<>(), alive = new ArrayList<>();
        Map<String, List<Integer>> blocked = new LinkedHashMap<>();
        Map<String, FrEntry> blockedEntry = new LinkedHashMap<>();
        for (int r : lack) {
            Trace.RankState st = t.finalStates().get(r);
            RankPhase ph = st == null ? RankPhase.NOT_STARTED : st.before();
            FrEntry b = blockedIn(r);
            if (ph == RankPhase.CRASHED || ph == RankPhase.NOT_STARTED || ph == RankPhase.INIT_ALLOC_STALL) {
                dead.add(r);
            } else if (b != null && !b.group().equals(group) && enteredBefore(b, group, seq, have)) {
                String k = b.group() + "#" + b.collectiveSeq();
                blocked.computeIfAbsent(k, x -> new ArrayList<>()).add(r);
                blockedEntry.putIfAbsent(k, b);
            } else {
                alive.add(r);
            }
        }
        for (Map.Entry<String, List<Integer>> w : blocked.entrySet()) {
            waiting.add(new Waiting(group, seq, w.getValue(), blockedEntry.get(w.getKey()), e, have));
        }
        List<Integer> named = new ArrayList<>(alive);
        named.addAll(dead);
        if (named.isEmpty()) return;
        StringBuilder sb = new StringBuilder();
        sb.append("rank ").append(ranges(named)).append(" did not join collective #").append(seq).append(" (").append(sig(e))
                .append(") on group ").append(group).append(", which ranks ").append(ranges(have)).append(" entered at ")
                .append(s(e.createdPs()));
        int r = named.get(0);
        FrEntry next = blockedIn(r);
        Trace.RankState st = t.finalStates().get(r);
        if (next != null && !next.group().equals(group) && next.createdPs() >= e.createdPs()) {
            sb.append("; rank ").append(r).append(" went on without it to collective #").append(next.collectiveSeq()).append(" (")
                    .append(sig(next)).append(") on group ").append(next.group()).append(" at ").append(s(next.createdPs()))
                    .append(" (it skipped this one: a conditional taken differently on this rank) and is blocked there");
        } else if (st != null) {
            sb.append("; rank ").append(r).append(" was ").append(st.before().name().toLowerCase(Locale.ROOT))
                    .append(" (").append(st.beforeDetail()).append(')');
        }
        root(byRank, seq, group, Category.MISSING_RANK, named, sb.toString());
    }

    /** The collective rank {@code r} is blocked in: its last entry of the last attempt, if not completed (else null). */
    private FrEntry blockedIn(int r) {
        List<FrEntry> es = lastAttemptEntries(r, lastAttempt);
        if (es.isEmpty()) return null;
        FrEntry last = es.get(es.size() - 1);
        return last.state().equals("completed") ? null : last;
    }

    /** Whether some rank of {@code have} recorded collective {@code b} before its #seq of {@code group}. */
    private boolean enteredBefore(FrEntry b, String group, long seq, List<Integer> have) {
        for (int x : have) {
            for (FrEntry e : lastAttemptEntries(x, lastAttempt)) {
                if (e.group().equals(group) && e.collectiveSeq() == seq) break;
                if (e.group().equals(b.group()) && e.collectiveSeq() == b.collectiveSeq()) return true;
            }
        }
        return false;
    }

    /** "rank " before one rank, "ranks " before several. */
    private static String rankWord(java.util.Collection<Integer> ranks) {
        return ranks.size() == 1 ? "rank " : "ranks ";
    }
}
