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
        // where the plan knows which channels are alike, nothing is read (1.0e7 steps for NVLSTree on 1,024 GPUs)
        boolean known = false;
        for (int c = 1; c < nCh; c++) {
            for (int r = 0; r < c; r++) {
                if (rep[r] != r || r % phases != c % phases || !plan.sameChannelSteps(r, c)) continue;
                rep[c] = r;
                known = true;
                break;
            }
        }
        if (known) return new ChannelFolding(rep);
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

    /*
     * Routes. A replica's connections take their own routes (the ECMP key is the channel), so beyond one leaf a replica
     * may cross other spine links than its representative, which the folded run charges to the representative's. Where
     * both cross links at their nominal health this is the symmetry above: equal links, and the leaf uplinks of a
     * rail-optimized fat-tree never bind a ring (they carry a few of its hops per leaf). A link that is degraded, down or
     * flapping breaks it: the replica would run at the pace of links it does not cross, or escape the slow link it does.
     * So a replica one of whose routes differs from its representative's over such a link is simulated on its own.
     */

    /**
     * This folding, less the replicas that the fabric's health sets apart: a replica channel is simulated on its own
     * if, for some connection of the plan, its route and its representative's differ in a link group that has a member
     * not at nominal health ({@link io.ccsim.topology.LinkHealth#isHealthy}). Connections between ranks only (a switch
     * actor's route does not depend on the channel). {@code actorNodes}: the topology node of each actor.
     */
    ChannelFolding separatedByHealth(Plan plan, Fabric fabric, int[] actorNodes) {
        java.util.List<io.ccsim.topology.LinkGroup> groups = fabric.topology().fabric();
        boolean[] unhealthy = new boolean[groups.size()];
        boolean any = false;
        for (io.ccsim.topology.LinkGroup g : groups) {
            for (io.ccsim.topology.Link l : g.members()) {
                if (!l.health().isHealthy()) {
                    unhealthy[g.index()] = true;
                    any = true;
                }
            }
        }
        if (!any) return this;
        int nCh = rep.length;
        int nRanks = plan.nRanks();
        int[] out = rep.clone();
        RouteCache routes = new RouteCache(fabric, plan.options().algorithm() == Algorithm.RING);
        plan.forEachConnection((cch, from, to) -> {
            int c = cch % nCh;
            int r = rep[c];
            if (r == c || out[c] == c || from >= nRanks || to >= nRanks) return;
            int[] mine = routes.route(actorNodes[from], actorNodes[to], c).hops();
            int[] theirs = routes.route(actorNodes[from], actorNodes[to], r).hops();
            if (differsOverUnhealthy(mine, theirs, unhealthy)) out[c] = c;
        });
        return Arrays.equals(out, rep) ? this : new ChannelFolding(out);
    }

    /** Whether a hop of one route that is not on the other crosses a group marked in {@code unhealthy}. */
    private static boolean differsOverUnhealthy(int[] a, int[] b, boolean[] unhealthy) {
        if (Arrays.equals(a, b)) return false;
        return missingUnhealthy(a, b, unhealthy) || missingUnhealthy(b, a, unhealthy);
    }

    private static boolean missingUnhealthy(int[] a, int[] b, boolean[] unhealthy) {
        for (int h : a) {
            if (!unhealthy[h >>> 1]) continue;
            boolean found = false;
            for (int k : b) found |= k == h;
            if (!found) return true;
        }
        return false;
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
            h = 31 * h + cur.partElems();
            h = 31 * h + cur.slots();
        }
        return h;
    }
}
