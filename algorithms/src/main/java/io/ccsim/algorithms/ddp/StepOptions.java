package io.ccsim.algorithms.ddp;

/**
 * How a training step's compute and communication share the GPU and the host.
 *
 * @param overlap              compute speed while a collective runs, as a fraction of its speed alone, in [0, 1]
 * @param launchPs             host time to enqueue one collective call, ps, {@code >= 0}
 * @param copyBytesPerSecond   device-to-device copy rate counting bytes read and written, B/s, {@code > 0}
 *                             (infinite: copies cost nothing)
 * @param gradAsBucketView     DDP's {@code gradient_as_bucket_view=True}: no copy back from the buckets after the
 *                             all-reduce
 */
public record StepOptions(double overlap, long launchPs, double copyBytesPerSecond, boolean gradAsBucketView) {
    /*
     * The defaults were measured on 4 x H100 SXM (NV18 between every pair), PyTorch 2.11.0, NCCL 2.28.9; method and
     * raw output in experiments/ddp-h100x4/README.md:
     * - overlap 0: a 16 MiB all-reduce beside TF32 matrix products on another stream added its whole time to theirs,
     *   and the DDP iteration times fit a GPU that runs one or the other (all-reduces of 64-208 MiB left the products
     *   about 0.57 of their speed: --overlap 0.57 is the other end of what was seen).
     * - launch 48 us: the mean host time of one dist.all_reduce call of 4 KiB from Python at 4 ranks (25 us at 2).
     * - copies 2.91 TB/s: torch.mul(out=) of 208 MiB, DDP's copy of a gradient into its bucket, took 0.1497 ms.
     */

    /** Default {@link #overlap}: the GPU runs compute or a collective, not both (measured, see the class comment). */
    public static final double DEFAULT_OVERLAP = 0.0;

    /** Default {@link #launchPs}, µs. */
    public static final double DEFAULT_LAUNCH_US = 48.0;

    /** Default {@link #copyBytesPerSecond}, TB/s. */
    public static final double DEFAULT_COPY_TBPS = 2.91;

    public StepOptions {
        if (!(overlap >= 0 && overlap <= 1)) throw new IllegalArgumentException("overlap must be in [0, 1], got " + overlap);
        if (launchPs < 0) throw new IllegalArgumentException("launch cost must be >= 0 ps, got " + launchPs);
        if (!(copyBytesPerSecond > 0)) {
            throw new IllegalArgumentException("copy rate must be > 0 B/s, got " + copyBytesPerSecond);
        }
    }

    /** The defaults: DDP's {@code gradient_as_bucket_view=False}. */
    public static StepOptions defaults() {
        return new StepOptions(DEFAULT_OVERLAP, Math.round(DEFAULT_LAUNCH_US * 1e6), DEFAULT_COPY_TBPS * 1e12, false);
    }

    /** The time of one device copy of {@code bytes} (read once, written once), ps. */
    public long copyPs(long bytes) {
        if (Double.isInfinite(copyBytesPerSecond)) return 0;
        return (long) Math.ceil(2.0 * bytes / copyBytesPerSecond * 1e12);
    }
}
