package io.ccsim.algorithms.ddp;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.sim.Simulator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One training step of FSDP with full sharding (ZeRO-3) on one rank (all ranks alike): each unit's parameters are
 * all-gathered before its forward and again before its backward, the next unit's gather prefetched, and each unit's
 * gradients reduce-scattered once its backward is done.
 */
public final class FsdpStep {
    /*
     * Units: consecutive parameters of one module (Gradient.module()) form one unit, as FSDP wraps modules; its
     * flat parameter is padded to a whole number of elements per rank (FSDP pads the flat parameter so that it
     * shards evenly). Per unit (ZeRO-3: Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion
     * Parameter Models", SC 2020, section 5.3; PyTorch FSDP with reshard_after_forward=True):
     *
     * - forward: all-gather (nccl-tests size = the unit's bytes), then FSDP's copy-out of the gathered flat buffer
     *   into the parameters (a device copy of the unit's bytes), then the unit's forward. The next unit's all-gather
     *   is launched when this unit's forward begins (forward prefetch, one unit ahead).
     * - backward, units in the order their gradients become ready: all-gather again (parameters were freed after
     *   forward), copy-out, the unit's backward, then the copy of its gradients into the reduce-scatter input (a
     *   device copy) and the reduce-scatter (nccl-tests size = the unit's bytes). The next unit's all-gather is
     *   launched when this unit's backward begins (BACKWARD_PRE prefetch); the first backward gather when forward
     *   ends.
     * - forward compute per unit is the profile's forward time split in proportion to the units' bytes (linear
     *   layers on a fixed batch); backward compute per unit is the difference of successive units' ready times.
     * - the gathers and reduce-scatters share one communication stream in launch order: FSDP puts them on two
     *   streams, but two collectives at once share the same links, which for bandwidth-bound calls takes as long
     *   as one after the other. Compute advances at StepOptions.overlap while a collective runs, as for DDP.
     */

    private FsdpStep() {}

    /** Simulates one step of {@code profile} sharded over {@code ranks} ranks, {@code >= 1}. */
    public static FsdpResult simulate(StepProfile profile, int ranks, CollectiveCosts costs, StepOptions options) {
        if (ranks < 1) throw new IllegalArgumentException("ranks must be >= 1, got " + ranks);
        List<int[]> units = units(profile);
        int nu = units.size();
        List<Gradient> grads = profile.gradients();
        long pad = (long) ranks * profile.dtype().bytes();
        long[] bytes = new long[nu];
        long[] work = new long[nu];
        long[] end = new long[nu];
        long total = profile.totalBytes();
        long assigned = 0;
        for (int u = 0; u < nu; u++) {
            long b = 0;
            for (int p : units.get(u)) {
                b += grads.get(p).bytes();
                end[u] = Math.max(end[u], grads.get(p).readyPs());
            }
            bytes[u] = (b + pad - 1) / pad * pad;
            assigned += b;
            work[u] = Math.round((double) profile.forwardPs() * assigned / total) - Math.round((double) profile.forwardPs() * (assigned - b) / total);
        }
        CollectiveCost[][] cost = new CollectiveCost[3][nu];
        GpuStreams.Collective[][] calls = new GpuStreams.Collective[3][nu];
        for (int u = 0; u < nu; u++) {
            cost[0][u] = cost[1][u] = costs.cost(CollectiveOp.ALL_GATHER, bytes[u], profile.dtype());
            cost[2][u] = costs.cost(CollectiveOp.REDUCE_SCATTER, bytes[u], profile.dtype());
            for (int k = 0; k < 3; k++) calls[k][u] = new GpuStreams.Collective(cost[k][u].timePs());
        }
        GpuStreams gpu = new GpuStreams(new Simulator(0), options.overlap());
        long copies = 0;
        GpuStreams.Compute lastForward = null;
        gpu.launch(calls[0][0], options.launchPs());
        for (int u = 0; u < nu; u++) {
            GpuStreams.Compute copyOut = new GpuStreams.Compute(options.copyPs(bytes[u]), calls[0][u]);
            if (u + 1 < nu) {
                GpuStreams.Collective next = calls[0][u + 1];
                copyOut.onStart = () -> gpu.launch(next, options.launchPs());
            }
            lastForward = new GpuStreams.Compute(work[u], null);
            copies += copyOut.workPs;
            gpu.add(copyOut);
            gpu.add(lastForward);
        }
        int[] order = backwardOrder(end);
        lastForward.onEnd = () -> gpu.launch(calls[1][order[0]], options.launchPs());
        long previous = 0;
        for (int k = 0; k < nu; k++) {
            int u = order[k];
            GpuStreams.Compute copyOut = new GpuStreams.Compute(options.copyPs(bytes[u]), calls[1][u]);
            if (k + 1 < nu) {
                GpuStreams.Collective next = calls[1][order[k + 1]];
                copyOut.onStart = () -> gpu.launch(next, options.launchPs());
            }
            long until = k + 1 < nu ? end[u] : profile.backwardPs();
            GpuStreams.Compute compute = new GpuStreams.Compute(until - previous, null);
            previous = until;
            GpuStreams.Compute copyIn = new GpuStreams.Compute(options.copyPs(bytes[u]), null);
            GpuStreams.Collective rs = calls[2][u];
            copyIn.onEnd = () -> gpu.launch(rs, options.launchPs());
            copies += copyOut.workPs + copyIn.workPs;
            gpu.add(copyOut);
            gpu.add(compute);
            gpu.add(copyIn);
        }
        long stepEnd = gpu.run();
        List<FsdpResult.Unit> out = new ArrayList<>(nu);
        for (int u = 0; u < nu; u++) {
            out.add(new FsdpResult.Unit(grads.get(units.get(u)[0]).module(), units.get(u).length, bytes[u],
                    timing(cost[0][u], calls[0][u]), timing(cost[1][u], calls[1][u]), timing(cost[2][u], calls[2][u])));
        }
        return new FsdpResult(stepEnd, profile.forwardPs() + profile.backwardPs() + copies, lastForward.endPs, out);
    }

    private static CallTiming timing(CollectiveCost c, GpuStreams.Collective k) {
        return new CallTiming(c, k.releasePs, k.startPs, k.endPs);
    }

    /** Groups consecutive parameters of one module: each group is a unit. */
    static List<int[]> units(StepProfile profile) {
        List<int[]> out = new ArrayList<>();
        List<Gradient> g = profile.gradients();
        int start = 0;
        for (int i = 1; i <= g.size(); i++) {
            if (i == g.size() || !g.get(i).module().equals(g.get(start).module())) {
                int[] u = new int[i - start];
                for (int k = 0; k < u.length; k++) u[k] = start + k;
                out.add(u);
                start = i;
            }
        }
        return out;
    }

    /** The units in the order their backward ends: by their latest ready time, a tie to the later unit. */
    private static int[] backwardOrder(long[] end) {
        Integer[] order = new Integer[end.length];
        for (int i = 0; i < order.length; i++) order[i] = i;
        Arrays.sort(order, (a, b) -> end[a] != end[b] ? Long.compare(end[a], end[b]) : Integer.compare(b, a));
        int[] out = new int[order.length];
        for (int i = 0; i < out.length; i++) out[i] = order[i];
        return out;
    }
}
