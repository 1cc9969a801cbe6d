package io.ccsim.cli;

import io.ccsim.algorithms.net.NetPolicy;
import io.ccsim.sim.RunControl;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import io.ccsim.topology.json.TopologyFormatException;
import io.ccsim.topology.json.TopologyJson;
import io.ccsim.topology.input.TextFile;
import java.nio.file.Files;
import java.nio.file.Path;

/** Resolves a topology given by catalog name or JSON file, as every command takes it. */
final class TopologyArgs {
    private TopologyArgs() {}

    /**
     * Builds {@code nameOrFile}: a catalog name (see {@link TopologyCatalog#names()}) or the path of a
     * JSON topology file. {@code gpus} 0 means the builder's default; {@code nodes} 1 a single box.
     */
    static Topology resolve(String nameOrFile, int gpus, int nodes, double oversubscription, long seed) {
        return resolve(nameOrFile, gpus, nodes, oversubscription, seed, 0);
    }

    /** As {@link #resolve(String, int, int, double, long)} with {@code nics} NICs per board (0 = the board's default). */
    static Topology resolve(String nameOrFile, int gpus, int nodes, double oversubscription, long seed, int nics) {
        return resolve(nameOrFile, gpus, nodes, oversubscription, seed, nics, false);
    }

    /**
     * As {@link #resolve(String, int, int, double, long, int)}, with SHARP-capable fat-tree switches if {@code sharp}
     * ({@code --sharp}: only with {@code --nodes} &gt; 1, where there is a fat-tree).
     */
    static Topology resolve(String nameOrFile, int gpus, int nodes, double oversubscription, long seed, int nics,
                            boolean sharp) {
        return resolve(nameOrFile, gpus, nodes, oversubscription, seed, nics, sharp, null);
    }

    /**
     * What a long command guards a catalog build with: the control that stops it, the budget it must fit and, for a
     * command that simulates on it, the run's network policy (null: the build only), how many simulations it runs
     * at once, what else its refusal offers (e.g. {@code "--sim-mode extrapolated, "}), whether the least a folded
     * run needs is the budget, and whether the run connects every GPU to every other (all-to-all).
     */
    record Guard(RunControl control, RunBudget budget, NetPolicy simulation, int concurrent, String alternative,
                 boolean folded, boolean allToAll) {
        /** A guard whose refusal offers no other mode, for simulations of every worker. */
        Guard(RunControl control, RunBudget budget, NetPolicy simulation, int concurrent) {
            this(control, budget, simulation, concurrent, "", false, false);
        }

        /** A guard of a run whose GPUs do not all connect to each other (any op but all-to-all). */
        Guard(RunControl control, RunBudget budget, NetPolicy simulation, int concurrent, String alternative, boolean folded) {
            this(control, budget, simulation, concurrent, alternative, folded, false);
        }
    }

    /**
     * As {@link #resolve(String, int, int, double, long, int, boolean)}, a catalog build guarded by {@code guard} (null:
     * unguarded): refused with {@link UserException} before it starts if it does not fit the budget, stopped with
     * {@link io.ccsim.sim.RunStoppedException} when the control asks.
     */
    static Topology resolve(String nameOrFile, int gpus, int nodes, double oversubscription, long seed, int nics,
                            boolean sharp, Guard guard) {
        if (TopologyCatalog.contains(nameOrFile)) {
            checkNics(nameOrFile, gpus, nics);
            if (!(oversubscription >= 1) || Double.isInfinite(oversubscription)) {
                throw new UserException("--oversubscription " + WhatIfOptions.num(oversubscription)
                        + ": invalid; valid: a leaf's down:up port ratio >= 1 (1 = non-blocking, 2 = half the uplinks)");
            }
            if (oversubscription != 1.0 && nodes < 2) {
                throw new UserException("--oversubscription " + WhatIfOptions.num(oversubscription) + ": one node has no"
                        + " fat-tree to oversubscribe; valid: --nodes >= 2, or 1 (the default) on one node");
            }
            if (sharp && nodes < 2) {
                throw new UserException("--sharp makes the fat-tree's switches SHARP-capable, so it needs --nodes >= 2, got "
                        + nodes);
            }
            BuildOptions options = new BuildOptions(gpus, nodes, oversubscription, seed, nics, sharp);
            if (guard == null) return TopologyCatalog.build(nameOrFile, options);
            guard.budget().checkCatalog(nameOrFile, options, guard.simulation(), guard.concurrent(), guard.alternative(),
                    guard.folded(), guard.allToAll());
            return TopologyCatalog.build(nameOrFile, options, guard.control());
        }
        Path p = Path.of(nameOrFile);
        if (Files.isRegularFile(p)) {
            java.util.List<String> given = new java.util.ArrayList<>();
            if (gpus != 0) given.add("--gpus");
            if (nodes != 1) given.add("--nodes");
            if (nics != 0) given.add("--nics-per-node");
            if (oversubscription != 1.0) given.add("--oversubscription");
            if (sharp) given.add("--sharp");
            if (!given.isEmpty()) {
                throw new UserException(String.join(", ", given) + (given.size() == 1 ? " applies" : " apply")
                        + " to catalog topologies, not to the file " + nameOrFile + (sharp
                        ? " (give its network switches the attribute \"sharp\": \"true\" there)"
                        : "; valid on a file: the what-if flags --degrade, --down, --nic-gbps, --nvlink-gbps"));
            }
            return readFile(p);
        }
        throw new UserException("unknown topology '" + nameOrFile + "': neither a file nor a catalog name; valid names: "
                + String.join(", ", TopologyCatalog.names()));
    }

    /** Refuses a NIC count per board that catalog board {@code name} of {@code gpus} GPUs cannot have. */
    private static void checkNics(String name, int gpus, int nics) {
        if (nics == 0) return;
        java.util.List<Integer> valid = TopologyCatalog.validNicsPerNode(name, gpus);
        if (nics < 0 || !valid.contains(nics)) {
            throw new UserException("--nics-per-node " + nics + ": invalid for " + name + (valid.equals(java.util.List.of(0))
                    ? ", which has no NICs; valid: 0" : valid.size() == 1
                    ? ", whose NIC count is fixed; valid: " + valid.get(0) + " or 0 (the board's)"
                    : "; valid: a divisor of its GPUs per board, " + valid + ", or 0 (the board's: one NIC per GPU)"));
        }
    }

    /** Whether {@code nameOrFile} names a catalog topology (not a file). */
    static boolean isCatalog(String nameOrFile) {
        return TopologyCatalog.contains(nameOrFile);
    }

    static Topology readFile(Path p) {
        try {
            return TopologyJson.read(TextFile.read(p, "topology file"), p.toString());
        } catch (TopologyFormatException e) {
            throw new UserException(e.getMessage(), e);
        }
    }

    static String readText(Path p, String what) {
        return TextFile.read(p, what);
    }
}
