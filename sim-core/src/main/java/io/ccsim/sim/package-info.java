/**
 * The discrete-event kernel: simulated time as a {@code long} count of picoseconds
 * ({@link io.ccsim.sim.Time}), the {@link io.ccsim.sim.Simulator} with its deterministic
 * (time, insertion sequence) order, and named seeded {@link io.ccsim.sim.RandomStream}s.
 * Knows nothing of GPUs; depends on no other module.
 */
package io.ccsim.sim;
