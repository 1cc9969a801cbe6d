package io.ccsim.topology.smi;

import io.ccsim.sim.Sharing;
import io.ccsim.topology.Hardware;
import io.ccsim.topology.Link;
import io.ccsim.topology.LinkHealth;
import io.ccsim.topology.LinkKind;
import io.ccsim.topology.Node;
import io.ccsim.topology.NodeKind;
import io.ccsim.topology.Topology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds host 0 of a topology from a parsed matrix, as {@link NvidiaSmiTopo}'s class comment describes.
 * Nodes and links are added in a fixed order (CPUs and SMP links, GPUs, NICs, PCIe switches and links,
 * NVSwitches and NVLinks), so the same matrix always gives the same topology.
 */
final class SmiTopologyBuilder {

    private static final Pattern NIC = Pattern.compile("NIC(\\d{1,4})");
    private static final int PCIE_WIDTH = 16;

    private final SmiMatrix m;
    private final List<Integer> gpus = new ArrayList<>();
    private final List<Integer> nics = new ArrayList<>();
    private final NvlinkShape shape;
    private final int[] numa;
    /** Node id of every device. */
    private final String[] ids;
    private final Topology.Builder b;

    private SmiTopologyBuilder(SmiMatrix m) {
        this.m = m;
        for (int i = 0; i < m.size(); i++) {
            (SmiMatrix.isGpuLabel(m.device(i)) ? gpus : nics).add(i);
        }
        this.shape = NvlinkShape.of(m, gpus);
        this.numa = NumaAssignment.assign(m, gpus, nics);
        this.ids = new String[m.size()];
        this.b = Topology.builder(m.text().source(), 0);
    }

    /**
     * The topology of {@code m}, named after its source, seed 0.
     *
     * @throws IllegalArgumentException for a NUMA Affinity that is not a node number (with its line and
     *                                  column), or a topology the builder rejects
     */
    static Topology build(SmiMatrix m, String gpuModel) {
        SmiTopologyBuilder s = new SmiTopologyBuilder(m);
        s.addCpus();
        s.addGpus(gpuModel);
        s.addNics();
        s.addPcie();
        s.addNvlink();
        return s.b.build();
    }

    /** One CPU node per NUMA node in use (node 0 if none), SMP links between every pair. */
    private void addCpus() {
        SortedSet<Integer> numas = new TreeSet<>();
        for (int i = 0; i < m.size(); i++) {
            numas.add(numa[i]);
        }
        if (numas.isEmpty()) {
            numas.add(0);
        }
        for (int c : numas) {
            b.node(new Node(cpu(c), NodeKind.CPU, 0, c, Map.of("numa", Integer.toString(c))));
        }
        List<Integer> numaList = new ArrayList<>(numas);
        for (int i = 0; i < numaList.size(); i++) {
            for (int j = i + 1; j < numaList.size(); j++) {
                b.link(link(cpu(numaList.get(i)), cpu(numaList.get(j)), LinkKind.SMP, Hardware.SMP_SPR_BW,
                        Hardware.SMP_LATENCY_PS, 1, 0));
            }
        }
    }

    /** {@code GPUn} becomes {@code n0.gpun} with its NUMA node, CPU affinity and, given one, model and memory. */
    private void addGpus(String gpuModel) {
        for (int g : gpus) {
            int idx = Integer.parseInt(m.device(g).substring(3));
            ids[g] = "n0.gpu" + idx;
            Map<String, String> attrs = new TreeMap<>();
            attrs.put("numa", Integer.toString(numa[g]));
            if (gpuModel != null) {
                attrs.put("model", gpuModel.toUpperCase(java.util.Locale.ROOT));
                attrs.put("memory_bytes", Long.toString(io.ccsim.topology.Hardware.gpuMemoryBytes(gpuModel)));
            }
            if (m.cpuAffinity(g) != null) {
                attrs.put("cpu_affinity", m.cpuAffinity(g));
            }
            b.node(new Node(ids[g], NodeKind.GPU, 0, idx, attrs));
        }
    }

    /** {@code NICn} becomes {@code n0.nicn}; other labels ({@code mlx5_0}) are numbered after the previous NIC. */
    private void addNics() {
        int nicLocal = 0;
        for (int n : nics) {
            String label = m.device(n);
            Matcher nm = NIC.matcher(label);
            int local = nm.matches() ? Integer.parseInt(nm.group(1)) : nicLocal;
            nicLocal = local + 1;
            ids[n] = "n0.nic" + local;
            String dev = nm.matches() ? m.nicName(label) : label;
            b.node(new Node(ids[n], NodeKind.NIC, 0, local, Map.of("device", dev, "rail", Integer.toString(local),
                    "rate_gbps", Long.toString(Math.round(shape.nicBandwidth() * 8 / 1e9)),
                    "numa", Integer.toString(numa[n]))));
        }
    }

    /*
     * PCIe trees: devices joined by PIX share a switch (union-find over PIX); the PIX units (switches or lone
     * devices) joined by PXB hang under a common upper switch (union-find over PIX or PXB); the top of each
     * tree connects to the CPU of its first device's NUMA node. PHB and NODE both go through the CPU's root
     * complex, so they add nothing.
     */
    private void addPcie() {
        UnionFind pix = new UnionFind(m.size());
        UnionFind pxb = new UnionFind(m.size());
        for (int a = 0; a < m.size(); a++) {
            for (int c = 0; c < m.size(); c++) {
                Connection.Level l = m.at(a, c).level();
                if (l == Connection.Level.PIX) {
                    pix.union(a, c);
                }
                if (l == Connection.Level.PIX || l == Connection.Level.PXB) {
                    pxb.union(a, c);
                }
            }
        }
        String[] up = new String[m.size()];
        Map<Integer, String> pixSwitch = new HashMap<>();
        int sw = addPixSwitches(groups(pix), pix, up, pixSwitch);
        addPxbTrees(groups(pxb), pix, pixSwitch, sw);
        for (int d = 0; d < m.size(); d++) {
            if (up[d] != null) {
                b.link(pcie(ids[d], up[d]));
            }
        }
    }

    /** The sets of {@code uf}, ordered by root, each in device order. */
    private List<List<Integer>> groups(UnionFind uf) {
        Map<Integer, List<Integer>> groups = new TreeMap<>();
        for (int i = 0; i < m.size(); i++) {
            groups.computeIfAbsent(uf.find(i), k -> new ArrayList<>()).add(i);
        }
        return new ArrayList<>(groups.values());
    }

    /** One switch per PIX set of 2 or more; sets {@code up} of its devices; returns the next switch number. */
    private int addPixSwitches(List<List<Integer>> pixGroups, UnionFind pix, String[] up,
                               Map<Integer, String> pixSwitch) {
        int sw = 0;
        for (List<Integer> g : pixGroups) {
            if (g.size() >= 2) {
                String s = "n0.pcie" + sw;
                b.node(new Node(s, NodeKind.PCIE_SWITCH, 0, sw++, Map.of("level", "PIX")));
                for (int d : g) {
                    up[d] = s;
                }
                pixSwitch.put(pix.find(g.get(0)), s);
            }
        }
        return sw;
    }

    /** For each PXB set: an upper switch over its PIX units if there are 2 or more, and the link to the CPU. */
    private void addPxbTrees(List<List<Integer>> pxbGroups, UnionFind pix, Map<Integer, String> pixSwitch, int sw) {
        for (List<Integer> g : pxbGroups) {
            List<String> units = new ArrayList<>();
            List<Integer> unitDevice = new ArrayList<>();
            Set<Integer> seen = new HashSet<>();
            for (int d : g) {
                int root = pix.find(d);
                if (seen.add(root)) {
                    units.add(pixSwitch.getOrDefault(root, ids[d]));
                    unitDevice.add(d);
                }
            }
            String top;
            if (units.size() >= 2) {
                top = "n0.pcie" + sw;
                b.node(new Node(top, NodeKind.PCIE_SWITCH, 0, sw++, Map.of("level", "PXB")));
                for (String unit : units) {
                    b.link(pcie(unit, top));
                }
            } else {
                top = units.get(0);
            }
            b.link(pcie(top, cpu(numa[unitDevice.get(0)])));
        }
    }

    /** NVSwitch chips with one striped group per GPU, or point-to-point NVLinks (see {@link NvlinkShape}). */
    private void addNvlink() {
        double laneBw = shape.laneBandwidth();
        if (shape.nvswitch()) {
            int[] lanes = shape.lanesPerSwitch();
            for (int s = 0; s < lanes.length; s++) {
                b.node(new Node("n0.nvs" + s, NodeKind.NVSWITCH, 0, s));
            }
            for (int g : gpus) {
                List<String> stripe = new ArrayList<>();
                for (int s = 0; s < lanes.length; s++) {
                    Link l = link(ids[g], "n0.nvs" + s, LinkKind.NVLINK, lanes[s] * laneBw, Hardware.NVLINK_LATENCY_PS,
                            lanes[s], 0);
                    b.link(l);
                    stripe.add(l.id());
                }
                b.stripedGroup(ids[g] + ".nvl", stripe);
            }
            return;
        }
        /* a direct NVLink carries the whole GPU-to-GPU latency that a switched path splits over two
           GPU-NVSwitch links (NCCL's NVLink hop, see Hardware.NVLINK_LATENCY_PS) */
        for (int x = 0; x < gpus.size(); x++) {
            for (int y = x + 1; y < gpus.size(); y++) {
                Connection c = m.at(gpus.get(x), gpus.get(y));
                if (c.level() == Connection.Level.NV) {
                    b.link(link(ids[gpus.get(x)], ids[gpus.get(y)], LinkKind.NVLINK, c.nvlinks() * laneBw,
                            Hardware.NVLINK_LATENCY_PS * 2, c.nvlinks(), 0));
                }
            }
        }
    }

    private static String cpu(int numaNode) {
        return "n0.cpu" + numaNode;
    }

    private Link pcie(String a, String b) {
        int gen = shape.pcieGen();
        return link(a, b, LinkKind.PCIE, Hardware.pcieBandwidth(gen, PCIE_WIDTH), Hardware.PCIE_LATENCY_PS,
                PCIE_WIDTH, gen);
    }

    private static Link link(String a, String b, LinkKind kind, double bw, long latencyPs, int lanes, int gen) {
        return new Link(a + "~" + b, a, b, kind, bw, latencyPs, Sharing.FULL_DUPLEX, lanes, gen, LinkHealth.HEALTHY);
    }
}
