package io.ccsim.topology.smi;

import io.ccsim.topology.Topology;

/**
 * Imports the matrix printed by {@code nvidia-smi topo -m} as a one-host topology (host 0, node ids
 * {@code n0.*} like the catalog's).
 *
 * <p>What is built:
 * <ul>
 * <li>one GPU per {@code GPUn} row, one NIC per NIC column ({@code NICn}, named by the NIC Legend, or an
 *     old-style {@code mlx5_0} column), one CPU node per NUMA node (the "NUMA Affinity" column, else distinct
 *     "CPU Affinity" values), SMP links between every pair of CPU nodes;</li>
 * <li>PCIe: devices joined by PIX share a PCIe switch; PIX groups joined by PXB hang under a common upper
 *     switch; the top of each tree connects to its NUMA node's CPU (PHB and NODE both go through the CPU's
 *     root complex; their difference is not modelled). A NIC related to no GPU below SYS gets its own NUMA
 *     node. PCIe is Gen5 x16 on NVLink4 (NV18) machines, Gen4 x16 otherwise;</li>
 * <li>NVLink: if there are 3 or more GPUs and every GPU pair shows the same NV#, the GPUs sit on NVSwitches:
 *     NV18 gives 4 NVSwitch chips with 5/4/4/5 links (HGX H100/H200), another even # >= 12 gives #/2 chips x 2
 *     links (DGX A100: 6 chips x 2), else # chips x 1 link; each GPU's links form a striped group. Otherwise
 *     each NV# cell is a point-to-point NVLink with # lanes. Per-link bandwidth: NVLink4 for NV18 boards,
 *     else NVLink2/3 (see {@link io.ccsim.topology.Hardware}).</li>
 * </ul>
 */
public final class NvidiaSmiTopo {

    /*
     * Reading of the cells (legend printed by nvidia-smi topo -m): X self; NV# a bonded set of # NVLinks;
     * PIX at most one PCIe bridge (same switch); PXB several bridges, no host bridge (switches under a
     * common upper switch); PHB through a PCIe host bridge; NODE between host bridges of one NUMA node;
     * SYS (older drivers: SOC) across the SMP interconnect between NUMA nodes.
     *
     * The import runs in two parts: SmiMatrixParser reads the text into an SmiMatrix (checking its shape
     * and values), SmiTopologyBuilder turns the matrix into nodes and links (NvlinkShape, NumaAssignment and
     * the PCIe trees decide the structure).
     */

    private NvidiaSmiTopo() {
    }

    /**
     * Parses the output of {@code nvidia-smi topo -m}.
     *
     * @param text       the whole output (header row, matrix, optional legends); lines before the header
     *                   may be blank or start with {@code $} or {@code #}
     * @param sourceName name used in errors and as the topology name, non-blank
     * @return the topology, seed 0
     * @throws IllegalArgumentException {@code source:line:column: problem} with what is valid
     */
    public static Topology parse(String text, String sourceName) {
        return parse(text, sourceName, null);
    }

    /**
     * As {@link #parse(String, String)}, the GPUs given {@code gpuModel} (one of {@link io.ccsim.topology.Hardware#GPU_MODELS},
     * any case; null: none, as the matrix names none) and its memory, so that the topology simulates with that model's
     * built-in profile.
     *
     * @throws IllegalArgumentException also for an unknown model, naming the valid ones
     */
    public static Topology parse(String text, String sourceName, String gpuModel) {
        if (gpuModel != null) io.ccsim.topology.Hardware.gpuMemoryBytes(gpuModel);
        return SmiTopologyBuilder.build(SmiMatrixParser.parse(new SmiText(text, sourceName)), gpuModel);
    }
}
