package io.ccsim.topology;

import io.ccsim.sim.Sharing;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Builders of single boards (hosts). Every node id is prefixed by the host, {@code n<host>.}, also on a
 * single board, and every link id is {@code <a>~<b>}. Each builder returns the board's NIC ids by rail.
 */
final class Boards {

    private Boards() {
    }

    /** What a board builder adds to the topology builder. */
    interface Board {
        /** Default and maximum GPU count. */
        int maxGpus();

        /** Line rate of the board's NICs, bytes/s per direction (the NIC-to-leaf cable runs at it). */
        default double nicBandwidth() {
            return Hardware.NDR_BW;
        }

        /** The NIC count of a board of {@code gpus} GPUs by default. */
        int defaultNics(int gpus);

        /**
         * The NIC count of a board of {@code gpus} GPUs: {@code requested} if the board supports it, its default
         * for 0.
         *
         * @throws IllegalArgumentException for a count the board cannot have, naming the valid ones
         */
        default int nics(int gpus, int requested) {
            int d = defaultNics(gpus);
            if (requested != 0 && requested != d) {
                throw new IllegalArgumentException("this board has a fixed NIC count of " + d + "; nicsPerNode must be 0 or " + d
                        + " (the NIC count can be chosen on hgx-h100 and hgx-h200)");
            }
            return d;
        }

        /** The NIC counts a board of {@code gpus} GPUs can have, ascending. */
        default List<Integer> validNics(int gpus) {
            return List.of(defaultNics(gpus));
        }

        /**
         * Adds host {@code host} with {@code gpus} GPUs and {@code nics} NICs ({@link #nics}); returns the NIC ids
         * indexed by rail (may be empty).
         */
        List<String> add(Topology.Builder b, int host, int gpus, int nics);
    }

    /** The id prefix of host {@code host}: {@code n<host>.}. */
    static String p(int host) {
        return "n" + host + ".";
    }

    /** A healthy full-duplex link {@code a~b}; {@code bw} in bytes/s per direction. */
    static Link link(String a, String b, LinkKind kind, double bw, long latencyPs, int lanes, int gen) {
        return new Link(a + "~" + b, a, b, kind, bw, latencyPs, Sharing.FULL_DUPLEX, lanes, gen, LinkHealth.HEALTHY);
    }

    /** A PCIe link {@code a~b} of generation {@code gen} and {@code width} lanes. */
    static Link pcie(String a, String b, int gen, int width) {
        return link(a, b, LinkKind.PCIE, Hardware.pcieBandwidth(gen, width), Hardware.PCIE_LATENCY_PS, width, gen);
    }

    /** A GPU with its {@code model}, {@code memory_bytes} and {@code numa} attributes. */
    static Node gpu(String id, int host, int local, String model, long memory, int numa) {
        return new Node(id, NodeKind.GPU, host, local, Map.of("model", model, "memory_bytes",
                Long.toString(memory), "numa", Integer.toString(numa)));
    }

    /** A NIC {@code mlx5_<local>} on rail {@code rail} at {@code bw} bytes/s, recorded as {@code rate_gbps}. */
    static Node nic(String id, int host, int local, int rail, double bw) {
        return new Node(id, NodeKind.NIC, host, local, Map.of("rail", Integer.toString(rail),
                "rate_gbps", Long.toString(Math.round(bw * 8 / 1e9)), "device", "mlx5_" + local));
    }

    /*
     * HGX H100/H200 sources: the 5/4/4/5 split of a GPU's 18 NVLinks over the 4 NVSwitch chips is in the
     * <nvlink count="5"/"4"> entries of an H100 NCCL topology dump (aliyun/SimAI issue #128); two GPUs and
     * two NICs per PCIe switch is in the NCCL topology log of an H100 host (NVIDIA/nccl issue #1519:
     * PCI/82000 holds GPU 4, GPU 5 and two NICs).
     */

    /*
     * NVSwitch generations. Third-generation NVSwitch (NVLink4, HGX H100/H200) and fourth (NVLink5, GB200 NVL72,
     * HGX B200) implement NVLink SHARP: multicast writes and in-switch reduction of multimem loads, which NCCL's NVLS
     * algorithms use (NVIDIA Hopper architecture whitepaper, "NVLink SHARP"; NVIDIA GB200 NVL72 product page:
     * "NVIDIA SHARP" in the NVLink Switch). Earlier NVSwitches have no multicast.
     */
    /** Attributes of a third-generation NVSwitch chip (NVLink4): multicast and in-switch reduction. */
    static final Map<String, String> NVSWITCH3 = Map.of("generation", "3", "multicast", "true");
    /** Attributes of a fourth-generation NVSwitch chip (NVLink5): multicast and in-switch reduction. */
    static final Map<String, String> NVSWITCH4 = Map.of("generation", "4", "multicast", "true");

    /**
     * HGX H100 / H200 baseboard (DGX H100 layout):
     * <ul>
     * <li>8 GPUs, 4 third-generation NVSwitch chips (multicast and reduction: NVLS); each GPU has 18 NVLink4
     *     links split 5/4/4/5 over the 4 chips, one striped group per GPU of 18 x 26.562 GB/s;</li>
     * <li>4 PCIe Gen5 switches, each with 2 GPUs and their 2 NICs; switches 0-1 under CPU 0, 2-3 under
     *     CPU 1; the 2 sockets joined by UPI;</li>
     * <li>one ConnectX-7 NDR 400 Gb/s NIC per GPU (rail = GPU index), or {@code nics} NICs for fewer: NIC k
     *     (rail k, {@code mlx5_k}) on the PCIe switch of GPU k × gpus / nics, so that with 4 NICs for 8 GPUs
     *     GPUs 2k and 2k+1 share NIC k on their switch.</li>
     * </ul>
     */
    static Board hgx(String model, long memoryBytes) {
        return hgx(model, memoryBytes, new int[] {5, 4, 4, 5}, Hardware.NVLINK4_LINK_BW, NVSWITCH3);
    }

    /*
     * HGX B200 source: NVIDIA's HGX B200 / DGX B200 specifications: 8 B200 GPUs, 1.8 TB/s NVLink per GPU (18 NVLink5
     * links, 50 GB/s per direction each) through 2 NVLink Switch chips (9 links of each GPU on each), 1,440 GB of GPU
     * memory (180 GB per GPU), 8 single-port ConnectX-7 400 Gb/s NICs for the compute fabric (DGX B200).
     */

    /**
     * HGX B200 baseboard: as {@link #hgx(String, long)} with 2 fourth-generation NVSwitch chips (NVLink5), each GPU's 18
     * links split 9/9 over them, one striped group of 18 × 50 GB/s per GPU; PCIe Gen5 and one NDR NIC per GPU as HGX
     * H100.
     */
    static Board hgxB200() {
        return hgx("B200", Hardware.B200_MEMORY_BYTES, new int[] {9, 9}, Hardware.NVLINK5_LINK_BW, NVSWITCH4);
    }

    private static Board hgx(String model, long memoryBytes, int[] lanesPerSwitch, double linkBw,
                             Map<String, String> switchAttrs) {
        return new Board() {
            @Override
            public int maxGpus() {
                return 8;
            }

            @Override
            public int defaultNics(int gpus) {
                return gpus;
            }

            @Override
            public List<Integer> validNics(int gpus) {
                return divisors(gpus);
            }

            @Override
            public int nics(int gpus, int requested) {
                if (requested == 0) return gpus;
                if (requested > gpus || gpus % requested != 0) {
                    throw new IllegalArgumentException("nicsPerNode must divide the " + gpus + " GPUs per board (one NIC per "
                            + "group of GPUs), got " + requested + "; valid: " + divisors(gpus));
                }
                return requested;
            }

            @Override
            public List<String> add(Topology.Builder b, int host, int gpus, int nicCount) {
                String p = p(host);
                int nvs = lanesPerSwitch.length;
                for (int c = 0; c < 2; c++) {
                    b.node(new Node(p + "cpu" + c, NodeKind.CPU, host, c, Map.of("numa", Integer.toString(c))));
                }
                b.link(link(p + "cpu0", p + "cpu1", LinkKind.SMP, Hardware.SMP_SPR_BW, Hardware.SMP_LATENCY_PS, 1, 0));
                for (int s = 0; s < 4; s++) {
                    b.node(new Node(p + "pcie" + s, NodeKind.PCIE_SWITCH, host, s));
                    b.link(pcie(p + "pcie" + s, p + "cpu" + (s / 2), 5, 16));
                }
                for (int s = 0; s < nvs; s++) {
                    b.node(new Node(p + "nvs" + s, NodeKind.NVSWITCH, host, s, switchAttrs));
                }
                List<String> nics = new ArrayList<>();
                int perNic = gpus / (nicCount == 0 ? gpus : nicCount);
                for (int g = 0; g < gpus; g++) {
                    String gpu = p + "gpu" + g;
                    b.node(gpu(gpu, host, g, model, memoryBytes, g / 4));
                    b.link(pcie(gpu, p + "pcie" + (g / 2), 5, 16));
                    List<String> stripe = new ArrayList<>();
                    for (int s = 0; s < nvs; s++) {
                        Link l = link(gpu, p + "nvs" + s, LinkKind.NVLINK, lanesPerSwitch[s] * linkBw,
                                Hardware.NVLINK_LATENCY_PS, lanesPerSwitch[s], 0);
                        b.link(l);
                        stripe.add(l.id());
                    }
                    b.stripedGroup(gpu + ".nvl", stripe);
                    if (g % perNic == 0) {
                        // NIC k = g / perNic beside its first GPU, on that GPU's switch
                        String nic = p + "nic" + (g / perNic);
                        b.node(nic(nic, host, g / perNic, g / perNic, Hardware.NDR_BW));
                        b.link(pcie(nic, p + "pcie" + (g / 2), 5, 16));
                        nics.add(nic);
                    }
                }
                return nics;
            }
        };
    }

    /** The divisors of {@code n}, ascending. */
    static List<Integer> divisors(int n) {
        List<Integer> out = new ArrayList<>();
        for (int d = 1; d <= n; d++) if (n % d == 0) out.add(d);
        return out;
    }

    /**
     * PCIe-only 8-GPU box: 2 CPU sockets over UPI, 4 PCIe Gen4 switches (2 per socket), 2 GPUs (L40S-class,
     * Gen4 x16) per switch and, optionally, one HDR 200 Gb/s NIC per switch (rail = switch index). No NVLink:
     * GPU pairs on one switch are PIX, across switches of a socket NODE, across sockets SYS in nvidia-smi terms.
     */
    static Board pcieBox(boolean withNics) {
        return new Board() {
            @Override
            public int maxGpus() {
                return 8;
            }

            @Override
            public double nicBandwidth() {
                return Hardware.HDR_BW;
            }

            @Override
            public int defaultNics(int gpus) {
                return withNics ? 4 : 0;
            }

            @Override
            public List<String> add(Topology.Builder b, int host, int gpus, int nicCount) {
                String p = p(host);
                for (int c = 0; c < 2; c++) {
                    b.node(new Node(p + "cpu" + c, NodeKind.CPU, host, c, Map.of("numa", Integer.toString(c))));
                }
                b.link(link(p + "cpu0", p + "cpu1", LinkKind.SMP, Hardware.SMP_SPR_BW, Hardware.SMP_LATENCY_PS, 1, 0));
                List<String> nics = new ArrayList<>();
                for (int s = 0; s < 4; s++) {
                    b.node(new Node(p + "pcie" + s, NodeKind.PCIE_SWITCH, host, s));
                    b.link(pcie(p + "pcie" + s, p + "cpu" + (s / 2), 4, 16));
                    if (withNics) {
                        String nic = p + "nic" + s;
                        b.node(nic(nic, host, s, s, Hardware.HDR_BW));
                        b.link(pcie(nic, p + "pcie" + s, 4, 16));
                        nics.add(nic);
                    }
                }
                for (int g = 0; g < gpus; g++) {
                    String gpu = p + "gpu" + g;
                    b.node(gpu(gpu, host, g, "L40S", Hardware.L40S_MEMORY_BYTES, g / 4));
                    b.link(pcie(gpu, p + "pcie" + (g / 2), 4, 16));
                }
                return nics;
            }
        };
    }

    /*
     * GB200 NVL72 source: NVIDIA's product page gives 72 GPUs and a 130 TB/s NVLink domain = 72 x 1.8 TB/s
     * bidirectional per GPU = 18 NVLink5 links x 50 GB/s x 2 directions.
     */

    /**
     * GB200 NVL72 NVLink domain: 18 compute trays x (2 Grace CPUs + 4 B200 GPUs), each Grace joined to its 2
     * GPUs by NVLink-C2C (450 GB/s per direction); 9 NVSwitch trays x 2 NVSwitch chips = 18 chips, every GPU
     * has one NVLink5 link (50 GB/s per direction) to each chip, the 18 links striped like HGX. One NDR NIC
     * per GPU on PCIe Gen5 x16 to the GPU's Grace. Grace-to-Grace traffic inside a tray goes over the GPUs
     * (no direct link is modelled).
     */
    static Board nvl72() {
        return new Board() {
            @Override
            public int maxGpus() {
                return 72;
            }

            @Override
            public int defaultNics(int gpus) {
                return gpus;
            }

            @Override
            public List<String> add(Topology.Builder b, int host, int gpus, int nicCount) {
                String p = p(host);
                for (int c = 0; c < 36; c++) {
                    b.node(new Node(p + "cpu" + c, NodeKind.CPU, host, c,
                            Map.of("model", "Grace", "tray", Integer.toString(c / 2), "numa", Integer.toString(c))));
                }
                for (int s = 0; s < 18; s++) {
                    Map<String, String> attrs = new java.util.HashMap<>(NVSWITCH4);
                    attrs.put("tray", Integer.toString(s / 2));
                    b.node(new Node(p + "nvs" + s, NodeKind.NVSWITCH, host, s, attrs));
                }
                List<String> nics = new ArrayList<>();
                for (int g = 0; g < gpus; g++) {
                    String gpu = p + "gpu" + g;
                    String cpu = p + "cpu" + (g / 2);
                    b.node(new Node(gpu, NodeKind.GPU, host, g, Map.of("model", "B200", "memory_bytes",
                            Long.toString(Hardware.GB200_MEMORY_BYTES), "numa", Integer.toString(g / 2),
                            "tray", Integer.toString(g / 4))));
                    b.link(link(gpu, cpu, LinkKind.C2C, Hardware.C2C_BW, Hardware.NVLINK_LATENCY_PS, 1, 0));
                    List<String> stripe = new ArrayList<>();
                    for (int s = 0; s < 18; s++) {
                        Link l = link(gpu, p + "nvs" + s, LinkKind.NVLINK, Hardware.NVLINK5_LINK_BW,
                                Hardware.NVLINK_LATENCY_PS, 1, 0);
                        b.link(l);
                        stripe.add(l.id());
                    }
                    b.stripedGroup(gpu + ".nvl", stripe);
                    String nic = p + "nic" + g;
                    b.node(nic(nic, host, g, g, Hardware.NDR_BW));
                    b.link(pcie(nic, cpu, 5, 16));
                    nics.add(nic);
                }
                return nics;
            }
        };
    }
}
