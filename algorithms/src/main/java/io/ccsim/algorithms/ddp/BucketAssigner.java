package io.ccsim.algorithms.ddp;

import java.util.ArrayList;
import java.util.List;

/**
 * DDP's gradient buckets, formed as PyTorch's reducer forms them once it has seen one backward pass.
 *
 * <p>Units: bytes. {@code bucket_cap_mb} is read by DDP as MiB ({@code int(bucket_cap_mb * 1024 * 1024)}).
 */
public final class BucketAssigner {
    /*
     * PyTorch (torch/csrc/distributed/c10d/reducer.cpp, compute_bucket_assignment_by_size and rebuild_buckets;
     * torch/nn/parallel/distributed.py, _ddp_init_helper and the bucket capacity configuration):
     *
     * - With find_unused_parameters=False (the default) DDP starts with one bucket holding every parameter (limit
     *   sys.maxsize) and records the order in which the autograd hooks fire during the first backward pass. Before
     *   the second forward it rebuilds the buckets from that order (rebuild_buckets) and keeps them.
     * - compute_bucket_assignment_by_size walks the tensors in that order, per (dtype, device) key, appending each to
     *   the open bucket; once the open bucket's size reaches its limit (size >= limit) the bucket is closed and the
     *   limit iterator advances. The limits are [first_bucket_bytes_cap, bucket_bytes_cap]: the first bucket has its
     *   own limit, every later one the second. A tensor is never split, so a bucket can exceed its limit by up to one
     *   tensor, and a tensor larger than the cap is a bucket of its own (with any small ones before it).
     * - first_bucket_bytes_cap is dist._DEFAULT_FIRST_BUCKET_BYTES (1 MiB) only when bucket_cap_mb is left at its
     *   default (25 MiB); a bucket_cap_mb given explicitly is used for the first bucket too.
     * - The reducer launches a bucket's all-reduce when all its gradients are ready and every earlier bucket has been
     *   launched (mark_bucket_ready: "buckets are reduced in sequence").
     *
     * Here every gradient has one dtype and device (one key), the ready order is StepProfile.readyOrder(), and the
     * steady state after the rebuild is what is formed; the first iteration's single bucket is not modelled.
     */

    /** DDP's default {@code bucket_cap_mb}, MiB. */
    public static final double DEFAULT_CAP_MB = 25;

    /** {@code dist._DEFAULT_FIRST_BUCKET_BYTES}: the first bucket's limit when the cap is DDP's default. */
    public static final long DEFAULT_FIRST_BUCKET_BYTES = 1L << 20;

    private BucketAssigner() {}

    /** DDP's byte limit for {@code bucket_cap_mb}: {@code int(mb * 1024 * 1024)}. */
    public static long capBytes(double bucketCapMb) {
        if (!(bucketCapMb > 0) || Double.isInfinite(bucketCapMb)) {
            throw new IllegalArgumentException("bucket_cap_mb must be a number > 0, got " + bucketCapMb);
        }
        return (long) (bucketCapMb * 1024 * 1024);
    }

    /**
     * The buckets DDP forms after its first iteration for {@code profile}.
     *
     * @param capBytes      {@code bucket_bytes_cap}, bytes, {@code > 0}
     * @param firstCapBytes the first bucket's limit, bytes, {@code > 0}: {@link #DEFAULT_FIRST_BUCKET_BYTES} when the
     *                      cap is DDP's default, else {@code capBytes}
     * @return the buckets in launch order; every parameter in exactly one
     */
    public static List<Bucket> assign(StepProfile profile, long capBytes, long firstCapBytes) {
        if (capBytes <= 0 || firstCapBytes <= 0) {
            throw new IllegalArgumentException("bucket limits must be > 0 bytes, got " + firstCapBytes + " and " + capBytes);
        }
        int[] order = profile.readyOrder();
        List<Bucket> out = new ArrayList<>();
        int[] open = new int[order.length];
        int n = 0;
        long size = 0;
        long ready = 0;
        for (int p : order) {
            Gradient g = profile.gradients().get(p);
            open[n++] = p;
            size += g.bytes();
            ready = Math.max(ready, g.readyPs());
            long limit = out.isEmpty() ? firstCapBytes : capBytes;
            if (size >= limit) {
                out.add(new Bucket(out.size(), java.util.Arrays.copyOf(open, n), size, ready));
                n = 0;
                size = 0;
                ready = 0;
            }
        }
        if (n > 0) out.add(new Bucket(out.size(), java.util.Arrays.copyOf(open, n), size, ready));
        return out;
    }
}
