package io.ccsim.topology;

/**
 * Numbers of real hardware used by the builders. Bandwidths are bytes/s per direction, latencies
 * picoseconds, memory sizes bytes.
 */
public final class Hardware {

    /*
     * Sources, constant by constant:
     *
     * NVLINK4_LINK_BW: `nvidia-smi nvlink --status` on an HGX H200 host reports each of a GPU's 18 NVLinks
     *   at 26.562 GB/s. NVIDIA quotes 900 GB/s bidirectional over 18 links = 25 GB/s per direction nominal
     *   (H100 datasheet); NCCL plans with SM90_NVLINK_BW = 20.6 GB/s (src/graph/topo.h).
     * NVLINK5_LINK_BW: 1.8 TB/s bidirectional per GPU / 18 links / 2 (GB200 NVL72 spec).
     * NVLINK3_LINK_BW: A100 600 GB/s bidirectional / 12 links / 2 (A100 datasheet); NVLink2 (V100) has the
     *   same per-link rate.
     * C2C_BW: NVLink-C2C of Grace-Blackwell, 900 GB/s bidirectional (GB200 spec).
     * NVLINK_LATENCY_PS: NCCL's hwLat for an NVLink hop (LL protocol) is 0.6 us (src/graph/tuning.cc); a
     *   GPU-to-GPU transfer through an NVSwitch crosses two links, so 0.3 us each.
     * PCIE_LATENCY_PS: NCCL's hwLat for a PCI hop (LL) is 1.0 us (src/graph/tuning.cc); a hop
     *   GPU-switch-(CPU)-switch-GPU crosses 2 to 4 links: 250 ns each.
     * SMP_LATENCY_PS: the remote-socket access penalty of UPI/xGMI is about 100-150 ns; 150 ns.
     * NIC_LEAF_LATENCY_PS, SWITCH_LATENCY_PS: NCCL's hwLat NET (ring, LL) is 2.7 us end to end
     *   (src/graph/tuning.cc); 1 us goes on each NIC-leaf link (NIC processing + cable) and 175 ns on each
     *   switch-to-switch link (Quantum-2 port-to-port latency, NVIDIA QM9700 datasheet: sub-200 ns).
     * SMP_SPR_BW: Sapphire Rapids UPI between the 2 sockets of an HGX H100/H200 host, NCCL's SRP_QPI_BW =
     *   22 GB/s (src/graph/topo.h).
     * NDR_BW, HDR_BW: InfiniBand NDR 400 Gb/s (ConnectX-7) and HDR 200 Gb/s (ConnectX-6), divided by 8.
     * NDR_SWITCH_RADIX: NVIDIA Quantum-2 QM9700 has 64 NDR ports.
     * PCIE_EFFICIENCY: TLP/DLLP overhead with a 256-byte max payload (24-26 bytes per TLP) and flow-control
     *   traffic leave about 85 % after encoding: Gen5 x16 = 63.0 GB/s raw -> 53.6 GB/s, close to the
     *   53-55 GB/s of host-to-device copies that nvbandwidth reports on an H100.
     * pcieBandwidth: transfer rate and line encoding per generation from the PCI-SIG base specifications
     *   (8b/10b for Gen1-2, 128b/130b for Gen3-5, 242B/256B FLIT for Gen6).
     * *_MEMORY_BYTES: the total memory nvidia-smi reports (H100 SXM5 80GB: 81559 MiB; H200 141GB:
     *   143771 MiB; L40S 48GB: 46068 MiB); GB200: 13.4 TB HBM3e per NVL72 rack / 72 GPUs = 186 GB
     *   (GB200 NVL72 spec).
     */

    private Hardware() {
    }

    /** 10^9, bytes per GB. */
    static final double GB = 1e9;

    /** NVLink4 (H100/H200), one link: 26.562 GB/s. */
    public static final double NVLINK4_LINK_BW = 26.562 * GB;
    /** NVLink5 (B200/GB200), one link: 50 GB/s. */
    static final double NVLINK5_LINK_BW = 50.0 * GB;
    /** NVLink2/3 (V100, A100), one link: 25 GB/s. */
    public static final double NVLINK3_LINK_BW = 25.0 * GB;
    /** NVLink-C2C between a Grace CPU and a Blackwell GPU: 450 GB/s. */
    static final double C2C_BW = 450.0 * GB;

    /** One-way latency of a GPU-NVSwitch link (and half that of a direct GPU-GPU NVLink): 300 ns. */
    public static final long NVLINK_LATENCY_PS = 300_000;
    /** One-way latency of a PCIe link: 250 ns. */
    public static final long PCIE_LATENCY_PS = 250_000;
    /** One-way latency of a CPU-to-CPU (UPI/xGMI) link: 150 ns. */
    public static final long SMP_LATENCY_PS = 150_000;
    /** One-way latency of an InfiniBand NIC-to-leaf link: 1 us. */
    static final long NIC_LEAF_LATENCY_PS = 1_000_000;
    /** One-way latency of a switch-to-switch (leaf-spine) link: 175 ns. */
    static final long SWITCH_LATENCY_PS = 175_000;

    /** Sapphire Rapids UPI between the two sockets of an HGX H100/H200 host: 22 GB/s. */
    public static final double SMP_SPR_BW = 22.0 * GB;

    /** NDR InfiniBand, 400 Gb/s: 50 GB/s. */
    public static final double NDR_BW = 400e9 / 8;
    /** HDR InfiniBand, 200 Gb/s: 25 GB/s. */
    public static final double HDR_BW = 200e9 / 8;
    /** Ports of an NDR leaf or spine switch: 64. */
    static final int NDR_SWITCH_RADIX = 64;

    /** Fraction of a PCIe link's encoded rate that carries data: 0.85. */
    static final double PCIE_EFFICIENCY = 0.85;

    /**
     * Usable bandwidth of a PCIe link: transfer rate x width x encoding / 8 x 0.85 (protocol efficiency).
     *
     * @param gen   PCIe generation, 1..6
     * @param width lanes (x1 .. x16)
     * @return bytes/s per direction
     * @throws IllegalArgumentException for a generation outside 1..6
     */
    public static double pcieBandwidth(int gen, int width) {
        double gtPerSec;
        double encoding;
        switch (gen) {
            case 1 -> { gtPerSec = 2.5; encoding = 8.0 / 10; }
            case 2 -> { gtPerSec = 5.0; encoding = 8.0 / 10; }
            case 3 -> { gtPerSec = 8.0; encoding = 128.0 / 130; }
            case 4 -> { gtPerSec = 16.0; encoding = 128.0 / 130; }
            case 5 -> { gtPerSec = 32.0; encoding = 128.0 / 130; }
            case 6 -> { gtPerSec = 64.0; encoding = 242.0 / 256; }
            default -> throw new IllegalArgumentException("PCIe generation must be 1..6, got " + gen);
        }
        return gtPerSec * 1e9 * width * encoding / 8 * PCIE_EFFICIENCY;
    }

    /** H100 SXM5 80GB: 81559 MiB. */
    static final long H100_MEMORY_BYTES = 81559L << 20;
    /** H200 141GB: 143771 MiB. */
    static final long H200_MEMORY_BYTES = 143771L << 20;
    /** B200 in a GB200 NVL72: 186 GB. */
    static final long GB200_MEMORY_BYTES = 186_000_000_000L;
    /** B200 in an HGX B200: 180 GB (1,440 GB per board / 8, HGX B200 spec). */
    static final long B200_MEMORY_BYTES = 180_000_000_000L;
    /** L40S (PCIe Gen4 x16) 48GB: 46068 MiB. */
    static final long L40S_MEMORY_BYTES = 46068L << 20;

    /** The GPU models ccsim has a board and a built-in profile for, by the name a topology's GPUs carry. */
    public static final java.util.List<String> GPU_MODELS = java.util.List.of("H100", "H200", "B200", "L40S");

    /**
     * The memory of a GPU of {@code model} (one of {@link #GPU_MODELS}, any case), bytes.
     *
     * @throws IllegalArgumentException naming the valid models
     */
    public static long gpuMemoryBytes(String model) {
        return switch (model.toUpperCase(java.util.Locale.ROOT)) {
            case "H100" -> H100_MEMORY_BYTES;
            case "H200" -> H200_MEMORY_BYTES;
            case "B200" -> B200_MEMORY_BYTES;
            case "L40S" -> L40S_MEMORY_BYTES;
            default -> throw new IllegalArgumentException("unknown GPU model '" + model + "'; valid: " + String.join(", ", GPU_MODELS));
        };
    }
}
