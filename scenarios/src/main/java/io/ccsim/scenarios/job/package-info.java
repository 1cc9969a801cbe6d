/**
 * The run of a scenario ({@link io.ccsim.scenarios.job.ScenarioSimulation}): one launch of the job per
 * elastic attempt, each rank a process that runs the program step by step, creates its communicators
 * (store exchange, NCCL's buffers, bootstrap), enqueues collectives under PyTorch's watchdog and fails
 * as PyTorch fails; the elastic agent restarts the job after its last checkpoint. Everything a run
 * records becomes a {@link io.ccsim.scenarios.diagnosis.Trace}.
 */
package io.ccsim.scenarios.job;
