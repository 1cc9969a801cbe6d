package io.ccsim.algorithms.scale;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The node counts an extrapolation simulates for a target of more nodes: by default per {@link ScalingLaw}, or as the
 * user gives them, checked.
 *
 * <p>Contract: the counts are ascending, distinct, at least 2 and below the target; a law with a slope gets at least
 * two counts with distinct regressors, {@link ScalingLaw#SWITCH_LEVELS} one count in the target's regime (within one
 * leaf, or across leaves); a tree's largest sample lies beyond one leaf.
 */
public final class SampleNodes {
    /*
     * Rings: the two largest powers of two below the target whose simulation stays cheap. A ring folds by symmetry
     * (one class per host position in a leaf group), so its samples may have up to 1,024 ranks (128 HGX nodes: 4.2 M
     * events, about 4 s of CPU); powers of two put them on whole leaf groups (32 hosts per leaf at 1:1).
     *
     * Trees: the target's node count shifted right (12,500 -> 48 and 24). A btree over N >> k nodes has the target's
     * shape k levels shorter, where a power of two of the same depth does not (fewer nodes with one child on the
     * deepest path). Measured, NVLSTree 1 MiB on 2-GPU nodes: 5.1 % of a level's cost (6.12 of 37.39 µs) separates 12
     * from 16 nodes, 24 from 32, 48 from 64, while 12, 24, 48 and 96 lie on one line to 0.001 µs; the samples of 40
     * nodes' shifts (10, 20) predict it exactly, the powers of two (16, 32) 2.6 % high. A level whose tree edges cross
     * the spines (bit 5 and up of the node index at 32 hosts per leaf) costs more than one inside a leaf where the
     * chunks are mid-sized: Tree/LL128 64 MiB on HGX nodes, 17.8 µs a level from 16 to 32 nodes, 30.8 and 35.6 for
     * the next two, so samples inside one leaf predict 128 nodes 4.6 % low. A target across leaves therefore takes
     * the smallest shift beyond a leaf and the one below it: their difference is a crossing level (32 and 64 nodes
     * predict 128 nodes to 0.72 %). Trees do not fold, so this costs: 48 HGX nodes are 384 ranks. Targets within one
     * leaf, or too small for a shift beyond it (fewer than 2 × 32 + 2 nodes), are not extrapolated: samples of a few
     * nodes miss them by up to 3.2 % (Tree/LL128 64 MiB, 24 nodes from 6 and 12), and the folded simulation of 65 HGX
     * nodes takes seconds to minutes. Samples have 4 nodes or more (2 nodes are one level whose root has one child, 3
     * another shape, and NVLSTree chunks differently below 4).
     *
     * CollNet's one sample sits in the target's regime: 2 nodes for a target within one leaf, one host past a leaf
     * otherwise.
     */

    /*
     * Chains (CHAIN): samples at two train lengths, so that the law separates the train's cost from the chain's.
     * Measured on HGX H100 nodes (ScalingLaw's block comment), trains of 32 units on 16, 32, 64 and 128 nodes and of 64
     * units on 32, 64 and 128 nodes (4 to 32 trains long: where the head has left the full pipeline) predict 1 GiB
     * (1,024 units) at 256 nodes to 0.98 % and 64 MiB at 512 nodes to 0.30 %. So: 4 node counts of the shorter train
     * and 3 of the longer, powers of two whose chains are 4 trains long or more, the largest that stay within
     * RING_MAX_RANKS ranks and half the target. Shorter trains do not stand in for long ones: halved to 8 and 16
     * units (samples of 4 to 32 nodes), they missed 256 MiB (256 units) on 64 nodes by +2.6 % and 96 nodes by +2.0 %,
     * and trains of 4 and 8 units missed 64 MiB on 48 nodes by −4.2 %; a target too small for the 32- and 64-unit
     * samples (fewer than 256 HGX nodes) is refused, and folding runs it. A target whose train is 32 units or
     * shorter runs its own train at 4 node counts (its length then adds nothing to fit).
     */

    /** Ranks a ring sample may have. */
    static final int RING_MAX_RANKS = 1024;

    /** The shorter train a chain's samples run, units per channel (halved where the target is too small for it). */
    static final long CHAIN_TRAIN_UNITS = 32;

    /** One sample of a chain: {@code nodes} nodes running a train of {@code units} forwarding units per channel. */
    public record ChainSample(int nodes, long units) { }

    /**
     * A chain's default samples for a target of {@code targetNodes} nodes of {@code ranksPerNode} ranks whose train
     * is {@code targetUnits} units per channel, by ascending train and nodes.
     *
     * @throws IllegalArgumentException if the target is too small for the samples, up to half of it (saying how many
     *                                  nodes it needs)
     */
    public static List<ChainSample> chain(int targetNodes, int ranksPerNode, long targetUnits) {
        if (targetUnits < 1) throw new IllegalArgumentException("a train has 1 unit or more, got " + targetUnits);
        long[] trains = chainTrains(targetUnits);
        int least = chainLeast(ranksPerNode, targetUnits);
        if (targetNodes < least) {
            throw new NotExtrapolatedException(String.format(Locale.ROOT, "%d nodes are too few to extrapolate CHAIN: its"
                    + " samples are 4 node counts, up to half the target, whose chains are 4 trains of %d units long (%d"
                    + " nodes or more at %d ranks a node); valid: %s--sim-mode folded", targetNodes, trains[0],
                    chainLow(trains[0], ranksPerNode), ranksPerNode,
                    least == Integer.MAX_VALUE ? "" : least + " nodes or more, or "), true);
        }
        int hi = Integer.highestOneBit(Math.min(targetNodes / 2, RING_MAX_RANKS / ranksPerNode));
        List<ChainSample> out = new ArrayList<>();
        for (int s = hi / 8; s <= hi; s *= 2) out.add(new ChainSample(s, trains[0]));
        if (trains.length > 1) for (int s = hi / 4; s <= hi; s *= 2) out.add(new ChainSample(s, trains[1]));
        return out;
    }

    /**
     * The fewest target nodes {@link #chain} has samples for, at {@code ranksPerNode} ranks a node and a target train
     * of {@code targetUnits} units; {@link Integer#MAX_VALUE} where no target has (its samples would exceed
     * RING_MAX_RANKS ranks).
     */
    public static int chainLeast(int ranksPerNode, long targetUnits) {
        int lo = chainLow(chainTrains(targetUnits)[0], ranksPerNode);
        boolean never = lo == Integer.MAX_VALUE || (long) lo * 8 * ranksPerNode > RING_MAX_RANKS;
        return never ? Integer.MAX_VALUE : 16 * lo;
    }

    /** The trains a chain's samples run: the target's own where it is 32 units or shorter, else 32 and 64 (at most). */
    private static long[] chainTrains(long targetUnits) {
        return targetUnits <= CHAIN_TRAIN_UNITS ? new long[] {targetUnits}
                : new long[] {CHAIN_TRAIN_UNITS, Math.min(targetUnits, 2 * CHAIN_TRAIN_UNITS)};
    }

    /** The fewest nodes, a power of two and at least 2, whose chain is 4 trains of {@code units} long. */
    private static int chainLow(long units, int ranksPerNode) {
        long nodes = Math.max(2, (4 * units + ranksPerNode - 1) / ranksPerNode);
        return nodes > (1 << 29) ? Integer.MAX_VALUE : Integer.highestOneBit((int) (2 * nodes - 1));
    }

    /**
     * A chain's samples at the user's node counts ({@code --extrapolate-from}): each count runs both trains of
     * {@link #chain} (the target's own where it is 32 units or shorter), checked.
     *
     * @throws IllegalArgumentException naming the count that is wrong and what is valid
     */
    public static List<ChainSample> chainGiven(int[] nodes, int targetNodes, int ranksPerNode, long targetUnits) {
        int[] s = given(ScalingLaw.CHAIN, nodes, targetNodes, 0);
        if (s.length < 4) {
            throw new IllegalArgumentException("CHAIN needs four or more sample node counts, got " + java.util.Arrays.toString(s));
        }
        List<ChainSample> out = new ArrayList<>();
        for (long u : chainTrains(targetUnits)) {
            for (int v : s) {
                if ((long) v * ranksPerNode < 2 * u) {
                    throw new IllegalArgumentException(String.format(Locale.ROOT, "sample of %d nodes: its chain of %d ranks"
                            + " is shorter than two trains of %d units; valid: %d nodes or more", v, v * ranksPerNode, u,
                            (2 * u + ranksPerNode - 1) / ranksPerNode));
                }
                out.add(new ChainSample(v, u));
            }
        }
        return out;
    }

    /*
     * Trains (TRAIN, a chain no longer than its train): the time is a plane in N and U while every sample's chain, like
     * the target's, is no longer than its train, so the samples are the smallest node counts (2, 4, 8: the slope per
     * node is the same from 2 nodes on, ScalingLaw's block comment) at one or two trains, each at least twice the
     * largest sample's ranks.
     */

    /** Node counts a train's samples take, at most (the first of 2, 4, 8 that suit). */
    static final int TRAIN_SAMPLE_COUNTS = 3;

    /**
     * A train's default samples for a target of {@code targetNodes} nodes of {@code ranksPerNode} ranks, at the trains
     * {@code trains} (ascending; the shortest bounds the sample chains): the node counts 2, 4 and 8 that are at most half
     * the target and whose chains are at most half the shortest train, each at every train, by train then nodes.
     *
     * @throws NotExtrapolatedException if fewer than two node counts suit (saying why)
     */
    public static List<ChainSample> train(int targetNodes, int ranksPerNode, long[] trains) {
        List<Integer> nodes = new ArrayList<>();
        for (int v = 2; nodes.size() < TRAIN_SAMPLE_COUNTS && v <= targetNodes / 2; v *= 2) {
            if (2L * v * ranksPerNode <= trains[0]) nodes.add(v);
        }
        if (nodes.size() < 2) {
            throw new NotExtrapolatedException(String.format(Locale.ROOT, "%d nodes of %d ranks are too few to extrapolate"
                    + " TRAIN: its samples are 2 node counts or more from 2, 4 and 8, up to half the target, whose chains"
                    + " are at most half its shortest sample train (%d units); valid: --sim-mode folded", targetNodes,
                    ranksPerNode, trains[0]), true);
        }
        return trainSamples(nodes.stream().mapToInt(Integer::intValue).toArray(), trains);
    }

    /**
     * A train's samples at the user's node counts ({@code --extrapolate-from}), each at every train, checked: two or
     * more counts whose chains are at most half the shortest train.
     *
     * @throws IllegalArgumentException naming the count that is wrong and what is valid
     */
    public static List<ChainSample> trainGiven(int[] nodes, int targetNodes, int ranksPerNode, long[] trains) {
        int[] s = given(ScalingLaw.TRAIN, nodes, targetNodes, 0);
        for (int v : s) {
            if (2L * v * ranksPerNode > trains[0]) {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "sample of %d nodes: its chain of %d ranks is"
                        + " longer than half its train of %d units; valid: %d nodes or fewer", v, v * ranksPerNode,
                        trains[0], Math.max(1, trains[0] / (2L * ranksPerNode))));
            }
        }
        return trainSamples(s, trains);
    }

    private static List<ChainSample> trainSamples(int[] nodes, long[] trains) {
        List<ChainSample> out = new ArrayList<>();
        for (long u : trains) for (int v : nodes) out.add(new ChainSample(v, u));
        return out;
    }

    private SampleNodes() { }

    /**
     * The default samples of {@code law} for a target of {@code targetNodes} nodes of {@code ranksPerNode} ranks, on a
     * fabric whose leaves take {@code hostsPerLeaf} hosts of a rail.
     *
     * @throws IllegalArgumentException if the target has too few nodes for two samples below it (saying how many it
     *                                  needs)
     */
    public static int[] defaults(ScalingLaw law, int targetNodes, int ranksPerNode, int hostsPerLeaf) {
        if (law == ScalingLaw.SWITCH_LEVELS) {
            int s = targetNodes <= hostsPerLeaf ? 2 : hostsPerLeaf + 1;
            if (s >= targetNodes) throw tooFew(law, targetNodes, s + 1);
            return new int[] {s};
        }
        if (law == ScalingLaw.TREE) return tree(targetNodes, hostsPerLeaf);
        List<Integer> below = new ArrayList<>();   // powers of two from 2 up to the target
        for (int s = 2; s < targetNodes; s *= 2) below.add(s);
        if (below.size() < 2) throw tooFew(law, targetNodes, 5);
        int cap = law == ScalingLaw.PEERS ? ScalingLaw.PEERS_MAX_RANKS : RING_MAX_RANKS;
        int hi = 1;   // the largest two within the cost cap, else the two smallest
        while (hi + 1 < below.size() && (long) below.get(hi + 1) * ranksPerNode <= cap) hi++;
        return new int[] {below.get(hi - 1), below.get(hi)};
    }

    /**
     * A tree's samples: the target's shifts N >> k, 4 nodes or more. A target within one leaf takes the largest two
     * within the cost cap; a target across leaves the smallest shift beyond a leaf and the one below it, so that the
     * fit's slope is the cost of a level that crosses the spines.
     */
    private static int[] tree(int targetNodes, int hostsPerLeaf) {
        List<Integer> shifts = new ArrayList<>();   // ascending
        for (int s = targetNodes >> 1; s >= 4; s >>= 1) shifts.add(0, s);
        for (int i = 1; i < shifts.size(); i++) {
            if (shifts.get(i) > hostsPerLeaf) return new int[] {shifts.get(i - 1), shifts.get(i)};
        }
        throw treeTooFew(targetNodes, hostsPerLeaf);
    }

    private static NotExtrapolatedException treeTooFew(int targetNodes, int hostsPerLeaf) {
        return new NotExtrapolatedException(String.format(Locale.ROOT, "%d nodes are too few to extrapolate TREE: it needs"
                + " a sample beyond one leaf (%d hosts) at half the target or less; valid: %d nodes or more, or --sim-mode"
                + " folded", targetNodes, hostsPerLeaf, 2 * hostsPerLeaf + 2), true);
    }

    /**
     * The user's samples ({@code --extrapolate-from}), checked against the law and the target.
     *
     * @throws IllegalArgumentException naming the count that is wrong and what is valid
     */
    public static int[] given(ScalingLaw law, int[] nodes, int targetNodes, int hostsPerLeaf) {
        if (nodes.length == 0) throw new IllegalArgumentException("no sample node count given");
        int[] s = nodes.clone();
        java.util.Arrays.sort(s);
        for (int i = 0; i < s.length; i++) {
            if (s[i] < 2 || s[i] >= targetNodes) {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "sample of %d nodes: valid are 2 to %d (below"
                        + " the target's %d nodes)", s[i], targetNodes - 1, targetNodes));
            }
            if (i > 0 && s[i] == s[i - 1]) throw new IllegalArgumentException("sample of " + s[i] + " nodes given twice");
        }
        if (law == ScalingLaw.SWITCH_LEVELS) {
            boolean targetAcross = targetNodes > hostsPerLeaf;
            for (int v : s) {
                if ((v > hostsPerLeaf) != targetAcross) {
                    throw new IllegalArgumentException(String.format(Locale.ROOT, "sample of %d nodes: %s needs samples"
                            + " %s (%d hosts per leaf), as the target", v, law.name(), targetAcross
                            ? "beyond one leaf, " + (hostsPerLeaf + 1) + " nodes or more" : "within one leaf", hostsPerLeaf));
                }
            }
            return s;
        }
        if (law == ScalingLaw.TREE && s[s.length - 1] <= hostsPerLeaf) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "TREE needs its largest sample beyond one leaf"
                    + " (%d nodes or more), got %s", hostsPerLeaf + 1, java.util.Arrays.toString(s)));
        }
        if (s.length < 2 || law.x(s[0]) == law.x(s[s.length - 1])) {
            throw new IllegalArgumentException(law.name() + " needs two or more sample node counts with different "
                    + (law == ScalingLaw.TREE ? "tree depths ceil(log2 nodes)" : "values") + ", got "
                    + java.util.Arrays.toString(s));
        }
        return s;
    }

    private static NotExtrapolatedException tooFew(ScalingLaw law, int target, int least) {
        return new NotExtrapolatedException(String.format(Locale.ROOT, "%d nodes are too few to extrapolate %s; valid: %d"
                + " nodes or more", target, law.name(), least), true);
    }
}
