/**
 * What injected faults do to a run: {@link io.ccsim.scenarios.faults.FaultInjector} applies the scenario's
 * faults at their time or on an iteration trigger, to the cluster's links and the collective engine, and
 * through {@link io.ccsim.scenarios.faults.FaultTarget} to the running job's ranks and store.
 */
package io.ccsim.scenarios.faults;
