package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Protocol;

/**
 * The flow-control contract of a plan's connections: every connection (channel, from, to) has
 * {@link Protocol#NCCL_STEPS} slots of {@code slotWireBytes} each; a slot carries at most
 * {@code slotDataBytes} of payload (Simple: all of it; LL: half, 4 B data per 8-byte line; LL128:
 * 120 of every 128 bytes). A slice occupies {@code sliceSteps} slots; a chunk is
 * {@code chunkSteps / sliceSteps} slices (src/include/collectives.h *_CHUNKSTEPS/*_SLICESTEPS;
 * src/enqueue.cc calcCollChunking uses them only for Ring + Simple, 1/1 otherwise).
 *
 * @param protocol      wire protocol
 * @param slotWireBytes bytes of one slot on the wire: bufferBytes / NCCL_STEPS
 * @param slotDataBytes payload bytes one slot carries
 * @param chunkSteps    slots per chunk
 * @param sliceSteps    slots per slice (per step of the plan)
 * @param chunkBytes    payload bytes per chunk after NCCL's size rules (see {@code Chunking})
 */
public record ProtocolGeometry(Protocol protocol, int slotWireBytes, int slotDataBytes, int chunkSteps, int sliceSteps,
                               long chunkBytes) {

    /** Slots per connection: NCCL_STEPS = 8. */
    public int slotsPerConnection() { return Protocol.NCCL_STEPS; }

    /** Slices per chunk: chunkSteps / sliceSteps (NCCL's SlicePerChunk). */
    public int slicesPerChunk() { return chunkSteps / sliceSteps; }

    /** Most payload bytes one slice may carry: sliceSteps × slotDataBytes. */
    public long sliceCapacityBytes() { return (long) sliceSteps * slotDataBytes; }

    /** Wire bytes needed to carry {@code payloadBytes} (whole lines for LL/LL128). */
    public long wireBytes(long payloadBytes) { return protocol.wireBytes(payloadBytes); }
}
