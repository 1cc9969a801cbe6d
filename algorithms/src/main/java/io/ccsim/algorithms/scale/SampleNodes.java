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
 * leaf, or across leaves).
 */
public final class SampleNodes {
    /*
     * Defaults: the two largest node counts of a family below the target whose simulation stays cheap. What a
     * simulation costs follows its simulated workers: a ring folds by symmetry (one class per host position in a leaf
     * group), so its samples may have up to 1,024 ranks (128 HGX nodes: 4.2 M events, about 4 s of CPU); NCCL's trees
     * do not fold, so theirs stay at 256 ranks (32 HGX nodes, 3 to 10 s). A ring takes powers of two, which put the
     * samples of a target across leaves on whole leaf groups (32 hosts per leaf at 1:1). Trees take the target's node count shifted right (12,500 -> 24 and 12): a btree over
     * N >> k nodes has the target's shape k levels shorter, where a power of two of the same depth does not (fewer
     * nodes with one child on the deepest path). Measured, NVLSTree 1 MiB on 2-GPU nodes: 5.1 % of a level's cost
     * (6.12 of 37.39 µs) separates 12 from 16 nodes, 24 from 32, 48 from 64, while 12, 24, 48 and 96 lie on one line
     * to 0.001 µs; the samples from 40 nodes' shift (10, 20) predict it exactly, the powers of two (16, 32) 2.6 %
     * high. A target below 8 nodes has no two shifts of 4 or more, and takes powers of two. Trees start at 4 nodes: 2
     * nodes are one level whose root has one child, 3 another shape, and NVLSTree chunks differently below 4.
     * CollNet's one sample sits in the target's regime: 2 nodes for a target within one leaf, one host past a leaf
     * otherwise.
     */

    /** Ranks a ring sample may have. */
    static final int RING_MAX_RANKS = 1024;
    /** Ranks a chain or tree sample may have. */
    static final int UNFOLDED_MAX_RANKS = 256;

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
        int least = law == ScalingLaw.TREE ? 4 : 2;
        int maxRanks = law == ScalingLaw.RING ? RING_MAX_RANKS : UNFOLDED_MAX_RANKS;
        List<Integer> below = new ArrayList<>();   // ascending counts below the target
        if (law == ScalingLaw.TREE) {              // the target's leading bits: the same trees, fewer levels
            for (int s = targetNodes >> 1; s >= least; s >>= 1) below.add(0, s);
        }
        if (below.size() < 2) {                    // powers of two from the least up to the target
            below.clear();
            for (int s = least; s < targetNodes; s *= 2) below.add(s);
        }
        if (below.size() < 2) throw tooFew(law, targetNodes, 2 * least + 1);
        int hi = 1;   // the largest two within the cost cap, else the two smallest
        while (hi + 1 < below.size() && (long) below.get(hi + 1) * ranksPerNode <= maxRanks) hi++;
        return new int[] {below.get(hi - 1), below.get(hi)};
    }

    /**
     * The user's samples ({@code --extrapolate-from}), checked against the law and the target.
     *
     * @throws IllegalArgumentException naming the count that is wrong and what is valid
     */
    public static int[] given(ScalingLaw law, int[] nodes, int targetNodes, int hostsPerLeaf) {
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
            if (s.length < 1) throw new IllegalArgumentException("no sample node count given");
            return s;
        }
        if (s.length < 2 || law.x(s[0]) == law.x(s[s.length - 1])) {
            throw new IllegalArgumentException(law.name() + " needs two or more sample node counts with different "
                    + (law == ScalingLaw.TREE ? "tree depths ceil(log2 nodes)" : "values") + ", got "
                    + java.util.Arrays.toString(s));
        }
        return s;
    }

    private static IllegalArgumentException tooFew(ScalingLaw law, int target, int least) {
        return new IllegalArgumentException(String.format(Locale.ROOT, "%d nodes are too few to extrapolate %s; valid: %d"
                + " nodes or more", target, law.name(), least));
    }
}
