/**
 * How the ranks of a new communicator find each other: ProcessGroupNCCL's
 * {@link io.ccsim.scenarios.bootstrap.UniqueIdExchange} through the group's store, then NCCL's
 * {@link io.ccsim.scenarios.bootstrap.Bootstrap} network (root listeners, connects with NCCL's retry
 * policy, the ring all-gather), none of it covered by a timeout. Roots are recorded as
 * {@link io.ccsim.scenarios.bootstrap.RootRecord}s for the analyzer.
 */
package io.ccsim.scenarios.bootstrap;
