/**
 * What a run leaves behind and what it means: the {@link io.ccsim.scenarios.diagnosis.Trace} (rank logs,
 * flight records, communicator inits, bootstrap roots, store accesses, collective timings, restarts, final
 * states) and the {@link io.ccsim.scenarios.diagnosis.Analyzer}, an ordered list of checks, one per family
 * of findings, that names the culprits as {@link io.ccsim.scenarios.diagnosis.Diagnosis}es in the
 * {@link io.ccsim.scenarios.diagnosis.Category} vocabulary.
 */
package io.ccsim.scenarios.diagnosis;
