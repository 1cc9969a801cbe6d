package io.ccsim.scenarios.diagnosis;

import io.ccsim.scenarios.bootstrap.RootRecord;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The bootstrap of communicator inits: connects that ran out of retries, inits that failed with an NCCL error, roots still waiting
 * ({@link Category#BOOTSTRAP_STALL}), ranks never launched ({@link Category#MISSING_RANK}), store
 * timeouts while exchanging the unique id ({@link Category#TIMEOUT}), and ranks blocked for good in
 * the bootstrap, which has no timeout.
 */
final class BootstrapCheck extends Check {
    BootstrapCheck(Trace t) { super(t); }

    @Override
    void run() {
        refusedConnects();
        failedInits();
        Map<String, List<Integer>> blocked = blockedInBootstrap();
        Set<Integer> reportedMissing = incompleteRoots();
        neverLaunched(reportedMissing, blocked);
        storeTimeouts();
        stuckInBootstrap(blocked);
    }

    /** Connects that ran out of retries, merged per target address. */
    private void refusedConnects() {
        Map<String, List<Integer>> refused = new LinkedHashMap<>();
        Map<String, String> refusedText = new HashMap<>();
        for (InitRecord in : t.inits()) {
            if (in.result().startsWith("error:") && in.result().contains("exceeded error retry count")) {
                int i = in.result().indexOf("socketPollConnect");
                String msg = in.result().substring(Math.max(0, i));
                String target = msg.contains("connect to ") ? msg.substring(msg.indexOf("connect to ") + 11, msg.indexOf(" returned")) : "?";
                String k = in.group() + "|" + in.initSeq() + "|" + target;
                refused.computeIfAbsent(k, x -> new ArrayList<>()).add(in.rank());
                refusedText.putIfAbsent(k, "communicator init #" + in.initSeq() + " of group " + in.group() + " failed after "
                        + s(in.endPs() - in.startPs()) + ": " + msg);
            }
        }
        for (Map.Entry<String, List<Integer>> e : refused.entrySet()) {
            add(Category.BOOTSTRAP_STALL, e.getValue(), List.of(), "rank(s) " + ranges(e.getValue()) + ": " + refusedText.get(e.getKey())
                    + " (NCCL retries a refused connect 34 times with sleeps growing by 100 ms: 59.5 s); nothing listens at that"
                    + " address: the unique id they used is not this round's");
        }
    }

    /**
     * Inits that failed with an NCCL error other than refused connects, store timeouts and splits (which the
     * simulation reports elsewhere): a rank whose bootstrap could not start, as an NCCL log or PyTorch error shows it.
     */
    private void failedInits() {
        for (InitRecord in : t.inits()) {
            String r = in.result();
            if (!r.startsWith("error:") || r.contains("exceeded error retry count") || r.contains("store->get(")
                    || r.contains("multiGet got error") || r.contains("ncclCommSplit")) continue;
            add(Category.BOOTSTRAP_STALL, List.of(in.rank()), List.of(), "rank " + in.rank() + " (" + gpu(in.rank()) + "): communicator init"
                    + " of group " + in.group() + " failed: " + r.substring("error: ".length()) + "; the ranks that got through"
                    + " wait for it in the bootstrap, which has no timeout");
        }
    }

    /** Ranks whose last phase was in the unique-id exchange or the bootstrap, by phase name (sorted). */
    private Map<String, List<Integer>> blockedInBootstrap() {
        Map<String, List<Integer>> blocked = new TreeMap<>();
        for (Map.Entry<Integer, Trace.RankState> e : t.finalStates().entrySet()) {
            RankPhase ph = e.getValue().before();
            if (ph == RankPhase.BOOTSTRAP_ROOT_WAIT || ph == RankPhase.BOOTSTRAP_RING || ph == RankPhase.BOOTSTRAP_CONNECT
                    || ph == RankPhase.STORE_WAIT) {
                blocked.computeIfAbsent(ph.name(), k -> new ArrayList<>()).add(e.getKey());
            }
        }
        return blocked;
    }

    /** Roots of the last attempt that never saw all their ranks; returns the never-launched ranks it named. */
    private Set<Integer> incompleteRoots() {
        Set<Integer> neverStarted = new TreeSet<>(t.neverStarted());
        int lastAttempt = t.restarts().size();
        Set<Integer> reportedMissing = new TreeSet<>();
        for (RootRecord r : t.roots()) {
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
            others.removeIf(q -> t.finalStates().get(q) != null && t.finalStates().get(q).before() == RankPhase.INIT_ALLOC_STALL);
            if (!others.isEmpty() && notLaunched.isEmpty()) {
                add(Category.BOOTSTRAP_STALL, others, List.of(), "bootstrap root " + r.address() + " of group " + r.group()
                        + " (communicator #" + r.initSeq() + ", root " + r.rootIndex() + ") is still waiting for rank(s) "
                        + ranges(others) + "; " + r.arrived().size() + " of " + r.expected().size() + " checked in");
            }
        }
        return reportedMissing;
    }

    /** Ranks never launched that no root named. */
    private void neverLaunched(Set<Integer> reportedMissing, Map<String, List<Integer>> blocked) {
        for (int r : new TreeSet<>(t.neverStarted())) {
            if (reportedMissing.contains(r)) continue;
            add(Category.MISSING_RANK, List.of(r), List.of(), "rank " + r + " (" + gpu(r) + ") was never launched"
                    + (r == 0 ? "; rank 0 hosts the TCPStore server (MASTER_ADDR), so no rank can exchange its ncclUniqueId" : "")
                    + (blocked.isEmpty() ? "" : "; blocked: " + blocked.entrySet().stream()
                    .map(e -> e.getKey().toLowerCase(Locale.ROOT) + " " + ranges(e.getValue())).collect(Collectors.joining("; "))));
        }
    }

    /** Store timeouts while exchanging the unique id (the first message is quoted). */
    private void storeTimeouts() {
        List<Integer> storeTimeouts = new ArrayList<>();
        String storeTimeoutText = null;
        for (InitRecord in : t.inits()) {
            if (in.result().contains("store->get(") || in.result().contains("multiGet got error")) {
                storeTimeouts.add(in.rank());
                if (storeTimeoutText == null) storeTimeoutText = in.result().substring("error: ".length());
            }
        }
        if (!storeTimeouts.isEmpty()) {
            Collections.sort(storeTimeouts);
            add(Category.TIMEOUT, storeTimeouts, List.of(), "rank(s) " + ranges(storeTimeouts) + " timed out in the store while"
                    + " exchanging the ncclUniqueId (the store timeout covers this step, the collective watchdog does not): "
                    + storeTimeoutText);
        }
    }

    /** Ranks blocked forever in the bootstrap of the last attempt (no timeout covers them). */
    private void stuckInBootstrap(Map<String, List<Integer>> blocked) {
        List<Integer> stuck = new ArrayList<>();
        for (String ph : List.of("BOOTSTRAP_ROOT_WAIT", "BOOTSTRAP_RING", "BOOTSTRAP_CONNECT")) {
            stuck.addAll(blocked.getOrDefault(ph, List.of()));
        }
        if (!stuck.isEmpty() && t.neverStarted().isEmpty() && !hasInitStall()) {
            Collections.sort(stuck);
            add(Category.BOOTSTRAP_STALL, stuck, List.of(), "rank(s) " + ranges(stuck) + " blocked in NCCL bootstrap, which has no"
                    + " timeout: " + t.finalStates().get(stuck.get(0)).beforeDetail());
        }
    }

    private boolean hasInitStall() {
        for (Trace.RankState s : t.finalStates().values()) if (s.before() == RankPhase.INIT_ALLOC_STALL) return true;
        return false;
    }
}
