package io.ccsim.cli;

import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologySummary;
import io.ccsim.topology.json.TopologyFormatException;
import io.ccsim.topology.json.TopologyJson;
import io.ccsim.topology.smi.NvidiaSmiTopo;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** {@code ccsim topology NAME|FILE [--gpus N] [--nodes M] [--format text|json]} and the nvidia-smi importer. */
@Command(name = "topology", description = {
        "Print a summary (or the JSON) of a topology: a catalog name or a JSON file.",
        "Catalog: hgx-h100, hgx-h200, hgx-b200, pcie-8gpu, gb200-nvl72; --nodes M builds a rail-optimized fat-tree cluster."},
        mixinStandardHelpOptions = true)
final class TopologyCommand implements Callable<Integer>, Main.NeedsSession {
    enum Format { text, json }

    @Spec CommandSpec spec;
    private Main.Session session;
    @Mixin ProgressOption progressOption = new ProgressOption();

    @Override
    public void setSession(Main.Session session) { this.session = session; }

    @Parameters(index = "0", arity = "0..1", paramLabel = "NAME|FILE", description = "catalog name or topology JSON file")
    String topology;

    @Option(names = "--gpus", paramLabel = "N", description = "GPUs of one board to keep (default: all)")
    int gpus;

    @Option(names = "--nodes", paramLabel = "M", defaultValue = "1", description = "number of nodes (boards) in a cluster (default: ${DEFAULT-VALUE})")
    int nodes;

    @Option(names = "--oversubscription", paramLabel = "X", defaultValue = "1.0",
            description = "fat-tree leaf oversubscription, down:up (default: ${DEFAULT-VALUE})")
    double oversubscription;
    @Option(names = "--nics-per-node", paramLabel = "K", defaultValue = "0",
            description = "network NICs per board, e.g. 4 for 8 GPUs (default: the board's, one per GPU on HGX)")
    int nicsPerNode;
    @Option(names = "--sharp", description = "SHARP-capable leaf and spine switches (NVIDIA Quantum-2 SHARPv3), for CollNet;"
            + " needs --nodes >= 2")
    boolean sharp;

    @Option(names = "--seed", defaultValue = "0", description = "seed of ECMP route choices (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--format", defaultValue = "text", description = "text or json (default: ${DEFAULT-VALUE})")
    Format format;

    @Option(names = "--from-nvidia-smi", paramLabel = "FILE", description = "import the matrix printed by 'nvidia-smi topo -m'")
    Path fromSmi;

    /** The catalog build or file, refused if it cannot fit the heap, with progress while it is built. */
    private Topology build() {
        session.stoppable();
        Progress progress = progressOption.open(spec.commandLine().getErr(), session);
        String what = "topology " + topology + (nodes > 1 ? " x " + nodes + " nodes" : "") + ": building";
        session.control().setWatcher(sim -> progress.show(what, Double.NaN));
        try {
            return TopologyArgs.resolve(topology, gpus, nodes, oversubscription, seed, nicsPerNode, sharp,
                    new TopologyArgs.Guard(session.control(), session.budget(), null, 0));
        } finally {
            session.control().setWatcher(null);
            progress.clear();
        }
    }

    @Override
    public Integer call() {
        Topology t;
        if (fromSmi != null) {
            if (topology != null) throw new ParameterException(spec.commandLine(), "give either NAME|FILE or --from-nvidia-smi, not both");
            try {
                t = NvidiaSmiTopo.parse(TopologyArgs.readText(fromSmi, "nvidia-smi matrix"), fromSmi.toString());
            } catch (TopologyFormatException e) {
                throw new UserException(e.getMessage(), e);
            }
        } else {
            if (topology == null) throw new ParameterException(spec.commandLine(), "missing topology: give NAME|FILE or --from-nvidia-smi FILE");
            t = build();
        }
        var out = spec.commandLine().getOut();
        if (format == Format.json) out.println(TopologyJson.write(t));
        else out.print(TopologySummary.of(t).toText());
        out.flush();
        return 0;
    }
}
