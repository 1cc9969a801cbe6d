package io.ccsim.cli;

import io.ccsim.algorithms.perf.StalledRunException;
import io.ccsim.topology.LinkPattern;
import io.ccsim.topology.Routing;
import io.ccsim.topology.Topology;
import io.ccsim.topology.WhatIf;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * The what-if flags of every command that simulates on a topology ({@code perf}, {@code tune}) and of
 * {@code topology}, which prints what they change: the fat-tree's oversubscription and NICs per node (build options),
 * NIC and NVLink rates, links degraded or down ({@link WhatIf}, applied to the built topology). One picocli mixin, so
 * that every such command takes them alike; {@link #resolve} builds the topology with all of them and
 * {@link #header} says what was applied.
 */
final class WhatIfOptions {
    @Option(names = "--oversubscription", paramLabel = "X", defaultValue = "1.0",
            description = "fat-tree leaf oversubscription, down:up ports; needs --nodes >= 2 (default: ${DEFAULT-VALUE})")
    double oversubscription;
    @Option(names = "--nics-per-node", paramLabel = "K", defaultValue = "0",
            description = "network NICs per board, e.g. 4 for 8 GPUs (default: the board's, one per GPU on HGX)")
    int nicsPerNode;
    @Option(names = "--nic-gbps", paramLabel = "G",
            description = "line rate of every network cable (NIC to leaf, leaf to spine) in Gb/s as ibstat prints it:"
                    + " 200, 400, 800 (default: the board's NICs, 400 on HGX); needs network links (--nodes >= 2)")
    Double nicGbps;
    @Option(names = "--nvlink-gbps", paramLabel = "G",
            description = "rate of one NVLink per direction in GB/s, as 'nvidia-smi nvlink --status' prints it"
                    + " (default: the board's, 26.562 on H100/H200 with 18 per GPU, 50 on B200); NCCL's tuner keeps its"
                    + " own per-architecture figure")
    Double nvlinkGbps;
    @Option(names = "--degrade", paramLabel = "LINK=FACTOR",
            description = "run LINK at FACTOR in [1e-6, 1] of its rate (0.1 = a tenth); LINK is an id from 'ccsim topology T"
                    + " --links' or a glob (n5.nic3~*); repeatable")
    List<String> degrade = new ArrayList<>();
    @Option(names = "--down", paramLabel = "LINK",
            description = "take LINK (id or glob) down: an NVLink of a GPU's port drops its lanes, any other link stalls"
                    + " what crosses it (NCCL does not route around it); repeatable")
    List<String> down = new ArrayList<>();
    @Option(names = "--routing", paramLabel = "ecmp|dmodk",
            description = "how a flow picks among equal network paths: ecmp, a hash per connection and channel (RoCE);"
                    + " dmodk, by destination as InfiniBand's fat-tree routing does (default: the fabric's, dmodk on"
                    + " InfiniBand, ecmp on RoCE)")
    String routing;

    /** The changes the last {@link #resolve} applied, one line each. */
    private List<String> applied = List.of();

    /** Whether any flag other than the defaults was given. */
    boolean any() {
        return oversubscription != 1.0 || nicsPerNode != 0 || routing != null || !whatIf().isNone();
    }

    /**
     * The flags as a {@link WhatIf}, each edit named by its flag and value.
     *
     * @throws UserException for a malformed {@code --degrade}, a factor outside [1e-6, 1] or a rate out of range
     */
    WhatIf whatIf() {
        try {
            List<WhatIf.Degrade> ds = new ArrayList<>();
            for (String d : degrade) ds.add(WhatIf.parseDegrade(d, "--degrade " + d));
            List<WhatIf.Down> ups = new ArrayList<>();
            for (String d : down) ups.add(new WhatIf.Down(pattern(d, "--down"), "--down " + d));
            return new WhatIf(nicGbps == null ? null : new WhatIf.NicRate(nicGbps, "--nic-gbps " + num(nicGbps)),
                    nvlinkGbps == null ? null : new WhatIf.NvlinkRate(nvlinkGbps, "--nvlink-gbps " + num(nvlinkGbps)), ds, ups);
        } catch (IllegalArgumentException e) {
            throw new UserException(e.getMessage(), e);
        }
    }

    /**
     * {@code --routing} as a {@link Routing}, null where it was not given (the fabric's own applies).
     *
     * @throws UserException for another value, naming the valid ones
     */
    Routing routing() {
        if (routing == null) return null;
        Routing r = Routing.ofCliName(routing);
        if (r == null) {
            throw new UserException("--routing " + routing + ": unknown; valid: ecmp (a hash per connection and"
                    + " channel, RoCE) or dmodk (by destination, InfiniBand's fat-tree routing)");
        }
        return r;
    }

    private static LinkPattern pattern(String text, String flag) {
        if (text.isBlank()) throw new IllegalArgumentException(flag + ": expected a link id or glob, e.g. n30.nic7~leaf.r7.0");
        return new LinkPattern(text);
    }

    /**
     * Builds {@code nameOrFile} (see {@link TopologyArgs#resolve(String, int, int, double, long, int, boolean,
     * TopologyArgs.Guard)}) with these flags' oversubscription and NICs per node, then applies the rest.
     *
     * @throws UserException naming the flag that does not apply, with what is valid
     */
    Topology resolve(String nameOrFile, int gpus, int nodes, long seed, boolean sharp, TopologyArgs.Guard guard) {
        WhatIf w = whatIf();
        Routing how = routing();
        Topology t = TopologyArgs.resolve(nameOrFile, gpus, nodes, oversubscription, seed, nicsPerNode, sharp, guard);
        if (how != null) t = t.withRouting(how);
        try {
            WhatIf.Result r = w.apply(t);
            applied = r.changes();
            return r.topology();
        } catch (IllegalArgumentException e) {
            throw new UserException(e.getMessage(), e);
        }
    }

    /**
     * The header lines of an output ({@code # what-if: ...}): the build options that differ from the defaults, then
     * what each edit of the last {@link #resolve} changed; none for a run without what-ifs.
     */
    List<String> header() {
        List<String> out = new ArrayList<>();
        if (nicsPerNode != 0) {
            out.add("# what-if: --nics-per-node " + nicsPerNode + ": " + nicsPerNode + " NICs per node");
        }
        if (oversubscription != 1.0) {
            out.add("# what-if: --oversubscription " + num(oversubscription) + ": leaves with " + num(oversubscription)
                    + " down ports per uplink");
        }
        if (routing() != null) {
            out.add("# what-if: --routing " + routing + (routing() == Routing.DESTINATION
                    ? ": each flow takes the equal path of its destination (d-mod-k)"
                    : ": each connection and channel hashes its own equal path (ECMP)"));
        }
        for (String a : applied) out.add("# what-if: " + a);
        return out;
    }

    /** {@link #header} without the {@code # what-if: } prefix, for JSON outputs. */
    List<String> lines() {
        return header().stream().map(l -> l.substring("# what-if: ".length())).toList();
    }

    /** The one line for a run that a down link stalled: what waits, and which flag took the link down. */
    UserException stalled(StalledRunException e) {
        if (down.isEmpty()) return new UserException(e.getMessage(), e);
        return new UserException(String.join(", ", down.stream().map(d -> "--down " + d).toList()) + ": the collective never"
                + " completes (a down link carries nothing, and NCCL does not route around it): " + e.getMessage(), e);
    }

    /** {@code 2}, {@code 1.5}: a flag's number as a user would write it. */
    static String num(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) return Double.toString(v);
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return Long.toString((long) v);
        if (v != 0 && (Math.abs(v) < 1e-9 || Math.abs(v) >= 1e15)) return Double.toString(v);   // 1.0E-300, not 300 zeros
        return String.format(Locale.ROOT, "%s", java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString());
    }
}
