package io.ccsim.cli;

import io.ccsim.algorithms.measurements.MeasuredRow;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.TopologyCatalog;
import java.util.Locale;
import java.util.Optional;

/**
 * The topology a measured row is simulated on ({@code validate}): the user's {@code --topology}, else the board of the
 * GPU model the file names ({@code NVIDIA H100 80GB HBM3} in an nccl-tests device line, {@code H200} in perf's
 * provenance), else {@code hgx-h200}; built with the row's ranks spread evenly over its hosts.
 *
 * @param topology    a catalog name or a topology file
 * @param gpusPerNode GPUs of each board (catalog builds; 0 for a file)
 * @param nodes       boards (catalog builds; 1 for a file)
 * @param ranks       ranks of the communicator
 */
record MeasuredTarget(String topology, int gpusPerNode, int nodes, int ranks) {

    /** The topology when neither the user nor the file names one: the calibrated board. */
    static final String DEFAULT = "hgx-h200";

    /**
     * The catalog board of a GPU model as nccl-tests or ccsim name it, or empty for one ccsim has no board for
     * (A100, V100, PCIe and NVL H100 cards, an unnamed {@code NVIDIA Graphics Device}).
     */
    static Optional<String> board(String gpu) {
        String g = gpu.toUpperCase(Locale.ROOT);
        if (g.contains("GB200")) return Optional.of("gb200-nvl72");
        if (g.contains("B200")) return Optional.of("hgx-b200");
        if (g.contains("H200")) return Optional.of("hgx-h200");
        if (g.contains("H100") && !g.contains("PCIE") && !g.matches(".*\\bNVL\\b.*")) return Optional.of("hgx-h100");
        if (g.contains("L40S")) return Optional.of("pcie-8gpu");
        return Optional.empty();
    }

    /**
     * The target of row {@code m} of {@code n} ranks; {@code userTopology} (null: none) wins over the file's GPU model.
     *
     * @throws UserException where the file names a GPU ccsim has no board for and no topology is given, or its ranks do
     *                       not spread evenly over its hosts
     */
    static MeasuredTarget of(MeasuredRow m, int n, String userTopology) {
        String topology = userTopology;
        if (topology == null) {
            if (m.gpu().isEmpty()) {
                topology = DEFAULT;
            } else {
                topology = board(m.gpu()).orElseThrow(() -> new UserException(m.where() + ": measured on " + m.gpu()
                        + ", for which ccsim has no board (it has H100, H200, B200 (HGX), GB200 (NVL72), L40S (PCIe)); pass"
                        + " --topology NAME|FILE (and --profile) to simulate the rows on another"));
            }
        }
        if (!TopologyArgs.isCatalog(topology)) return new MeasuredTarget(topology, 0, 1, n);
        int board = (int) TopologyCatalog.size(topology, BuildOptions.of(0, 1)).gpus();
        int nodes = Math.max(1, m.nodes());
        if (n <= board && nodes > 1 && board > 8) nodes = 1;   // one NVLink domain over several hosts (GB200 NVL72's trays)
        if (n % nodes != 0) {
            throw new UserException(m.where() + ": " + n + " ranks on " + nodes + " hosts do not spread evenly; ccsim's clusters have"
                    + " as many GPUs on every board");
        }
        if (n / nodes > board) {
            throw new UserException(m.where() + ": " + n / nodes + " ranks a host, but a " + topology + " board has " + board + " GPUs");
        }
        return new MeasuredTarget(topology, n / nodes, nodes, n);
    }

    /** Whether {@code gpu} (a file's name for it) is not the GPU of this target's board. */
    boolean differsFrom(String gpu) {
        return !gpu.isEmpty() && TopologyArgs.isCatalog(topology) && !board(gpu).map(topology::equals).orElse(false);
    }
}
