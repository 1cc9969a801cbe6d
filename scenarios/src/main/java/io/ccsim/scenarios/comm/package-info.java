/**
 * Communicators and where their memory comes from: a rank's view of a process group
 * ({@link io.ccsim.scenarios.comm.ProcessGroupState}, its communicators by device key), the
 * {@link io.ccsim.scenarios.comm.Communicator} its members share (matching collectives by order, NCCL's
 * buffer size), and {@link io.ccsim.scenarios.comm.GpuMemory} as PyTorch's caching allocator and NCCL's
 * cudaMalloc see it.
 */
package io.ccsim.scenarios.comm;
