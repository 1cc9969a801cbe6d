package io.ccsim.cli;

import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Node;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The GPUs an nccl-tests command's ranks run on: a catalog topology built with as many boards as the placement has
 * nodes and as many GPUs on each as it puts there, or a topology file's first GPUs; and the device line of every rank.
 *
 * @param topology  the topology simulated on; rank r is its r-th GPU
 * @param placement the ranks' processes, threads and nodes
 * @param lines     one device line per rank, as nccl-tests' {@code # Using devices} prints them
 */
record NcclTestsRanks(Topology topology, RankPlacement placement, List<NcclTestsReport.RankLine> lines) {

    /**
     * Resolves {@code nameOrFile} for the ranks of {@code c} ({@code -t}, {@code -g}) on {@code np} processes and
     * {@code nodes} boards (each may be null: see {@link RankPlacement#of}).
     *
     * @throws UserException for an unknown topology, a placement that does not fit, or a file whose first GPUs are not
     *                       as many on each host as the placement puts there
     */
    static NcclTestsRanks resolve(String nameOrFile, NcclTestsConfig c, Integer np, Integer nodes, long seed, TopologyArgs.Guard guard) {
        RankPlacement place;
        Topology topo;
        if (TopologyArgs.isCatalog(nameOrFile)) {
            int board = (int) TopologyCatalog.size(nameOrFile, BuildOptions.of(0, 1)).gpus();
            place = RankPlacement.of(c.nThreads(), c.nGpus(), np, nodes, board, nameOrFile);
            topo = TopologyArgs.resolve(nameOrFile, place.ranksPerNode() == board ? 0 : place.ranksPerNode(), place.nodes(), 1.0, seed,
                    0, false, guard);
        } else {
            topo = TopologyArgs.readFile(Path.of(nameOrFile));
            List<Node> gpus = topo.gpus();
            if (gpus.isEmpty()) throw new UserException("topology " + nameOrFile + " has no GPU");
            int host0 = gpus.get(0).host();
            int board = (int) gpus.stream().filter(g -> g.host() == host0).count();
            place = RankPlacement.of(c.nThreads(), c.nGpus(), np, nodes, board, nameOrFile);
            checkFile(nameOrFile, gpus, place);
        }
        List<NcclTestsReport.RankLine> lines = new ArrayList<>();
        for (int r = 0; r < place.ranks(); r++) {
            Node g = topo.gpus().get(r);
            lines.add(new NcclTestsReport.RankLine(r, 0, place.process(r), hostName(g), g.localIndex(),
                    String.format(java.util.Locale.ROOT, "0000:%02x:00", g.localIndex() & 0xff), "NVIDIA " + Provenance.gpuModel(g)));
        }
        return new NcclTestsRanks(topo, place, List.copyOf(lines));
    }

    /** A file's first GPUs must sit as the placement puts the ranks: ranksPerNode on each of nodes hosts, in order. */
    private static void checkFile(String file, List<Node> gpus, RankPlacement place) {
        if (place.ranks() > gpus.size()) {
            throw new UserException(place.ranks() + " ranks (--np x -t x -g) but topology " + file + " has " + gpus.size() + " GPUs");
        }
        List<Integer> hosts = new ArrayList<>();
        for (int r = 0; r < place.ranks(); r++) {
            int h = gpus.get(r).host();
            int node = place.node(r);
            if (node == hosts.size()) {
                if (hosts.contains(h)) throw misplaced(file, place);
                hosts.add(h);
            } else if (hosts.get(node) != h) {
                throw misplaced(file, place);
            }
        }
        if (place.ranks() < gpus.size() && place.nodes() > 1 && gpus.get(place.ranks()).host() == hosts.get(hosts.size() - 1)) {
            throw misplaced(file, place);
        }
    }

    private static UserException misplaced(String file, RankPlacement place) {
        return new UserException("topology " + file + ": its first " + place.ranks() + " GPUs are not " + place.ranksPerNode()
                + " on each of " + place.nodes() + " hosts, as --np " + place.processes() + " -t " + place.threads() + " -g "
                + place.gpus() + " places the ranks; give --np and --nodes that match its hosts");
    }

    /** The host name of a GPU: its id's prefix ({@code n3} of {@code n3.gpu5}), else {@code host<h>}. */
    private static String hostName(Node g) {
        int dot = g.id().indexOf('.');
        return dot > 0 ? g.id().substring(0, dot) : "host" + g.host();
    }

    /**
     * nccl-tests' largest size on these GPUs (src/common.cu {@code run}): of the least memory M of a rank's GPU,
     * 1 GiB per 16 GiB (at most 4 GiB) and 1 GiB more are kept, the rest holds the send and receive buffers, and the
     * expected one where {@code -c} checks: {@code -e} where it fits, else that share; no limit where the topology
     * gives no GPU memory.
     */
    long memoryLimit(NcclTestsConfig c) {
        long least = Long.MAX_VALUE;
        for (int r = 0; r < placement.ranks(); r++) {
            String m = topology.gpus().get(r).attrs().get("memory_bytes");
            if (m != null) least = Math.min(least, Long.parseLong(m));
        }
        if (least == Long.MAX_VALUE) return c.maxBytes();
        long gib = 1L << 30;
        long reserve = Math.min((least + 16 * gib - 1) / (16 * gib) * gib, 4 * gib);
        long limit = (least - reserve - gib) / (c.check() != 0 ? 3 : 2);
        return Math.min(c.maxBytes(), limit);
    }
}
