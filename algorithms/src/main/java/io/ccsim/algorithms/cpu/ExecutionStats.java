package io.ccsim.algorithms.cpu;

/**
 * What a {@link CpuExecutor} run did.
 *
 * @param steps          steps executed (all ranks, channels, lanes)
 * @param passes         scheduler passes over the tasks (each pass runs every task until it blocks)
 * @param connections    connections with slot buffers
 * @param slotsWritten   connection slots filled by senders (a slice counts its sliceSteps slots)
 * @param payloadBytes   data bytes carried over connections
 * @param wireBytes      bytes on the wire in the protocol's format (LL: 8-byte lines of 4 B data;
 *                       LL128: 128-byte lines of 120 B data; Simple: the payload)
 * @param maxSlotsInUse  the most slots of one connection ever holding unread data (≤ NCCL_STEPS)
 */
public record ExecutionStats(long steps, long passes, long connections, long slotsWritten, long payloadBytes,
                             long wireBytes, int maxSlotsInUse) {
}
