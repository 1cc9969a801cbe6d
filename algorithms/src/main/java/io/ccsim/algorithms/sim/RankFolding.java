package io.ccsim.algorithms.sim;

import io.ccsim.algorithms.plan.Plan;
import io.ccsim.sim.flow.FlowNetwork;

/**
 * Which actors (ranks and switch actors) of each simulated channel are simulated, and whom each stands for: the
 * exact symmetry folding of one execution. Actors of a channel that provably behave identically form a class; one
 * representative per class (its lowest actor) is simulated, its connections lead to the representatives of its peers'
 * classes, and its flows weigh on each link as all the class members' flows together would ({@link #quotientHops}).
 * Every actor is its own representative under {@link #identity}.
 *
 * <p>Contract: a representative's {@link #members} (ascending, itself included) are the actors whose workers of that
 * channel it stands for; a non-representative has none. Folding is only exact when every rank launches at the same
 * time (a collective started on all ranks at once, and its back-to-back repeats); callers that launch ranks at
 * different times (scenarios) must not fold.
 */
final class RankFolding {
    /*
     * Why it is exact. The execution is a deterministic system of workers (an actor's steps in one channel), connections
     * (slots, credits, a route) and flow-network links (max-min fair rates). Colour refinement (1-dimensional
     * Weisfeiler-Leman; Grohe, Kersting, Mladenov and Schweitzer, "Color Refinement and its Applications", 2017) gives
     * the coarsest partition that is equitable over these relations: every worker of a class has the same step
     * sequence (primitives, counts, slots, and the order in which it talks to its peers) and, at each position of
     * that order, a connection of the same class; every connection of a class has sender and receiver of the same
     * classes, the same hop latency and the same multiset of (link class, direction) on its route; every link of a
     * class has the same capacity, sharing and duplex efficiency and is crossed by the same number of connections of
     * each class, each way. Started together, the members of a class then do the same thing at the same times: by
     * induction over events, and for the rates because progressive filling raises every flow of a class alike
     * (equitable loads on equal capacities), and max-min fair rates are unique. So one member per class suffices, with
     * each link class represented by one link that carries, per connection class F crossing it, a(L, F) = (class-F
     * connections crossing any one link of class L) copies of the representative's flow — a route hop repeated a(L, F)
     * times, which the flow network counts as weight (FlowNetwork.Path).
     *
     * Equality of colours is by 64-bit hashes (splitmix64 mixing); a collision, which would merge classes that differ,
     * has probability about k^2 / 2^64 for k colours.
     *
     * Peers: a representative's connection to a peer of class B becomes the quotient connection to B's representative;
     * the refinement makes this consistent (every worker of class A receives from class B exactly where it sends, by
     * equitability). A worker with several connections of one kind to workers of one class (a tree node's two
     * equivalent children; NVLS's switch and its equivalent GPUs) has them merged into one quotient connection: they
     * carry the same bytes at the same rates and times, their slots and credits move alike, and the merged flow weighs
     * on each link as all of them (the weights above count every class-F crossing). The scheduler binds such a step's
     * equivalent peers once (StepScheduler#bindConnections).
     */
    private final int nActors;
    private final int nCh;
    /** [c * nActors + a]: the actor that simulates actor a in channel c (a itself if simulated); null for identity */
    private final int[] rep;
    /** [c * nActors + a]: for a representative the actors it stands for, ascending; null otherwise, or for identity */
    private final int[][] members;
    /** quotient connections (connection channel, from, to) with their weighted hops and hop latency; null for identity */
    private final ConnIndex quotient;
    private final int[][] quotientHops;
    private final long[] quotientLatency;
    private final int simulatedWorkers;
    private final int totalWorkers;

    RankFolding(int nActors, int nCh, int[] rep, int[][] members, ConnIndex quotient, int[][] quotientHops,
                long[] quotientLatency, int simulatedWorkers, int totalWorkers) {
        this.nActors = nActors;
        this.nCh = nCh;
        this.rep = rep;
        this.members = members;
        this.quotient = quotient;
        this.quotientHops = quotientHops;
        this.quotientLatency = quotientLatency;
        this.simulatedWorkers = simulatedWorkers;
        this.totalWorkers = totalWorkers;
    }

    /** Every actor simulated on its own. */
    static RankFolding identity(int nActors, int nCh) {
        int n = nActors * nCh;
        return new RankFolding(nActors, nCh, null, null, null, null, null, n, n);
    }

    /**
     * The coarsest exact folding of {@code plan}'s actors in the channels {@code channels} simulates, with the
     * connections' hops from {@code paths}; identity if no two actors of a channel are equivalent.
     */
    static RankFolding of(Plan plan, ChannelFolding channels, ConnectionPaths paths, FlowNetwork net) {
        return RankRefinement.fold(plan, channels, paths, net);
    }

    /** Whether some actor stands for others (otherwise every connection and route is the plan's own). */
    boolean folds() { return quotient != null; }

    /**
     * The representative map, [c * nActors + a] = the actor simulating actor a in channel c, or null when nothing folds
     * (every actor its own representative). Shared, not copied: callers must not change it.
     */
    int[] repMap() { return rep; }

    /** The representative of actor {@code a} in channel {@code c}. */
    int rep(int c, int a) { return rep == null ? a : rep[c * nActors + a]; }

    /** Whether actor {@code a}'s worker of channel {@code c} is simulated (it is its own representative). */
    boolean simulated(int c, int a) { return rep(c, a) == a; }

    /**
     * The actors representative {@code a} stands for in channel {@code c} (itself included, ascending), or null for a
     * non-representative; only when {@link #folds}.
     */
    int[] members(int c, int a) { return members[c * nActors + a]; }

    /** How many actors actor {@code a} stands for in channel {@code c}: 1 without folding, 0 for a non-representative. */
    int classSize(int c, int a) {
        if (members == null) return 1;
        int[] m = members[c * nActors + a];
        return m == null ? 0 : m.length;
    }

    /** The quotient connections (only when {@link #folds}). */
    ConnIndex quotient() { return quotient; }

    /** Quotient connection {@code q}'s hops, each link class's representative repeated by its weight. */
    int[] quotientHops(int q) { return quotientHops[q]; }

    /** Quotient connection {@code q}'s hop latency, ps. */
    long quotientLatencyPs(int q) { return quotientLatency[q]; }

    /** Workers (actor, channel) simulated, over the channels simulated. */
    int simulatedWorkers() { return simulatedWorkers; }

    /** Workers (actor, channel) of the channels simulated. */
    int totalWorkers() { return totalWorkers; }

    /** Channels. */
    int channels() { return nCh; }

    @Override
    public String toString() {
        return "RankFolding[" + simulatedWorkers + " of " + totalWorkers + " workers simulated"
                + (quotient == null ? "" : ", " + quotient.size() + " quotient connections") + "]";
    }
}
