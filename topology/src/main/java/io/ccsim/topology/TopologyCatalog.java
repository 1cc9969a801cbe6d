package io.ccsim.topology;

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
        Boards.Board board = BOARDS.get(name);
        if (board == null) {
            throw new IllegalArgumentException("unknown topology '" + name + "'; valid names: " + names());
        }
        int gpus = options.gpus() == 0 ? board.maxGpus() : options.gpus();
        if (gpus > board.maxGpus()) {
            throw new IllegalArgumentException("topology '" + name + "' has at most " + board.maxGpus()
                    + " GPUs per board; gpus must be 1.." + board.maxGpus() + " (0 = all), got " + gpus);
        }
        int nics = board.nics(gpus, options.nicsPerNode());
        String full = name + (gpus != board.maxGpus() ? "-" + gpus + "g" : "")
                + (options.nicsPerNode() != 0 && nics != gpus ? "-" + nics + "nic" : "")
                + (options.nodes() > 1 ? "-" + options.nodes() + "n" : "")
                + (options.nodes() > 1 && options.sharp() ? "-sharp" : "");
        Topology.Builder b = Topology.builder(full, options.seed());
        List<List<String>> nicsByHost = new ArrayList<>(options.nodes());
        for (int h = 0; h < options.nodes(); h++) {
            nicsByHost.add(board.add(b, h, gpus, nics));
        }
        if (options.nodes() > 1) {
            if (nicsByHost.get(0).isEmpty()) {
                throw new IllegalArgumentException("topology '" + name + "' has no NICs, so it cannot be built with"
                        + " nodes > 1; use one of " + names().stream().filter(n -> !n.endsWith("nonic")).toList());
            }
            FatTree.add(b, nicsByHost, board.nicBandwidth(), options.oversubscription(), options.sharp());
        }
        return b.build();
    }

    /** {@link #build(String, BuildOptions)} with default options. */
    public static Topology build(String name) {
        return build(name, BuildOptions.DEFAULT);
    }
}
