package io.ccsim.algorithms.sim;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.sim.Sharing;
import io.ccsim.sim.flow.FlowNetwork;

/**
 * The flow-network constraints that provably never bind in one execution: whatever the flows on them do, the sum of
 * their rates stays within the capacity, so the max-min fair rates are those of the network without them.
 * {@link RankRefinement} leaves them out of the colour refinement and of the quotient's routes.
 *
 * <p>Contract: {@link #of} marks hop h ({@link FlowNetwork#hop}) slack only if the constraint that h loads can never
 * be saturated by the given connections' flows, under the network's capacities, sharing and duplex efficiencies as
 * they stand; the caller guarantees that no capacity changes during the execution (no flaps) and that the
 * connections given are every flow source of the network. A fat-pipe link is never slack (it is a per-flow bound,
 * not a shared constraint), nor is a link of capacity 0 (down: it stalls its flows). Marking is conservative: a slack-looking constraint whose bound is unsure is kept.
 */
final class SlackLinks {
    /*
     * Derivation. Max-min fairness picks the unique max-min fair point of the feasible set
     *   F = { x >= 0 : x_f <= cap_f for every flow f, sum_f w(c, f) x_f <= C_c for every constraint c },
     * w(c, f) = (times f's route crosses c) x (its path's multiplicity), C_c the constraint's capacity (a full-duplex
     * direction's C x e while the other direction is busy, C otherwise; a shared link's one constraint for both
     * directions). If every point of F without constraint c satisfies c, F is the same set with or without c, so the
     * max-min fair point is too: c cannot influence any rate, at any instant, whichever flows are active.
     *
     * A sufficient static test: every flow's rate is at most
     *   u_f = min(cap_f, min over shared constraints d of f's route of C_d / w(d, f))
     * (C_d the nominal capacity, the largest it can be), and a connection k has at most n_k flows at once, each with
     * the same route, cap and multiplicity. So if
     *   sum over connections k crossing c of n_k x w(c, k) x u_k <= C_c x (1 - 1e-9)
     * (C_c the least capacity c can have: C x e for a full-duplex link with a duplex limit) then c never binds. The
     * margin keeps a constraint that could be exactly full, where progressive filling in floating point might freeze
     * flows at it a rounding apart.
     *
     * The bounds of a flow in the simulated executor (StepScheduler#tryStart): a sending step starts one flow per send
     * connection and waits for them before its next sub-transfer, so a connection carries at most one flow per lane of
     * its sender that sends on it: n_k <= the plan's lanes. A flow's rate cap is the thread block's
     * (StepCosts#sendRateCap: the per-channel limit, at most StepCosts#channelCapBps, times a lane share <= 1), except
     * for a switch's forwarding and a one-sided memory step, which have none. Ring, tree and PAT plans have no switch
     * actors and no memory steps (only the NVLS and symmetric-memory schedules mark steps as memory, and switch
     * actors exist only for NVLS and CollNet), so their flows are capped at channelCapBps; any other plan's flows are
     * bounded by their routes alone.
     *
     * Back-to-back calls of one plan on one network (PerfRunner: rank r launches call i + 1 once it finished call i)
     * keep the bound: a sender's workers of call i + 1 start after its workers of call i ended, so at any instant each
     * sender still has at most one flow per lane on a connection of the plan.
     */
    private static final double MARGIN = 1 - 1e-9;

    private SlackLinks() { }

    /**
     * An upper bound of the rate cap of every flow {@code plan}'s actor {@code from} starts, bytes/s: {@code
     * channelCapBps} for a rank of a ring, tree or PAT plan, else +Infinity (no cap known).
     */
    static double rateCapBound(Plan plan, int from, double channelCapBps) {
        Algorithm a = plan.options().algorithm();
        boolean capped = a == Algorithm.RING || a == Algorithm.TREE || a == Algorithm.PAT;
        return capped && !plan.isSwitchActor(from) && channelCapBps > 0 ? channelCapBps : Double.POSITIVE_INFINITY;
    }

    /**
     * Which hops load a constraint that never binds.
     *
     * @param net          the network, its capacities fixed for the execution
     * @param hops         per connection, its route's hops ({@link FlowNetwork#hop}), before multiplicity
     * @param multiplicity per connection, its path's multiplicity (≥ 1)
     * @param flows        per connection, the most flows it carries at once (≥ 1)
     * @param rateCap      per connection, an upper bound of its flows' rate caps, bytes/s (+Infinity: none)
     * @return per hop index (2 × link count): whether the constraint it loads never binds; false for every hop of
     *         a fat-pipe link
     */
    static boolean[] of(FlowNetwork net, int[][] hops, int[] multiplicity, int[] flows, double[] rateCap) {
        int nl = net.linkCount();
        double[] load = new double[2 * nl]; // bytes/s, per hop (both directions of a shared link summed below)
        for (int k = 0; k < hops.length; k++) {
            int[] hk = hops[k];
            double u = rateBound(net, hk, multiplicity[k], rateCap[k]);
            for (int h : hk) load[h] += (double) flows[k] * multiplicity[k] * u; // each crossing adds its weight
        }
        boolean[] slack = new boolean[2 * nl];
        for (int l = 0; l < nl; l++) {
            Sharing s = net.sharing(l);
            double c = net.capacity(l);
            if (!(c > 0)) continue; // a link that is down stalls what crosses it: it binds
            if (s == Sharing.SHARED) {
                boolean ok = load[2 * l] + load[2 * l + 1] <= c * MARGIN;
                slack[2 * l] = ok;
                slack[2 * l + 1] = ok;
            } else if (s == Sharing.FULL_DUPLEX) {
                double least = c * Math.min(1.0, net.duplexEfficiency(l));
                slack[2 * l] = load[2 * l] <= least * MARGIN;
                slack[2 * l + 1] = load[2 * l + 1] <= least * MARGIN;
            }
        }
        return slack;
    }

    /**
     * The most one flow on a route of hops {@code hk} with multiplicity {@code m} and rate cap {@code cap} can get,
     * bytes/s: its cap, or a shared constraint's nominal capacity over the flow's weight on it if less.
     */
    private static double rateBound(FlowNetwork net, int[] hk, int m, double cap) {
        double u = cap;
        for (int i = 0; i < hk.length; i++) {
            int l = hk[i] >>> 1;
            if (net.sharing(l) == Sharing.FAT_PIPE) continue;
            int times = 0; // how often the route crosses this constraint
            for (int h : hk) {
                if (net.sharing(l) == Sharing.SHARED ? h >>> 1 == l : h == hk[i]) times++;
            }
            u = Math.min(u, net.capacity(l) / ((double) times * m));
        }
        return u;
    }
}
