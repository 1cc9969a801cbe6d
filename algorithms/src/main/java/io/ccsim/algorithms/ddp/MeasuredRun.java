package io.ccsim.algorithms.ddp;

/**
 * A measured iteration time of a real DDP job at one {@code bucket_cap_mb}, as the measurement files of
 * {@code tools/ddp-measure/ddp_buckets.py} hold them.
 *
 * @param bucketCapMb the {@code bucket_cap_mb} given to DDP (MiB, as DDP reads it), {@code > 0}
 * @param medianMs    median iteration time (forward + backward + synchronize), ms
 * @param p10Ms       10th percentile, ms
 * @param p90Ms       90th percentile, ms
 */
public record MeasuredRun(double bucketCapMb, double medianMs, double p10Ms, double p90Ms) {
}
