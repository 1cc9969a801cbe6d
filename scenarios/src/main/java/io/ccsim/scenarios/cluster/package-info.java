/**
 * What the job runs on: sim-core's clock and random streams behind {@link io.ccsim.scenarios.cluster.SimHost},
 * the {@link io.ccsim.scenarios.cluster.Cluster} (the topology, the GPU of each rank and the health faults
 * give its links), and the collectives: {@link io.ccsim.scenarios.cluster.CollectiveEngine}, implemented by
 * {@link io.ccsim.scenarios.cluster.SimCollectiveEngine} on the algorithms module's tuner, planners and
 * executor, reporting {@link io.ccsim.scenarios.cluster.CollectiveStats} for the analyzer.
 */
package io.ccsim.scenarios.cluster;
