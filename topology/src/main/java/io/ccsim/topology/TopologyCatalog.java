package io.ccsim.topology;

import io.ccsim.sim.RunControl;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Named topology builders. {@code nodes > 1} puts that many boards under a rail-optimized two-level
 * fat-tree (see {@link FatTree}).
 */
public final class TopologyCatalog {

    private static final Map<String, Boards.Board> BOARDS = boards();

    private TopologyCatalog() {
    }

    private static Map<String, Boards.Board> boards() {
        Map<String, Boards.Board> m = new LinkedHashMap<>();
        m.put("hgx-h100", Boards.hgx("H100", Hardware.H100_MEMORY_BYTES));
        m.put("hgx-h200", Boards.hgx("H200", Hardware.H200_MEMORY_BYTES));
        m.put("hgx-b200", Boards.hgxB200());
        m.put("pcie-8gpu", Boards.pcieBox(true));
        m.put("pcie-8gpu-nonic", Boards.pcieBox(false));
        m.put("gb200-nvl72", Boards.nvl72());
        return java.util.Collections.unmodifiableMap(m);
    }

    /** The registered names, in a stable order. */
    public static List<String> names() {
        return List.copyOf(BOARDS.keySet());
    }

    /** Whether {@code name} is registered. */
    public static boolean contains(String name) {
        return BOARDS.containsKey(name);
    }

    /**
     * Builds {@code name} with {@code options}.
     *
     * @throws IllegalArgumentException for an unknown name (listing the valid ones), a GPU count above the
     *                                  board's, a NIC count the board cannot have, or a multi-node build of a
     *                                  board without NICs
     */
    public static Topology build(String name, BuildOptions options) {
        return build(name, options, null);
    }

    /**
     * As {@link #build(String, BuildOptions)}, stopped with {@link io.ccsim.sim.RunStoppedException} within a fraction
     * of a second when {@code control} asks (null: never).
     */
    public static Topology build(String name, BuildOptions options, RunControl control) {
        Boards.Board board = board(name);
        int gpus = gpusPerBoard(name, board, options);
        int nics = board.nics(gpus, options.nicsPerNode());
        Topology.Builder b = Topology.builder(fullName(name, options), options.seed()).stopWith(control);
        List<List<String>> nicsByHost = new ArrayList<>(options.nodes());
        for (int h = 0; h < options.nodes(); h++) {
            if (control != null && (h & 255) == 0) control.checkpoint();
            nicsByHost.add(board.add(b, h, gpus, nics));
        }
        if (options.nodes() > 1) {
            if (nicsByHost.get(0).isEmpty()) throw noNics(name);
            FatTree.add(b, nicsByHost, board.nicBandwidth(), options.oversubscription(), options.sharp());
        }
        return b.build();
    }

    /**
     * The name {@link #build(String, BuildOptions)} gives the topology of {@code name} built with {@code options}, e.g.
     * {@code hgx-h100-12500n}, without building it.
     *
     * @throws IllegalArgumentException as {@link #build(String, BuildOptions)} for an unknown name or a GPU or NIC
     *                                  count the board cannot have
     */
    public static String fullName(String name, BuildOptions options) {
        Boards.Board board = board(name);
        int gpus = gpusPerBoard(name, board, options);
        int nics = board.nics(gpus, options.nicsPerNode());
        return name + (gpus != board.maxGpus() ? "-" + gpus + "g" : "")
                + (options.nicsPerNode() != 0 && nics != gpus ? "-" + nics + "nic" : "")
                + (options.nodes() > 1 ? "-" + options.nodes() + "n" : "")
                + (options.nodes() > 1 && options.sharp() ? "-sharp" : "");
    }

    /**
     * The hosts of a rail under one leaf switch in a cluster of {@code options} (the fat-tree's leaf host ports, see
     * {@link FatTree}): up to that many boards, no transfer between hosts crosses a spine.
     */
    public static int hostsPerLeaf(BuildOptions options) {
        return FatTree.hostsPerLeaf(options.oversubscription());
    }

    /**
     * How many nodes, links and GPUs {@link #build(String, BuildOptions)} would make, without making them: one board
     * is built and counted, the fat-tree's switches and cables computed as {@link FatTree} lays them out.
     *
     * @throws IllegalArgumentException as {@link #build(String, BuildOptions)} for an unknown name or a GPU or NIC
     *                                  count the board cannot have
     */
    public static BuildSize size(String name, BuildOptions options) {
        Boards.Board board = board(name);
        int gpus = gpusPerBoard(name, board, options);
        int nics = board.nics(gpus, options.nicsPerNode());
        Topology.Builder one = Topology.builder(name, options.seed());
        boolean hasNics = !board.add(one, 0, gpus, nics).isEmpty();
        Topology t = one.build();
        long hosts = options.nodes();
        if (hosts > 1 && !hasNics) throw noNics(name);
        long nodes = hosts * t.nodes().size();
        long links = hosts * t.links().size();
        if (hosts > 1) {
            long[] tree = FatTree.size(hosts, nics, options.oversubscription());
            nodes += tree[0];
            links += tree[1];
        }
        return new BuildSize(nodes, links, hosts * gpus);
    }

    /**
     * The NIC counts per board that {@code name} with {@code gpus} GPUs per board (0 = all) can be built with,
     * ascending; a board without NICs gives [0].
     *
     * @throws IllegalArgumentException for an unknown name or a GPU count the board cannot have
     */
    public static List<Integer> validNicsPerNode(String name, int gpus) {
        Boards.Board board = board(name);
        return board.validNics(gpusPerBoard(name, board, BuildOptions.of(gpus, 1)));
    }

    private static IllegalArgumentException noNics(String name) {
        return new IllegalArgumentException("topology '" + name + "' has no NICs, so it cannot be built with"
                + " nodes > 1; use one of " + names().stream().filter(n -> !n.endsWith("nonic")).toList());
    }

    /** Counts of a catalog build ({@link #size}). */
    public record BuildSize(long nodes, long links, long gpus) { }

    private static Boards.Board board(String name) {
        Boards.Board board = BOARDS.get(name);
        if (board == null) {
            throw new IllegalArgumentException("unknown topology '" + name + "'; valid names: " + names());
        }
        return board;
    }

    private static int gpusPerBoard(String name, Boards.Board board, BuildOptions options) {
        int gpus = options.gpus() == 0 ? board.maxGpus() : options.gpus();
        if (gpus > board.maxGpus()) {
            throw new IllegalArgumentException("topology '" + name + "' has at most " + board.maxGpus()
                    + " GPUs per board; gpus must be 1.." + board.maxGpus() + " (0 = all), got " + gpus);
        }
        return gpus;
    }

    /** {@link #build(String, BuildOptions)} with default options. */
    public static Topology build(String name) {
        return build(name, BuildOptions.DEFAULT);
    }
}
