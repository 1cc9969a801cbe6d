package io.ccsim.sim.flow;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Resolves routes into {@link FlowNetwork.Path}s: the distinct constraints a route crosses, each with its weight (how
 * many times the route crosses it, times the path's multiplicity), and keeps the constraints' twin groups
 * ({@link Constraint#twins}) true as paths are added.
 *
 * <p>Contract: a path's constraints are in order of first crossing; the weight of a constraint crossed k times by a
 * path of multiplicity m is k x m. Twin constraints are shared constraints crossed by exactly the same paths with
 * the same weight in each path; a constraint no path crosses has no group (null). Groups only ever split.
 */
final class PathResolver {
    /*
     * Why twins matter: constraints with the same members and the same weights (a GPU's NVLink direction and its
     * multi-peer constraint; a GPU's PCIe link, its NIC's PCIe link and the NIC's cable) have, at every step of the
     * progressive filling, levels in the order of their capacities, so only the one of least capacity can saturate
     * first; the filling leaves the others out of its heap (ProgressiveFilling).
     *
     * Keeping the groups: the constraints a new path crosses first form groups by weight; an existing group the path
     * crosses only in part, or with different weights, is split by weight (the members keyed like the first member
     * stay, every other key makes a new group). A path crossing both of two constraints cannot make their path sets
     * equal if they were not, so groups never need to merge.
     */
    private final LinkTable links;
    /** counts resolutions (long: never wraps within a run): a group's pathMark says it was visited by this one */
    private long twinStamp;
    /** one array per distinct weight vector */
    private final Map<List<Integer>, int[]> weightSets = new HashMap<>();

    /** @param links the table whose constraints routes are resolved into */
    PathResolver(LinkTable links) {
        this.links = links;
    }

    /**
     * Resolves {@code route} (hops, {@link FlowNetwork#hop}; copied) for flows that each stand for
     * {@code multiplicity} identical flows, and updates the twin groups of the constraints it crosses.
     *
     * @param share whether the weights may be an array shared with other paths (paths made at setup), or must be a
     *              fresh one (a path made per flow: the map of weight vectors would grow with every flow)
     * @throws NullPointerException     for a null route
     * @throws IllegalArgumentException for a hop naming no link, or a multiplicity below 1
     */
    FlowNetwork.Path resolve(int[] route, int multiplicity, boolean share) {
        Objects.requireNonNull(route, "start: route must not be null (use an empty array for a local copy)");
        if (multiplicity < 1) {
            throw new IllegalArgumentException("start: multiplicity must be >= 1, was " + multiplicity);
        }
        int[] r = route.clone();
        // distinct constraints with multiplicity
        Constraint[] cs = new Constraint[2 * r.length];
        int[] ws = new int[2 * r.length];
        int n = 0;
        for (int i = 0; i < r.length; i++) {
            int h = r[i];
            int link = h >>> 1;
            if (h < 0 || link >= links.count()) {
                throw new IllegalArgumentException("start: route[" + i + "] = " + h + " names link " + (h >> 1)
                        + ", valid links are 0.." + (links.count() - 1) + " (encode hops with FlowNetwork.hop)");
            }
            n = addWeight(cs, ws, n, links.direction(h), multiplicity);
        }
        if (n < cs.length) {
            cs = Arrays.copyOf(cs, n);
            ws = Arrays.copyOf(ws, n);
        }
        groupTwins(cs, ws);
        return new FlowNetwork.Path(r, cs, share ? sharedWeights(ws) : ws, multiplicity);
    }

    /**
     * Keeps {@link Constraint#twins} true with a new path over constraints cs (weights ws): constraints it crosses
     * first form groups by weight; a group it crosses only in part, or with different weights, is split. Twins only
     * ever split (a path crossing both of two constraints cannot make their path sets equal if they were not).
     */
    private void groupTwins(Constraint[] cs, int[] ws) {
        long stamp = ++twinStamp;
        boolean[] fresh = new boolean[cs.length];
        for (int i = 0; i < cs.length; i++) {
            Constraint c = cs[i];
            if (!c.shared || c.twins != null) {
                continue;
            }
            fresh[i] = true;
            for (int j = 0; j < i && c.twins == null; j++) {
                if (fresh[j] && ws[j] == ws[i]) {
                    cs[j].twins.add(c);
                }
            }
            if (c.twins == null) {
                Constraint.TwinGroup g = new Constraint.TwinGroup();
                g.pathMark = stamp;
                g.add(c);
            }
        }
        for (int i = 0; i < cs.length; i++) {
            Constraint.TwinGroup g = cs[i].twins;
            if (fresh[i] || g == null || g.pathMark == stamp) {
                continue;
            }
            g.pathMark = stamp;
            // key of each member: its weight on this path, 0 if the path does not cross it
            int[] key = new int[g.n];
            boolean uniform = true;
            for (int m = 0; m < g.n; m++) {
                key[m] = 0;
                for (int k = 0; k < cs.length; k++) {
                    if (cs[k] == g.members[m]) {
                        key[m] = ws[k];
                    }
                }
                uniform &= key[m] == key[0];
            }
            if (uniform) {
                continue;
            }
            // the members keyed like the first stay; every other key makes a group of its own
            Constraint[] old = Arrays.copyOf(g.members, g.n);
            int n = g.n;
            g.n = 0;
            for (int m = 0; m < n; m++) {
                if (key[m] == key[0]) {
                    g.add(old[m]);
                }
            }
            for (int m = 0; m < n; m++) {
                if (key[m] == key[0] || old[m].twins != g) {
                    continue;
                }
                Constraint.TwinGroup split = new Constraint.TwinGroup();
                split.pathMark = stamp;
                for (int q = m; q < n; q++) {
                    if (key[q] == key[m]) {
                        split.add(old[q]);
                    }
                }
            }
        }
    }

    /**
     * One array per distinct weight vector (a ring's thousands of paths have a handful: {1, 1}, {2, 2, 2, 2}, ...),
     * so that the flows of every path read the same few cache lines. Arrays handed out are never written.
     */
    private int[] sharedWeights(int[] ws) {
        List<Integer> key = new ArrayList<>(ws.length);
        for (int w : ws) {
            key.add(w);
        }
        return weightSets.computeIfAbsent(key, k -> ws);
    }

    private static int addWeight(Constraint[] cs, int[] ws, int n, Constraint c, int w) {
        int j = 0;
        while (j < n && cs[j] != c) {
            j++;
        }
        if (j == n) {
            cs[n] = c;
            ws[n] = w;
            return n + 1;
        }
        ws[j] += w;
        return n;
    }
}
