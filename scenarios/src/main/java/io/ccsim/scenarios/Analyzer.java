package io.ccsim.scenarios;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Names the culprits of a run from what it left behind: flight-recorder dumps, rank states,
 * communicator-init records, bootstrap roots, store accesses, collective timings and the agent's
 * restarts. The checks follow what an on-call engineer does with torchfrtrace and NCCL RAS:
 *
 * <ul>
 * <li>init: unique ids that were created by another init round than the one reading them
 *     (STALE_STORE_KEY), roots that never saw all their ranks and why (MISSING_RANK,
 *     INIT_OUT_OF_MEMORY, BOOTSTRAP_STALL), connects that ran out of retries;
 * <li>collectives, per group and sequence number: members without the entry ("did not join"),
 *     entries that disagree in op, size or dtype (the minority is the culprit; a rank whose #N is
 *     the others' #N+1 skipped #N), watchdog timeouts;
 * <li>timings: a link whose rate is below nominal on the slowest ring hop (SLOW_LINK, with the ring
 *     hops that cross it), a rank whose compute takes longer than the median (SLOW_RANK);
 * <li>data: output checksums against the sum of input checksums; the ranks that differ form a run
 *     in ring order whose first rank tells the hop where the corruption entered;
 * <li>process failures, transport errors and elastic restarts with the work they lost.
 * </ul>
 */
final class Analyzer {
    private final Trace t;
    private final List<Diagnosis> out = new ArrayList<>();

    private Analyzer(Trace t) { this.t = t; }

    static List<Diagnosis> analyze(Trace t) {
        Analyzer a = new Analyzer(t);
        // root causes first, consequences after
        a.staleKeys();
        a.outOfMemory();
        a.bootstrap();
        a.crashes();
        a.linkFailures();
        a.slowLinks();
        a.slowRanks();
        a.corruption();
        a.collectives();
        a.timeouts();
        a.restarts();
        return List.copyOf(a.out);
    }

    private void add(Category c, List<Integer> ranks, List<String> links, String summary) {
        out.add(new Diagnosis(c, ranks, links, summary));
    }

    static String ranges(Iterable<Integer> ranks) {
        List<Integer> rs = new ArrayList<>();
        for (int r : ranks) rs.add(r);
        Collections.sort(rs);
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (i < rs.size()) {
            int j = i;
            while (j + 1 < rs.size() && rs.get(j + 1) == rs.get(j) + 1) j++;
            if (sb.length() > 0) sb.append(", ");
            sb.append(rs.get(i));
            if (j > i + 1) sb.append('-').append(rs.get(j));
            else if (j == i + 1) sb.append(", ").append(rs.get(j));
            i = j + 1;
        }
        return sb.toString();
    }

    private static String s(long ps) { return Units.formatDuration(ps); }

    private String gpu(int rank) { return t.gpuIds.getOrDefault(rank, "?"); }

    // ---------------------------------------------------------------- init

    private RootRecord rootOf(int attempt, String id) {
        String addr = Bootstrap.addressOf(id);
        for (RootRecord r : t.roots) if (r.attempt() == attempt && r.address().equals(addr)) return r;
        for (RootRecord r : t.roots) if (r.address().equals(addr)) return r;
        return null;
    }

    private void staleKeys() {
        // (attempt, group, initSeq, key) -> readers of a stale value
        Map<String, List<Integer>> readers = new LinkedHashMap<>();
        Map<String, String> detail = new HashMap<>();
        Map<String, Integer> lateWriter = new HashMap<>();
        for (InitRecord in : t.inits) {
            for (int i = 0; i < in.ids().size() && i < in.keys().size(); i++) {
                String id = in.ids().get(i);
                String key = in.keys().get(i);
                RootRecord creator = rootOf(in.attempt(), id);
                boolean foreign = creator == null;
                boolean stale = !foreign && (creator.attempt() != in.attempt() || creator.initSeq() != in.initSeq()
                        || !creator.group().equals(in.group()));
                if (!foreign && !stale) continue;
                String k = in.attempt() + "|" + in.group() + "|" + in.initSeq() + "|" + key;
                readers.computeIfAbsent(k, x -> new ArrayList<>()).add(in.rank());
                if (!detail.containsKey(k)) {
                    StoreEvent read = lastRead(in.rank(), key, in.startPs());
                    StoreEvent fresh = firstWriteAfter(key, in.startPs(), in.rank());
                    StringBuilder sb = new StringBuilder();
                    sb.append("communicator init #").append(in.initSeq()).append(" of group ").append(in.group())
                            .append(in.scalable() ? " (scalable init, " + t.settings.ranksPerRoot() + " rank(s) per root)" : "")
                            .append(": ranks %READERS% read store key ").append(key);
                    if (foreign) {
                        sb.append(" and got a value no bootstrap root of this job created (written by ")
                                .append(read == null || read.writerRank() < 0 ? "an outside writer" : "rank " + read.writerRank())
                                .append(read == null ? "" : " at " + s(read.writtenPs())).append("): another job or tool shares the store"
                                        + " and its keys collide with this job's");
                    } else {
                        sb.append(" and got the unique id left by communicator init #").append(creator.initSeq())
                                .append(" (written by rank ").append(creator.hostRank()).append(" at ").append(s(creator.createdPs())).append(')');
                        if (fresh != null) {
                            sb.append("; rank ").append(fresh.rank()).append(" only rewrote it at ").append(s(fresh.timePs()));
                            lateWriter.put(k, fresh.rank());
                        }
                        sb.append(". Their ids point at root ").append(creator.address())
                                .append(", which had stopped listening, so their commId diverges from the ranks that read the fresh id."
                                        + " The UniqueNCCLID keys are not scoped per init round (pytorch/pytorch#178473);"
                                        + " PR #178493 prefixes them with the communicator counter");
                    }
                    detail.put(k, sb.toString());
                }
            }
        }
        for (Map.Entry<String, List<Integer>> e : readers.entrySet()) {
            List<Integer> rs = new ArrayList<>(new TreeSet<>(e.getValue()));
            String text = detail.get(e.getKey()).replace("%READERS%", ranges(rs));
            List<Integer> named = new ArrayList<>(rs);
            Integer late = lateWriter.get(e.getKey());
            if (late != null && !named.contains(late)) named.add(late);
            add(Category.STALE_STORE_KEY, named, List.of(), text + ".");
        }
    }

    private StoreEvent lastRead(int rank, String key, long afterPs) {
        StoreEvent best = null;
        for (StoreEvent e : t.store) {
            if (e.rank() == rank && e.key().equals(key) && e.op().equals("GET") && e.timePs() >= afterPs) {
                best = e;
                break;
            }
        }
        return best;
    }

    private StoreEvent firstWriteAfter(String key, long afterPs, int notRank) {
        for (StoreEvent e : t.store) {
            if (e.key().equals(key) && e.op().equals("SET") && e.timePs() >= afterPs && e.rank() != notRank) return e;
        }
        return null;
    }

    private final List<Integer> storeTimeouts = new ArrayList<>();
    private String storeTimeoutText;

    private void bootstrap() {
        // connects that ran out of retries, merged per target address
        Map<String, List<Integer>> refused = new LinkedHashMap<>();
        Map<String, String> refusedText = new HashMap<>();
        for (InitRecord in : t.inits) {
            if (in.result().startsWith("error:") && in.result().contains("exceeded error retry count")) {
                int i = in.result().indexOf("socketPollConnect");
                String msg = in.result().substring(Math.max(0, i));
                String target = msg.contains("connect to ") ? msg.substring(msg.indexOf("connect to ") + 11, msg.indexOf(" returned")) : "?";
                String k = in.group() + "|" + in.initSeq() + "|" + target;
                refused.computeIfAbsent(k, x -> new ArrayList<>()).add(in.rank());
                refusedText.putIfAbsent(k, "communicator init #" + in.initSeq() + " of group " + in.group() + " failed after "
                        + s(in.endPs() - in.startPs()) + ": " + msg);
            }
            if (in.result().contains("store->get(") || in.result().contains("multiGet got error")) {
                storeTimeouts.add(in.rank());
                if (storeTimeoutText == null) storeTimeoutText = in.result().substring("error: ".length());
            }
        }
        for (Map.Entry<String, List<Integer>> e : refused.entrySet()) {
            add(Category.BOOTSTRAP_STALL, e.getValue(), List.of(), "rank(s) " + ranges(e.getValue()) + ": " + refusedText.get(e.getKey())
                    + " (NCCL retries a refused connect 34 times with sleeps growing by 100 ms: 59.5 s); nothing listens at that"
                    + " address: the unique id they used is not this round's");
        }
        // roots that never saw all their ranks
        Set<Integer> neverStarted = new TreeSet<>(t.neverStarted);
        Map<String, List<Integer>> blocked = new TreeMap<>();
        for (Map.Entry<Integer, Trace.RankState> e : t.finalStates.entrySet()) {
            RankPhase ph = e.getValue().before();
            if (ph == RankPhase.BOOTSTRAP_ROOT_WAIT || ph == RankPhase.BOOTSTRAP_RING || ph == RankPhase.BOOTSTRAP_CONNECT
                    || ph == RankPhase.STORE_WAIT) {
                blocked.computeIfAbsent(ph.name(), k -> new ArrayList<>()).add(e.getKey());
            }
        }
        int lastAttempt = t.restarts.size();
        Set<Integer> reportedMissing = new TreeSet<>();
        for (RootRecord r : t.roots) {
            if (r.attempt() != lastAttempt || r.arrived().size() == r.expected().size()) continue;
            List<Integer> missing = new ArrayList<>(r.expected());
            missing.removeAll(r.arrived());
            List<Integer> notLaunched = missing.stream().filter(neverStarted::contains).collect(Collectors.toList());
            if (!notLaunched.isEmpty()) {
                reportedMissing.addAll(notLaunched);
                add(Category.MISSING_RANK, notLaunched, List.of(), "rank(s) " + ranges(notLaunched) + " (" + notLaunched.stream()
                        .map(this::gpu).collect(Collectors.joining(", ")) + ") never started: bootstrap root " + r.address()
                        + " of group " + r.group() + " (communicator #" + r.initSeq() + ") received " + r.arrived().size() + " of "
                        + r.expected().size() + " ranks, and ranks " + ranges(r.arrived()) + " wait in ncclCommInitRank with no timeout"
                        + " (the collective watchdog does not cover communicator init)");
            }
            List<Integer> others = new ArrayList<>(missing);
            others.removeAll(notLaunched);
            others.removeIf(q -> t.finalStates.get(q) != null && t.finalStates.get(q).before() == RankPhase.INIT_ALLOC_STALL);
            if (!others.isEmpty() && notLaunched.isEmpty()) {
                add(Category.BOOTSTRAP_STALL, others, List.of(), "bootstrap root " + r.address() + " of group " + r.group()
                        + " (communicator #" + r.initSeq() + ", root " + r.rootIndex() + ") is still waiting for rank(s) "
                        + ranges(others) + "; " + r.arrived().size() + " of " + r.expected().size() + " checked in");
            }
        }
        for (int r : neverStarted) {
            if (reportedMissing.contains(r)) continue;
            add(Category.MISSING_RANK, List.of(r), List.of(), "rank " + r + " (" + gpu(r) + ") was never launched"
                    + (r == 0 ? "; rank 0 hosts the TCPStore server (MASTER_ADDR), so no rank can exchange its ncclUniqueId" : "")
                    + (blocked.isEmpty() ? "" : "; blocked: " + blocked.entrySet().stream()
                    .map(e -> e.getKey().toLowerCase(Locale.ROOT) + " " + ranges(e.getValue())).collect(Collectors.joining("; "))));
        }
        if (!storeTimeouts.isEmpty()) {
            Collections.sort(storeTimeouts);
            add(Category.TIMEOUT, storeTimeouts, List.of(), "rank(s) " + ranges(storeTimeouts) + " timed out in the store while"
                    + " exchanging the ncclUniqueId (the store timeout covers this step, the collective watchdog does not): "
                    + storeTimeoutText);
        }
        // ranks blocked forever in the bootstrap of the last attempt (no timeout covers them)
        List<Integer> stuck = new ArrayList<>();
        for (String ph : List.of("BOOTSTRAP_ROOT_WAIT", "BOOTSTRAP_RING", "BOOTSTRAP_CONNECT")) {
            stuck.addAll(blocked.getOrDefault(ph, List.of()));
        }
        if (!stuck.isEmpty() && t.neverStarted.isEmpty() && !hasInitStall()) {
            Collections.sort(stuck);
            add(Category.BOOTSTRAP_STALL, stuck, List.of(), "rank(s) " + ranges(stuck) + " blocked in NCCL bootstrap, which has no"
                    + " timeout: " + t.finalStates.get(stuck.get(0)).beforeDetail());
        }
    }

    private boolean hasInitStall() {
        for (Trace.RankState s : t.finalStates.values()) if (s.before() == RankPhase.INIT_ALLOC_STALL) return true;
        return false;
    }

    private void outOfMemory() {
        List<Integer> stalled = new ArrayList<>();
        for (Map.Entry<Integer, Trace.RankState> e : t.finalStates.entrySet()) {
            if (e.getValue().before() == RankPhase.INIT_ALLOC_STALL) stalled.add(e.getKey());
        }
        if (!stalled.isEmpty()) {
            List<Integer> waiting = new ArrayList<>();
            List<Integer> inCollective = new ArrayList<>();
            for (Map.Entry<Integer, Trace.RankState> e : t.finalStates.entrySet()) {
                RankPhase ph = e.getValue().before();
                if (ph == RankPhase.BOOTSTRAP_ROOT_WAIT || ph == RankPhase.BOOTSTRAP_RING || ph == RankPhase.BOOTSTRAP_CONNECT) {
                    waiting.add(e.getKey());
                } else if (ph == RankPhase.COLLECTIVE || e.getValue().phase() == RankPhase.ERROR) {
                    inCollective.add(e.getKey());
                }
            }
            int r0 = stalled.get(0);
            add(Category.INIT_OUT_OF_MEMORY, stalled, List.of(), "rank " + ranges(stalled) + " stalled in lazy communicator init: "
                    + t.finalStates.get(r0).beforeDetail() + "."
                    + (waiting.isEmpty() ? "" : " Ranks " + ranges(waiting) + " of its group wait for it in bootstrap forever with no error output.")
                    + (inCollective.isEmpty() ? "" : " Ranks " + ranges(inCollective) + " then wait for those ranks in their next collective.")
                    + " Fix: create the communicator while memory is free (a barrier on the group right after new_group)");
        }
        for (RankEvent e : t.events) {
            if (e.kind().equals("ERROR") && e.text().contains("OutOfMemoryError")) {
                add(Category.OUT_OF_MEMORY, List.of(e.rank()), List.of(), "rank " + e.rank() + ": " + e.text());
            }
        }
    }

    // ---------------------------------------------------------------- collectives

    private void collectives() {
        int lastAttempt = t.restarts.size();
        for (Map.Entry<String, List<Integer>> g : t.groupMembers.entrySet()) {
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
    }

    /** Flight-recorder entries of the last attempt (the recorder of a restarted process starts empty). */
    private List<FrEntry> lastAttemptEntries(int rank, int lastAttempt) {
        List<FrEntry> all = t.flight.get(rank);
        if (lastAttempt == 0) return all;
        long restartPs = t.restarts.get(t.restarts.size() - 1).failedPs();
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
            // the majority signature is the intended call; the others are culprits
            String major = null;
            for (Map.Entry<String, List<Integer>> e : bySig.entrySet()) {
                if (major == null || e.getValue().size() > bySig.get(major).size()) major = e.getKey();
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
            if (!majorInCulprit && mineInMajor) {
                add(Category.MISSING_RANK, culprits, List.of(), "rank " + ranges(culprits) + " did not join collective #" + seq + " ("
                        + major + ") on group " + group + " that ranks " + ranges(bySig.get(major)) + " entered at "
                        + s(byRank.get(ref).get(seq).createdPs()) + ": its #" + seq + " is " + sig(mine)
                        + ", a call the others make at another position. It skipped a collective (a conditional taken differently on"
                        + " this rank), so its sequence is shifted and NCCL pairs unrelated calls; nothing completes");
            } else {
                add(Category.COLLECTIVE_MISMATCH, culprits, List.of(), "collective #" + seq + " on group " + group + ": rank "
                        + ranges(culprits) + " called " + sig(mine) + " while ranks " + ranges(bySig.get(major)) + " called " + major
                        + "; NCCL matches calls by order only, so the collective never completes");
            }
            return true;
        }
        if (!lack.isEmpty()) {
            List<Integer> dead = new ArrayList<>(), alive = new ArrayList<>();
            for (int r : lack) {
                Trace.RankState st = t.finalStates.get(r);
                RankPhase ph = st == null ? RankPhase.NOT_STARTED : st.before();
                if (ph == RankPhase.CRASHED || ph == RankPhase.NOT_STARTED || ph == RankPhase.INIT_ALLOC_STALL) dead.add(r);
                else alive.add(r);
            }
            // every rank that lacks the entry did not join; the blocked (alive) ones first, since they explain the rest
            List<Integer> named = new ArrayList<>(alive);
            named.addAll(dead);
            FrEntry e = byRank.get(have.get(0)).get(seq);
            StringBuilder sb = new StringBuilder();
            sb.append("rank ").append(ranges(named)).append(" did not join collective #").append(seq).append(" (").append(sig(e))
                    .append(") on group ").append(group).append(", which ranks ").append(ranges(have)).append(" entered at ")
                    .append(s(e.createdPs()));
            for (int r : named) {
                Trace.RankState st = t.finalStates.get(r);
                if (st != null) {
                    sb.append("; rank ").append(r).append(" was ").append(st.before().name().toLowerCase(Locale.ROOT))
                            .append(" (").append(st.beforeDetail()).append(')');
                    break;
                }
            }
            add(Category.MISSING_RANK, named, List.of(), sb.toString());
            return true;
        }
        return false;
    }

    private void timeouts() {
        List<Integer> ranks = new ArrayList<>();
        String first = null;
        for (RankEvent e : t.events) {
            if (e.kind().equals("WATCHDOG")) {
                if (!ranks.contains(e.rank())) ranks.add(e.rank());
                if (first == null) first = e.text();
            }
        }
        if (!ranks.isEmpty()) {
            Collections.sort(ranks);
            add(Category.TIMEOUT, ranks, List.of(), "watchdog timeout on rank(s) " + ranges(ranks) + ": " + first);
        }
    }

    private void crashes() {
        for (RankEvent e : t.events) {
            if (e.kind().equals("GPU_HANG")) {
                String killed = "";
                for (RankEvent k : t.events) {
                    if (k.rank() == e.rank() && k.kind().equals("ERROR") && k.text().contains("Heartbeat monitor timed out")) {
                        killed = "; " + s(k.timePs() - e.timePs()) + " later the heartbeat monitor (TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC="
                                + Units.toMillis(t.settings.heartbeatTimeoutPs()) / 1000 + ", checked once per period) killed the process: "
                                + k.text();
                        break;
                    }
                }
                add(Category.GPU_HANG, List.of(e.rank()), List.of(), "rank " + e.rank() + ": " + e.text() + " at " + s(e.timePs())
                        + "; its watchdog thread blocked on the GPU, so no collective timeout fired on it" + killed
                        + (killed.endsWith(".") ? "" : ".") + " Its peers stall in the collective it never finished; check dmesg for Xid 79/119 on " + gpu(e.rank()));
            }
            if (e.kind().equals("CRASH")) {
                add(Category.RANK_CRASH, List.of(e.rank()), List.of(), "rank " + e.rank() + " (" + gpu(e.rank()) + ") crashed at "
                        + s(e.timePs()) + " (attempt " + e.attempt() + "): " + e.text() + "; its peers stall in their next collective"
                        + " on it until the elastic agent stops them or the watchdog times out");
            }
        }
    }

    private void restarts() {
        for (Trace.Restart r : t.restarts) {
            int lost = Math.max(0, r.lastIteration() - r.resumeFrom() + 1);
            String from = r.checkpointPs() < 0 ? "from scratch (no checkpoint)" : "from the checkpoint taken at " + s(r.checkpointPs())
                    + " (resuming at iteration " + r.resumeFrom() + ")";
            long lostPs = r.failedPs() - Math.max(0, r.checkpointPs());
            add(Category.ELASTIC_RESTART, List.of(), List.of(), "attempt " + r.attempt() + " failed at " + s(r.failedPs()) + " ("
                    + r.reason() + "); the elastic agent restarted the job " + from + ": " + lost + " iteration(s) and "
                    + s(lostPs) + " of work lost (restart " + (r.attempt() + 1) + " of max " + t.settings.maxRestarts() + ")");
        }
    }

    // ---------------------------------------------------------------- links and speed

    private void linkFailures() {
        Set<String> failedLinks = new LinkedHashSet<>();
        for (RankEvent e : t.events) {
            if (e.kind().equals("NET_ERROR")) {
                int i = e.text().indexOf("on link ");
                String link = i < 0 ? "?" : e.text().substring(i + 8, e.text().indexOf(' ', i + 8));
                failedLinks.add(link);
                add(Category.LINK_FAILURE, List.of(e.rank()), List.of(link), "link " + link + " stayed down longer than the IB"
                        + " transport retries last (NCCL_IB_TIMEOUT=" + t.settings.ibTimeout() + ": " + s(t.settings.ibAckTimeoutPs())
                        + " per try, NCCL_IB_RETRY_CNT=" + t.settings.ibRetryCount() + ": " + s(t.settings.ibGiveUpPs())
                        + " in all); rank " + e.rank() + " got: " + e.text());
            }
        }
        for (Map.Entry<String, Double> d : t.degradedLinks.entrySet()) {
            if (d.getValue() == 0.0 && !failedLinks.contains(d.getKey())) {
                long outages = t.faults.stream().filter(f -> f.contains("link " + d.getKey() + " down")).count();
                long lost = 0;
                int hit = 0;
                for (CollectiveStats c : t.collectives) {
                    if (c.healthyPs() > 0 && c.durationPs() > 1.2 * c.healthyPs()) {
                        lost += c.durationPs() - c.healthyPs();
                        hit++;
                    }
                }
                add(Category.LINK_FAILURE, List.of(), List.of(d.getKey()), "link " + d.getKey() + " went down " + outages
                        + " time(s), each shorter than the IB give-up time (" + s(t.settings.ibGiveUpPs()) + "): the transport"
                        + " retransmitted and recovered, but traffic resumes only at the next retransmission (every "
                        + s(t.settings.ibAckTimeoutPs()) + ", NCCL_IB_TIMEOUT=" + t.settings.ibTimeout() + "); " + hit
                        + " collective(s) crossing it lost " + s(lost) + " in all");
            }
        }
    }

    private void slowLinks() {
        Map<String, List<CollectiveStats>> byLink = new LinkedHashMap<>();
        for (CollectiveStats c : t.collectives) {
            if (c.bottleneckLink() == null || c.bottleneckHealth() >= 0.9 || c.healthyPs() <= 0) continue;
            if (c.durationPs() < 1.2 * c.healthyPs()) continue;
            byLink.computeIfAbsent(c.bottleneckLink(), k -> new ArrayList<>()).add(c);
        }
        for (Map.Entry<String, List<CollectiveStats>> e : byLink.entrySet()) {
            CollectiveStats c = e.getValue().get(0);
            long dur = 0, healthy = 0;
            for (CollectiveStats x : e.getValue()) {
                dur += x.durationPs();
                healthy += x.healthyPs();
            }
            Set<Integer> named = new LinkedHashSet<>(c.bottleneckSenders());
            StringBuilder hops = new StringBuilder();
            for (int i = 0; i < c.bottleneckSenders().size() && i < 4; i++) {
                if (i > 0) hops.append(", ");
                int a = c.bottleneckSenders().get(i), b = c.bottleneckReceivers().get(i);
                hops.append("rank ").append(a).append(" (").append(gpu(a)).append(") -> rank ").append(b).append(" (").append(gpu(b)).append(')');
            }
            if (c.bottleneckSenders().size() > 4) hops.append(", ...");
            add(Category.SLOW_LINK, new ArrayList<>(named), List.of(e.getKey()), String.format(Locale.ROOT,
                    "link %s runs at %.0f%% of its rate and is the bottleneck of the ring: it carries the ring hop(s) %s. "
                            + "%d collective(s) took %s instead of %s (%.1fx slower); a ring runs at its slowest hop, so every rank waits",
                    e.getKey(), 100 * c.bottleneckHealth(), hops, e.getValue().size(), s(dur), s(healthy), dur / (double) healthy));
        }
    }

    private void slowRanks() {
        // mean duration of one compute step per rank (ranks that progressed further did more steps)
        Map<Integer, Long> perStep = new LinkedHashMap<>();
        for (Map.Entry<Integer, long[]> e : t.busy.entrySet()) {
            if (e.getValue()[2] > 0) perStep.put(e.getKey(), e.getValue()[0] / e.getValue()[2]);
        }
        if (perStep.size() < 2) return;
        List<Long> vals = new ArrayList<>(perStep.values());
        Collections.sort(vals);
        long median = vals.get(vals.size() / 2);
        if (median <= 0) return;
        for (Map.Entry<Integer, Long> c : perStep.entrySet()) {
            if (c.getValue() > 1.2 * median) {
                int r = c.getKey();
                long wait = 0;
                int n = 0;
                for (Map.Entry<Integer, long[]> e : t.busy.entrySet()) {
                    if (e.getKey() != r) {
                        wait += e.getValue()[1];
                        n++;
                    }
                }
                add(Category.SLOW_RANK, List.of(r), List.of(), String.format(Locale.ROOT,
                        "rank %d (%s) computes %.2fx slower than the median rank (%s vs %s per compute step); the other ranks spent on"
                                + " average %s waiting in collectives, mostly for it", r, gpu(r), c.getValue() / (double) median,
                        s(c.getValue()), s(median), s(n == 0 ? 0 : wait / n)));
            }
        }
    }

    // ---------------------------------------------------------------- data

    private void corruption() {
        for (CollectiveStats c : t.collectives) {
            if (c.inputChecksums() == null) continue;
            long expected = 0;
            for (long x : c.inputChecksums()) expected += x;
            int n = c.ranks().length;
            boolean[] wrong = new boolean[n];
            boolean any = false, inTransit = false;
            String group = c.label().substring(0, c.label().indexOf('#'));
            long seq = Long.parseLong(c.label().substring(c.label().indexOf('#') + 1));
            for (int i = 0; i < n; i++) {
                Long held = held(c.ranks()[i], group, seq, c.startPs());
                if (held == null) continue;
                wrong[i] = held != expected;
                any |= wrong[i];
                inTransit |= c.outputChecksums()[i] != expected;
            }
            if (!any) continue;
            List<Integer> bad = new ArrayList<>();
            for (int i = 0; i < n; i++) if (wrong[i]) bad.add(c.ranks()[i]);
            String head = c.op() + " " + c.label() + ": rank(s) " + ranges(bad) + " hold a result whose checksum differs from the sum of"
                    + " the inputs' checksums (0x" + Long.toHexString(expected) + ")";
            if (!inTransit) {
                add(Category.DATA_CORRUPTION, bad, List.of(), head + "; the data they received was right, so it was corrupted in their"
                        + " GPU memory afterwards (an uncorrected ECC error: check nvidia-smi -q for ECC/Xid 48)");
                continue;
            }
            if (bad.size() == n) {
                add(Category.DATA_CORRUPTION, bad, List.of(), head + "; all ranks agree on the wrong value, so it was corrupted during"
                        + " the reduce phase, before the result was replicated; the hop cannot be located from the outputs alone");
                continue;
            }
            // first wrong rank in ring order after a right one: the corruption entered on the hop into it
            int first = -1;
            for (int i = 0; i < n; i++) {
                if (wrong[i] && !wrong[(i - 1 + n) % n]) {
                    first = i;
                    break;
                }
            }
            int prev = (first - 1 + n) % n;
            List<String> links = c.ringHopLinks().get(first);
            add(Category.DATA_CORRUPTION, bad, links, head + ". In ring order the wrong results start at rank " + c.ranks()[first]
                    + ": the corruption entered on the hop rank " + c.ranks()[prev] + " (" + gpu(c.ranks()[prev]) + ") -> rank "
                    + c.ranks()[first] + " (" + gpu(c.ranks()[first]) + "), over " + String.join(", ", links)
                    + " (a bit flip the link CRC missed: check nvidia-smi nvlink --errorcounters and Xid 74)");
        }
    }

    /** The checksum rank {@code r}'s flight recorder holds for collective #seq of a group started at startPs. */
    private Long held(int r, String group, long seq, long startPs) {
        for (FrEntry e : t.flight.get(r)) {
            if (e.group().equals(group) && e.collectiveSeq() == seq && e.completedPs() >= startPs) return e.checksum();
        }
        return null;
    }
}
