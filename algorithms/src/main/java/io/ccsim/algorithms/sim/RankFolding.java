package io.ccsim.algorithms.sim;

import io.ccsim.algorithms.plan.Plan;
import io.ccsim.sim.flow.FlowNetwork;

/**
 * Which workers (an actor's workers of one simulated channel: a <em>unit</em>) are simulated, and whom each stands for:
 * the exact symmetry folding of one execution. Units that provably behave identically form a class, within one
 * channel or across channels; one representative per class (its lowest unit, c * nActors + a) is simulated, its
 * connections lead to the representatives of its peers' classes, one per class of its real connections to them
 * ({@link #connection}), and its flows weigh on each link as all the class members' flows together would
 * ({@link QuotientConnections#hops}). Every unit is its own representative under {@link #identity}.
 *
 * <p>Contract: a representative's {@link #members} (ascending unit ids, itself included) are the units whose workers it
 * stands for; a non-representative has none. The peers of a representative's workers have their representatives in
 * the representative's own channel. Folding is only exact when every rank
 * launches at the same time (a collective started on all ranks at once, and its back-to-back repeats); callers that
 * launch ranks at different times (scenarios) must not fold.
 */
final class RankFolding {
    /*
     * Why it is exact. The execution is a deterministic system of workers (an actor's steps in one channel), connections
     * (slots, credits, a route) and flow-network links (max-min fair rates). Colour refinement (1-dimensional
     * Weisfeiler-Leman; Grohe, Kersting, Mladenov and Schweitzer, "Color Refinement and its Applications", 2017) gives
     * the coarsest partition that is equitable over these relations: every worker of a class has the same step
     * sequence (primitives, counts, slots, and the order in which it talks to its peers), the same start phase and
     * the same channel multiplicity and, at each position of that order, a connection of the same class; every
     * connection of a class has sender and receiver of the same classes, the same hop latency and the same multiset of
     * (link class, direction) on its route; every link of a class has the same capacity, sharing and duplex
     * efficiency and is crossed by the same number of connections of each class, each way. Started together, the
     * members of a class then do the same thing at the same times: by induction over events, and for the rates
     * because progressive filling raises every flow of a class alike (equitable loads on equal capacities), and
     * max-min fair rates are unique. So one member per class suffices, with each link class represented by one link
     * that carries, per connection class F crossing it, a(L, F) = (class-F connections crossing any one link of class
     * L) copies of the representative's flow — a route hop repeated a(L, F) times, which the flow network counts as
     * weight (FlowNetwork.Path).
     *
     * Across channels. Nothing in that argument needs a class to stay inside one channel: the channel index is no
     * part of a worker's colour, only its start phase (a channel skew starts channels apart) and its multiplicity
     * (ChannelFolding's replicas ride on its flows). NCCL's tree channels are the case: channel c's chain starts at
     * local GPU c mod 8, so rotating every host's GPUs (and the rails with them) maps channel c onto c + 1, and the
     * mirror h -> nNodes - 1 - h maps tree 0 onto tree 1; no two hosts of one channel are alike (the two trees give
     * every host its own pair of roles, and a host's NIC carries both), but each host's worker in channel c has 15
     * equivalents in the other channels. The quotient keeps connections inside a channel: a representative's peer
     * must have its representative in the representative's channel (true when each class's lowest unit lies in the
     * lowest channel its orbit reaches, as for rotations and mirrors); where it does not, RankRefinement folds inside
     * channels only.
     *
     * Links that never bind. The argument is over the flow network without the constraints that provably never bind
     * (SlackLinks: every point of the feasible set without such a constraint satisfies it, so the max-min fair rates
     * are the same with or without it). The refinement and the quotient leave them out, so a degraded cable sets apart
     * only the workers whose flows share a constraint that can bind with the slow flows, not every worker whose flows
     * merely cross the same NVLink or PCIe link with spare capacity.
     *
     * Equality of colours is by 64-bit hashes (splitmix64 mixing); a collision, which would merge classes that differ,
     * has probability about k^2 / 2^64 for k colours.
     *
     * Peers: a representative's connection to a peer of class B becomes the quotient connection to B's representative;
     * the refinement makes this consistent (every worker of class A receives from class B exactly where it sends, by
     * equitability). A worker with several connections of one kind to workers of one class (a tree node's two
     * equivalent children; NVLS's switch and its equivalent GPUs) has them merged into one quotient connection when
     * the connections are of one class (so used at the same steps): they carry the same bytes at the same rates and
     * times, their slots and credits move alike, and the merged flow weighs on each link as all of them (the weights
     * above count every class-F crossing). The scheduler binds such a step's equivalent peers once
     * (StepScheduler#bindConnections). Connections of different classes to one class of peers (PAT's peers at several
     * distances beyond one leaf) stay apart: one quotient connection per connection class (QuotientConnections).
     */
    private final int nActors;
    private final int nCh;
    /** [u]: the unit that simulates unit u (u itself if simulated); null for identity */
    private final int[] repUnit;
    /** [u]: for a representative the units it stands for, ascending; null otherwise, or for identity */
    private final int[][] members;
    /** quotient connections with their weighted hops and hop latency; null for identity */
    private final QuotientConnections quotient;
    private final int simulatedWorkers;
    private final int totalWorkers;
    /** the refinement's rounds when it stopped before its colours settled (nothing folded then), else 0 */
    private final int unsettledRounds;

    RankFolding(int nActors, int nCh, int[] repUnit, int[][] members, QuotientConnections quotient,
                int simulatedWorkers, int totalWorkers) {
        this(nActors, nCh, repUnit, members, quotient, simulatedWorkers, totalWorkers, 0);
    }

    private RankFolding(int nActors, int nCh, int[] repUnit, int[][] members, QuotientConnections quotient,
                        int simulatedWorkers, int totalWorkers, int unsettledRounds) {
        this.nActors = nActors;
        this.nCh = nCh;
        this.repUnit = repUnit;
        this.members = members;
        this.quotient = quotient;
        this.simulatedWorkers = simulatedWorkers;
        this.totalWorkers = totalWorkers;
        this.unsettledRounds = unsettledRounds;
    }

    /** Every actor simulated on its own. */
    static RankFolding identity(int nActors, int nCh) {
        int n = nActors * nCh;
        return new RankFolding(nActors, nCh, null, null, null, n, n);
    }

    /** Every actor simulated on its own, because the refinement stopped after {@code rounds} rounds unsettled. */
    static RankFolding unsettled(int nActors, int nCh, int rounds) {
        int n = nActors * nCh;
        return new RankFolding(nActors, nCh, null, null, null, n, n, rounds);
    }

    /**
     * The rounds after which the refinement stopped before its colours settled, so that nothing folded (exact: every
     * worker simulated), or 0 if it settled.
     */
    int unsettledRounds() { return unsettledRounds; }

    /**
     * The coarsest exact folding of {@code plan}'s workers in the channels {@code channels} simulates, channel c
     * starting in phase c mod {@code phases} (≥ 1), with the connections' hops from {@code paths}; identity if no two
     * units are equivalent. {@code routing} runs every 256 connections routed, with the part of them routed;
     * {@code checkpoint} every few thousand link crossings, every 65,536 plan steps read and with the part of the step
     * reading done (NaN outside it); {@code refining} every round of the refinement, with the part of its work budget
     * spent; each may throw (a run's stop request) to abandon the folding. The refinement stops unsettled, and nothing
     * folds, after {@code refineWork} entity updates ({@link RankRefinement#MAX_WORK}).
     */
    static RankFolding of(Plan plan, ChannelFolding channels, int phases, ConnectionPaths paths, FlowNetwork net,
                          java.util.function.DoubleConsumer routing, java.util.function.DoubleConsumer checkpoint,
                          java.util.function.DoubleConsumer refining, long refineWork) {
        return RankRefinement.fold(plan, channels, phases, paths, net, routing, checkpoint, refining, refineWork);
    }

    /** Whether some actor stands for others (otherwise every connection and route is the plan's own). */
    boolean folds() { return quotient != null; }

    /** Whether actor {@code a}'s workers of channel {@code c} are simulated (their unit is its own representative). */
    boolean simulated(int c, int a) { return repUnit == null || repUnit[c * nActors + a] == c * nActors + a; }

    /**
     * The units (c * nActors + a) that unit (c, a), a representative, stands for (itself included, ascending), or null
     * for a non-representative; only when {@link #folds}.
     */
    int[] members(int c, int a) { return members[c * nActors + a]; }

    /** How many actors actor {@code a} stands for in channel {@code c}: 1 without folding, 0 for a non-representative. */
    int classSize(int c, int a) {
        if (members == null) return 1;
        int[] m = members[c * nActors + a];
        return m == null ? 0 : m.length;
    }

    /** The quotient connections (only when {@link #folds}). */
    QuotientConnections quotient() { return quotient; }

    /**
     * The quotient connection that carries real connection (connection channel {@code cch}, {@code from}, {@code to})
     * for its representative end: one of {@code from} and {@code to} is a simulated actor of channel cch mod the
     * channel count; only when {@link #folds}.
     */
    int connection(int cch, int from, int to) { return quotient.of(cch, from, to); }

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
