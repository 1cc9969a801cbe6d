/**
 * The system layer around the collectives: reproduce a production hang, slowdown or corruption and get
 * the diagnosis. The API is {@link io.ccsim.scenarios.ScenarioRunner} (run a file, a catalog scenario
 * or a parsed {@link io.ccsim.scenarios.format.Scenario}), its {@link io.ccsim.scenarios.ScenarioResult}
 * and {@link io.ccsim.scenarios.Outcome}, the {@link io.ccsim.scenarios.ScenarioCatalog} of real
 * incidents, and {@link io.ccsim.scenarios.ScenarioFormatException} for a malformed scenario.
 *
 * <p>Subpackages, from the file to the diagnosis:
 * <ul>
 * <li>{@code format}: the scenario file (job, program steps, faults, settings, expectation) and its strict reader;
 * <li>{@code cluster}: what the job runs on: the clock, the topology with its link health, and the
 *     collectives executed on the flow network;
 * <li>{@code store}: the c10d key-value store (TCPStore, PrefixStore);
 * <li>{@code bootstrap}: how a new communicator's ranks find each other: the unique-id exchange through
 *     the store and NCCL's bootstrap network;
 * <li>{@code comm}: communicators, process groups and GPU memory;
 * <li>{@code faults}: what injected faults do to the running job;
 * <li>{@code job}: the run: the ranks' processes and programs, communicator creation, the watchdog and
 *     the elastic agent;
 * <li>{@code diagnosis}: what a run leaves behind (its trace, flight records) and the analyzer's checks.
 * </ul>
 *
 * <p>Times are {@code long} picoseconds of simulated time everywhere; sizes are bytes.
 */
package io.ccsim.scenarios;
