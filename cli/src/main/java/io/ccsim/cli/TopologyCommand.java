package io.ccsim.cli;

import io.ccsim.topology.LinkKind;
import io.ccsim.topology.LinkListing;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologySummary;
import io.ccsim.topology.json.TopologyFormatException;
import io.ccsim.topology.json.TopologyJson;
import io.ccsim.topology.smi.NvidiaSmiTopo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * {@code ccsim topology NAME|FILE [--gpus N] [--nodes M] [what-ifs] [--links [--kind K] [--node N]] [--format text|json]}
 * and the nvidia-smi importer. With {@code --links}, the links a what-if can name ({@link LinkListing}).
 */
@Command(name = "topology", description = {
        "Print a summary (or the JSON) of a topology: a catalog name or a JSON file.",
        "Catalog: hgx-h100, hgx-h200, hgx-b200, pcie-8gpu, gb200-nvl72; --nodes M builds a rail-optimized fat-tree cluster.",
        "--links lists link ids (for --degrade and --down) with kind, endpoints and rate."},
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

    @Mixin WhatIfOptions whatIf = new WhatIfOptions();
    @Option(names = "--sharp", description = "SHARP-capable leaf and spine switches (NVIDIA Quantum-2 SHARPv3), for CollNet;"
            + " needs --nodes >= 2")
    boolean sharp;

    @Option(names = "--seed", defaultValue = "0", paramLabel = "S", description = "seed of ECMP route choices (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json", description = "text or json (default: ${DEFAULT-VALUE})")
    Format format;

    @Option(names = "--from-nvidia-smi", paramLabel = "FILE", description = "import the matrix printed by 'nvidia-smi topo -m'")
    Path fromSmi;

    @Option(names = "--links", description = "list the links (id, kind, endpoints, rate, lanes, group, health): the ids"
            + " that --degrade and --down take")
    boolean links;

    @Option(names = "--kind", paramLabel = "KIND", split = ",",
            description = "with --links: only links of these kinds, ib|infiniband|roce|nvlink|pcie|smp|c2c (repeatable or"
                    + " comma-separated)")
    List<String> kinds = new ArrayList<>();

    @Option(names = "--node", paramLabel = "NODE",
            description = "with --links: only links with an endpoint that is NODE or lies under it (n5: host 5; n5.nic3;"
                    + " leaf.r3)")
    String node;

    /** The catalog build or file, refused if it cannot fit the heap, with progress while it is built. */
    private Topology build() {
        session.stoppable();
        Progress progress = progressOption.open(spec.commandLine().getErr(), session);
        String what = "topology " + topology + (nodes > 1 ? " x " + nodes + " nodes" : "") + ": building";
        session.control().setWatcher(sim -> progress.show(what, Double.NaN));
        try {
            return whatIf.resolve(topology, gpus, nodes, seed, sharp,
                    new TopologyArgs.Guard(session.control(), session.budget(), null, 0));
        } finally {
            session.control().setWatcher(null);
            progress.clear();
        }
    }

    @Override
    public Integer call() {
        Topology t;
        if (!links && (!kinds.isEmpty() || node != null)) {
            throw new ParameterException(spec.commandLine(), (node != null ? "--node" : "--kind") + " selects links to list: add --links");
        }
        if (fromSmi != null) {
            if (topology != null) throw new ParameterException(spec.commandLine(), "give either NAME|FILE or --from-nvidia-smi, not both");
            if (whatIf.any()) {
                throw new ParameterException(spec.commandLine(), "the what-if flags apply to NAME|FILE, not to --from-nvidia-smi:"
                        + " write the imported topology with --format json, then give that file");
            }
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
        if (links) {
            LinkListing listing = listing(t);
            if (format == Format.json) {
                out.println(TopologyJson.writeLinks(listing));
            } else {
                out.print(listing.toText());
                for (String line : whatIf.header()) out.println(line);
            }
        } else if (format == Format.json) {
            out.println(TopologyJson.write(t));
        } else {
            out.print(TopologySummary.of(t).toText());
            for (String line : whatIf.header()) out.println(line);
        }
        out.flush();
        return 0;
    }

    /** The links {@code --kind} and {@code --node} select. */
    private LinkListing listing(Topology t) {
        Set<LinkKind> ks = EnumSet.noneOf(LinkKind.class);
        for (String k : kinds) {
            try {
                ks.add(LinkListing.kind(k));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--kind: " + e.getMessage());
            }
        }
        try {
            return LinkListing.select(t, ks, node);
        } catch (IllegalArgumentException e) {
            throw new UserException("--node " + node + ": " + e.getMessage(), e);
        }
    }
}
