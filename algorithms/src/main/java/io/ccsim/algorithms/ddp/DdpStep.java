package io.ccsim.algorithms.ddp;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.sim.Simulator;
import java.util.ArrayList;
import java.util.List;

/**
 * One training step of PyTorch DDP on one rank (all ranks alike): the forward pass, then the backward pass with each
 * bucket all-reduced on NCCL's stream once its gradients are in it, overlapping what is left of backward.
 */
public final class DdpStep {
    /*
     * What the reducer does per step (torch/csrc/distributed/c10d/reducer.cpp), and how it is timed here:
     *
     * - autograd_hook -> mark_variable_ready -> mark_variable_ready_dense: when a parameter's gradient is accumulated,
     *   the reducer copies it into its bucket, dividing by the world size on the way (at::mul_out(bucket_view, grad,
     *   1/div_factor)): a kernel on the compute stream, right after the gradient, of the gradient's bytes read and
     *   written (StepOptions.copyPs). With gradient_as_bucket_view=True the gradient already is the bucket view after
     *   the first step and the kernel is an in-place div_, the same bytes.
     * - mark_bucket_ready: when a bucket's last gradient is in, its all-reduce is launched, in bucket order
     *   (a bucket launches only after every earlier one). ProcessGroupNCCL runs it on its own stream after an event
     *   of the compute stream, so it starts when that copy ended, the host has enqueued it (StepOptions.launchPs,
     *   one call after another), and the previous all-reduce ended (one NCCL stream). Its duration is the collective
     *   alone (CollectiveCosts: ccsim's tuner and simulator on the topology).
     * - finalize_backward, queued when the last bucket is launched: for each bucket in order it waits for the
     *   all-reduce (the compute stream waits on the NCCL work's event) and copies the result back into each
     *   parameter's .grad (copy_bucket_to_grad; skipped with gradient_as_bucket_view=True).
     * - The iteration ends when both streams are idle (torch.cuda.synchronize()).
     *
     * The backward compute between two gradients is the difference of their ready times in the profile (a backward
     * pass without communication). While an all-reduce runs, compute advances at StepOptions.overlap of its speed:
     * NCCL's kernel holds SMs and memory bandwidth the matrix products would use (GpuStreams).
     */

    private DdpStep() {}

    /**
     * Simulates one step of {@code profile} with {@code buckets} (from {@link BucketAssigner#assign}).
     *
     * @throws IllegalArgumentException if the buckets do not hold every parameter of the profile exactly once
     */
    public static DdpResult simulate(StepProfile profile, List<Bucket> buckets, CollectiveCosts costs, StepOptions options) {
        List<Gradient> grads = profile.gradients();
        int[] bucketOf = bucketOf(grads.size(), buckets);
        int nb = buckets.size();
        CollectiveCost[] cost = new CollectiveCost[nb];
        GpuStreams.Collective[] ar = new GpuStreams.Collective[nb];
        int[] missing = new int[nb];
        for (int b = 0; b < nb; b++) {
            cost[b] = costs.cost(CollectiveOp.ALL_REDUCE, buckets.get(b).bytes(), profile.dtype());
            ar[b] = new GpuStreams.Collective(cost[b].timePs());
            missing[b] = buckets.get(b).tensors();
        }
        GpuStreams gpu = new GpuStreams(new Simulator(0), options.overlap());
        long[] readyAt = new long[nb];
        int[] next = {0};
        GpuStreams.Compute forward = new GpuStreams.Compute(profile.forwardPs(), null);
        gpu.add(forward);
        long copies = 0;
        long previous = 0;
        for (int p : profile.readyOrder()) {
            Gradient g = grads.get(p);
            gpu.add(new GpuStreams.Compute(g.readyPs() - previous, null));
            previous = g.readyPs();
            GpuStreams.Compute copyIn = new GpuStreams.Compute(options.copyPs(g.bytes()), null);
            copies += copyIn.workPs;
            int b = bucketOf[p];
            copyIn.onEnd = () -> {
                if (--missing[b] > 0) return;
                readyAt[b] = copyIn.endPs;
                while (next[0] < nb && missing[next[0]] == 0) gpu.launch(ar[next[0]++], options.launchPs());
            };
            gpu.add(copyIn);
        }
        gpu.add(new GpuStreams.Compute(profile.backwardPs() - previous, null));
        if (!options.gradAsBucketView()) {
            for (int b = 0; b < nb; b++) {
                GpuStreams.Compute copyBack = new GpuStreams.Compute(options.copyPs(buckets.get(b).bytes()), ar[b]);
                copies += copyBack.workPs;
                gpu.add(copyBack);
            }
        }
        long end = gpu.run();
        List<BucketTiming> timings = new ArrayList<>(nb);
        for (int b = 0; b < nb; b++) {
            timings.add(new BucketTiming(buckets.get(b), cost[b], readyAt[b], ar[b].releasePs, ar[b].startPs, ar[b].endPs));
        }
        long computeOnly = profile.forwardPs() + profile.backwardPs() + copies;
        return new DdpResult(end, computeOnly, profile.forwardPs(), copies, timings);
    }

    private static int[] bucketOf(int params, List<Bucket> buckets) {
        int[] of = new int[params];
        java.util.Arrays.fill(of, -1);
        for (int i = 0; i < buckets.size(); i++) {
            Bucket b = buckets.get(i);
            if (b.index() != i) throw new IllegalArgumentException("bucket at position " + i + " has index " + b.index());
            for (int p : b.params()) {
                if (p < 0 || p >= params || of[p] >= 0) {
                    throw new IllegalArgumentException("bucket " + b.index() + " holds parameter " + p
                            + (p < 0 || p >= params ? ", which the profile does not have" : ", already in bucket " + of[p]));
                }
                of[p] = b.index();
            }
        }
        for (int p = 0; p < params; p++) {
            if (of[p] < 0) throw new IllegalArgumentException("parameter " + p + " is in no bucket");
        }
        return of;
    }
}
