package io.ccsim.algorithms.ddp;

/**
 * When one bucket's all-reduce happened in a simulated DDP step; times in picoseconds from the step's start.
 *
 * @param bucket    the bucket
 * @param cost      its all-reduce alone: time and NCCL's choice
 * @param readyPs   when its last gradient was copied into it (the reducer launches the all-reduce then, once every
 *                  earlier bucket is launched)
 * @param releasePs when the host had enqueued the call
 * @param startPs   when the call started on the communication stream
 * @param endPs     when it completed
 */
public record BucketTiming(Bucket bucket, CollectiveCost cost, long readyPs, long releasePs, long startPs, long endPs) {
}
