package io.ccsim.topology;

/**
 * Numbers of real hardware used by the builders, with their sources. Bandwidths are bytes/s per direction,
 * latencies picoseconds.
 */
public final class Hardware {

    private Hardware() {
    }

    public static final double GB = 1e9;

    /**
     * NVLink4 (H100/H200) per link per direction: 26.562 GB/s, measured on an H200 (project issue 2). NVIDIA
     * quotes 900 GB/s bidirectional over 18 links = 25 GB/s/direction nominal (H100 datasheet); NCCL's planning
     * value is SM90_NVLINK_BW = 20.6 GB/s (src/graph/topo.h).
     */
    public static final double NVLINK4_LINK_BW = 26.562 * GB;
    /** NVLink5 (B200/GB200) per link per direction: 1.8 TB/s bidirectional per GPU / 18 links / 2
     * (GB200 NVL72 spec). */
    public static final double NVLINK5_LINK_BW = 50.0 * GB;
    /** NVLink2/3 (V100, A100) per link per direction: A100 600 GB/s bidirectional / 12 links / 2 (A100 datasheet). */
    public static final double NVLINK3_LINK_BW = 25.0 * GB;
    /** NVLink-C2C Grace-Blackwell: 900 GB/s bidirectional = 450 GB/s per direction (NVIDIA GB200 spec). */
    public static final double C2C_BW = 450.0 * GB;

    /**
     * One-way latency of a GPU-NVSwitch link. NCCL's hwLat for an NVLink hop (LL protocol) is 0.6 us
     * (src/graph/tuning.cc); a GPU-to-GPU transfer through an NVSwitch crosses two links, so 0.3 us each.
     */
    public static final long NVLINK_LATENCY_PS = 300_000;
    /**
     * One-way latency of a PCIe link. NCCL's hwLat for a PCI hop (LL) is 1.0 us (src/graph/tuning.cc); a hop
     * GPU-switch-(CPU)-switch-GPU crosses 2 to 4 links: 250 ns each.
     */
    public static final long PCIE_LATENCY_PS = 250_000;
    /** CPU-to-CPU (UPI/xGMI) link latency, ~ 100-150 ns remote-socket access penalty; 150 ns. */
    public static final long SMP_LATENCY_PS = 150_000;
    /**
     * InfiniBand NIC-to-leaf link latency: NCCL's hwLat NET (ring, LL) is 2.7 us end to end
     * (src/graph/tuning.cc); we put 1 us on each NIC-leaf link (NIC processing + cable) and 175 ns
     * per switch-to-switch link (Quantum-2 port-to-port latency class, NVIDIA QM9700 datasheet: sub-200 ns).
     */
    public static final long NIC_LEAF_LATENCY_PS = 1_000_000;
    public static final long SWITCH_LATENCY_PS = 175_000;

    /** Sapphire Rapids UPI between the 2 sockets of an HGX H100/H200 host: NCCL's SRP_QPI_BW = 22 GB/s
     * (src/graph/topo.h). */
    public static final double SMP_SPR_BW = 22.0 * GB;

    /** NDR InfiniBand 400 Gb/s = 50 GB/s per direction (ConnectX-7). */
    public static final double NDR_BW = 400e9 / 8;
    /** HDR InfiniBand 200 Gb/s = 25 GB/s per direction (ConnectX-6). */
    public static final double HDR_BW = 200e9 / 8;
    /** Ports of an NDR leaf/spine switch: NVIDIA Quantum-2 QM9700 has 64 NDR ports. */
    public static final int NDR_SWITCH_RADIX = 64;

    /**
     * PCIe protocol efficiency after encoding: TLP/DLLP overhead with 256-byte max payload (24-26 bytes per
     * TLP) and flow-control traffic leaves ~85 %; e.g. Gen5 x16 = 63.0 GB/s raw -> ~53.6 GB/s, close to the
     * ~53-55 GB/s host-to-device copies measured on H100 with nvbandwidth.
     */
    public static final double PCIE_EFFICIENCY = 0.85;

    /** Usable bandwidth per direction of a PCIe link of generation {@code gen} and {@code width} lanes. */
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

    /** Memory as nvidia-smi reports it: H100 SXM5 80GB shows 81559 MiB. */
    public static final long H100_MEMORY_BYTES = 81559L << 20;
    /** H200 141GB shows 143771 MiB in nvidia-smi. */
    public static final long H200_MEMORY_BYTES = 143771L << 20;
    /** B200 in GB200 NVL72: 13.4 TB HBM3e per rack / 72 GPUs = 186 GB (NVIDIA GB200 NVL72 spec). */
    public static final long GB200_MEMORY_BYTES = 186_000_000_000L;
    /** L40S (a PCIe Gen4 x16 GPU): 48 GB GDDR6, nvidia-smi 46068 MiB. */
    public static final long L40S_MEMORY_BYTES = 46068L << 20;
}
