/**
 * Bandwidth sharing: a {@link io.ccsim.sim.flow.FlowNetwork} of links (constraints with a
 * capacity in bytes/s and a {@link io.ccsim.sim.Sharing} policy) and
 * {@link io.ccsim.sim.flow.Flow}s over routes of link directions, with max-min fair rates
 * re-solved per connected component and completion events kept in the simulator.
 */
package io.ccsim.sim.flow;
