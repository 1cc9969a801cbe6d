/**
 * The hardware graph of ccsim: {@link io.ccsim.topology.Node}s, {@link io.ccsim.topology.Link}s with
 * {@link io.ccsim.topology.LinkHealth}, the flow-network constraints ({@link io.ccsim.topology.LinkGroup},
 * striped for NVSwitch fabrics) and shortest routes with ECMP ({@link io.ccsim.topology.Route}), built by
 * {@link io.ccsim.topology.TopologyCatalog}, read and written by {@code io.ccsim.topology.json.TopologyJson},
 * imported from {@code nvidia-smi topo -m} by {@code io.ccsim.topology.smi.NvidiaSmiTopo}, and summarized by
 * {@link io.ccsim.topology.TopologySummary}.
 *
 * <p>Units: bandwidth in bytes/s per direction, latency in picoseconds, everywhere in the API.
 */
package io.ccsim.topology;
