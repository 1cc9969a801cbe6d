package io.ccsim.algorithms.sim;

import io.ccsim.sim.flow.FlowNetwork;
import java.util.Arrays;

/**
 * The paths of steps whose sends move as one flow ({@link StepScheduler}): a switch's multicast and a rank's scatter.
 * The flow of such a step crosses every link of its send connections' paths once: the union of their hops, in the
 * order met. Kept per worker, since a worker's one-flow steps send on the same connections step after step (NVLS: a
 * rank's scatter to its node's reduction actors, a multicast actor's store into its node's GPUs); rebuilt when they
 * change.
 */
final class OneFlowPaths {
    /*
     * Why one flow, and its links once. A multicast (multimem.st) is one store by the head that the NVSwitch replicates
     * to every GPU of the domain: each destination's port carries the data once, at the pace of the store, so it is one
     * flow over every destination's port. A scatter is one primitive call whose thread block copies each peer's part
     * in turn and posts them all together (NVIDIA/nccl v2.28.9 src/device/prims_simple.h ScatterGatherOp): one stream
     * of the block, whose parts all leave through the rank's own NVLink ports (every NVLS connection of a rank crosses
     * its port group and NVLS port link, ConnectionPaths#switchHops), so one flow of the step's bytes over that path.
     *
     * Folded (RankFolding). A quotient connection's path repeats a hop once per connection of its class crossing the
     * hop's representative link (its weight). Where a multicast's destinations are alike, their connections merge into
     * one quotient connection whose weight counts every destination's port: one crossing per real flow, as the one
     * flow makes them, since the destinations' ports are distinct links. A scatter's connections all cross the same
     * links (the sender's ports): n of them merged into one quotient connection count n crossings of a link that the
     * one real flow crosses once, so the scatter's path takes each merged connection's repeats divided by n. Across
     * quotient connections a hop is taken as often as the one that repeats it most.
     */
    private final Connections conns;
    private final FlowNetwork net;
    private final FlowNetwork.Path[] path;
    /** per worker: the send connections and their real sends its path was built from, or null */
    private final int[][] members;

    OneFlowPaths(Connections conns, FlowNetwork net, int workers) {
        this.conns = conns;
        this.net = net;
        this.path = new FlowNetwork.Path[workers];
        this.members = new int[workers][];
    }

    /** The path {@link #bind} set for worker {@code w}'s current step. */
    FlowNetwork.Path path(int w) { return path[w]; }

    /**
     * Sets worker {@code w}'s one-flow path for its current step, whose {@code m} bound send connections are
     * {@code workers.sendConn(w, j)}, connection j carrying {@code sends[j]} of the step's real sends (more than one
     * where folded peers merge), {@code scatter} whether the step's sends share their links (a scatter) rather than
     * reach distinct destinations (a multicast).
     *
     * @throws IllegalStateException if the connections' paths stand for different numbers of flows (channel folding
     *                               gives every connection of one channel the same), or if a scatter's merged
     *                               connection repeats a hop a number of times its real sends do not divide
     */
    void bind(Workers workers, int w, int m, int[] sends, boolean scatter) {
        int[] had = members[w];
        if (had != null && same(workers, w, m, sends, scatter, had)) return;
        int[] key = new int[2 * m + 1];
        key[2 * m] = scatter ? 1 : 0;
        int[] hops = new int[0];
        int multiplicity = conns.path(workers.sendConn(w, 0)).multiplicity();
        for (int j = 0; j < m; j++) {
            int k = workers.sendConn(w, j);
            key[2 * j] = k;
            key[2 * j + 1] = sends[j];
            FlowNetwork.Path p = conns.path(k);
            if (p.multiplicity() != multiplicity) {
                throw new IllegalStateException("one flow over connections of " + multiplicity + " and " + p.multiplicity()
                        + " flows each");
            }
            int[] route = p.route();
            for (int i = 0; i < route.length; i++) {
                int hop = route[i];
                if (indexOf(route, hop) < i) continue; // counted at its first place
                int repeats = count(route, hop);
                int divisor = scatter ? sends[j] : 1;
                if (repeats % divisor != 0) {
                    throw new IllegalStateException("a scatter's connection repeats a hop " + repeats + " times for "
                            + divisor + " sends");
                }
                int extra = repeats / divisor - count(hops, hop);
                for (int e = 0; e < extra; e++) {
                    hops = Arrays.copyOf(hops, hops.length + 1);
                    hops[hops.length - 1] = hop;
                }
            }
        }
        members[w] = key;
        path[w] = net.path(hops, multiplicity);
    }

    private static boolean same(Workers workers, int w, int m, int[] sends, boolean scatter, int[] key) {
        if (key.length != 2 * m + 1 || key[2 * m] != (scatter ? 1 : 0)) return false;
        for (int j = 0; j < m; j++) {
            if (workers.sendConn(w, j) != key[2 * j] || sends[j] != key[2 * j + 1]) return false;
        }
        return true;
    }

    private static int count(int[] a, int v) {
        int c = 0;
        for (int x : a) if (x == v) c++;
        return c;
    }

    private static int indexOf(int[] a, int v) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == v) return i;
        }
        return -1;
    }
}
