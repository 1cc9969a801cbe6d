package io.ccsim.algorithms.ddp;

/**
 * When one collective call happened in a simulated step; times in picoseconds from the step's start.
 *
 * @param cost      the call alone: time and NCCL's choice
 * @param releasePs when the host had enqueued it
 * @param startPs   when it started on the communication stream
 * @param endPs     when it completed
 */
public record CallTiming(CollectiveCost cost, long releasePs, long startPs, long endPs) {
}
