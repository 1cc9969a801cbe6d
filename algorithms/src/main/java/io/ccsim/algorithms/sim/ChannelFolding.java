package io.ccsim.algorithms.sim;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.StepCursor;
import java.util.Arrays;

/**
 * Which channels of a plan are simulated and how many each stands for. A channel that is an exact replica of an
 * earlier one is not simulated: its representative's flows carry a multiplicity (the flow network's
 * {@code path(route, multiplicity)}) and use the representative's routes. Every channel is its own representative
 * unless folded; a representative's multiplicity is ≥ 1, a replica's 0, and they sum to the channel count.
 */
final class ChannelFolding {
    /*
     * A ring channel with the same ring order and the same step sequence (same primitives, peers, counts and
     * slots) as an earlier channel r behaves identically by symmetry, so only r is simulated. NCCL's ring channels
     * are duplicated this way (src/graph/search.cc duplicates the graph's channels), so on an NVSwitch board all
     * channels of a ring fold into one or two. The step sequences are compared by a hash over the first and the
     * last rank's steps and by their step counts; the ring orders exactly. Only ring plans of one lane fold (a tree's
     * channels use different trees). With start phases (a channel skew), only channels of the same phase (c mod
     * phases) are replicas, since channels of different phases start at different times.
     */
    private final int[] rep;
    private final int[] multiplicity;

    private ChannelFolding(int[] rep) {
        this.rep = rep;
        this.multiplicity = new int[rep.length];
        for (int c = 0; c < rep.length; c++) multiplicity[rep[c]]++;
    }

    /** Every channel simulated on its own. */
    static ChannelFolding none(int nChannels) {
        int[] r = new int[nChannels];
        for (int i = 0; i < nChannels; i++) r[i] = i;
        return new ChannelFolding(r);
    }

    /** The folding of {@code plan}'s channels whose start phase is c mod {@code phases} (≥ 1). */
    static ChannelFolding of(Plan plan, int phases) {
        int nCh = plan.nChannels();
        Algorithm algo = plan.options().algorithm();
        if ((algo == Algorithm.NVLS || algo == Algorithm.NVLS_TREE) && nCh > 1) return ofNvls(plan, phases);
        ChannelFolding none = none(nCh);
        if (plan.options().algorithm() != Algorithm.RING || plan.nLanes() != 1 || nCh == 1) return none;
        int[] rep = none.rep;
        int last = plan.nRanks() - 1;
        long[] sig = new long[nCh];
        StepCursor cur = new StepCursor();
        for (int c = 0; c < nCh; c++) sig[c] = 31 * signature(plan, 0, c, cur) + signature(plan, last, c, cur);
        for (int c = 1; c < nCh; c++) {
            int[] ring = plan.options().ringOrder(c);
            for (int r = 0; r < c; r++) {
                if (rep[r] != r || sig[r] != sig[c] || r % phases != c % phases) continue;
                if (plan.stepCount(0, r, 0) != plan.stepCount(0, c, 0) || plan.stepCount(last, r, 0) != plan.stepCount(last, c, 0)) continue;
                if (!Arrays.equals(ring, plan.options().ringOrder(r))) continue;
                rep[c] = r;
                break;
            }
        }
        return new ChannelFolding(rep);
    }

    /*
     * NVLS inside one NVLink domain: every channel has the same actors, peers and lanes; channels differ only in the
     * elements they carry (NVLSTree: and in their tree, c mod 2, which the peers in the signature tell apart). A channel whose every actor and lane has the same step sequence (primitives, peers, counts,
     * slots, continuation) as an earlier channel's, of the same start phase, behaves identically and is folded into it.
     * The sequences are compared by a hash over every actor and lane, and by their step counts.
     */
    private static ChannelFolding ofNvls(Plan plan, int phases) {
        int nCh = plan.nChannels();
        ChannelFolding none = none(nCh);
        int[] rep = none.rep;
        long[] sig = new long[nCh];
        StepCursor cur = new StepCursor(plan.maxPeers());
        for (int c = 0; c < nCh; c++) {
            long h = 17;
            for (int a = 0; a < plan.nActors(); a++) {
                for (int l = 0; l < plan.nLanes(); l++) h = 31 * h + signature(plan, a, c, l, cur);
            }
            sig[c] = h;
        }
        for (int c = 1; c < nCh; c++) {
            for (int r = 0; r < c; r++) {
                if (rep[r] != r || sig[r] != sig[c] || r % phases != c % phases || !sameCounts(plan, r, c)) continue;
                rep[c] = r;
                break;
            }
        }
        return new ChannelFolding(rep);
    }

    private static boolean sameCounts(Plan plan, int r, int c) {
        for (int a = 0; a < plan.nActors(); a++) {
            for (int l = 0; l < plan.nLanes(); l++) {
                if (plan.stepCount(a, r, l) != plan.stepCount(a, c, l)) return false;
            }
        }
        return true;
    }

    /** The channel that simulates channel {@code c} (c itself if simulated). */
    int representative(int c) { return rep[c]; }

    /** Whether channel {@code c} is simulated (it is its own representative). */
    boolean simulated(int c) { return rep[c] == c; }

    /** How many channels channel {@code c} stands for (0 for a replica). */
    int multiplicity(int c) { return multiplicity[c]; }

    private static long signature(Plan plan, int rank, int ch, StepCursor cur) {
        return signature(plan, rank, ch, 0, cur);
    }

    private static long signature(Plan plan, int rank, int ch, int lane, StepCursor cur) {
        long h = 1125899906842597L;
        int n = plan.stepCount(rank, ch, lane);
        for (int i = 0; i < n; i++) {
            plan.step(rank, ch, lane, i, cur);
            h = 31 * h + (cur.continued() ? 1 : 0);
            h = 31 * h + cur.prim().ordinal();
            for (int p = 0; p < cur.nRecv(); p++) h = 31 * h + cur.recvPeer(p);
            h = 31 * h + 7919;
            for (int p = 0; p < cur.nSend(); p++) h = 31 * h + cur.sendPeer(p);
            h = 31 * h + cur.count();
            h = 31 * h + cur.slots();
        }
        return h;
    }
}
