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
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Imports the matrix printed by {@code nvidia-smi topo -m}.
 *
 * <p>Reading of the cells (legend of nvidia-smi): {@code X} self; {@code NV#} a bonded set of # NVLinks;
 * {@code PIX} at most one PCIe bridge (same switch); {@code PXB} several bridges, no host bridge (switches
 * under a common upper switch); {@code PHB} through a PCIe host bridge; {@code NODE} between host bridges of
 * one NUMA node; {@code SYS} (older drivers: {@code SOC}) across the SMP interconnect between NUMA nodes.
 *
 * <p>What is built (host 0, ids {@code n0.*} like the catalog):
 * <ul>
 * <li>one GPU per {@code GPUn} row, one NIC per NIC column ({@code NICn}, named by the NIC Legend, or an
 *     old-style {@code mlx5_0} column), one CPU node per NUMA node (the "NUMA Affinity" column, else distinct
 *     "CPU Affinity" values), SMP links between every pair of CPU nodes;</li>
 * <li>PCIe: devices joined by PIX share a PCIe switch; PIX groups joined by PXB hang under a common upper
 *     switch; the top of each tree connects to its NUMA node's CPU (PHB and NODE both go through the CPU's
 *     root complex; their difference is not modelled). A NIC related to no GPU below SYS gets its own NUMA
 *     node. PCIe is assumed Gen5 x16 on NVLink4 (NV18) machines, Gen4 x16 otherwise;</li>
 * <li>NVLink: if there are 3 or more GPUs and every GPU pair shows the same NV#, the GPUs sit on NVSwitches
 *     (a GPU with # links cannot have # direct links to each of several peers): NV18 -> 4 NVSwitch chips with
 *     5/4/4/5 links (HGX H100/H200), other even # >= 12 -> #/2 chips x 2 links (DGX A100: 6 chips x 2),
 *     else # chips x 1 link; each GPU's links form a striped group. Otherwise each NV# cell is a
 *     point-to-point NVLink with # lanes. Per-link bandwidth: NVLink4 (26.562 GB/s) for NV18 boards, else
 *     25 GB/s (NVLink2/3).</li>
 * </ul>
 * Errors name the source, line and column and list what is valid.
 */
public final class NvidiaSmiTopo {

    private static final Pattern TOKEN = Pattern.compile("\\S+");
    private static final Pattern NV = Pattern.compile("NV(\\d+)");
    private static final Pattern GPU = Pattern.compile("GPU(\\d+)");
    private static final Pattern NIC = Pattern.compile("NIC(\\d+)");
    private static final Pattern LEGEND_NIC = Pattern.compile("\\s*(NIC\\d+)\\s*:\\s*(\\S+)\\s*");
    private static final String VALID = "X, NV<n>, PIX, PXB, PHB, NODE, SYS (or SOC)";

    private NvidiaSmiTopo() {
    }

    /** Connection levels, nearest first. */
    enum Level { X, NV, PIX, PXB, PHB, NODE, SYS }

    private record Tok(String text, int column) { }

    private record Cell(Level level, int nvlinks) { }

    /**
     * Parses the output of {@code nvidia-smi topo -m}.
     *
     * @param text       the whole output (header row, matrix, optional legends)
     * @param sourceName name used in errors and as the topology name
     * @throws IllegalArgumentException with line and column of the problem and what is valid
     */
    public static Topology parse(String text, String sourceName) {
        return new Parser(text, sourceName).parse();
    }

    private static final class Parser {
        final String[] lines;
        final String src;

        Parser(String text, String src) {
            // nvidia-smi underlines the header row with ANSI SGR escapes (ESC[4m ... ESC[0m) when it prints to a
            // terminal or a captured pty; they carry no data
            this.lines = text.replace("\r", "").replaceAll("\u001B\\[[0-9;]*m", "").split("\n", -1);
            this.src = src;
        }

        IllegalArgumentException err(int line, int col, String msg) {
            return new IllegalArgumentException(src + ":" + (line + 1) + ":" + col + ": " + msg);
        }

        static List<Tok> tokens(String line) {
            List<Tok> out = new ArrayList<>();
            Matcher m = TOKEN.matcher(line);
            while (m.find()) {
                out.add(new Tok(m.group(), m.start() + 1));
            }
            return out;
        }

        Topology parse() {
            int headerLine = -1;
            for (int i = 0; i < lines.length; i++) {
                List<Tok> t = tokens(lines[i]);
                if (!t.isEmpty() && GPU.matcher(t.get(0).text).matches()) {
                    headerLine = i;
                    break;
                }
                if (!t.isEmpty() && !t.get(0).text.startsWith("$") && !t.get(0).text.startsWith("#")
                        && !lines[i].isBlank()) {
                    throw err(i, t.get(0).column, "expected the header row of 'nvidia-smi topo -m' starting with"
                            + " GPU0, got '" + t.get(0).text + "'");
                }
            }
            if (headerLine < 0) {
                throw err(0, 1, "no header row found; expected a line starting with GPU0 (the column headers of"
                        + " 'nvidia-smi topo -m')");
            }
            List<Tok> header = tokens(lines[headerLine]);
            List<String> devices = new ArrayList<>();
            int extraStart = header.size();
            for (int i = 0; i < header.size(); i++) {
                String h = header.get(i).text;
                if (h.equals("CPU") || h.equals("NUMA") || (h.equals("GPU") && i + 1 < header.size())) {
                    extraStart = i;
                    break;
                }
                devices.add(h);
            }
            String extra = String.join(" ", header.subList(extraStart, header.size()).stream().map(Tok::text).toList());
            boolean hasCpuAff = extra.contains("CPU Affinity");
            boolean hasNumaAff = extra.contains("NUMA Affinity");
            boolean hasGpuNuma = extra.contains("GPU NUMA ID");
            int nDev = devices.size();
            Map<String, Integer> col = new HashMap<>();
            for (int i = 0; i < nDev; i++) {
                if (col.putIfAbsent(devices.get(i), i) != null) {
                    throw err(headerLine, header.get(i).column, "duplicate column '" + devices.get(i) + "'");
                }
            }
            Cell[][] m = new Cell[nDev][];
            String[] cpuAff = new String[nDev];
            String[] numaAff = new String[nDev];
            int[] rowLine = new int[nDev];
            int line = headerLine + 1;
            for (; line < lines.length; line++) {
                List<Tok> t = tokens(lines[line]);
                if (t.isEmpty() || t.get(0).text.startsWith("Legend")) {
                    break;
                }
                String label = t.get(0).text;
                Integer r = col.get(label);
                if (r == null) {
                    throw err(line, t.get(0).column, "row label '" + label + "' is not a column of the header; valid: "
                            + devices);
                }
                if (m[r] != null) {
                    throw err(line, t.get(0).column, "second row for '" + label + "'");
                }
                if (t.size() < 1 + nDev) {
                    throw err(line, lines[line].length() + 1, "row '" + label + "' has " + (t.size() - 1)
                            + " cells, expected " + nDev + " (one per column: " + devices + ")");
                }
                m[r] = new Cell[nDev];
                rowLine[r] = line;
                for (int c = 0; c < nDev; c++) {
                    Tok cell = t.get(1 + c);
                    m[r][c] = cell(cell.text, line, cell.column);
                    if ((c == r) != (m[r][c].level == Level.X)) {
                        throw err(line, cell.column, c == r ? "the diagonal cell of '" + label + "' must be X, got '"
                                + cell.text + "'" : "X is only valid on the diagonal (a device with itself)");
                    }
                }
                int k = 1 + nDev;
                if (hasCpuAff && k < t.size()) {
                    cpuAff[r] = t.get(k++).text;
                }
                if (hasNumaAff && k < t.size()) {
                    numaAff[r] = t.get(k++).text;
                }
                if (hasGpuNuma && k < t.size()) {
                    k++;
                }
                if (k < t.size()) {
                    throw err(line, t.get(k).column, "unexpected extra value '" + t.get(k).text + "' after the "
                            + nDev + " cells and the affinity columns");
                }
            }
            for (int r = 0; r < nDev; r++) {
                if (m[r] == null) {
                    throw err(line, 1, "missing row for '" + devices.get(r) + "'; every column needs a row");
                }
            }
            for (int r = 0; r < nDev; r++) {
                for (int c = 0; c < r; c++) {
                    if (!m[r][c].equals(m[c][r])) {
                        throw err(rowLine[r], tokens(lines[rowLine[r]]).get(1 + c).column, "matrix is not symmetric: "
                                + devices.get(r) + "/" + devices.get(c) + " is " + show(m[r][c]) + " but "
                                + devices.get(c) + "/" + devices.get(r) + " is " + show(m[c][r]));
                    }
                }
            }
            Map<String, String> nicNames = new HashMap<>();
            for (int i = line; i < lines.length; i++) {
                Matcher lm = LEGEND_NIC.matcher(lines[i]);
                if (lm.matches()) {
                    nicNames.put(lm.group(1), lm.group(2));
                }
            }
            return build(devices, m, cpuAff, numaAff, nicNames, rowLine);
        }

        static String show(Cell c) {
            return c.level == Level.NV ? "NV" + c.nvlinks : c.level.name();
        }

        Cell cell(String s, int line, int column) {
            Matcher nv = NV.matcher(s);
            if (nv.matches()) {
                int n = Integer.parseInt(nv.group(1));
                if (n < 1) {
                    throw err(line, column, "NV# needs at least one link, got '" + s + "'");
                }
                return new Cell(Level.NV, n);
            }
            switch (s) {
                case "X": return new Cell(Level.X, 0);
                case "PIX": return new Cell(Level.PIX, 0);
                case "PXB": return new Cell(Level.PXB, 0);
                case "PHB": return new Cell(Level.PHB, 0);
                case "NODE": return new Cell(Level.NODE, 0);
                case "SYS": case "SOC": return new Cell(Level.SYS, 0);
                default: throw err(line, column, "unknown connection '" + s + "'; valid: " + VALID);
            }
        }

        Topology build(List<String> devices, Cell[][] m, String[] cpuAff, String[] numaAff,
                       Map<String, String> nicNames, int[] rowLine) {
            int nDev = devices.size();
            List<Integer> gpus = new ArrayList<>();
            List<Integer> nics = new ArrayList<>();
            for (int i = 0; i < nDev; i++) {
                (GPU.matcher(devices.get(i)).matches() ? gpus : nics).add(i);
            }
            // NVLink shape
            int uniform = -1;
            boolean allSame = gpus.size() >= 3;
            for (int a : gpus) {
                for (int b : gpus) {
                    if (a == b) {
                        continue;
                    }
                    Cell c = m[a][b];
                    if (c.level != Level.NV || (uniform != -1 && c.nvlinks != uniform)) {
                        allSame = false;
                    } else {
                        uniform = c.nvlinks;
                    }
                }
            }
            boolean nvswitch = allSame && uniform > 0;
            boolean nvlink4 = false;
            for (int a : gpus) {
                for (int b : gpus) {
                    if (m[a][b].level == Level.NV && m[a][b].nvlinks == 18) {
                        nvlink4 = true;
                    }
                }
            }
            double laneBw = nvlink4 ? Hardware.NVLINK4_LINK_BW : Hardware.NVLINK3_LINK_BW;
            int gen = nvlink4 ? 5 : 4;
            double nicBw = nvlink4 ? Hardware.NDR_BW : Hardware.HDR_BW;

            // NUMA node of every GPU
            Map<String, Integer> numaOfKey = new LinkedHashMap<>();
            int[] numa = new int[nDev];
            Arrays.fill(numa, -1);
            for (int g : gpus) {
                String key = numaAff[g] != null && !numaAff[g].equals("N/A") ? "numa:" + numaAff[g]
                        : cpuAff[g] != null && !cpuAff[g].equals("N/A") ? "cpus:" + cpuAff[g] : "single";
                Integer id = numaOfKey.get(key);
                if (id == null) {
                    id = key.startsWith("numa:") ? parseNuma(key.substring(5), rowLine[g]) : numaOfKey.size();
                    numaOfKey.put(key, id);
                }
                numa[g] = id;
            }
            // NICs take the NUMA node of a GPU they reach below SYS; else a NUMA node of their own
            int nextNuma = numaOfKey.values().stream().mapToInt(Integer::intValue).max().orElse(-1) + 1;
            Map<String, Integer> orphanNuma = new TreeMap<>();
            for (int n : nics) {
                for (int g : gpus) {
                    if (m[n][g].level.ordinal() < Level.SYS.ordinal()) {
                        numa[n] = numa[g];
                        break;
                    }
                }
                if (numa[n] == -1) {
                    // NICs below SYS of each other share the node
                    for (int o : nics) {
                        if (o != n && numa[o] != -1 && m[n][o].level.ordinal() < Level.SYS.ordinal()) {
                            numa[n] = numa[o];
                        }
                    }
                    if (numa[n] == -1) {
                        numa[n] = gpus.isEmpty() ? 0 : nextNuma++;
                    }
                    orphanNuma.put(devices.get(n), numa[n]);
                }
            }
            Topology.Builder b = Topology.builder(src, 0);
            java.util.SortedSet<Integer> numas = new java.util.TreeSet<>();
            for (int i = 0; i < nDev; i++) {
                numas.add(numa[i]);
            }
            if (numas.isEmpty()) {
                numas.add(0);
            }
            for (int c : numas) {
                b.node(new Node("n0.cpu" + c, NodeKind.CPU, 0, c, Map.of("numa", Integer.toString(c))));
            }
            List<Integer> numaList = new ArrayList<>(numas);
            for (int i = 0; i < numaList.size(); i++) {
                for (int j = i + 1; j < numaList.size(); j++) {
                    b.link(link("n0.cpu" + numaList.get(i), "n0.cpu" + numaList.get(j), LinkKind.SMP,
                            Hardware.SMP_SPR_BW, Hardware.SMP_LATENCY_PS, 1, 0));
                }
            }
            String[] ids = new String[nDev];
            for (int g : gpus) {
                int idx = Integer.parseInt(devices.get(g).substring(3));
                ids[g] = "n0.gpu" + idx;
                Map<String, String> attrs = new TreeMap<>();
                attrs.put("numa", Integer.toString(numa[g]));
                if (cpuAff[g] != null) {
                    attrs.put("cpu_affinity", cpuAff[g]);
                }
                b.node(new Node(ids[g], NodeKind.GPU, 0, idx, attrs));
            }
            int nicLocal = 0;
            for (int n : nics) {
                String label = devices.get(n);
                Matcher nm = NIC.matcher(label);
                int local = nm.matches() ? Integer.parseInt(nm.group(1)) : nicLocal;
                nicLocal = local + 1;
                ids[n] = "n0.nic" + local;
                String dev = nm.matches() ? nicNames.getOrDefault(label, label) : label;
                b.node(new Node(ids[n], NodeKind.NIC, 0, local, Map.of("device", dev, "rail", Integer.toString(local),
                        "rate_gbps", Long.toString(Math.round(nicBw * 8 / 1e9)), "numa", Integer.toString(numa[n]))));
            }
            // PCIe trees: union-find over PIX (same switch) and PIX|PXB (common upper switch), per NUMA node
            int[] pix = uf(nDev);
            int[] pxb = uf(nDev);
            for (int a = 0; a < nDev; a++) {
                for (int c = 0; c < nDev; c++) {
                    Level l = m[a][c].level;
                    if (l == Level.PIX) {
                        union(pix, a, c);
                    }
                    if (l == Level.PIX || l == Level.PXB) {
                        union(pxb, a, c);
                    }
                }
            }
            Map<Integer, List<Integer>> pixGroups = new TreeMap<>();
            Map<Integer, List<Integer>> pxbGroups = new TreeMap<>();
            for (int i = 0; i < nDev; i++) {
                pixGroups.computeIfAbsent(find(pix, i), k -> new ArrayList<>()).add(i);
                pxbGroups.computeIfAbsent(find(pxb, i), k -> new ArrayList<>()).add(i);
            }
            int sw = 0;
            String[] up = new String[nDev]; // node each device's PCIe link goes to
            Map<Integer, String> pixSwitch = new HashMap<>();
            for (List<Integer> g : pixGroups.values()) {
                if (g.size() >= 2) {
                    String s = "n0.pcie" + sw;
                    b.node(new Node(s, NodeKind.PCIE_SWITCH, 0, sw++, Map.of("level", "PIX")));
                    for (int d : g) {
                        up[d] = s;
                    }
                    pixSwitch.put(find(pix, g.get(0)), s);
                }
            }
            for (List<Integer> g : pxbGroups.values()) {
                // the PIX units of this PXB cluster: switches or lone devices
                List<String> units = new ArrayList<>();
                List<Integer> unitDevice = new ArrayList<>();
                java.util.Set<Integer> seen = new java.util.HashSet<>();
                for (int d : g) {
                    int root = find(pix, d);
                    if (seen.add(root)) {
                        units.add(pixSwitch.getOrDefault(root, ids[d]));
                        unitDevice.add(d);
                    }
                }
                String top;
                if (units.size() >= 2) {
                    top = "n0.pcie" + sw;
                    b.node(new Node(top, NodeKind.PCIE_SWITCH, 0, sw++, Map.of("level", "PXB")));
                    for (int u = 0; u < units.size(); u++) {
                        b.link(link(units.get(u), top, LinkKind.PCIE, Hardware.pcieBandwidth(gen, 16),
                                Hardware.PCIE_LATENCY_PS, 16, gen));
                    }
                } else {
                    top = units.get(0);
                }
                int d0 = unitDevice.get(0);
                b.link(link(top, "n0.cpu" + numa[d0], LinkKind.PCIE, Hardware.pcieBandwidth(gen, 16),
                        Hardware.PCIE_LATENCY_PS, 16, gen));
            }
            for (int d = 0; d < nDev; d++) {
                if (up[d] != null) {
                    b.link(link(ids[d], up[d], LinkKind.PCIE, Hardware.pcieBandwidth(gen, 16), Hardware.PCIE_LATENCY_PS,
                            16, gen));
                }
            }
            // NVLink
            if (nvswitch) {
                int[] lanes;
                if (uniform == 18) {
                    lanes = new int[] {5, 4, 4, 5};
                } else if (uniform % 2 == 0 && uniform >= 12) {
                    lanes = new int[uniform / 2];
                    Arrays.fill(lanes, 2);
                } else {
                    lanes = new int[uniform];
                    Arrays.fill(lanes, 1);
                }
                for (int s = 0; s < lanes.length; s++) {
                    b.node(new Node("n0.nvs" + s, NodeKind.NVSWITCH, 0, s));
                }
                for (int g : gpus) {
                    List<String> stripe = new ArrayList<>();
                    for (int s = 0; s < lanes.length; s++) {
                        Link l = link(ids[g], "n0.nvs" + s, LinkKind.NVLINK, lanes[s] * laneBw,
                                Hardware.NVLINK_LATENCY_PS, lanes[s], 0);
                        b.link(l);
                        stripe.add(l.id());
                    }
                    b.stripedGroup(ids[g] + ".nvl", stripe);
                }
            } else {
                for (int x = 0; x < gpus.size(); x++) {
                    for (int y = x + 1; y < gpus.size(); y++) {
                        Cell c = m[gpus.get(x)][gpus.get(y)];
                        if (c.level == Level.NV) {
                            b.link(link(ids[gpus.get(x)], ids[gpus.get(y)], LinkKind.NVLINK, c.nvlinks * laneBw,
                                    Hardware.NVLINK_LATENCY_PS * 2, c.nvlinks, 0));
                        }
                    }
                }
            }
            return b.build();
        }

        int parseNuma(String s, int line) {
            try {
                int v = Integer.parseInt(s);
                if (v >= 0) {
                    return v;
                }
            } catch (NumberFormatException e) {
                // fall through
            }
            int colm = lines[line].indexOf(s) + 1;
            throw err(line, colm, "NUMA Affinity must be a NUMA node number >= 0 or N/A, got '" + s + "'");
        }

        static Link link(String a, String b, LinkKind kind, double bw, long lat, int lanes, int gen) {
            return new Link(a + "~" + b, a, b, kind, bw, lat, Sharing.FULL_DUPLEX, lanes, gen, LinkHealth.HEALTHY);
        }

        static int[] uf(int n) {
            int[] p = new int[n];
            for (int i = 0; i < n; i++) {
                p[i] = i;
            }
            return p;
        }

        static int find(int[] p, int x) {
            while (p[x] != x) {
                p[x] = p[p[x]];
                x = p[x];
            }
            return x;
        }

        static void union(int[] p, int a, int b) {
            int ra = find(p, a);
            int rb = find(p, b);
            if (ra != rb) {
                p[Math.max(ra, rb)] = Math.min(ra, rb);
            }
        }
    }
}
