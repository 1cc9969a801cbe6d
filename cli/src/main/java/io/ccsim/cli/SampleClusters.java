package io.ccsim.cli;

import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.scale.Extrapolator;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The healthy clusters an extrapolated run simulates in place of its target: the command's catalog topology, board
 * and what-ifs that change every link alike, at a few node counts, each built once when first asked for (refused
 * before it is built if it does not fit the session's budget), and the {@link Extrapolator} that reads them. The
 * target itself is built only where {@code --sim-mode auto} simulates a size there ({@link AutoAtTarget}).
 *
 * <p>Contract: {@code topology} is a catalog name (callers refuse a topology file and a degraded or down link first,
 * {@link ExtrapolatedPerf#refuseAsymmetric}); safe to build from several threads.
 */
final class SampleClusters {
    private final String topology;
    private final int gpus;
    private final WhatIfOptions whatIf;
    private final boolean sharp;
    private final long seed;
    private final Main.Session session;
    private final NcclEnv nccl;
    private final int concurrent;
    private final Map<Integer, Topology> built = new ConcurrentHashMap<>();

    /**
     * @param gpus       GPUs of one board, 0 for all of the board's
     * @param concurrent the simulations that may run at once (for the budget of each build)
     */
    SampleClusters(String topology, int gpus, WhatIfOptions whatIf, boolean sharp, long seed, Main.Session session,
                   NcclEnv nccl, int concurrent) {
        this.topology = topology;
        this.gpus = gpus;
        this.whatIf = whatIf;
        this.sharp = sharp;
        this.seed = seed;
        this.session = session;
        this.nccl = nccl;
        this.concurrent = concurrent;
    }

    /**
     * What an extrapolated run starts from: the 2-node cluster, the profile of its board and the extrapolator to the
     * target.
     */
    record Start(Topology two, CalibrationProfile profile, Extrapolator extrapolator) { }

    /**
     * Refuses, in one line, a target no extrapolation describes: a topology file, a degraded or down link
     * ({@link ExtrapolatedPerf#refuseAsymmetric}), or fewer than 2 nodes; {@code valid} names the modes that simulate
     * it ("--sim-mode folded").
     */
    static void requireExtrapolable(String topology, WhatIfOptions whatIf, int nodes, String valid) {
        ExtrapolatedPerf.refuseAsymmetric(topology, whatIf, valid);
        if (nodes < 2) {
            throw new UserException("--sim-mode extrapolated reads a law of the node count from fewer nodes, so it needs"
                    + " --nodes 2 or more (got " + nodes + "); valid here: " + valid);
        }
    }

    /**
     * Builds the 2-node cluster, reads the profile for its board ({@code profileFile}, or the built-in one), checks
     * that a call of {@code largestBytes} fits its GPUs' memory (none checked where it is 0 or less) and makes the
     * extrapolator to {@code targetNodes} nodes; {@code command} ("tune --sim-mode extrapolated") names a refusal.
     */
    Start start(Path profileFile, int targetNodes, long largestBytes, String command) {
        Topology two = at(2);
        CalibrationProfile prof = SimSetup.profile(profileFile, two);
        if (largestBytes > 0) SimSetup.checkBuffers(two, two.gpus().size(), largestBytes);
        try {
            return new Start(two, prof, extrapolator(targetNodes, prof));
        } catch (IllegalArgumentException e) {
            throw new UserException(command + ": " + e.getMessage(), e);
        }
    }

    /**
     * The cluster of {@code nodes} nodes, built on first use, budgeted as the folded runs made on it are (a sample's,
     * or auto's run at the target itself: {@link AutoAtTarget}); each is checked again once its folding is known.
     */
    Topology at(int nodes) {
        return built.computeIfAbsent(nodes, k -> whatIf.resolve(topology, gpus, k, seed, sharp,
                new TopologyArgs.Guard(session.control(), session.budget(), nccl.net(), concurrent, "", true)));
    }

    /** The clusters built so far. */
    List<Topology> built() {
        return new ArrayList<>(built.values());
    }

    /**
     * The extrapolator to the cluster of {@code targetNodes} nodes, over these clusters (2 nodes built now).
     *
     * @throws UserException if the catalog does not build such a target
     * @throws IllegalArgumentException if the extrapolator refuses it
     */
    private Extrapolator extrapolator(int targetNodes, CalibrationProfile prof) {
        BuildOptions target = new BuildOptions(gpus, targetNodes, whatIf.oversubscription, seed, whatIf.nicsPerNode, sharp);
        String name;
        try {
            name = TopologyCatalog.fullName(topology, target);
        } catch (IllegalArgumentException e) {
            throw new UserException(e.getMessage(), e);
        }
        Extrapolator ex = new Extrapolator(this::at, targetNodes, name, TopologyCatalog.hostsPerLeaf(target), prof, nccl, seed);
        ex.setRunControl(session.control());
        // the samples were budgeted as folded; one whose ranks fold less than that is refused before it runs
        ex.setFoldedChecks(t -> session.budget().foldedCheck(t, p -> "a sample of " + p.label() + " on "
                + t.name(), concurrent, 0));
        return ex;
    }

    /** The provenance of {@code ex}'s target: the samples' board, profile and version, the target's name and size. */
    static Provenance provenance(Path profileFile, CalibrationProfile prof, Topology sample, Extrapolator ex, long seed) {
        Provenance p = Provenance.of(profileFile, prof, sample, ex.target().sample(), seed);
        return new Provenance(p.ccsimVersion(), p.ncclModel(), p.profile(), p.calibrated(), ex.target().name(), p.gpu(),
                ex.target().nRanks(), ex.target().nodes(), p.seed());
    }
}
