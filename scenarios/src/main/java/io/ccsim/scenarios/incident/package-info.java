/**
 * Real incidents in: readers of what a failed job leaves behind (PyTorch flight-recorder dumps in pickle and JSON,
 * NCCL_DEBUG=INFO logs, PyTorch rank output, ncclras reports, nccl-tests output through the measurement readers),
 * their mapping into the analyzer's {@link io.ccsim.scenarios.diagnosis.Trace} so that the scenarios' analyzer names
 * the culprits in its own vocabulary, the report with the evidence of each finding, and a scenario file that
 * reproduces the incident. Nothing here simulates; the only input is files.
 */
package io.ccsim.scenarios.incident;
