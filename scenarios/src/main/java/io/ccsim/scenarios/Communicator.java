package io.ccsim.scenarios;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An NCCL communicator shared by its member ranks once their bootstrap completed: the global ranks
 * in communicator order, their GPUs, and the matching of collectives. NCCL matches collectives on
 * a communicator purely by order: the k-th call of every rank is one collective, whatever the ranks
 * passed; calls that disagree in op, count or dtype make a collective that never completes (the
 * ranks wait for data that is never sent), which is what a hang from a mismatch looks like.
 */
final class Communicator {
    final String group;
    final String commKey;
    final int initSeq;
    final List<Integer> ranks;
    final int[] gpus;
    final Map<Integer, Integer> commRankOf = new HashMap<>();
    private final Map<Integer, Match> matches = new HashMap<>();
    boolean aborted;

    Communicator(String group, String commKey, int initSeq, List<Integer> ranks, int[] gpus) {
        this.group = group;
        this.commKey = commKey;
        this.initSeq = initSeq;
        this.ranks = List.copyOf(ranks);
        this.gpus = gpus.clone();
        for (int i = 0; i < ranks.size(); i++) commRankOf.put(ranks.get(i), i);
    }

    int size() { return ranks.size(); }

    /** One matched collective: the k-th call of each member. */
    static final class Match {
        final int index;
        CollectiveEngine.Spec spec;
        CollectiveEngine.Execution execution;
        final Map<Integer, CollectiveEngine.Spec> calls = new HashMap<>();
        final List<Integer> arrivalOrder = new ArrayList<>();
        boolean mismatched;

        Match(int index) { this.index = index; }
    }

    Match match(int index) { return matches.computeIfAbsent(index, Match::new); }

    int globalRank(int commRank) { return ranks.get(commRank); }

    int[] globalRanks() {
        int[] g = new int[ranks.size()];
        for (int i = 0; i < g.length; i++) g[i] = ranks.get(i);
        return g;
    }

    String label() { return group + (commKey.isEmpty() ? "" : "[" + commKey + "]"); }
}
