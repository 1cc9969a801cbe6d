package io.ccsim.scenarios.comm;

import io.ccsim.scenarios.cluster.CollectiveEngine;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * An NCCL communicator shared by its member ranks once their bootstrap completed: the global ranks
 * in communicator order, their GPUs, and the matching of collectives. NCCL matches collectives on
 * a communicator purely by order: the k-th call of every rank is one collective, whatever the ranks
 * passed; calls that disagree in op, count or dtype make a collective that never completes (the
 * ranks wait for data that is never sent), which is what a hang from a mismatch looks like.
 */
public final class Communicator {
    /*
     * NCCL's buffer per channel and peer: LL 8 lines x 512 threads x 8 steps x 16 B = 512 KiB,
     * LL128 120 x 640 x 8 steps x 8 B = 4 915 200 B, Simple NCCL_BUFFSIZE = 4 MiB
     * (src/include/device.h, DEFAULT_LL_BUFFSIZE, DEFAULT_LL128_BUFFSIZE, DEFAULT_BUFFSIZE); buffers
     * for two peers per channel: the ring predecessor and a tree neighbour.
     */
    private static final long BUFFERS_PER_PEER = 524_288L + 4_915_200L + 4_194_304L;
    private static final int PEERS_PER_CHANNEL = 2;

    private final String group;
    private final int initSeq;
    private final List<Integer> ranks;
    private final int[] gpus;
    private final Map<Integer, Integer> commRankOf = new HashMap<>();
    private final Map<Integer, Match> matches = new HashMap<>();
    private boolean aborted;

    /**
     * @param group   the process group's name
     * @param initSeq the group's communicator counter of its init
     * @param ranks   global ranks in communicator order
     * @param gpus    topology GPU index of each communicator rank
     */
    public Communicator(String group, int initSeq, List<Integer> ranks, int[] gpus) {
        this.group = group;
        this.initSeq = initSeq;
        this.ranks = List.copyOf(ranks);
        this.gpus = gpus.clone();
        for (int i = 0; i < ranks.size(); i++) commRankOf.put(ranks.get(i), i);
    }

    /** Bytes NCCL allocates (cudaMalloc) for a communicator with {@code channels} channels. */
    public static long bufferBytes(int channels) { return channels * PEERS_PER_CHANNEL * BUFFERS_PER_PEER; }

    public String group() { return group; }

    public int initSeq() { return initSeq; }

    public int size() { return ranks.size(); }

    /** The communicator rank of global rank {@code globalRank} (a member). */
    public int commRank(int globalRank) { return commRankOf.get(globalRank); }

    /** Topology GPU index of each communicator rank (a copy). */
    public int[] gpus() { return gpus.clone(); }

    /** Global rank of each communicator rank (a copy). */
    public int[] globalRanks() {
        int[] g = new int[ranks.size()];
        for (int i = 0; i < g.length; i++) g[i] = ranks.get(i);
        return g;
    }

    public boolean aborted() { return aborted; }

    /** ncclCommAbort. */
    public void abort() { aborted = true; }

    /** The k-th collective of every member (from 0). */
    public Match match(int index) { return matches.computeIfAbsent(index, k -> new Match()); }

    /** One matched collective: the k-th call of each member. */
    public static final class Match {
        private CollectiveEngine.Spec spec;
        private CollectiveEngine.Execution execution;
        private boolean mismatched;

        /**
         * A member calls this collective with {@code call}: the first call starts the execution; a call
         * that disagrees with the first in op, count or dtype makes the match mismatched for good.
         *
         * @return whether the caller's kernel may launch (false once mismatched: nothing ever completes)
         */
        public boolean join(CollectiveEngine.Spec call, Supplier<CollectiveEngine.Execution> start) {
            if (spec == null) {
                spec = call;
                execution = start.get();
            } else if (spec.op() != call.op() || spec.count() != call.count() || spec.dtype() != call.dtype()) {
                mismatched = true;
            }
            return !mismatched;
        }

        /** The execution started by the first call, or null before. */
        public CollectiveEngine.Execution execution() { return execution; }
    }
}
