/**
 * The scenario file: {@link io.ccsim.scenarios.format.Scenario} with its topology, job
 * ({@link io.ccsim.scenarios.format.JobSpec}, program {@link io.ccsim.scenarios.format.Step}s),
 * {@link io.ccsim.scenarios.format.Fault}s, {@link io.ccsim.scenarios.format.Settings} and expectation,
 * the {@link io.ccsim.scenarios.format.Units} of its durations and sizes, and
 * {@link io.ccsim.scenarios.format.ScenarioParser}, a strict reader with one reader per section whose
 * errors name the file, the JSON path and what is valid. The format is documented in scenarios/README.md.
 */
package io.ccsim.scenarios.format;
