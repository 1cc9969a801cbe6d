/**
 * {@link io.ccsim.algorithms.cpu.CpuExecutor}: runs a plan on real data, slot by slot, with the
 * protocol's flow control and wire format, single-threaded and deterministic; flow-control errors
 * surface as {@link io.ccsim.algorithms.cpu.PlanDeadlockException} or
 * {@link io.ccsim.algorithms.cpu.PlanViolationException}.
 */
package io.ccsim.algorithms.cpu;
